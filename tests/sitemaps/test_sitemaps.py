"""Sitemap index and sub-sitemaps, news sitemap, /sitemap/ and robots.txt on fixture sites."""

import datetime as dt
import re
import urllib.robotparser
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup
from lxml import etree
from usp.objects.sitemap import IndexRobotsTxtSitemap, IndexXMLSitemap, InvalidSitemap
from usp.tree import sitemap_tree_for_homepage
from usp.web_client.abstract_client import (AbstractWebClient, LocalWebClientSuccessResponse,
                                            WebClientErrorResponse)

from tests import sitebuilder as sb
from tests.schemas import news_sitemap_schema, xml_schema

NS = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9",
      "news": "http://www.google.com/schemas/sitemap-news/0.9"}
TRICKY_NAME = 'مقهى "الأصدقاء" & شركاؤهم; فرع <الميناء>, \'طنجة\''
TRICKY_TITLE = "خبر \"عاجل\" & <الميناء> 'اليوم'"
W3C_DATETIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
# SOURCE_DATE_EPOCH of every fixture build: 2026-11-21T12:00:00Z.
HOURS_47_BEFORE = "2026-11-19T13:00:00+00:00"
HOURS_49_BEFORE = "2026-11-19T11:00:00+00:00"


def fixture_files():
    files = sb.base_files()
    files.update(sb.category("pharmacies", "صيدليات", "Pharmacies", "Pharmacies"))
    files.update(sb.city("rabat", "الرباط", "RAB", "Rabat", "Rabat"))
    files.update(sb.listing("zaytouna", "مطعم الزيتونة", Date="2026-01-01 10:00",
                            Modified="2026-10-02 16:30"))
    files.update(sb.listing("friends-cafe", TRICKY_NAME, city="rabat"))
    files.update(sb.listing("atlas-pharmacy", "صيدلية الأطلس", category="pharmacies",
                            Date="2026-02-01"))
    files.update(sb.listing("secret-shop", "متجر مخفي", Status="hidden"))
    files.update(sb.listing("future-bakery", "مخبزة قادمة", Status="draft"))
    files.update(sb.news("fresh", TRICKY_TITLE, HOURS_47_BEFORE))
    files.update(sb.news("stale", "خبر قبل 49 ساعة", HOURS_49_BEFORE))
    files.update(sb.news("unfinished", "خبر مسودة", "2026-11-21T10:00:00+00:00", Status="draft"))
    files.update(sb.news("tips", "نصيحة اليوم", "2026-11-21T09:00:00+00:00",
                         category_folder="blog"))
    files["pages/open-data.md"] = sb.metadata_file("البيانات.", Title="البيانات المفتوحة",
                                                   Slug="open-data")
    return files


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("sitemaps"), fixture_files(),
                           DALIL_DIRECTORY_PER_PAGE=1)
    assert result.returncode == 0, result.log
    return result


@pytest.fixture(scope="module")
def split_site(tmp_path_factory):
    """At most 3 URLs per sub-sitemap; cities under an Arabic path; no recent news."""
    files = sb.base_files()
    for number in range(9):
        files.update(sb.listing(f"shop-{number}", f"متجر {number}", Date=f"2026-0{number + 1}-01"))
    files.update(sb.news("old", "خبر قديم", "2026-10-01 10:00"))
    result = sb.build_site(tmp_path_factory.mktemp("sitemaps-split"), files,
                           DALIL_SITEMAPS_MAX_URLS=3,
                           DALIL_DIRECTORY_CITY_URL="directory/مدينة/{slug}/",
                           DALIL_DIRECTORY_CITY_SAVE_AS="directory/مدينة/{slug}/index.html")
    assert result.returncode == 0, result.log
    return result


def parse(site, relpath):
    return etree.fromstring(site.read(relpath, "rb"))


def validated(site, relpath, validator):
    tree = etree.ElementTree(parse(site, relpath))
    assert validator.validate(tree), (relpath, validator.error_log)
    return tree.getroot()


def relpath_of(url):
    """The output file a URL of the site is served from."""
    path = unquote(urlsplit(url).path).lstrip("/")
    return path + "index.html" if path == "" or path.endswith("/") else path


