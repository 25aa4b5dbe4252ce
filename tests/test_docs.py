"""The guides of docs/ and README: the settings reference is the settings' own, every
setting they name exists, every link between them leads to a heading."""

import dataclasses
import importlib
import pkgutil
import re

import dalil
from docs import settings_reference
from tests import sitebuilder as sb

DOCS = sb.REPO / "docs"
GUIDES = ("operators.md", "open-data.md", "themes.md", "architecture.md", "contributing.md")
SETTING_NAME = re.compile(r"\bDALIL_[A-Z0-9_]*[A-Z0-9]\b")


def documents():
    return [sb.REPO / "README.md", *sorted(DOCS.glob("*.md"))]


def generated_table(text):
    start = text.index(settings_reference.START) + len(settings_reference.START)
    return text[start:text.index(settings_reference.END)]


def test_settings_reference_names_every_setting_and_no_other():
    table = generated_table((DOCS / "operators.md").read_text(encoding="utf-8"))
    documented = set(re.findall(r"^\| `(DALIL_[A-Z0-9_]+)` \|", table, flags=re.M))
    defined = {name for name, _, _ in settings_reference.settings_rows()}
    assert not defined - documented, f"missing from docs/operators.md: {defined - documented}"
    assert not documented - defined, f"documented but gone: {documented - defined}"


def test_settings_reference_is_what_invoke_settings_reference_writes():
    text = (DOCS / "operators.md").read_text(encoding="utf-8")
    assert text == settings_reference.with_reference(text), \
        "docs/operators.md's settings table is stale: run invoke settings-reference"


def test_every_settings_class_is_in_the_reference():
    """A capability's new settings class is found: the reference lists every frozen
    dataclass of a ``dalil.*.settings`` module and the interface's."""
    listed = {cls for _, cls in settings_reference.SETTINGS_CLASSES}
    found = set()
    for module_info in pkgutil.iter_modules(dalil.__path__):
        try:
            module = importlib.import_module(f"dalil.{module_info.name}.settings")
        except ModuleNotFoundError:
            continue
        found |= {value for value in vars(module).values()
                  if dataclasses.is_dataclass(value) and isinstance(value, type)
                  and value.__module__ == module.__name__}
    assert found and not found - listed, found - listed


def test_every_setting_has_a_description():
    for name, default, doc in settings_reference.settings_rows():
        assert doc.strip() and default, name
        assert "|" not in doc and "\n" not in doc, name  # one table cell


def test_the_guides_name_only_settings_that_exist():
    """A name the guides give a setting or an environment variable is one the code
    defines or reads: a setting removed or renamed leaves no trace in them."""
    defined = {name for name, _, _ in settings_reference.settings_rows()}
    source = "\n".join(path.read_text(encoding="utf-8")
                       for folder in ("plugins/dalil", "benchmarks")
                       for path in (sb.REPO / folder).rglob("*.py"))
    source += (sb.REPO / "tasks.py").read_text(encoding="utf-8")
    unknown = {f"{path.name}: {name}" for path in documents()
               for name in SETTING_NAME.findall(path.read_text(encoding="utf-8"))
               if name not in defined and name not in source}
    assert not unknown


def anchor(heading):
    """GitHub's anchor of a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_links_between_the_guides_lead_to_a_file_and_heading():
    broken = []
    for path in documents():
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("/"):
                continue
            file_part, _, fragment = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            if not linked.exists():
                broken.append(f"{path.name}: {target}")
            elif fragment and linked.suffix == ".md":
                headings = re.findall(r"^#+ (.+)$", linked.read_text(encoding="utf-8"), re.M)
                if fragment not in map(anchor, headings):
                    broken.append(f"{path.name}: {target}")
    assert not broken


def test_readme_is_short_and_leads_to_every_guide():
    readme = (sb.REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    for guide in GUIDES:
        assert (DOCS / guide).is_file() and f"](docs/{guide})" in readme, guide
