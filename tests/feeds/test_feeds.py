"""RSS 2.0 (Pelican's feed writer) and JSON Feed 1.1 of news, on tiny fixture sites."""

import datetime as dt
import json
import re

import feedparser
import jsonschema
import pytest
from bs4 import BeautifulSoup
from lxml import etree

from tests import sitebuilder as sb
from tests.schemas import json_schema

TRICKY_TITLE = "خبر \"عاجل\" & <الميناء> 'اليوم'"
BUILD_TIME = dt.datetime(2026, 11, 21, 12, 0, tzinfo=dt.timezone.utc)
RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def news_item(slug, title, date, body="نص الخبر.", **fields):
    return {f"news/{slug}.md": sb.metadata_file(body, Title=title, Slug=slug, Date=date, **fields)}


def fixture_files():
    files = sb.base_files()
    files.update(sb.listing("zaytouna", "مطعم الزيتونة"))
    files.update(news_item("fresh", TRICKY_TITLE, "2026-11-20T10:00:00+00:00",
                           body="النص الكامل للخبر العاجل.",
                           Modified="2026-11-21T09:00:00+00:00",
                           Summary="ملخص قصير للخبر", Image="/images/n.svg"))
    files.update(news_item("second", "الخبر الثاني", "2026-11-18 09:00"))
    files.update(news_item("third", "الخبر الثالث", "2026-11-10 09:00"))
    files.update(news_item("fourth", "الخبر الرابع", "2026-11-01 09:00"))
    files.update(news_item("unfinished", "خبر مسودة", "2026-11-21 08:00", Status="draft"))
    files["blog/tips.md"] = sb.metadata_file("نصائح.", Title="نصائح", Slug="tips",
                                             Date="2026-11-21 10:00")
    files["images/n.svg"] = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'
    return files


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("feeds"), fixture_files(), FEED_MAX_ITEMS=3)
    assert result.returncode == 0, result.log
    return result


@pytest.fixture(scope="module")
def variant(tmp_path_factory):
    """Full content in RSS descriptions, JSON Feed turned off."""
    files = sb.base_files()
    files.update(news_item("only", "خبر وحيد", "2026-11-20 10:00", body="النص الكامل هنا.",
                           Summary="ملخص فقط"))
    result = sb.build_site(tmp_path_factory.mktemp("feeds-variant"), files,
                           RSS_FEED_SUMMARY_ONLY=False, DALIL_FEEDS_JSON_SAVE_AS="")
    assert result.returncode == 0, result.log
    return result


@pytest.fixture(scope="module")
def no_news(tmp_path_factory):
    files = sb.base_files()
    files["blog/tips.md"] = sb.metadata_file("نصائح.", Title="نصائح", Slug="tips",
                                             Date="2026-11-01")
    result = sb.build_site(tmp_path_factory.mktemp("feeds-empty"), files)
    assert result.returncode == 0, result.log
    return result


def rss(site):
    parsed = feedparser.parse(site.read("rss.xml", "rb"))
    assert not parsed.bozo, parsed.get("bozo_exception")
    return parsed


def json_feed(site):
    feed = json.loads(site.read("feed.json"))
    jsonschema.Draft7Validator(json_schema("jsonfeed-1.1.schema.json"),
                               format_checker=jsonschema.FormatChecker()).validate(feed)
    return feed


# -- RSS 2.0 ---------------------------------------------------------------

def test_rss_is_rss20_of_news_only_newest_first_at_most_feed_max_items(site):
    parsed = rss(site)
    assert parsed.version == "rss20"
    assert [entry.link for entry in parsed.entries] == [
        f"{sb.SITEURL}/news/fresh/", f"{sb.SITEURL}/news/second/", f"{sb.SITEURL}/news/third/"]
    published = [dt.datetime(*entry.published_parsed[:6]) for entry in parsed.entries]
    assert published == sorted(published, reverse=True)
    assert published[0] == dt.datetime(2026, 11, 20, 10, 0)


def test_rss_channel_has_language_self_link_and_title(site):
    parsed = rss(site)
    assert parsed.feed.language == "ar"
    assert parsed.feed.title == "دليل - الأخبار"
    assert parsed.feed.link == f"{sb.SITEURL}/"
    self_links = [link.href for link in parsed.feed.links if link.rel == "self"]
    assert self_links == [f"{sb.SITEURL}/rss.xml"]


def test_rss_items_have_title_link_description_pubdate_guid(site):
    channel = etree.fromstring(site.read("rss.xml", "rb")).find("channel")
    items = channel.findall("item")
    assert len(items) == 3
    for item in items:
        for name in ("title", "link", "description", "pubDate", "guid"):
            assert (item.findtext(name) or "").strip(), name
        assert item.find("guid").get("isPermaLink") in (None, "true")
    ids = [item.findtext("guid") for item in items]
    assert len(set(ids)) == 3


