"""Translations: news, blog articles and pages Pelican's way (same Slug, another Lang), and
a listing's description in a listing file with the listing's Slug and another Lang.

The site is built as the default (Arabic) build and as the build of French would be
(``DEFAULT_LANG`` the language built, ``DALIL_CONTENT_LANG`` the one content is written in)."""

import json

import feedparser
import pytest
from bs4 import BeautifulSoup
from pelican.settings import read_settings

from dalil.validate import validate_site
from tests import sitebuilder as sb

# The build of French in a site written in Arabic, as a site of several languages makes
# it, alone (at the root): translations of other languages are not written anywhere (the
# languages' builds set Pelican's *_LANG_SAVE_AS so).
FRENCH_BUILD = {"DALIL_LANGUAGES": ["fr"], "DEFAULT_LANG": "fr", "DALIL_INTERFACE_LANG": "fr",
                "DALIL_CONTENT_LANG": "ar", "ARTICLE_LANG_SAVE_AS": "", "PAGE_LANG_SAVE_AS": ""}

LAUNCH_AR, LAUNCH_FR, LAUNCH_EN = "انطلاق الدليل", "Lancement du guide", "The guide opens"
MARKET_AR = "سوق جديد في الرباط"
DAR_AR, DAR_FR = "طواجن على الفحم في زقاق هادئ.", "Des tajines cuits au charbon dans une ruelle calme."
DAR_SUMMARY_FR = "Tajines au charbon."


def site_files():
    files = sb.base_files()
    files.update(sb.listing("dar-tajine", "دار الطاجين", body=DAR_AR, Summary="طواجن.",
                            Name_fr="La Maison du Tajine"))
    files["listings/dar-tajine.fr.md"] = sb.metadata_file(
        DAR_FR, Slug="dar-tajine", Lang="fr", Summary=DAR_SUMMARY_FR)
    files["listings/dar-tajine.en.md"] = sb.metadata_file(
        "Tagines slow-cooked over charcoal.", Slug="dar-tajine", Lang="en")
    files.update(sb.listing("riad-grill", "مشويات الرياض", body="مشويات شعبية."))
    files["news/launch.md"] = sb.metadata_file("نص خبر الانطلاق.", Title=LAUNCH_AR,
                                               Slug="launch", Date="2026-11-01 10:00")
    files["news/launch.fr.md"] = sb.metadata_file("Le texte du lancement.", Title=LAUNCH_FR,
                                                  Slug="launch", Lang="fr",
                                                  Date="2026-11-01 10:00")
    files["news/launch.en.md"] = sb.metadata_file("The launch text.", Title=LAUNCH_EN,
                                                  Slug="launch", Lang="en",
                                                  Date="2026-11-01 10:00")
    files["news/market.md"] = sb.metadata_file("نص خبر السوق.", Title=MARKET_AR, Slug="market",
                                               Date="2026-11-02 10:00")
    # Translated into English only: the build of French shows the original.
    files["news/market.en.md"] = sb.metadata_file("The market text.", Title="A new market",
                                                  Slug="market", Lang="en",
                                                  Date="2026-11-02 10:00")
    files["pages/about.fr.md"] = sb.metadata_file("À propos du site.", Title="À propos",
                                                  Slug="about", Lang="fr")
    return files


@pytest.fixture(scope="module")
def french(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("fr"), site_files(), **FRENCH_BUILD)
    assert result.returncode == 0, result.log
    return result


@pytest.fixture(scope="module")
def arabic(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("ar"), site_files())
    assert result.returncode == 0, result.log
    return result


def soup(site, relpath):
    return BeautifulSoup(site.read(relpath), "html.parser")


def link_to(page, href):
    (link,) = page.select(f'main a[href="{sb.SITEURL}/{href}"]')
    return link


def marking(element):
    return element.get("lang"), element.get("dir")


def test_french_build_shows_a_translated_news_item_unmarked(french):
    page = soup(french, "news/launch/index.html")
    assert page.html["lang"] == "fr"
    heading = page.select_one("article h1")
    assert heading.get_text() == LAUNCH_FR
    assert marking(heading) == (None, "auto")
    (body,) = [div for div in page.select("article > div") if "Le texte du lancement." in div.get_text()]
    assert marking(body) == (None, None)
    assert LAUNCH_AR not in page.get_text() and LAUNCH_EN not in page.get_text()