def sub_sitemaps(site):
    index = validated(site, "sitemap-index.xml", xml_schema("siteindex.xsd"))
    locs = index.xpath("sm:sitemap/sm:loc/text()", namespaces=NS)
    for lastmod in index.xpath("sm:sitemap/sm:lastmod/text()", namespaces=NS):
        assert W3C_DATETIME.fullmatch(lastmod)
    return [relpath_of(loc) for loc in locs]


def sitemap_urls(site):
    """(loc, lastmod) of every URL of every sub-sitemap, each validated."""
    urls = []
    for relpath in sub_sitemaps(site):
        root = validated(site, relpath, xml_schema("sitemap.xsd"))
        for url in root.xpath("sm:url", namespaces=NS):
            urls.append((url.findtext("sm:loc", namespaces=NS),
                         url.findtext("sm:lastmod", namespaces=NS)))
    return urls


def noindex(site, relpath):
    page = BeautifulSoup(site.read(relpath), "html.parser")
    meta = page.find("meta", attrs={"name": "robots"})
    return meta is not None and "noindex" in meta["content"]


def indexable_page_urls(site):
    """Every page on disk, minus noindex pages, drafts and hidden listings (rendered, listed
    nowhere): found without the generator's help."""
    return {
        f"{sb.SITEURL}/{relpath[:-len('index.html')]}" for relpath in site.files()
        if (relpath == "index.html" or relpath.endswith("/index.html"))
        and not relpath.startswith("drafts/") and "secret-shop" not in relpath
        and not noindex(site, relpath)
    }


# -- sitemap index and sub-sitemaps -------------------------------------------

def test_index_lists_exactly_the_sub_sitemaps_written(site):
    listed = sub_sitemaps(site)
    written = [p for p in site.files() if re.fullmatch(r"sitemap-\d+\.xml", p)]
    assert sorted(listed) == sorted(written) == ["sitemap-0.xml"]


def test_every_indexable_html_page_is_listed_once_and_nothing_else(site):
    locs = [loc for loc, _ in sitemap_urls(site)]
    assert len(locs) == len(set(locs))
    for loc in locs:
        assert loc.startswith(sb.SITEURL + "/"), loc
        assert site.path(relpath_of(loc)).is_file(), loc
    assert set(locs) == indexable_page_urls(site)


def test_sitemaps_hold_every_kind_of_page(site):
    locs = {loc for loc, _ in sitemap_urls(site)}
    for path in ["", "directory/", "directory/listing/zaytouna/",
                 "directory/listing/friends-cafe/", "directory/category/restaurants/",
                 "directory/category/restaurants/page/2/", "directory/category/pharmacies/",
                 "directory/city/casablanca/", "directory/city/casablanca/page/2/",
                 "directory/city/rabat/", "news/", "news/fresh/", "news/stale/", "blog/",
                 "blog/tips/", "about/", "open-data/", "sitemap/"]:
        assert f"{sb.SITEURL}/{path}" in locs, path


def test_sitemaps_leave_out_private_draft_hidden_and_error_pages(site):
    paths = {urlsplit(loc).path for loc, _ in sitemap_urls(site)}
    for path in ["/saved/", "/compare/", "/404/", "/404.html", "/offline/",
                 "/directory/listing/secret-shop/", "/drafts/listing/future-bakery/",
                 "/drafts/news/unfinished/", "/news/unfinished/"]:
        assert path not in paths, path
    assert not any(path.startswith("/drafts/") for path in paths)


def test_lastmod_is_w3c_and_taken_from_the_content(site):
    lastmods = dict(sitemap_urls(site))
    assert all(W3C_DATETIME.fullmatch(lastmod) for lastmod in lastmods.values())
    # Modified 2026-10-02 16:30 in Africa/Casablanca (UTC+1).
    assert lastmods[f"{sb.SITEURL}/directory/listing/zaytouna/"] == "2026-10-02T15:30:00Z"
    assert lastmods[f"{sb.SITEURL}/news/fresh/"] == "2026-11-19T13:00:00Z"
    assert lastmods[f"{sb.SITEURL}/directory/category/pharmacies/"] == "2026-01-31T23:00:00Z"
    # Undated pages take the newest content date (the blog article).
    assert lastmods[f"{sb.SITEURL}/about/"] == "2026-11-21T09:00:00Z"
    index = parse(site, "sitemap-index.xml")
    assert index.xpath("sm:sitemap/sm:lastmod/text()", namespaces=NS) == ["2026-11-21T09:00:00Z"]


