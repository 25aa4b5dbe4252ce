"""One site in several languages (``DALIL_LANGUAGES``), in one ``pelican`` run.

The first language is built at the site's root, as a one-language site is. Each other
language is built after it, in the same process, by a Pelican build of its own
(``build_other_languages``) whose settings (``language_settings``) show that language's
interface, names and translations (``DEFAULT_LANG``, Pelican's translations) and put every
page below ``{lang}/`` at the same path: Pelican's page settings here, each capability's
own pages through its settings class's ``PAGES`` (``dalil.core.settings``). The data
files (search index, exports, vCards, sitemaps, …) are the first build's alone
(``writes_site_files``): one set for the site, whatever its languages. So each page's
versions are at one path below each language's folder, and every page links them all
(``alternates``).
"""

import logging
import os

from babel import Locale

from .i18n import DIRECTIONS, content_lang
from .record import RECORD_NAME, record_name
from .settings import LANGUAGE_PATH_KEY, below_folder, language_path
from .urls import absolute_url

logger = logging.getLogger(__name__)

LANGUAGES_SETTING = "DALIL_LANGUAGES"
# What the builds of one run share (the first's source records): set in the first's
# settings, the others' copies of them hold the same dict. Not a setting: lowercase.
LANGUAGES_RUN_KEY = "dalil_languages_run"
# Settings a site sets for one language: {"fr": {"SITENAME": "Dalil"}}.
LANGUAGE_SETTINGS_SETTING = "DALIL_LANGUAGE_SETTINGS"
# Their defaults and meanings, as the settings reference of docs/operators.md shows them.
SETTINGS_REFERENCE = (
    (LANGUAGES_SETTING, "[DALIL_INTERFACE_LANG]",
     "the site's languages, the first at the root, each other under `/{lang}/` (see "
     "[One site in several languages](#one-site-in-several-languages))"),
    (LANGUAGE_SETTINGS_SETTING, "{}",
     'settings of one language only: `{"fr": {"SITENAME": "Dalil"}}`'),
)
# Pelican's settings of pages: below ``{lang}/`` in each language after the first.
PELICAN_PAGES = (
    "ARTICLE_URL", "ARTICLE_SAVE_AS", "DRAFT_URL", "DRAFT_SAVE_AS",
    "PAGE_URL", "PAGE_SAVE_AS", "DRAFT_PAGE_URL", "DRAFT_PAGE_SAVE_AS",
    "CATEGORY_URL", "CATEGORY_SAVE_AS", "CATEGORIES_SAVE_AS",
    "TAG_URL", "TAG_SAVE_AS", "TAGS_SAVE_AS", "AUTHOR_URL", "AUTHOR_SAVE_AS",
    "AUTHORS_SAVE_AS", "ARCHIVES_SAVE_AS", "YEAR_ARCHIVE_URL", "YEAR_ARCHIVE_SAVE_AS",
    "MONTH_ARCHIVE_URL", "MONTH_ARCHIVE_SAVE_AS", "DAY_ARCHIVE_URL", "DAY_ARCHIVE_SAVE_AS",
    "INDEX_SAVE_AS",
)
# Pelican writes a translation at these too, by default ``{slug}-{lang}.html`` beside the
# original: in a site of several languages each is its language's page instead.
PELICAN_TRANSLATION_PAGES = ("ARTICLE_LANG_URL", "ARTICLE_LANG_SAVE_AS",
                             "PAGE_LANG_URL", "PAGE_LANG_SAVE_AS",
                             "DRAFT_LANG_URL", "DRAFT_LANG_SAVE_AS",
                             "DRAFT_PAGE_LANG_URL", "DRAFT_PAGE_LANG_SAVE_AS")


def site_languages(settings):
    """The site's languages, the first at the root: ``DALIL_LANGUAGES``, else the one
    interface language (``DALIL_INTERFACE_LANG``)."""
    languages = settings.get(LANGUAGES_SETTING)
    if languages is None:
        return (settings.get("DALIL_INTERFACE_LANG", "ar"),)
    if isinstance(languages, str) or not languages:
        raise SystemExit(f"dalil: {LANGUAGES_SETTING} must be a list of languages "
                         f"such as [\"ar\", \"fr\", \"en\"], not {languages!r}")
    unknown = [lang for lang in languages if lang not in DIRECTIONS]
    if unknown:
        raise SystemExit(f"dalil: {LANGUAGES_SETTING} holds {', '.join(map(repr, unknown))}: "
                         f"Dalil's languages are {', '.join(sorted(DIRECTIONS))}")
    if len(set(languages)) != len(languages):
        raise SystemExit(f"dalil: {LANGUAGES_SETTING} names a language twice: {languages!r}")
    return tuple(languages)


def writes_site_files(settings):
    """Whether this build writes the site's data files: the first language's does."""
    return not language_path(settings)