def test_french_build_shows_an_untranslated_news_item_marked_arabic(french):
    page = soup(french, "news/market/index.html")
    heading = page.select_one("article h1")
    assert heading.get_text() == MARKET_AR
    assert marking(heading) == ("ar", "rtl")
    (body,) = [div for div in page.select("article > div") if "نص خبر السوق." in div.get_text()]
    assert marking(body) == ("ar", "rtl")


@pytest.mark.parametrize("relpath", ["index.html", "news/index.html", "sitemap/index.html"])
def test_french_lists_of_articles_mark_the_untranslated_items(french, relpath):
    page = soup(french, relpath)
    translated, untranslated = link_to(page, "news/launch/"), link_to(page, "news/market/")
    assert (translated.get_text(), marking(translated)) == (LAUNCH_FR, (None, "auto"))
    assert (untranslated.get_text(), marking(untranslated)) == (MARKET_AR, ("ar", "rtl"))


def test_french_build_shows_a_translated_page_and_links_it_unmarked(french):
    page = soup(french, "about/index.html")
    article = page.select_one("main article")
    assert article.h1.get_text() == "À propos"
    assert marking(article) == (None, None)
    for listed, where in ((soup(french, "sitemap/index.html"), "main"), (page, "footer")):
        (link,) = listed.select(f'{where} a[href="{sb.SITEURL}/about/"]')
        assert (link.get_text(), link.get("lang")) == ("À propos", None)


def test_arabic_build_shows_the_originals_unmarked(arabic):
    page = soup(arabic, "news/launch/index.html")
    heading = page.select_one("article h1")
    assert (heading.get_text(), marking(heading)) == (LAUNCH_AR, (None, "auto"))
    news = soup(arabic, "news/index.html")
    assert marking(link_to(news, "news/market/")) == (None, "auto")
    assert soup(arabic, "about/index.html").select_one("main article h1").get_text() == "من نحن"


def test_each_build_writes_its_own_pages_only(french):
    written = french.files()
    assert [path for path in written if path.startswith("news/") and path.endswith(".html")] == [
        "news/index.html", "news/launch/index.html", "news/market/index.html"]
    assert not [path for path in written if "-fr." in path or "-en." in path or "-ar." in path]


@pytest.mark.parametrize("build, items", [
    ("french", [("market", MARKET_AR, "ar"), ("launch", LAUNCH_FR, None)]),
    ("arabic", [("market", MARKET_AR, None), ("launch", LAUNCH_AR, None)]),
])
def test_feeds_take_the_shown_version_of_each_news_item(request, build, items):
    site = request.getfixturevalue(build)
    rss = feedparser.parse(site.read("rss.xml", "rb"))
    assert not rss.bozo, rss.bozo_exception
    assert [(entry.link, entry.title) for entry in rss.entries] == [
        (f"{sb.SITEURL}/news/{slug}/", title) for slug, title, _ in items]
    feed = json.loads(site.read("feed.json"))
    assert [(item["url"], item["title"], item.get("language")) for item in feed["items"]] == [
        (f"{sb.SITEURL}/news/{slug}/", title, lang) for slug, title, lang in items]


def listing_description(site, slug):
    page = soup(site, f"directory/listing/{slug}/index.html")
    return page.select_one("article.listing .summary"), page.select_one("article.listing .prose")


def test_french_build_shows_a_listings_french_description_unmarked(french):
    summary, description = listing_description(french, "dar-tajine")
    assert description.get_text(strip=True) == DAR_FR and marking(description) == (None, None)
    assert summary.get_text(strip=True) == DAR_SUMMARY_FR and marking(summary) == (None, None)
    _, untranslated = listing_description(french, "riad-grill")
    assert untranslated.get_text(strip=True) == "مشويات شعبية."
    assert untranslated.get("lang") == "ar"


def test_arabic_build_shows_a_listings_own_description(arabic):
    summary, description = listing_description(arabic, "dar-tajine")
    assert description.get_text(strip=True) == DAR_AR and marking(description) == (None, None)
    assert summary.get_text(strip=True) == "طواجن."


