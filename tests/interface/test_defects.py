"""What a visitor found wrong, each checked on the built pages (issue 15, items 2-12;
the layout items are checked in Chromium in test_layout.py)."""

import datetime as dt

import feedparser
from babel.dates import format_date
from bs4 import BeautifulSoup
from lxml import html as lxml_html

from tests import sitebuilder as sb

from . import fixtures


def soup(site, relpath):
    return BeautifulSoup(site.read(relpath), "html.parser")


def test_term_pages_count_listings_with_arabic_number_agreement(hostile):
    expected = {"restaurants": "لا أنشطة", "doctors": "نشاط واحد", "banks": "نشاطان",
                "pharmacies": "3 أنشطة", "hotels": "10 أنشطة", "cafes": "11 نشاطًا"}
    for slug, text in expected.items():
        header = soup(hostile, f"directory/category/{slug}/index.html").select_one("main header")
        assert text in [p.get_text() for p in header.find_all("p")], slug
    hero = soup(hostile, "index.html").select_one(".hero p").get_text()
    assert hero == "27 نشاطًا في 6 فئات و3 مدن."
    assert "نشاطًا" not in soup(hostile, "directory/city/agadir/index.html").select_one(
        "main header").get_text()  # 2 listings: نشاطان


def test_category_and_city_lists_are_in_arabic_alphabetical_order(hostile):
    by_name = ["أطباء", "بنوك", "صيدليات", "فنادق", "مطاعم", "مقاهي"]
    cities = ["أكادير", "الدار البيضاء", "الرباط"]
    for relpath in ("index.html", "directory/index.html"):
        lists = soup(hostile, relpath).select(".term-list")
        names = [[a.contents[0].get_text().strip() for a in ul.select("a")] for ul in lists]
        assert names == [by_name, cities], relpath
    sitemap = soup(hostile, "sitemap/index.html")
    assert [h3.a.get_text() for h3 in sitemap.select("#sitemap-categories ~ h3")] == by_name


def test_headings_never_skip_a_level(hostile):
    for relpath in hostile.files():
        if not relpath.endswith(".html"):
            continue
        tree = lxml_html.fromstring(hostile.read(relpath, "rb"))
        levels = [int(h.tag[1]) for h in tree.iter("h1", "h2", "h3", "h4", "h5", "h6")]
        for previous, level in zip([1] + levels, levels):
            assert level <= previous + 1, (relpath, levels)


def test_dates_are_written_in_words_of_the_interface_language(hostile):
    times = soup(hostile, "index.html").select(".article-list time")
    assert [t.get_text() for t in times] == [
        format_date(dt.date(2026, 11, 20), "long", locale="ar"),
        format_date(dt.date(2026, 11, 2), "long", locale="ar")]
    assert times[0].get_text() == "20 نوفمبر 2026"
    listing = soup(hostile, "directory/listing/long-name/index.html")
    assert listing.select_one(".facts time").get_text() == "20 نوفمبر 2026"


def test_home_page_has_a_canonical_link(hostile):
    links = soup(hostile, "index.html").select('link[rel="canonical"]')
    assert [link["href"] for link in links] == [f"{sb.SITEURL}/"]


def test_a_website_with_an_ampersand_builds_without_markup_warnings(hostile):
    assert "MarkupResemblesLocatorWarning" not in hostile.log
    assert "Warning" not in hostile.log
    link = soup(hostile, "directory/listing/long-name/index.html").select_one(
        f'.facts a[href="{fixtures.AMPERSAND_WEBSITE}"]')
    assert link.get_text() == fixtures.AMPERSAND_WEBSITE


def test_two_terms_with_one_name_stop_the_build_naming_both_files(build_site):
    files = sb.base_files()
    files.update(sb.category("food", "مطاعم"))  # the name of restaurants.md
    files.update(sb.city("casa", "الدار البيضاء"))
    files.update(sb.listing("zaytouna", "مطعم الزيتونة"))
    result = build_site(files)
    assert result.returncode != 0
    assert "Traceback" not in result.log
    lines = [line for line in result.log.splitlines() if "duplicate" in line]
    assert any("categories/restaurants.md" in line and "categories/food.md" in line
               and "مطاعم" in line for line in lines), result.log
    assert any("cities/casablanca.md" in line and "cities/casa.md" in line
               for line in lines), result.log
    assert not (result.output / "directory" / "export.json").exists()


def test_rss_guid_of_a_news_item_is_its_json_feed_id(hostile):
    import json

    rss = feedparser.parse(hostile.read("rss.xml", "rb"))
    feed = json.loads(hostile.read("feed.json"))
    assert {entry.link: entry.id for entry in rss.entries} == {
        item["url"]: item["id"] for item in feed["items"]}
