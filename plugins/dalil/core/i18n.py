"""Interface text in gettext catalogs, dates and numbers in the interface language.

Templates use Jinja's i18n extension (``{% trans %}``, ``_()``, ``ngettext``) with the
``messages`` catalogs; the theme's scripts call ``dalilText``/``dalilPlural`` (i18n.js)
with the ``scripts`` catalogs, which one script of the build sets for them
(``script_messages_save_as``: a file the browser caches, not 3.6 KB in every page).
The catalogs are the ``.po`` sources under ``dalil/locales``, compiled in memory when a
build starts (Babel), so the repository and the wheel hold no generated ``.mo`` file.
Plural forms come from the catalog header, which Babel writes from CLDR's rules.
"""

import datetime
import functools
import hashlib
import io
import json
from dataclasses import dataclass
from pathlib import Path

from babel import Locale
from babel.dates import format_date, get_day_names
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations
from jinja2 import pass_context
from markupsafe import Markup

from .output import output_files
from .settings import read_settings, setting

LOCALES = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "messages"
SCRIPTS_DOMAIN = "scripts"
# Interface language -> writing direction of its pages.
DIRECTIONS = {"ar": "rtl", "fr": "ltr", "en": "ltr"}


@dataclass(frozen=True)
class InterfaceSettings:
    lang: str = setting("ar", "interface language: `ar` (right to left), `fr` or `en` (see "
                              "[Interface languages](#interface-languages))")

    @property
    def dir(self):
        return DIRECTIONS[self.lang]


def interface_settings(settings):
    cfg = read_settings(InterfaceSettings, settings, "DALIL_INTERFACE_")
    if cfg.lang not in DIRECTIONS:
        raise SystemExit(f"dalil: DALIL_INTERFACE_LANG must be one of "
                         f"{', '.join(sorted(DIRECTIONS))}, not {cfg.lang!r}")
    return cfg


def content_lang(settings):
    """The language the content is written in (titles, names, untranslated text): the
    site's ``DEFAULT_LANG``. A language's build (``dalil.core.languages``) keeps it as
    ``DALIL_CONTENT_LANG``, as its own ``DEFAULT_LANG`` is the language it builds (so that
    Pelican picks that language's translations)."""
    return settings.get("DALIL_CONTENT_LANG") or settings.get("DEFAULT_LANG") \
        or interface_settings(settings).lang


def local_name_field(settings):
    """The field of a listing's or term's name in the language a build shows
    (``name_fr``), or None when it shows the language titles are written in: their
    ``name`` (the Title) is then the name in that language."""
    lang = interface_settings(settings).lang
    return None if lang == content_lang(settings) else f"name_{lang}"


def shown_name(item, field):
    """The name of ``item`` (a listing, category or city) a page shows: its name in the
    page's language (``field``, from ``local_name_field``) where it has one, else its
    Title."""
    return (getattr(item, field, "") if field else "") or item.name


def N_(message):
    """Mark ``message`` (English) for extraction; it is translated where it is shown."""
    return message


# The site's description where a setting gives none (base.html's, the manifest's).
SITE_DESCRIPTION = N_("A directory of businesses and services: find restaurants, pharmacies, "
                      "hotels and more in the cities of Morocco.")


def read_catalog(lang, domain=DOMAIN):
    with (LOCALES / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as source:
        return read_po(source, locale=lang, domain=domain)

# The build's compiled catalogs: (language, translations, the scripts' messages script).
CATALOGS_KEY = "dalil_interface_catalogs"


def translations(lang, domain=DOMAIN):
    """The ``lang`` catalog of ``domain``, compiled from its ``.po`` source."""
    compiled = io.BytesIO()
    write_mo(compiled, read_catalog(lang, domain))
    compiled.seek(0)
    result = Translations(compiled, domain=domain)
    # Names this catalog's text in keys of what is made from it (compiled templates).
    result.dalil_digest = f"{lang}:{hashlib.blake2b(compiled.getvalue(), digest_size=16).hexdigest()}"
    return result


def script_messages(lang, domain=SCRIPTS_DOMAIN):
    """The scripts' catalog as JSON-ready data: message -> text, and for a plural
    message CLDR category (what ``Intl.PluralRules`` answers) -> text."""
    catalog = read_catalog(lang, domain)
    compiled = translations(lang, domain)
    rule = Locale.parse(lang).plural_form
    # The smallest number of each CLDR category picks the catalog's form for it.
    samples = {}
    for number in range(1000):
        samples.setdefault(rule(number), number)
    messages = {}
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, str):
            messages[message.id] = compiled.gettext(message.id)
        else:
            singular, plural = message.id
            messages[singular] = {category: compiled.ngettext(singular, plural, number)
                                  for category, number in sorted(samples.items())}
    return messages


def script_messages_js(messages):
    """The script that gives i18n.js ``messages`` (``script_messages``): loaded before it,
    as both are deferred and run in the page's order."""
    data = json.dumps(messages, ensure_ascii=False, sort_keys=True, allow_nan=False)
    return ("// The scripts' interface text, from Dalil's catalog: i18n.js reads it.\n"
            f"window.dalilMessages = {data};\n")


def script_messages_save_as(settings, lang=None):
    """Where the build writes its ``script_messages_js``, one file per interface language
    (``lang``, else the build's): pages name it, and the service worker caches it with
    the theme's files."""
    theme_dir = settings.get("THEME_STATIC_DIR", "theme")
    return f"{theme_dir}/js/messages.{lang or interface_settings(settings).lang}.js"


def format_number(value, lang):
    # Western digits in every language: Moroccan Arabic writes them so.
    return format_decimal(value, locale=lang, numbering_system="latn")