def test_split_keeps_every_url_once_within_the_url_limit(split_site):
    relpaths = sub_sitemaps(split_site)
    written = [p for p in split_site.files() if re.fullmatch(r"sitemap-\d+\.xml", p)]
    assert sorted(relpaths) == sorted(written)
    assert relpaths == [f"sitemap-{number}.xml" for number in range(len(relpaths))]
    per_file = []
    for relpath in relpaths:
        root = validated(split_site, relpath, xml_schema("sitemap.xsd"))
        per_file.append(root.xpath("sm:url/sm:loc/text()", namespaces=NS))
    assert len(per_file) >= 7  # 9 listings + terms, pages, home, indexes: over 20 URLs
    assert all(1 <= len(locs) <= 3 for locs in per_file)
    locs = [loc for locs in per_file for loc in locs]
    assert len(locs) == len(set(locs))
    listings = {f"{sb.SITEURL}/directory/listing/shop-{number}/" for number in range(9)}
    assert listings <= set(locs)
    assert locs == sorted(locs)  # filled in URL order: the same pages give the same files


def test_split_is_stable_from_build_to_build(split_site):
    again = sb.run_pelican(split_site.root, output=split_site.root / "output-again")
    assert again.returncode == 0, again.log
    for relpath in ["sitemap-index.xml", *sub_sitemaps(split_site), "news-sitemap.xml",
                    "robots.txt"]:
        assert again.read(relpath, "rb") == split_site.read(relpath, "rb"), relpath


def test_urls_are_absolute_and_percent_encoded(split_site):
    locs = [loc for relpath in sub_sitemaps(split_site)
            for loc in parse(split_site, relpath).xpath("sm:url/sm:loc/text()", namespaces=NS)]
    assert all(loc.isascii() and loc.startswith(f"{sb.SITEURL}/") for loc in locs)
    city = f"{sb.SITEURL}/directory/%D9%85%D8%AF%D9%8A%D9%86%D8%A9/casablanca/"
    assert city in locs
    assert split_site.path(relpath_of(city)).is_file()


# -- news sitemap --------------------------------------------------------------

def test_news_sitemap_holds_news_of_the_last_48_hours_only(site):
    root = validated(site, "news-sitemap.xml", news_sitemap_schema())
    assert root.xpath("sm:url/sm:loc/text()", namespaces=NS) == [f"{sb.SITEURL}/news/fresh/"]


def test_news_sitemap_entry_fields(site):
    url = parse(site, "news-sitemap.xml").find("sm:url", NS)
    news = url.find("news:news", NS)
    assert news.findtext("news:publication/news:name", namespaces=NS) == "دليل"
    assert news.findtext("news:publication/news:language", namespaces=NS) == "ar"
    assert news.findtext("news:publication_date", namespaces=NS) == "2026-11-19T13:00:00Z"
    assert news.findtext("news:title", namespaces=NS) == TRICKY_TITLE


def test_news_sitemap_without_recent_news_is_an_empty_urlset(split_site):
    # The official XSD wants at least one <url>: the structure is checked by hand.
    root = parse(split_site, "news-sitemap.xml")
    assert root.tag == f"{{{NS['sm']}}}urlset"
    assert len(root) == 0 and not (root.text or "").strip()


# -- read back by a crawler's sitemap parser -------------------------------------

class BuildOutputClient(AbstractWebClient):
    """ultimate-sitemap-parser's web client for a built site: the site's URLs are read from
    its output folder and any other is answered 404, so the crawl never leaves the machine."""

    def __init__(self, site):
        self.site = site
        self.requested = []

    def set_max_response_data_length(self, max_response_data_length):
        pass  # the fixture sites are small

    def get(self, url):
        self.requested.append(url)
        if url.startswith(f"{sb.SITEURL}/") and self.site.path(relpath_of(url)).is_file():
            return LocalWebClientSuccessResponse(url, self.site.read(relpath_of(url)))
        return WebClientErrorResponse("404 Not Found", retryable=False)