def is_last_language(settings):
    """Whether this build is the run's last (every language's pages are written by its
    end): the one-language build, or the last of ``DALIL_LANGUAGES``."""
    languages = site_languages(settings)
    return language_path(settings) == language_url(settings, languages[-1])


def language_folders(settings):
    """``[(lang, folder)]`` of the site's languages: "" for the first, "fr/", …"""
    return [(lang, language_url(settings, lang)) for lang in site_languages(settings)]


def settings_of_language(settings, lang):
    """What a site sets for ``lang`` alone (``DALIL_LANGUAGE_SETTINGS``)."""
    overrides = (settings.get(LANGUAGE_SETTINGS_SETTING) or {}).get(lang) or {}
    if not isinstance(overrides, dict):
        raise SystemExit(f"dalil: {LANGUAGE_SETTINGS_SETTING}[{lang!r}] must be a dict "
                         f"of settings, not {overrides!r}")
    return overrides


def prepare_first_language(pelican):
    """``initialized``: in a site of several languages, the root build is the first
    language's, and translations are written only as their own language's pages."""
    settings = pelican.settings
    languages = site_languages(settings)
    if len(languages) == 1 or settings.get(LANGUAGE_PATH_KEY):
        return
    settings.update(settings_of_language(settings, languages[0]))
    settings[LANGUAGES_RUN_KEY] = {}
    # French at the root of a site written in Arabic shows French translations there.
    settings["DALIL_CONTENT_LANG"] = content_lang(settings)
    settings["DEFAULT_LANG"] = settings["DALIL_INTERFACE_LANG"] = languages[0]
    for key in PELICAN_TRANSLATION_PAGES:
        settings[key] = ""


def language_settings(settings, lang):
    """The settings of the build of ``lang``, a language after the first, from the
    first's (``settings``): its pages below ``{lang}/``, its caches apart."""
    path = f"{lang}/"
    result = dict(settings)
    for key in PELICAN_PAGES:
        result[key] = below_folder(result.get(key, ""), path)
    result.update(settings_of_language(settings, lang))
    result.update({
        "DEFAULT_LANG": lang,
        "DALIL_INTERFACE_LANG": lang,
        "DALIL_CONTENT_LANG": content_lang(settings),
        LANGUAGE_PATH_KEY: path,
        "CACHE_PATH": os.path.join(settings["CACHE_PATH"], lang),
        # The first build's output is the site's: never removed before another's.
        "DELETE_OUTPUT_DIRECTORY": False,
    })
    return result


def build_other_languages(pelican):
    """After the first language's build (``finalized``, its output complete): build
    each other language with the same Pelican class, one after the other."""
    settings = pelican.settings
    if settings.get(LANGUAGE_PATH_KEY):
        return
    for lang in site_languages(settings)[1:]:
        logger.info("dalil: building the %s pages", lang)
        type(pelican)(language_settings(settings, lang)).run()


def language_record(settings):
    """``retire_leftovers``'s arguments: each language's build keeps its own record; the
    first's also retires the pages of languages the site no longer has."""
    path = language_path(settings)
    if path:
        return {"name": record_name(path)}
    return {"name": RECORD_NAME,
            "languages": [folder for _, folder in language_folders(settings)[1:]]}


def language_url(settings, lang):
    """The root-relative folder of ``lang``'s pages: "" for the first language."""
    return "" if lang == site_languages(settings)[0] else f"{lang}/"


def autonym(lang):
    """The language's name in itself, as a language menu shows it: "Français"."""
    name = Locale.parse(lang).get_display_name(lang)
    return name[:1].upper() + name[1:]


def install_languages(generator):
    """``generator_init``: in the Jinja environment, ``language_path`` (this build's
    folder, "" or "fr/"), ``pages_base`` (SITEURL and that folder: where the scripts'
    links to pages start), the ``in_first_language`` filter (a URL of this build's
    language -> the same page's at the root: the data files are there) and, in a site of
    several languages, ``page_versions(output_file)``: ``[(lang, autonym, URL)]`` of the
    page's versions, the first language's first (the ``x-default``)."""
    settings = generator.settings
    env = generator.env
    path = language_path(settings)
    siteurl = settings.get("SITEURL", "")

    def in_first_language(url):
        return url[len(path):] if path and url.startswith(path) else url

    env.filters["in_first_language"] = in_first_language
    pages_base = siteurl + ("/" + path.rstrip("/") if path else "")
    env.globals.update(language_path=path, pages_base=pages_base, page_versions=None)
    folders = language_folders(settings)
    if len(folders) == 1:
        return
    names = [(lang, autonym(lang), folder) for lang, folder in folders]

    def page_versions(output_file):
        url = in_first_language(output_file)
        if url == "index.html" or url.endswith("/index.html"):
            url = url[:-len("index.html")]
        return [(lang, name, absolute_url(siteurl, folder + url)) for lang, name, folder in names]

    env.globals["page_versions"] = page_versions
