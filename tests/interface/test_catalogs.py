"""Interface text through gettext: complete ar/fr/en catalogs, CLDR plural forms, the
interface language setting, and the catalogs shipped in the wheel."""

import json
import re
import shutil
import subprocess
import sys
import zipfile

import jinja2
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup

from dalil.core.i18n import DIRECTIONS, LOCALES, remembered_gettext, translations
from tests import sitebuilder as sb

from . import fixtures

COUNTS = (0, 1, 2, 3, 10, 11, 100, 101)
ARABIC = re.compile("[\u0600-\u06ff]")
PLURALS = {
    ("ar", "%(num)s listing"): ["لا أنشطة", "نشاط واحد", "نشاطان", "3 أنشطة", "10 أنشطة",
                                "11 نشاطًا", "100 نشاط", "101 نشاط"],
    ("ar", "%(num)s category"): ["لا فئات", "فئة واحدة", "فئتان", "3 فئات", "10 فئات",
                                 "11 فئةً", "100 فئة", "101 فئة"],
    ("ar", "%(num)s city"): ["لا مدن", "مدينة واحدة", "مدينتان", "3 مدن", "10 مدن",
                             "11 مدينةً", "100 مدينة", "101 مدينة"],
    ("fr", "%(num)s listing"): ["0 établissement", "1 établissement"] + [
        f"{n} établissements" for n in COUNTS[2:]],
    ("fr", "%(num)s city"): ["0 ville", "1 ville"] + [f"{n} villes" for n in COUNTS[2:]],
}


def catalog(lang):
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=lang)


@pytest.mark.parametrize("key", sorted(PLURALS), ids="-".join)
def test_plural_forms_follow_cldr_for_0_1_2_3_10_11_100_101(key):
    lang, singular = key
    plural = singular.replace("listing", "listings").replace("category", "categories") \
        .replace("city", "cities")
    texts = [translations(lang).ngettext(singular, plural, n) % {"num": n} for n in COUNTS]
    assert texts == PLURALS[key]


def test_every_template_string_is_in_every_catalog_and_translated():
    mapping = [("**/templates/**.html", "jinja2")]
    options = {"**/templates/**.html": {"extensions": "jinja2.ext.i18n"}}
    extracted = {message[2] if isinstance(message[2], str) else message[2][0]
                 for message in extract_from_dir(str(LOCALES.parent), mapping, options_map=options)}
    assert len(extracted) > 80
    for lang in DIRECTIONS:
        messages = catalog(lang)
        ids = {m.id if isinstance(m.id, str) else m.id[0] for m in messages if m.id}
        assert extracted <= ids, (lang, sorted(extracted - ids))
        assert [error for _, errors in messages.check() for error in errors] == [], lang
        if lang == "en":
            continue  # the messages are English
        for message in messages:
            if message.id:
                strings = [message.string] if isinstance(message.string, str) else message.string
                assert all(strings) and not message.fuzzy, (lang, message.id)


@pytest.fixture(scope="module")
def french(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("french"), fixtures.files(),
                           DALIL_INTERFACE_LANG="fr")
    assert result.returncode == 0, result.log
    return result


def test_french_interface_sets_lang_dir_and_text_of_every_page(french):
    pages = [relpath for relpath in french.files() if relpath.endswith(".html")]
    assert len(pages) > 40
    for relpath in pages:
        page = BeautifulSoup(french.read(relpath), "html.parser")
        assert (page.html["lang"], page.html["dir"]) == ("fr", "ltr"), relpath
        header = page.select_one(".site-header")
        if header:
            header.select_one(".brand").decompose()  # the site's name, as written
            assert not ARABIC.search(header.get_text()), relpath
    cafes = BeautifulSoup(french.read("directory/category/cafes/index.html"), "html.parser")
    assert "11 établissements" in cafes.select_one("main header").get_text()
    listing = BeautifulSoup(french.read("directory/listing/zaytouna/index.html"), "html.parser")
    assert [dt.get_text() for dt in listing.select(".facts dt")][:2] == ["Catégorie", "Ville"]
    assert not ARABIC.search(" ".join(dt.get_text() for dt in listing.select(".facts dt")))


