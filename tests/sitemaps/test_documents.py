"""The sub-sitemap split on its own: both limits, the protocol's 50 MB included."""

import datetime as dt
import marshal
import random

import pytest
from lxml import etree

from dalil.sitemaps.documents import (Location, NewsLocation, SitemapTooSmall, line_key,
                                      news_sitemap, sitemap_lines, split_lines, url_lines)
from dalil.sitemaps.settings import PROTOCOL_MAX_BYTES, PROTOCOL_MAX_URLS
from tests.schemas import news_sitemap_schema, xml_schema

NS = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}
WHEN = "2026-11-20T09:30:00Z"  # a lastmod as sitemaps show it (rfc3339)
PUBLISHED = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.timezone.utc)


def split_sitemaps(locations, max_urls, max_bytes, memo=None, used=None):
    """The sitemaps of ``locations``, as the generator makes them of its columns."""
    lines = sitemap_lines(locations, memo, used)
    return split_lines([location.loc for location in locations],
                       [location.lastmod for location in locations], lines, max_urls, max_bytes)


def locations(count, path_length=20):
    padding = "x" * path_length
    return [Location(f"https://dalil.test/{padding}/{number:06d}/", WHEN) for number in range(count)]


def locs(sitemap):
    return etree.fromstring(sitemap.document).xpath("sm:url/sm:loc/text()", namespaces=NS)


def test_the_protocol_limits_are_the_defaults():
    assert (PROTOCOL_MAX_URLS, PROTOCOL_MAX_BYTES) == (50_000, 52_428_800)


def test_url_limit_splits_in_order_without_loss():
    given = locations(10)
    sitemaps = split_sitemaps(given, max_urls=4, max_bytes=PROTOCOL_MAX_BYTES)
    assert [len(locs(sitemap)) for sitemap in sitemaps] == [4, 4, 2]
    assert [loc for sitemap in sitemaps for loc in locs(sitemap)] == [item.loc for item in given]
    assert [loc for sitemap in sitemaps for loc in sitemap.locs] == [item.loc for item in given]
    assert [sitemap.lastmod for sitemap in sitemaps] == [WHEN] * 3


def test_byte_limit_is_exact_and_never_exceeded():
    given = locations(50)
    whole = split_sitemaps(given, PROTOCOL_MAX_URLS, PROTOCOL_MAX_BYTES)[0].document
    for limit in (len(whole), len(whole) - 1, 1000, 700):
        sitemaps = split_sitemaps(given, PROTOCOL_MAX_URLS, limit)
        assert all(len(sitemap.document) <= limit for sitemap in sitemaps), limit
        assert [loc for sitemap in sitemaps for loc in locs(sitemap)] == [item.loc for item in given]
        # Greedy: each file but the last would overflow with the next URL.
        if limit == len(whole):
            assert len(sitemaps) == 1
        else:
            assert len(sitemaps) >= 2


def test_a_memo_of_lines_serialises_only_new_urls_and_dates(monkeypatch):
    from dalil.sitemaps import documents

    given = locations(30)
    used = {}
    split_sitemaps(given, 7, 2000, None, used)
    serialised = []
    original = documents.url_lines
    monkeypatch.setattr(documents, "url_lines",
                        lambda items: serialised.append(len(items)) or original(items))
    moved = [*given[:4], Location(given[4].loc, "2026-11-21T09:30:00Z"), *given[5:],
             Location("https://dalil.test/new/", None)]
    again = {}
    sitemaps = split_sitemaps(moved, 7, 2000, used, again)
    assert serialised == [2]
    assert [s.document for s in sitemaps] == [s.document for s in split_sitemaps(moved, 7, 2000)]
    assert "2026-11-21T09:30:00Z" in b"".join(s.document for s in sitemaps).decode()
    assert set(again) == {line_key(item) for item in moved}  # this build's lines only
    assert marshal.loads(marshal.dumps(again)) == again  # the memo is kept as marshal data


def test_a_line_key_tells_apart_what_the_line_shows():
    given = Location("https://dalil.test/a/", WHEN)
    others = [Location(given.loc, None), Location(given.loc, "2026-11-20T09:30:01Z"),
              Location("https://dalil.test/b/", WHEN)]
    assert len({url_lines([item])[0] for item in (given, *others)}) == 4
    assert len({line_key(item) for item in (given, *others)}) == 4
    assert line_key(Location(given.loc, WHEN)) == line_key(given)


def test_same_pages_in_any_order_give_the_same_files():
    given = locations(30)
    shuffled = given[:]
    random.Random(4).shuffle(shuffled)
    first = split_sitemaps(given, 7, 2000)
    assert [s.document for s in split_sitemaps(shuffled, 7, 2000)] == [s.document for s in first]


def test_a_url_too_big_for_any_file_is_an_error():
    with pytest.raises(SitemapTooSmall):
        split_sitemaps(locations(1, path_length=500), PROTOCOL_MAX_URLS, 400)


def test_no_pages_still_give_one_valid_urlset():
    (sitemap,) = split_sitemaps([], PROTOCOL_MAX_URLS, PROTOCOL_MAX_BYTES)
    assert etree.fromstring(sitemap.document).tag == f"{{{NS['sm']}}}urlset"
    assert sitemap.locs == () and sitemap.lastmod is None


def test_fifty_megabytes_split_before_fifty_thousand_urls():
    # 2,000-character URLs (the protocol allows 2,048): about 2.1 KB a <url>, so the
    # byte limit is reached near 25,000 URLs, long before the URL limit.
    given = locations(26_000, path_length=1_960)
    sitemaps = split_sitemaps(given, PROTOCOL_MAX_URLS, PROTOCOL_MAX_BYTES)
    assert len(sitemaps) == 2
    sizes = [len(sitemap.document) for sitemap in sitemaps]
    assert sizes[0] <= PROTOCOL_MAX_BYTES and sizes[0] > PROTOCOL_MAX_BYTES - 2_100
    assert sum(len(sitemap.locs) for sitemap in sitemaps) == len(given)
    assert sitemaps[0].locs[-1] < sitemaps[1].locs[0]
    for sitemap in sitemaps:
        tree = etree.ElementTree(etree.fromstring(sitemap.document, etree.XMLParser(huge_tree=True)))
        assert xml_schema("sitemap.xsd").validate(tree)


def test_news_sitemap_escapes_names():
    title = "خبر \"عاجل\" & <الميناء> 'اليوم'"
    document = news_sitemap([NewsLocation("https://dalil.test/news/a/", PUBLISHED, title,
                                          "دليل & شركاؤه", "ar")])
    root = etree.fromstring(document)
    ns = {"news": "http://www.google.com/schemas/sitemap-news/0.9"}
    assert root.findtext(".//news:title", namespaces=ns) == title
    assert root.findtext(".//news:name", namespaces=ns) == "دليل & شركاؤه"
    assert news_sitemap_schema().validate(etree.ElementTree(root))
