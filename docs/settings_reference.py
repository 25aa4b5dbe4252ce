"""The settings reference of docs/operators.md, written from the settings definitions.

Each capability's settings class gives every setting's name (prefix and field), default
and meaning (its field's ``metadata["doc"]``); ``dalil.core.languages`` gives those of the
site's languages. ``invoke settings-reference`` writes the table between the two marker
lines of operators.md; ``tests/test_docs.py`` fails while it is not what this writes.
"""

import dataclasses
import json
from pathlib import Path

from dalil.core import languages
from dalil.core.i18n import InterfaceSettings
from dalil.core.search_settings import SearchSettings
from dalil.directory.settings import DirectorySettings
from dalil.exports.settings import ExportSettings
from dalil.feeds.settings import FeedsSettings
from dalil.pwa.settings import PwaSettings
from dalil.sitefiles.settings import SiteFilesSettings
from dalil.sitemaps.settings import SitemapsSettings

OPERATORS_GUIDE = Path(__file__).resolve().parent / "operators.md"
START = "<!-- settings-reference: start -->"
END = "<!-- settings-reference: end -->"
# In the order the guide shows them, each with the prefix its reader function gives it.
SETTINGS_CLASSES = (
    ("DALIL_INTERFACE_", InterfaceSettings),
    ("DALIL_DIRECTORY_", DirectorySettings),
    ("DALIL_SEARCH_", SearchSettings),
    ("DALIL_PWA_", PwaSettings),
    ("DALIL_EXPORTS_", ExportSettings),
    ("DALIL_FEEDS_", FeedsSettings),
    ("DALIL_SITEMAPS_", SitemapsSettings),
    ("DALIL_SITEFILES_", SiteFilesSettings),
)


class UndocumentedSetting(Exception):
    pass


def literal(value):
    """``value`` as a site's settings file would write it: strings in double quotes."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, tuple):
        items = ", ".join(map(literal, value))
        return f"({items},)" if len(value) == 1 else f"({items})"
    return repr(value)


def settings_rows():
    """``[(name, default, meaning)]`` of every Dalil setting, the site's languages after
    the interface language."""
    rows = []
    for prefix, cls in SETTINGS_CLASSES:
        for field in dataclasses.fields(cls):
            name = prefix + field.name.upper()
            if not field.metadata.get("doc"):
                raise UndocumentedSetting(
                    f"{name} ({cls.__module__}.{cls.__name__}.{field.name}) has no "
                    f"description: declare it with setting(default, doc)")
            rows.append((name, literal(field.default), field.metadata["doc"]))
        if cls is InterfaceSettings:
            rows += [(name, default, doc) for name, default, doc in languages.SETTINGS_REFERENCE]
    return rows


def reference_table():
    lines = ["| Setting | Default | What |", "|---|---|---|"]
    lines += [f"| `{name}` | `{default}` | {doc} |" for name, default, doc in settings_rows()]
    return "\n".join(lines)


def with_reference(text):
    """``text`` (operators.md) with the table between its markers made anew."""
    start, end = text.index(START) + len(START), text.index(END)
    return text[:start] + "\n" + reference_table() + "\n" + text[end:]


def write_reference(path=OPERATORS_GUIDE):
    """Write the table into ``path``; True if it changed."""
    text = path.read_text(encoding="utf-8")
    new = with_reference(text)
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text
