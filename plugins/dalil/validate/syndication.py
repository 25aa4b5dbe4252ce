"""Checks of the feeds (RSS, JSON Feed) and the sitemaps: parsed, within the protocols'
limits, every link inside the site."""

import email.utils
import re

from .parsing import check_against_schema, check_internal, load_json, load_xml, parse_datetime


SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9"
# Protocol limits: sitemaps.org, Google News.
SITEMAP_MAX_URLS = 50_000
SITEMAP_MAX_BYTES = 50 * 1024 * 1024
NEWS_SITEMAP_MAX_URLS = 1_000
URL_MAX_LENGTH = 2_048
_W3C_DATETIME = re.compile(
    r"\d{4}(-\d\d(-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d))?)?)?")


# JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/): the parts a reader relies on.
JSON_FEED_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "required": ["version", "title", "items"],
    "properties": {
        "version": {"const": "https://jsonfeed.org/version/1.1"},
        "title": {"type": "string"},
        "home_page_url": {"type": "string"},
        "feed_url": {"type": "string"},
        "language": {"type": "string"},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id"],
                "anyOf": [{"required": ["content_html"]}, {"required": ["content_text"]}],
                "properties": {
                    "id": {"type": "string", "minLength": 1},
                    "url": {"type": "string"},
                    "title": {"type": "string"},
                    "content_html": {"type": "string"},
                    "content_text": {"type": "string"},
                    "summary": {"type": "string"},
                    "image": {"type": "string"},
                    "date_published": {"type": "string"},
                    "date_modified": {"type": "string"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
    },
}


def check_rss(site, relpath, report):
    root = load_xml(site, relpath, report)
    if root is None:
        return
    if root.tag != "rss" or root.get("version") != "2.0":
        report.problem(relpath, "is not RSS 2.0 (root <%s version=%r>)", root.tag,
                       root.get("version"))
        return
    channel = root.find("channel")
    if channel is None:
        report.problem(relpath, "has no <channel>")
        return
    for name in ("title", "link", "description"):
        if channel.find(name) is None:
            report.problem(relpath, "channel has no <%s>", name)
    items = channel.findall("item")
    report.count("feed items", len(items))
    limit = site.settings.get("FEED_MAX_ITEMS")
    if limit and len(items) > int(limit):
        report.problem(relpath, "has %d items, more than FEED_MAX_ITEMS (%s)", len(items), limit)
    for number, item in enumerate(items, start=1):
        if item.find("title") is None and item.find("description") is None:
            report.problem(relpath, "item %d has neither title nor description", number)
        link = item.findtext("link")
        if link:
            check_internal(site, relpath, link, f"item {number} link", report)
        date = item.findtext("pubDate")
        if date is not None:
            try:
                email.utils.parsedate_to_datetime(date)
            except (TypeError, ValueError):
                report.problem(relpath, "item %d pubDate %r is not an RFC 822 date", number, date)


def check_json_feed(site, relpath, report):
    feed = load_json(site, relpath, report)
    if feed is None:
        return
    check_against_schema(site, relpath, feed, JSON_FEED_SCHEMA, "JSON Feed 1.1", report)
    if not isinstance(feed, dict) or not isinstance(feed.get("items"), list):
        return
    report.count("feed items", len(feed["items"]))
    limit = site.settings.get("FEED_MAX_ITEMS")
    if limit and len(feed["items"]) > int(limit):
        report.problem(relpath, "has %d items, more than FEED_MAX_ITEMS (%s)",
                       len(feed["items"]), limit)
    if isinstance(feed.get("feed_url"), str) and site.siteurl:
        check_internal(site, relpath, feed["feed_url"], "feed_url", report)
    ids = set()
    for number, item in enumerate(feed["items"], start=1):
        if not isinstance(item, dict):
            continue
        if item.get("id") in ids:
            report.problem(relpath, "item %d repeats id %r", number, item.get("id"))
        ids.add(item.get("id"))
        for key in ("date_published", "date_modified"):
            if key in item and parse_datetime(item[key]) is None:
                report.problem(relpath, "item %d %s %r is not RFC 3339", number, key, item[key])
        if isinstance(item.get("url"), str):
            check_internal(site, relpath, item["url"], f"item {number} url", report)


def _sitemap_size(site, relpath, report):
    size = site.path(relpath).stat().st_size
    if size > SITEMAP_MAX_BYTES:
        report.problem(relpath, "is %d bytes, over the sitemap limit of %d", size,
                       SITEMAP_MAX_BYTES)


def _check_loc(site, relpath, loc, report):
    if not loc:
        report.problem(relpath, "has an empty <loc>")
    elif len(loc) >= URL_MAX_LENGTH:
        report.problem(relpath, "URL of %d characters (the limit is %d): %s", len(loc),
                       URL_MAX_LENGTH, loc[:80])
    elif site.siteurl and not loc.startswith(("http://", "https://")):
        report.problem(relpath, "<loc> %s is not an absolute URL", loc)
    else:
        check_internal(site, relpath, loc, "<loc>", report)


def check_urlset(site, relpath, report, news=False):
    root = load_xml(site, relpath, report)
    if root is None:
        return
    _sitemap_size(site, relpath, report)
    if root.tag != f"{{{SITEMAP_NS}}}urlset":
        report.problem(relpath, "root element is %s, not a sitemap <urlset>", root.tag)
        return
    urls = root.findall(f"{{{SITEMAP_NS}}}url")
    report.count("sitemap URLs", len(urls))
    limit = NEWS_SITEMAP_MAX_URLS if news else SITEMAP_MAX_URLS
    if len(urls) > limit:
        report.problem(relpath, "lists %d URLs, over the limit of %d", len(urls), limit)
    for url in urls:
        _check_loc(site, relpath, (url.findtext(f"{{{SITEMAP_NS}}}loc") or "").strip(), report)
        lastmod = url.findtext(f"{{{SITEMAP_NS}}}lastmod")
        if lastmod is not None and not _W3C_DATETIME.fullmatch(lastmod.strip()):
            report.problem(relpath, "<lastmod> %r is not a W3C datetime", lastmod)
        if news:
            article = url.find(f"{{{NEWS_NS}}}news")
            if article is None:
                report.problem(relpath, "a <url> has no <news:news>")
                continue
            for name in ("publication", "publication_date", "title"):
                if article.find(f"{{{NEWS_NS}}}{name}") is None:
                    report.problem(relpath, "a <news:news> has no <news:%s>", name)
            date = article.findtext(f"{{{NEWS_NS}}}publication_date")
            if date is not None and not _W3C_DATETIME.fullmatch(date.strip()):
                report.problem(relpath, "<news:publication_date> %r is not a W3C datetime", date)


def check_sitemaps(site, outputs, report):
    index_path = outputs.get("sitemap_index")
    if index_path and site.exists(index_path):
        root = load_xml(site, index_path, report)
        if root is not None:
            _sitemap_size(site, index_path, report)
            if root.tag != f"{{{SITEMAP_NS}}}sitemapindex":
                report.problem(index_path, "root element is %s, not <sitemapindex>", root.tag)
            else:
                entries = root.findall(f"{{{SITEMAP_NS}}}sitemap")
                if not entries:
                    report.problem(index_path, "lists no sitemap")
                if len(entries) > SITEMAP_MAX_URLS:
                    report.problem(index_path, "lists %d sitemaps, over the limit of %d",
                                   len(entries), SITEMAP_MAX_URLS)
                for entry in entries:
                    loc = (entry.findtext(f"{{{SITEMAP_NS}}}loc") or "").strip()
                    internal, target = site.resolve(loc)
                    if not internal or target is None:
                        report.problem(index_path, "lists %s, which is not a file of the site",
                                       loc)
                    elif target != outputs.get("news_sitemap"):
                        check_urlset(site, target, report)
    news_path = outputs.get("news_sitemap")
    if news_path and site.exists(news_path):
        check_urlset(site, news_path, report, news=True)