@pytest.mark.parametrize("build", ["french", "arabic"])
def test_translations_are_no_listings(request, build):
    site = request.getfixturevalue(build)
    records = json.loads(site.read("directory/export.json"))
    assert sorted(record["url"] for record in records) == [
        f"{sb.SITEURL}/directory/listing/{slug}/" for slug in ("dar-tajine", "riad-grill")]
    assert sorted(path for path in site.files() if path.startswith("directory/listing/")) == [
        f"directory/listing/{slug}/{name}" for slug in ("dar-tajine", "riad-grill")
        for name in ("contact.vcf", "index.html")]


def test_validate_counts_listings_not_translations(arabic):
    report = validate_site(arabic.output, read_settings(str(arabic.root / "pelicanconf.py")))
    assert report.ok, report.lines()
    assert report.checked["exported listings"] == 2


def test_a_rebuild_after_editing_a_translation_rewrites_that_listings_page(tmp_path):
    cached = dict(FRENCH_BUILD, CACHE_CONTENT=True, LOAD_CONTENT_CACHE=True)
    result = sb.build_site(tmp_path, site_files(), **cached)
    assert result.returncode == 0, result.log
    other = result.path("directory/listing/riad-grill/index.html")
    other_written = other.stat().st_mtime_ns
    source = tmp_path / "content/listings/dar-tajine.fr.md"
    source.write_text(source.read_text(encoding="utf-8").replace("ruelle calme", "ruelle animée"),
                      encoding="utf-8")
    rebuilt = sb.run_pelican(tmp_path)
    assert rebuilt.returncode == 0, rebuilt.log
    _, description = listing_description(rebuilt, "dar-tajine")
    assert description.get_text(strip=True) == DAR_FR.replace("ruelle calme", "ruelle animée")
    assert other.stat().st_mtime_ns == other_written


def build_with(build_site, extra):
    files = sb.base_files()
    files.update(sb.listing("dar-tajine", "دار الطاجين"))
    files.update(extra)
    return build_site(files)


@pytest.mark.parametrize("extra, names", [
    ({"listings/ghost.fr.md": sb.metadata_file("Un fantôme.", Slug="ghost", Lang="fr")},
     ["content/listings/ghost.fr.md", "listing 'ghost', which does not exist"]),
    ({"listings/dar-tajine.fr.md": sb.metadata_file("Première.", Slug="dar-tajine", Lang="fr"),
      "listings/dar-tajine-bis.fr.md": sb.metadata_file("Seconde.", Slug="dar-tajine", Lang="fr")},
     ["content/listings/dar-tajine.fr.md", "content/listings/dar-tajine-bis.fr.md",
      "second translation of listing 'dar-tajine' into fr"]),
    ({"listings/dar-tajine.fr.md": sb.metadata_file("Texte.", Slug="dar-tajine", Lang="fr",
                                                    Phone="0522 00 00 00", Category="cafes")},
     ["content/listings/dar-tajine.fr.md", "not Category, Phone"]),
    ({"listings/dar-tajine.fr.md": sb.metadata_file("Texte.", Lang="fr")},
     ["content/listings/dar-tajine.fr.md", "with no Slug"]),
    ({"listings/dar-tajine.fr.md": sb.metadata_file("", Slug="dar-tajine", Lang="fr")},
     ["content/listings/dar-tajine.fr.md", "with no text"]),
])
def test_a_bad_translation_fails_naming_its_file(build_site, extra, names):
    result = build_with(build_site, extra)
    assert result.returncode != 0, result.log
    assert "Traceback" not in result.log
    for name in names:
        assert name in result.log, result.log


def test_a_second_news_translation_into_one_language_names_both_files(build_site):
    files = sb.base_files()
    files.update(sb.news("launch", LAUNCH_AR, "2026-11-01"))
    for name in ("launch.fr", "launch-copy.fr"):
        files[f"news/{name}.md"] = sb.metadata_file("Texte.", Title=LAUNCH_FR, Slug="launch",
                                                    Lang="fr", Date="2026-11-01")
    result = build_site(files)
    assert result.returncode != 0
    assert "Traceback" not in result.log
    for name in ("content/news/launch.fr.md", "content/news/launch-copy.fr.md",
                 "duplicate news slug 'launch'"):
        assert name in result.log, result.log
