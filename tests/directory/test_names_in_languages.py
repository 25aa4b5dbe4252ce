"""Names in the page's language: a site in Arabic built as its French and English builds
are (DEFAULT_LANG and DALIL_INTERFACE_LANG the page's, DALIL_CONTENT_LANG "ar") shows each
listing's, category's and city's Name_fr (Name_en) where it has one, else its Arabic
Title marked lang="ar"; the JSON-LD (read with extruct) names it so too. Read with
BeautifulSoup, and the search page in real headless Chromium."""

import extruct
import pytest
from bs4 import BeautifulSoup

from tests import sitebuilder as sb
from tests.interface.checks import DESKTOP, browsing

ZAYTOUNA = "مطعم الزيتونة"
ATLAS = "صيدلية الأطلس"
PHARMACIES = "صيدليات"
RABAT = "الرباط"
# Two listings the query "palace" finds alike (a name starts with it): in Arabic name
# order ALPHA ("ألف") comes first; YASMINE's French name holds the query.
ALPHA = "ألف قصر"
YASMINE = "ياسمين"


def files():
    files = sb.base_files()  # restaurants, casablanca: French and English names
    files.update(sb.category("pharmacies", PHARMACIES))  # none
    files.update(sb.category("hotels", "فنادق", "Hotels", "Hôtels"))
    files.update(sb.city("rabat", RABAT, "RAB"))  # none
    files.update(sb.listing("zaytouna", ZAYTOUNA, Name_en="Zaytouna", Name_fr="La Zaytouna",
                            Date="2026-10-01", Summary="مطعم مغربي."))
    files.update(sb.listing("atlas-pharmacy", ATLAS, category="pharmacies", city="rabat",
                            Name_en="Atlas Pharmacy", Date="2026-10-02"))
    files.update(sb.listing("alpha", ALPHA, category="hotels", Name_en="Palace Alpha",
                            Date="2026-10-03"))
    files.update(sb.listing("yasmine", YASMINE, category="hotels", Name_fr="Palace Yasmine",
                            Date="2026-10-04"))
    return files


def build(tmp_path_factory, lang):
    settings = {} if lang == "ar" else {"DEFAULT_LANG": lang, "DALIL_INTERFACE_LANG": lang,
                                        "DALIL_CONTENT_LANG": "ar"}
    result = sb.build_site(tmp_path_factory.mktemp(f"names-{lang}"), files(), **settings)
    assert result.returncode == 0, result.log
    return result


@pytest.fixture(scope="module")
def french(tmp_path_factory):
    return build(tmp_path_factory, "fr")


@pytest.fixture(scope="module")
def english(tmp_path_factory):
    return build(tmp_path_factory, "en")


@pytest.fixture(scope="module")
def arabic(tmp_path_factory):
    return build(tmp_path_factory, "ar")


def soup(site, relpath):
    return BeautifulSoup(site.read(relpath), "html.parser")


def shown(element):
    """An element's text and the language it is marked with (its own or an ancestor's)."""
    marked = element if element.has_attr("lang") else element.find_parent(attrs={"lang": True})
    return element.get_text().strip(), marked["lang"]


def alternates(page, selector):
    return [(span.get_text(), span["lang"], span["dir"]) for span in page.select(selector)]


def json_ld(site, slug):
    html = site.read(f"directory/listing/{slug}/index.html")
    (data,) = extruct.extract(html, base_url=sb.SITEURL + f"/directory/listing/{slug}/",
                              syntaxes=["json-ld"], uniform=True)["json-ld"]
    return data


def test_a_listing_page_names_it_and_its_terms_in_french(french):
    page = soup(french, "directory/listing/zaytouna/index.html")
    assert page.html["data-content-lang"] == "ar"
    assert page.title.get_text() == "La Zaytouna · Restaurants à Casablanca · دليل"
    assert shown(page.h1) == ("La Zaytouna", "fr")
    crumbs = page.select(".breadcrumbs li")
    assert shown(crumbs[1]) == ("Restaurants", "fr")
    assert shown(crumbs[2]) == ("La Zaytouna", "fr")
    assert [shown(dd) for dd in page.select(".facts dd")[:2]] == [
        ("Restaurants", "fr"), ("Casablanca", "fr")]
    # The names it does not show: the Title first, in its own language and direction.
    assert alternates(page, ".alt-name span") == [(ZAYTOUNA, "ar", "rtl"),
                                                   ("Zaytouna", "en", "ltr")]
    assert page.select_one('meta[name="description"]')["content"] == "مطعم مغربي."


