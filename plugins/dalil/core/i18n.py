"""Interface text in gettext catalogs, dates and numbers in the interface language.

Templates use Jinja's i18n extension (``{% trans %}``, ``_()``, ``ngettext``); the
catalogs are the ``.po`` sources under ``dalil/locales``, compiled in memory when a build
starts (Babel), so the repository and the wheel hold no generated ``.mo`` file. Plural
forms come from the catalog header, which Babel writes from CLDR's rules.
"""

import io
import logging
from dataclasses import dataclass
from pathlib import Path

from babel.dates import format_date
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from .settings import read_settings

logger = logging.getLogger(__name__)

LOCALES = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "messages"
# Interface language -> writing direction of its pages.
DIRECTIONS = {"ar": "rtl", "fr": "ltr", "en": "ltr"}


@dataclass(frozen=True)
class InterfaceSettings:
    lang: str = "ar"

    @property
    def dir(self):
        return DIRECTIONS[self.lang]


def interface_settings(settings):
    cfg = read_settings(InterfaceSettings, settings, "DALIL_INTERFACE_")
    if cfg.lang not in DIRECTIONS:
        raise SystemExit(f"dalil: DALIL_INTERFACE_LANG must be one of "
                         f"{', '.join(sorted(DIRECTIONS))}, not {cfg.lang!r}")
    return cfg


def translations(lang):
    """The ``lang`` catalog, compiled from its ``.po`` source."""
    with (LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as source:
        catalog = read_po(source, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def format_number(value, lang):
    # Western digits in every language: Moroccan Arabic writes them so.
    return format_decimal(value, locale=lang, numbering_system="latn")


def format_day(value, lang):
    """A date as people of ``lang`` write it ("21 نوفمبر 2026"), digits western."""
    return format_date(value, format="long", locale=lang)


def install_interface(generator):
    """``generator_init``: gettext, ``interface_lang``/``interface_dir`` and the
    ``number`` and ``day`` filters in ``generator``'s Jinja environment."""
    cfg = interface_settings(generator.settings)
    env = generator.env
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_translations(translations(cfg.lang), newstyle=True)
    env.globals.update(interface_lang=cfg.lang, interface_dir=cfg.dir)
    env.filters["number"] = lambda value: format_number(value, cfg.lang)
    env.filters["day"] = lambda value: format_day(value, cfg.lang)