def crawl(site):
    """The sitemap index and news sitemap as usp finds them from robots.txt, and the URLs it
    fetched."""
    client = BuildOutputClient(site)
    tree = sitemap_tree_for_homepage(f"{sb.SITEURL}/", web_client=client, use_known_paths=False)
    invalid = [s for s in tree.all_sitemaps() if isinstance(s, InvalidSitemap)]
    assert not invalid, [(s.url, s.reason) for s in invalid]
    (robots_txt,) = tree.sub_sitemaps
    assert isinstance(robots_txt, IndexRobotsTxtSitemap)
    assert [sitemap.url for sitemap in robots_txt.sub_sitemaps] == [
        f"{sb.SITEURL}/sitemap-index.xml", f"{sb.SITEURL}/news-sitemap.xml"]
    index, news = robots_txt.sub_sitemaps
    assert isinstance(index, IndexXMLSitemap)
    return (index, news), client.requested


def w3c_datetime(text):
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_crawler_follows_robots_to_every_sitemap_and_reads_every_page_once(site):
    (index, news), requested = crawl(site)
    assert [sub.url for sub in index.sub_sitemaps] == [
        f"{sb.SITEURL}/{relpath}" for relpath in sub_sitemaps(site)]
    assert requested == [f"{sb.SITEURL}/robots.txt", index.url,
                         *(sub.url for sub in index.sub_sitemaps), news.url]
    pages = list(index.all_pages())
    assert len(pages) == len(indexable_page_urls(site))
    assert {page.url for page in pages} == indexable_page_urls(site)
    assert {page.url: page.last_modified for page in pages} == {
        loc: w3c_datetime(lastmod) for loc, lastmod in sitemap_urls(site)}
    assert not any(page.news_story for page in pages)


def test_crawler_reads_the_news_story(site):
    (_, news), _ = crawl(site)
    (page,) = news.pages
    assert page.url == f"{sb.SITEURL}/news/fresh/"
    story = page.news_story
    assert story.title == TRICKY_TITLE
    assert story.publish_date == w3c_datetime(HOURS_47_BEFORE)
    assert (story.publication_name, story.publication_language) == ("دليل", "ar")


def test_crawler_reads_every_split_sitemap_and_the_empty_news_sitemap(split_site):
    (index, news), _ = crawl(split_site)
    assert len(index.sub_sitemaps) == len(sub_sitemaps(split_site)) >= 7
    assert sorted(page.url for page in index.all_pages()) == sorted(
        loc for relpath in sub_sitemaps(split_site)
        for loc in parse(split_site, relpath).xpath("sm:url/sm:loc/text()", namespaces=NS))
    assert news.pages == []


# -- robots.txt ------------------------------------------------------------------

@pytest.fixture(scope="module")
def robots(site):
    parser = urllib.robotparser.RobotFileParser()
    parser.parse(site.read("robots.txt").splitlines())
    return parser


def test_robots_blocks_saved_compare_and_404_only(robots):
    for path in ["/saved/", "/compare/", "/404/"]:
        assert not robots.can_fetch("Googlebot", f"{sb.SITEURL}{path}"), path
    for path in ["/", "/directory/listing/zaytouna/", "/directory/category/restaurants/",
                 "/news/fresh/", "/sitemap/", "/search/", "/sitemap-index.xml"]:
        assert robots.can_fetch("Googlebot", f"{sb.SITEURL}{path}"), path


def test_robots_names_the_sitemap_index_and_the_news_sitemap(robots):
    assert robots.site_maps() == [f"{sb.SITEURL}/sitemap-index.xml",
                                  f"{sb.SITEURL}/news-sitemap.xml"]


def test_no_sitemap_lists_a_url_robots_blocks(site, robots):
    for loc, _ in sitemap_urls(site):
        assert robots.can_fetch("Googlebot", loc), loc


def test_closed_pages_carry_noindex_and_listed_pages_do_not(site):
    assert noindex(site, "404/index.html") and noindex(site, "404.html")
    # /saved/ and /compare/ are written by dalil.pwa when it is in PLUGINS.
    for relpath in ("saved/index.html", "compare/index.html"):
        assert not site.path(relpath).exists() or noindex(site, relpath), relpath
    for loc, _ in sitemap_urls(site):
        assert not noindex(site, relpath_of(loc)), loc