def test_every_page_loads_the_scripts_messages_of_its_language_before_i18n(french):
    """The scripts' text is one file the browser caches, deferred before i18n.js (deferred
    scripts run in the page's order), not a block repeated in every page."""
    messages_url = sb.SITEURL + "/theme/js/messages.fr.js"
    pages = [relpath for relpath in french.files() if relpath.endswith(".html")]
    assert len(pages) > 40
    for relpath in pages:
        head = BeautifulSoup(french.read(relpath), "html.parser").head
        scripts = head.find_all("script", src=True)
        sources = [script["src"] for script in scripts]
        assert messages_url in sources, relpath
        assert sources.index(messages_url) < sources.index(sb.SITEURL + "/theme/js/i18n.js")
        assert all(script.has_attr("defer") for script in scripts), relpath
        assert not head.find("script", type="application/json"), relpath
    prefix = "window.dalilMessages = "
    line = next(line for line in french.read("theme/js/messages.fr.js").splitlines()
                if line.startswith(prefix))
    messages = json.loads(line[len(prefix):].removesuffix(";"))
    assert messages["Address"] == "Adresse"
    assert not ARABIC.search(json.dumps(messages, ensure_ascii=False))
    assert not french.path("theme/js/messages.ar.js").exists()


def content_text(files):
    """Every Arabic text of the fixture's content, longest first: what a French page may
    still show as written."""
    texts = set()
    for source in files.values():
        for line in source.splitlines():
            value = line.split(":", 1)[1] if ":" in line[:30] else line
            texts.update(part.strip() for part in value.split("،") if ARABIC.search(part))
            texts.add(value.strip())
    return sorted((text for text in texts if ARABIC.search(text)), key=len, reverse=True)


@pytest.mark.parametrize("relpath", ["directory/listing/zaytouna/index.html",
                                     "search/index.html", "directory/category/cafes/index.html",
                                     "directory/city/agadir/index.html"])
def test_french_interface_has_no_arabic_interface_text(french, relpath):
    page = BeautifulSoup(french.read(relpath), "html.parser")
    if relpath.startswith("directory/listing"):
        assert page.select(".opening-hours tr") and page.select(".directions a")
    else:
        assert page.select(".near-me"), relpath
    if relpath.startswith("search"):
        assert page.select("#search-facets select option")
    for script in page.select("script"):
        script.decompose()  # JSON-LD: content; the scripts' messages: the test below
    for term in page.select(".facts dt"):
        if term.get_text() == "Adresse":
            term.find_next_sibling("dd").decompose()  # the address as the exports write it
    texts = [page.get_text(" ")]
    texts += [value for element in page.find_all(True) for name, value in element.attrs.items()
              if isinstance(value, str) and name not in ("href", "src")]
    shown = " ".join(texts)
    # The site's name and its feeds' title are settings, shown as written.
    for text in content_text(fixtures.files()) + ["دليل - الأخبار", "دليل"]:
        shown = shown.replace(text, "")
    assert not ARABIC.search(shown), (relpath, re.findall("[\u0600-\u06ff][^<>]{0,40}", shown))


def test_under_a_french_interface_arabic_content_is_marked_arabic(french):
    for relpath in french.files():
        if not relpath.endswith(".html"):
            continue
        body = BeautifulSoup(french.read(relpath), "html.parser").body
        for text in body.find_all(string=ARABIC):
            if text.parent.name == "script":
                continue  # JSON-LD: data, not text
            marked = text.find_parent(attrs={"lang": True})
            assert marked is not None and marked["lang"] == "ar", (relpath, str(text.parent)[:120])