def test_rss_guid_is_the_json_feed_id_of_the_same_item(site):
    guids = {entry.link: entry.id for entry in rss(site).entries}
    ids = {item["url"]: item["id"] for item in json_feed(site)["items"]}
    assert guids == ids
    assert all(guid.startswith(f"{sb.SITEURL}/") for guid in guids.values())


def test_rss_title_keeps_arabic_and_markup_characters(site):
    assert rss(site).entries[0].title == TRICKY_TITLE
    channel = etree.fromstring(site.read("rss.xml", "rb")).find("channel")
    assert channel.find("item").findtext("title") == TRICKY_TITLE


def test_rss_description_is_the_summary_by_default(site):
    entry = rss(site).entries[0]
    assert "ملخص قصير للخبر" in entry.summary
    assert "النص الكامل" not in entry.summary


def test_rss_description_is_the_full_content_when_summary_only_is_off(variant):
    entry = rss(variant).entries[0]
    assert "النص الكامل هنا." in entry.summary


def test_empty_rss_is_valid_and_dated_by_the_build_time(no_news):
    parsed = rss(no_news)
    assert parsed.version == "rss20" and parsed.entries == []
    assert dt.datetime(*parsed.feed.updated_parsed[:6]) == BUILD_TIME.replace(tzinfo=None)


# -- JSON Feed 1.1 ---------------------------------------------------------

def test_json_feed_validates_and_has_the_top_level_fields(site):
    feed = json_feed(site)
    assert feed["version"] == "https://jsonfeed.org/version/1.1"
    assert feed["title"] == "دليل - الأخبار"
    assert feed["home_page_url"] == f"{sb.SITEURL}/"
    assert feed["feed_url"] == f"{sb.SITEURL}/feed.json"
    assert feed["language"] == "ar"
    assert list(feed)[0] == "version"


def test_json_feed_items_are_news_only_newest_first_at_most_feed_max_items(site):
    items = json_feed(site)["items"]
    assert [item["url"] for item in items] == [
        f"{sb.SITEURL}/news/fresh/", f"{sb.SITEURL}/news/second/", f"{sb.SITEURL}/news/third/"]
    assert [item["date_published"] for item in items] == [
        "2026-11-20T10:00:00Z", "2026-11-18T08:00:00Z", "2026-11-10T08:00:00Z"]


def test_json_feed_item_fields(site):
    first, second, _ = json_feed(site)["items"]
    assert first == {
        "id": f"{sb.SITEURL}/news/fresh/",
        "url": f"{sb.SITEURL}/news/fresh/",
        "title": TRICKY_TITLE,
        "content_html": "<p>النص الكامل للخبر العاجل.</p>",
        "date_published": "2026-11-20T10:00:00Z",
        "date_modified": "2026-11-21T09:00:00Z",
        "summary": "ملخص قصير للخبر",
        "image": f"{sb.SITEURL}/images/n.svg",
    }
    # Optional fields only where the article has them; never null or "".
    assert set(second) == {"id", "url", "title", "content_html", "date_published"}
    for item in json_feed(site)["items"]:
        assert RFC3339.fullmatch(item["date_published"])
        assert all(isinstance(value, str) and value for value in item.values())


def test_json_feed_bytes_are_utf8_not_escaped(site):
    raw = site.read("feed.json", "rb")
    assert TRICKY_TITLE.split()[0].encode("utf-8") in raw
    assert b"\\u" not in raw


def test_empty_json_feed_validates(no_news):
    assert json_feed(no_news)["items"] == []


def test_turned_off_json_feed_is_not_written(variant):
    assert not variant.path("feed.json").exists()
    assert variant.path("rss.xml").is_file()


# -- links from every page ---------------------------------------------------

def alternate_links(site, relpath):
    page = BeautifulSoup(site.read(relpath), "html.parser")
    return {link["type"]: link["href"] for link in page.head.find_all("link", rel="alternate")}


def html_pages(site):
    return [relpath for relpath in site.files() if relpath.endswith(".html")]


def test_every_page_links_both_feeds(site):
    pages = html_pages(site)
    assert len(pages) > 8
    for relpath in pages:
        assert alternate_links(site, relpath) == {
            "application/rss+xml": f"{sb.SITEURL}/rss.xml",
            "application/feed+json": f"{sb.SITEURL}/feed.json",
        }, relpath


def test_a_turned_off_feed_is_not_linked(variant):
    for relpath in html_pages(variant):
        assert alternate_links(variant, relpath) == {
            "application/rss+xml": f"{sb.SITEURL}/rss.xml"}, relpath