def format_day(value, lang):
    """A date as people of ``lang`` write it ("21 نوفمبر 2026"), digits western."""
    return format_date(value, format="long", locale=lang)


def weekday_name(day, lang):
    """The name of ``day`` (0 is Monday) in ``lang``, from CLDR."""
    return get_day_names("wide", locale=lang)[day]


def build_gettext(context):
    """The build's ``gettext`` (its interface language's catalog), for text made outside
    templates (the manifest, the feeds' titles)."""
    return context[CATALOGS_KEY][1].gettext


def write_script_messages(context, settings):
    """Write the build's ``script_messages_js`` at ``script_messages_save_as``."""
    output_files(context).write(script_messages_save_as(settings), context[CATALOGS_KEY][2])


def remembered_gettext(gettext, translated, catalog):
    """Jinja's newstyle ``gettext``, a message without variables translated and escaped
    once per build instead of on every page (a listing page shows about thirty); ``_``
    calls it directly, not through a lookup of ``gettext`` in the page's context.

    Its ``translated(message)`` (the catalog's text, before any variable is put in) lets
    ``templates.PageCodeGenerator`` fold the text into the compiled template; its
    ``catalog`` names the catalog (a digest of it)."""
    shown = {}  # message -> the text it shows, escaping on

    @pass_context
    def remembered(context, message, **variables):
        if variables or not context.eval_ctx.autoescape:
            return gettext(context, message, **variables)
        text = shown.get(message)
        if text is None:
            text = shown[message] = gettext(context, message)
        return text

    remembered.translated, remembered.catalog = translated, catalog
    return remembered


def install_interface(generator):
    """``generator_init``: gettext, ``interface_lang``/``interface_dir``, the URL of the
    scripts' messages (``script_messages_url``, below SITEURL), ``content_attrs`` (the
    ``lang`` and ``dir`` of content text when the interface is in another language),
    ``name_attrs`` (those of an element holding one name: ``dir="auto"`` always),
    ``local_name``/``local_name_attrs`` (a listing's, category's or city's name in the
    page's language, else its Title, and the attributes of its element), ``content_lang``,
    ``lang_dir`` (a language's direction) and the ``number``, ``day`` and ``weekday``
    filters in ``generator``'s Jinja environment."""
    cfg = interface_settings(generator.settings)
    env = generator.env
    env.add_extension("jinja2.ext.i18n")
    # Compiled once per build (the context is the build's), not once per generator.
    catalogs = generator.context.get(CATALOGS_KEY)
    if catalogs is None or catalogs[0] != cfg.lang:
        catalogs = generator.context[CATALOGS_KEY] = (
            cfg.lang, translations(cfg.lang), script_messages_js(script_messages(cfg.lang)))
    _, compiled, _ = catalogs
    env.install_gettext_translations(compiled, newstyle=True)
    env.globals["gettext"] = env.globals["_"] = remembered_gettext(
        env.globals["gettext"], compiled.gettext, compiled.dalil_digest)
    # Content keeps its language (DEFAULT_LANG) inside a page of another interface.
    written_in = content_lang(generator.settings)
    content_attrs = Markup(' lang="{}" dir="auto"').format(written_in) \
        if written_in != cfg.lang else Markup("")
    # A name (listing, term, article, page) is set apart with its own direction, whatever
    # the interface's: "Dalil Pro." is not drawn ".Dalil Pro" on an RTL page.
    name_attrs = content_attrs or Markup(' dir="auto"')
    local_field = local_name_field(generator.settings)
    # A name in the page's language: said so, and set apart.
    own_attrs = Markup(' lang="{}" dir="auto"').format(cfg.lang)

    def local_name(item):
        return shown_name(item, local_field)

    def local_name_attrs(item):
        """``name_attrs`` of ``local_name(item)``: the Title's language when it is shown."""
        return own_attrs if local_field and getattr(item, local_field, "") else name_attrs

    env.globals.update(interface_lang=cfg.lang, interface_dir=cfg.dir,
                       script_messages_url=script_messages_save_as(generator.settings),
                       content_attrs=content_attrs, name_attrs=name_attrs,
                       content_lang=written_in, lang_dir=lambda lang: DIRECTIONS.get(lang, "auto"),
                       local_name=local_name, local_name_attrs=local_name_attrs)
    # Babel takes 20 µs a number, and pages show the same few (counts, page numbers).
    env.filters["number"] = functools.lru_cache(maxsize=4096, typed=True)(
        lambda value: format_number(value, cfg.lang))
    # Babel shows only the date of a datetime, and many pages share one: each is formatted once.
    day_text = functools.lru_cache(maxsize=4096)(lambda value: format_day(value, cfg.lang))
    env.filters["day"] = lambda value: day_text(
        value.date() if isinstance(value, datetime.datetime) else value)
    # Looked up once: a listing page names the seven days twice.
    day_names = [weekday_name(day, cfg.lang) for day in range(7)]
    env.filters["weekday"] = lambda value: day_names[value]
    # Text in a language of its own (an item a build has no translation of): ``lang_attrs``.
    env.globals.update(lang_attrs=functools.partial(lang_attrs, cfg.lang),
                       title_attrs=functools.partial(title_attrs, cfg.lang))


def lang_attrs(page_lang, lang):
    """``lang`` and ``dir`` of text in ``lang`` (an untranslated article, page or listing
    description) on a page in ``page_lang``: none when it is the page's language."""
    if not lang or lang == page_lang:
        return Markup("")
    return Markup(' lang="{}" dir="{}"').format(lang, DIRECTIONS.get(lang, "auto"))


def title_attrs(page_lang, lang):
    """``lang_attrs`` of a title in ``lang``: in the page's language, still set apart
    with its own direction (see ``name_attrs``)."""
    return lang_attrs(page_lang, lang) or Markup(' dir="auto"')