# -- the human-readable sitemap --------------------------------------------------

@pytest.fixture(scope="module")
def html_sitemap(site):
    return BeautifulSoup(site.read("sitemap/index.html"), "html.parser")


def section(page, heading_id):
    return page.find(id=heading_id).find_parent("section")


def links(element):
    return [(a["href"].removeprefix(sb.SITEURL), a.get_text()) for a in element.find_all("a")]


def test_html_sitemap_groups_listings_under_their_category(html_sitemap):
    categories = section(html_sitemap, "sitemap-categories")
    groups = {}
    for heading in categories.find_all("h3"):
        groups[heading.a["href"].removeprefix(sb.SITEURL)] = links(heading.find_next_sibling("ul"))
    assert groups == {
        "/directory/category/pharmacies/": [("/directory/listing/atlas-pharmacy/", "صيدلية الأطلس")],
        "/directory/category/restaurants/": [("/directory/listing/zaytouna/", "مطعم الزيتونة"),
                                             ("/directory/listing/friends-cafe/", TRICKY_NAME)],
    }


def test_html_sitemap_then_cities_news_blog_and_pages(html_sitemap):
    ids = [h2["id"] for h2 in html_sitemap.main.find_all("h2")]
    assert ids == ["sitemap-categories", "sitemap-cities", "sitemap-articles-news",
                   "sitemap-articles-blog", "sitemap-pages"]
    assert [href for href, _ in links(section(html_sitemap, "sitemap-cities"))] == [
        "/directory/city/casablanca/", "/directory/city/rabat/"]
    assert links(section(html_sitemap, "sitemap-articles-news")) == [
        ("/news/", "الأخبار"), ("/news/fresh/", TRICKY_TITLE), ("/news/stale/", "خبر قبل 49 ساعة")]
    assert links(section(html_sitemap, "sitemap-articles-blog")) == [
        ("/blog/", "المدونة"), ("/blog/tips/", "نصيحة اليوم")]
    pages = dict(links(section(html_sitemap, "sitemap-pages")))
    assert pages["/"] and pages["/directory/"] == "الدليل"
    assert pages["/about/"] == "من نحن" and pages["/open-data/"] == "البيانات المفتوحة"
    assert "/404/" not in pages and "/saved/" not in pages


def test_every_page_links_the_html_sitemap_from_its_footer(site):
    for relpath in site.files():
        if relpath.endswith(".html"):
            footer = BeautifulSoup(site.read(relpath), "html.parser").find("footer")
            assert footer.find("a", href=f"{sb.SITEURL}/sitemap/"), relpath


def test_html_sitemap_is_made_again_only_when_what_it_shows_changed(tmp_path):
    """With the content cache, an edited description leaves /sitemap/ as it was (a
    same-size stand-in for its file stays, which only a skipped page can leave); a
    renamed listing makes it again, as a clean build makes it."""
    files = fixture_files()
    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True}
    first = sb.build_site(tmp_path / "site", files, **settings)
    assert first.returncode == 0, first.log
    page = first.path("sitemap/index.html")
    original = page.read_bytes()
    page.write_bytes(b"x" * len(original))
    described = sb.listing("zaytouna", "مطعم الزيتونة", Date="2026-01-01 10:00",
                           Modified="2026-11-20 16:30", body="وصف جديد للمطعم.")
    sb.write_site(tmp_path / "site", described, **settings)
    second = sb.run_pelican(tmp_path / "site")
    assert second.returncode == 0, second.log
    assert page.read_bytes() == b"x" * len(original)

    page.write_bytes(original)
    renamed = sb.listing("zaytouna", "مطعم الزيتونة الجديد", Date="2026-01-01 10:00",
                         Modified="2026-11-20 16:30", body="وصف جديد للمطعم.")
    sb.write_site(tmp_path / "site", renamed, **settings)
    third = sb.run_pelican(tmp_path / "site")
    assert third.returncode == 0, third.log
    clean = sb.build_site(tmp_path / "clean", {**files, **renamed})
    assert clean.returncode == 0, clean.log
    assert page.read_bytes() == clean.path("sitemap/index.html").read_bytes()
    assert "مطعم الزيتونة الجديد" in page.read_text(encoding="utf-8")