def test_a_name_the_content_lacks_in_french_is_its_arabic_title_marked_arabic(french):
    page = soup(french, "directory/listing/atlas-pharmacy/index.html")
    assert page.title.get_text() == f"{ATLAS} · {PHARMACIES} à {RABAT} · دليل"
    assert shown(page.h1) == (ATLAS, "ar")
    assert page.h1["dir"] == "auto"
    assert [shown(dd) for dd in page.select(".facts dd")[:2]] == [(PHARMACIES, "ar"), (RABAT, "ar")]
    assert alternates(page, ".alt-name span") == [("Atlas Pharmacy", "en", "ltr")]
    description = page.select_one('meta[name="description"]')["content"]
    assert description == f"{ATLAS} — {PHARMACIES}, {RABAT}"


def test_term_pages_cards_and_save_buttons_in_french(french):
    page = soup(french, "directory/category/restaurants/index.html")
    assert page.title.get_text() == "Restaurants · دليل"
    assert shown(page.h1) == ("Restaurants", "fr")
    assert alternates(page, "main header .alt-name span") == [("مطاعم", "ar", "rtl")]
    card = page.select_one(".card")
    assert shown(card.select_one("h2 a")) == ("La Zaytouna", "fr")
    assert alternates(card, ".alt-names span") == [(ZAYTOUNA, "ar", "rtl")]
    assert [shown(a) for a in card.select(".meta a")] == [("Restaurants", "fr"), ("Casablanca", "fr")]
    assert shown(card.select_one(".save-button .visually-hidden")) == ("La Zaytouna", "fr")

    page = soup(french, "directory/city/rabat/index.html")
    assert shown(page.h1) == (RABAT, "ar")
    assert page.select("main header .alt-name") == []
    card = page.select_one(".card")
    assert shown(card.select_one("h2 a")) == (ATLAS, "ar")
    assert alternates(card, ".alt-names span") == [("Atlas Pharmacy", "en", "ltr")]
    assert shown(card.select_one(".save-button .visually-hidden")) == (ATLAS, "ar")


def test_lists_of_terms_show_and_order_the_french_names(french):
    for relpath in ("index.html", "directory/index.html"):
        lists = soup(french, relpath).select(".term-list")
        categories = [shown(span) for span in lists[0].select("a > span:first-child")]
        # By the names shown: "Hôtels", "Restaurants", then the Arabic Title.
        assert categories == [("Hôtels", "fr"), ("Restaurants", "fr"), (PHARMACIES, "ar")], relpath
        cities = [shown(span) for span in lists[1].select("a > span:first-child")]
        assert cities == [("Casablanca", "fr"), (RABAT, "ar")], relpath


def test_the_html_sitemap_and_the_search_filters_in_french(french):
    page = soup(french, "sitemap/index.html")
    names = [shown(a) for a in page.select("#sitemap-categories ~ h3 a, .sitemap-list a")]
    assert ("La Zaytouna", "fr") in names and ("Hôtels", "fr") in names
    assert (ATLAS, "ar") in names and (PHARMACIES, "ar") in names and (RABAT, "ar") in names
    assert ZAYTOUNA not in page.select_one("main").get_text()
    page = soup(french, "search/index.html")
    options = [shown(option) for option in page.select("#search-facets option[value]") if option["value"]]
    assert ("Restaurants", "fr") in options and ("Casablanca", "fr") in options
    assert (PHARMACIES, "ar") in options and (RABAT, "ar") in options


def test_json_ld_names_a_listing_in_the_page_language(french, english, arabic):
    data = json_ld(french, "zaytouna")
    assert (data["name"], data["alternateName"]) == ("La Zaytouna", [ZAYTOUNA, "Zaytouna"])
    data = json_ld(french, "atlas-pharmacy")
    assert (data["name"], data["alternateName"]) == (ATLAS, ["Atlas Pharmacy"])
    data = json_ld(english, "zaytouna")
    assert (data["name"], data["alternateName"]) == ("Zaytouna", [ZAYTOUNA, "La Zaytouna"])
    data = json_ld(english, "yasmine")
    assert (data["name"], data["alternateName"]) == (YASMINE, ["Palace Yasmine"])
    data = json_ld(arabic, "zaytouna")
    assert (data["name"], data["alternateName"]) == (ZAYTOUNA, ["Zaytouna", "La Zaytouna"])


