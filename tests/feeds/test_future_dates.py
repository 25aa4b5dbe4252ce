"""News and blog articles dated after the build time (SOURCE_DATE_EPOCH, 2026-11-21T12:00Z)
wait for their date, Pelican's ``WITH_FUTURE_DATES`` off as in ``dalil.conf``: no feed,
sitemap, search entry, home-page link or count shows them; they are drafts until then.
``tomorrow`` is in the machine's past and the build's future: the build's time decides."""

import datetime as dt
import json

import feedparser
import pytest
from bs4 import BeautifulSoup
from lxml import etree

from tests import sitebuilder as sb
from tests.sitemaps.test_sitemaps import crawl

NEWS = {"past": "2026-11-21T10:00:00+00:00", "tomorrow": "2026-11-22T09:00:00+00:00",
        "far": "2030-01-01T09:00:00+00:00"}
FUTURE = {f"{sb.SITEURL}/news/tomorrow/", f"{sb.SITEURL}/news/far/",
          f"{sb.SITEURL}/blog/later/"}
NEWS_NS = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def files():
    files = sb.base_files()
    files.update(sb.listing("zaytouna", "مطعم الزيتونة"))
    for slug, date in NEWS.items():
        files.update(sb.news(slug, f"خبر {slug}", date))
    files["blog/later.md"] = sb.metadata_file("نص.", Title="مقال لاحق", Slug="later",
                                              Date="2027-03-01 10:00")
    files["blog/now.md"] = sb.metadata_file("نص.", Title="مقال", Slug="now",
                                            Date="2026-11-20 10:00")
    return files


@pytest.fixture(scope="module")
def waiting(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("future"), files())
    assert result.returncode == 0, result.log
    return result


@pytest.fixture(scope="module")
def with_future(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("with-future"), files(),
                           WITH_FUTURE_DATES=True)
    assert result.returncode == 0, result.log
    return result


def feed_links(site):
    rss = feedparser.parse(site.read("rss.xml", "rb"))
    assert not rss.bozo, rss.bozo_exception
    items = json.loads(site.read("feed.json"))["items"]
    assert [entry.link for entry in rss.entries] == [item["url"] for item in items]
    return [entry.link for entry in rss.entries]


def news_sitemap_urls(site):
    root = etree.fromstring(site.read("news-sitemap.xml", "rb"))
    return root.xpath("sm:url/sm:loc/text()", namespaces=NEWS_NS)


def sitemap_pages(site):
    (index, _), _ = crawl(site)
    return {page.url for page in index.all_pages()}


def search_urls(site):
    return {entry["url"] for entry in json.loads(site.read("search-index.json"))}


def home_links(site):
    page = BeautifulSoup(site.read("index.html"), "html.parser")
    return {link["href"] for link in page.find_all("a", href=True)}


def test_future_news_are_in_no_feed_and_no_sitemap(waiting):
    assert feed_links(waiting) == [f"{sb.SITEURL}/news/past/"]
    assert news_sitemap_urls(waiting) == [f"{sb.SITEURL}/news/past/"]
    pages = sitemap_pages(waiting)
    assert {f"{sb.SITEURL}/news/past/", f"{sb.SITEURL}/blog/now/"} <= pages
    assert not pages & FUTURE


def test_future_articles_are_drafts_until_their_date(waiting):
    for url in FUTURE:
        path = url[len(sb.SITEURL) + 1:]
        assert not waiting.path(path + "index.html").exists()
        assert waiting.path("drafts/" + path + "index.html").is_file()
    assert not {url[len(sb.SITEURL):] for url in FUTURE} & search_urls(waiting)
    assert f"{sb.SITEURL}/news/past/" in home_links(waiting)
    assert not {url for url in home_links(waiting) if url.startswith(tuple(FUTURE))}
    counts = json.loads(waiting.read("build-info.json"))["counts"]
    assert (counts["news"], counts["blog"]) == (1, 1), counts


def test_with_future_dates_they_are_published_newest_first(with_future):
    assert feed_links(with_future) == [f"{sb.SITEURL}/news/{slug}/"
                                       for slug in ("far", "tomorrow", "past")]
    assert FUTURE <= sitemap_pages(with_future)
    assert {url[len(sb.SITEURL):] for url in FUTURE} <= search_urls(with_future)
    assert f"{sb.SITEURL}/news/far/" in home_links(with_future)
    counts = json.loads(with_future.read("build-info.json"))["counts"]
    assert (counts["news"], counts["blog"]) == (3, 2), counts


def test_the_build_time_decides_not_the_machine_clock(tmp_path):
    # Built as of 2030-06-01: "far" (2030-01-01) has come, whatever the machine's clock says,
    # and the same build time gives the same feed with the cache of an earlier build.
    env = {"SOURCE_DATE_EPOCH": str(int(dt.datetime(2030, 6, 1, tzinfo=dt.timezone.utc).timestamp()))}
    result = sb.build_site(tmp_path, files(), env=env, CACHE_CONTENT=True, LOAD_CONTENT_CACHE=True)
    assert result.returncode == 0, result.log
    assert feed_links(result)[0] == f"{sb.SITEURL}/news/far/"
    assert result.path("blog/later/index.html").is_file()
    rebuilt = sb.run_pelican(tmp_path)  # back to 2026-11-21, with the cache of the 2030 build
    assert rebuilt.returncode == 0, rebuilt.log
    assert feed_links(rebuilt) == [f"{sb.SITEURL}/news/past/"]
    assert rebuilt.path("drafts/news/far/index.html").is_file()