def test_french_interface_shows_a_listing_french_name_first(french):
    listing = BeautifulSoup(french.read("directory/listing/zaytouna/index.html"), "html.parser")
    title = listing.select_one("h1")
    assert (title.get_text(), title["lang"]) == ("La Zaytouna", "fr")
    other = [(span.get_text(), span["lang"]) for span in listing.select(".alt-name span")]
    assert other == [("مطعم الزيتونة", "ar"), ("Zaytouna", "en")]
    card = BeautifulSoup(french.read("directory/category/cafes/index.html"), "html.parser")
    names = [a.get_text() for a in card.select(".card h2 a")]
    assert "La Zaytouna" in names and "مطعم الزيتونة" not in names
    assert "مقاهي 0" in names  # no French name: shown as written


def test_english_interface(build_site):
    files = sb.base_files()
    files.update(sb.listing("zaytouna", "مطعم الزيتونة"))
    result = build_site(files, DALIL_INTERFACE_LANG="en")
    assert result.returncode == 0, result.log
    page = BeautifulSoup(result.read("directory/category/restaurants/index.html"), "html.parser")
    assert (page.html["lang"], page.html["dir"]) == ("en", "ltr")
    assert "1 listing" in [p.get_text() for p in page.select("main header p")]


def test_an_unknown_interface_language_stops_the_build_with_a_message(build_site):
    result = build_site(sb.base_files(), DALIL_INTERFACE_LANG="de")
    assert result.returncode != 0
    assert "DALIL_INTERFACE_LANG must be one of ar, en, fr, not 'de'" in result.log
    assert "Traceback" not in result.log


def test_the_wheel_carries_the_catalogs(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(sb.REPO, source, ignore=shutil.ignore_patterns(
        "tests", "node_modules", "output", "build", "*.egg-info", "__pycache__", ".git"))
    completed = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                                "--no-build-isolation", "-w", str(tmp_path / "dist"), str(source)],
                               capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    wheel = zipfile.ZipFile(next((tmp_path / "dist").glob("dalil-*.whl")))
    names = set(wheel.namelist())
    for lang in DIRECTIONS:
        assert f"dalil/locales/{lang}/LC_MESSAGES/messages.po" in names
    assert not [name for name in names if name.endswith(".mo")]


def test_pages_named_by_the_code_are_named_in_the_interface_language(french, hostile):
    """The site map lists the pages the plugins make under their translated names."""
    def names(result):
        page = BeautifulSoup(result.read("sitemap/index.html"), "html.parser")
        return {link["href"].removeprefix(sb.SITEURL): link.get_text() for link in page.select("main a")}

    assert {"/directory/": "Annuaire", "/search/": "Rechercher",
            "/random/": "Découvrir un établissement au hasard"}.items() <= names(french).items()
    assert names(hostile)["/directory/"] == "الدليل"


def test_remembered_gettext_shows_what_jinjas_gettext_shows():
    template = ('{% for _n in range(2) %}{{ _("Search") }}|{{ _("50%% <off>") }}|'
                '{{ gettext("Search") }}|{% trans city="<b>" ~ _n %}In {{ city }} time{% endtrans %}|'
                '{{ _("%(name)s — %(category)s, %(city)s", name="&", category="a", city="b") }}|'
                '{% autoescape false %}{{ _("<i>%%</i>") }}{% endautoescape %}{% endfor %}')

    def render(remember):
        env = jinja2.Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
        catalog = translations("fr")
        env.install_gettext_translations(catalog, newstyle=True)
        if remember:
            env.globals["gettext"] = env.globals["_"] = remembered_gettext(
                env.globals["gettext"], catalog.gettext, catalog.dalil_digest)
        return env.from_string(template).render()

    shown = render(remember=True)
    assert "Rechercher|50% <off>|" in shown and "de &lt;b&gt;1" in shown and "<i>%</i>" in shown
    assert shown == render(remember=False)