def test_english_pages_show_english_names(english):
    page = soup(english, "directory/listing/zaytouna/index.html")
    assert page.title.get_text() == "Zaytouna · Restaurants in Casablanca · دليل"
    assert shown(page.h1) == ("Zaytouna", "en")
    assert alternates(page, ".alt-name span") == [(ZAYTOUNA, "ar", "rtl"),
                                                   ("La Zaytouna", "fr", "ltr")]
    page = soup(english, "directory/listing/yasmine/index.html")
    assert shown(page.h1) == (YASMINE, "ar")
    assert [shown(dd) for dd in page.select(".facts dd")[:1]] == [("Hotels", "en")]
    page = soup(english, "directory/category/hotels/index.html")
    assert shown(page.h1) == ("Hotels", "en")
    assert alternates(page, "main header .alt-name span") == [("فنادق", "ar", "rtl"),
                                                              ("Hôtels", "fr", "ltr")]


def test_a_new_french_name_reaches_every_page_in_a_cached_rebuild(tmp_path):
    """With the content cache, a listing's and a category's edited Name_fr are on the
    pages of the French build made again, as a clean build makes them."""
    settings = {"DEFAULT_LANG": "fr", "DALIL_INTERFACE_LANG": "fr", "DALIL_CONTENT_LANG": "ar",
                "CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True}
    first = sb.build_site(tmp_path / "site", files(), **settings)
    assert first.returncode == 0, first.log
    renamed = {**sb.listing("zaytouna", ZAYTOUNA, Name_en="Zaytouna", Name_fr="Chez Zaytouna",
                            Date="2026-10-01", Summary="مطعم مغربي."),
               **sb.category("hotels", "فنادق", "Hotels", "Hôtellerie")}
    sb.write_site(tmp_path / "site", renamed, **settings)
    again = sb.run_pelican(tmp_path / "site")
    assert again.returncode == 0, again.log
    clean = sb.build_site(tmp_path / "clean", {**files(), **renamed}, **settings)
    assert clean.returncode == 0, clean.log
    for relpath in ("sitemap/index.html", "index.html", "directory/index.html",
                    "directory/listing/zaytouna/index.html", "directory/listing/alpha/index.html",
                    "directory/category/restaurants/index.html", "search/index.html"):
        assert again.read(relpath) == clean.read(relpath), relpath
    sitemap = again.read("sitemap/index.html")
    assert "Chez Zaytouna" in sitemap and "Hôtellerie" in sitemap


def test_an_arabic_page_shows_the_titles_as_before(arabic):
    page = soup(arabic, "directory/listing/zaytouna/index.html")
    assert not page.html.has_attr("data-content-lang")
    assert page.h1.get_text() == ZAYTOUNA and not page.h1.has_attr("lang")
    assert alternates(page, ".alt-name span") == [("Zaytouna", "en", "ltr"),
                                                   ("La Zaytouna", "fr", "ltr")]


@pytest.mark.browser
def test_the_french_search_page_shows_and_ranks_french_names_first(chromium_browser, french):
    with browsing(chromium_browser, french.output, DESKTOP) as open_page:
        page = open_page("/search/?q=palace")
        results = page.locator("#search-results .result-name")
        results.nth(1).wait_for()
        names = results.evaluate_all("els => els.map(e => [e.textContent, e.lang, e.dir])")
        # Equal matches ("palace" starts a name of each): the French name's first.
        assert names == [["Palace Yasmine", "", "auto"], [ALPHA, "ar", "auto"]]
        alternates = page.locator("#search-results li").nth(1).locator(".result-alt")
        assert alternates.evaluate_all("els => els.map(e => [e.textContent, e.lang])") == [
            ["Palace Alpha", "en"]]
        assert page.locator("#search-results .result-category").all_inner_texts() == [
            "Hôtels", "Hôtels"]
        page.close()

        page = open_page("/search/?q=zaytouna")
        first = page.locator("#search-results li").first
        first.wait_for()
        assert first.locator(".result-name").inner_text() == "La Zaytouna"
        assert first.locator(".result-alt").evaluate_all(
            "els => els.map(e => [e.textContent, e.lang])") == [[ZAYTOUNA, "ar"], ["Zaytouna", "en"]]
        page.close()


@pytest.mark.browser
def test_the_arabic_search_page_keeps_name_order(chromium_browser, arabic):
    with browsing(chromium_browser, arabic.output, DESKTOP) as open_page:
        page = open_page("/search/?q=palace")
        results = page.locator("#search-results .result-name")
        results.nth(1).wait_for()
        assert results.all_inner_texts() == [ALPHA, YASMINE]
        page.close()
