"""Every published HTML page of the site, with its last modification, for the sitemaps.

Read from the model and Pelican's context, never from written files: listings,
categories and cities (with their page/N/ pages), articles, Pelican's category pages
(/news/, /blog/), pages, direct templates (the home page) and the pages plugins
registered with ``dalil.core.pages.register_page``.
"""

import math
from operator import attrgetter
from typing import NamedTuple

from dalil.core.dates import build_time, to_utc
from dalil.core.pages import site_pages
from dalil.directory.model import CONTEXT_KEY as DIRECTORY_KEY
from dalil.directory.settings import directory_settings


class PageEntry(NamedTuple):  # a tuple: made in a third of a frozen dataclass's time
    url: str  # relative to SITEURL, e.g. "directory/listing/x/"
    lastmod: object  # aware UTC datetime


_LISTING_FIELDS = attrgetter("save_as", "url", "modified", "date")  # modified or date: last_modified


def newest(dates):
    dates = [date for date in dates if date]
    return max(dates) if dates else None


def content_date(item, timezone):
    """``Modified``, else ``Date``, in UTC; None for undated content (most pages)."""
    return to_utc(getattr(item, "modified", None) or getattr(item, "date", None), timezone)


def url_of_save_as(save_as):
    """``index.html`` -> ``""``, ``x/index.html`` -> ``x/``: the URL a server answers."""
    if save_as == "index.html" or save_as.endswith("/index.html"):
        return save_as[: -len("index.html")]
    return save_as


def term_page_urls(term, per_page, page_url):
    """A category's or city's URL and those of its pages 2, 3, … (as the directory writes them)."""
    count = max(1, math.ceil(len(term.listings) / max(1, int(per_page))))
    return [term.url] + [term.url + page_url.format(number=number) for number in range(2, count + 1)]


def site_entries(context):
    """Indexable pages, ordered by URL, each URL once.

    A page without a date of its own (home, indexes, an undated page) takes the newest
    date of the site's content, else the build time: every entry has a ``lastmod``.
    """
    timezone = context.get("TIMEZONE") or "UTC"
    directory = context.get(DIRECTORY_KEY)
    listings = directory.listings if directory is not None else []
    articles = context.get("articles", [])
    pages = context.get("pages", [])
    newest_listing = directory.recent(1) if directory is not None else []
    site_lastmod = newest([
        *(listing.last_modified for listing in newest_listing),
        *(content_date(item, timezone) for item in (*articles, *pages)),
    ]) or build_time()

    found = {}
    keep_first = found.setdefault

    def add(url, lastmod):
        keep_first(url, lastmod or site_lastmod)

    for name in context.get("DIRECT_TEMPLATES", ()):
        save_as = context.get(f"{name.upper()}_SAVE_AS", f"{name}.html")
        if save_as:
            add(url_of_save_as(save_as), site_lastmod)
    if directory is not None:
        cfg = directory_settings(context)
        # 100,000 listings: their fields read in C, no call for each.
        for save_as, url, modified, date in map(_LISTING_FIELDS, listings):
            if save_as:
                keep_first(url, modified or date or site_lastmod)
        for term in (*directory.categories, *directory.cities):
            if term.save_as:
                lastmod = directory.last_modified_of(term)
                for url in term_page_urls(term, cfg.per_page, cfg.page_url):
                    add(url, lastmod)
    for article in articles:
        if article.save_as:
            add(article.url, content_date(article, timezone))
    for category, category_articles in context.get("categories", []):
        if category.save_as:
            add(category.url, newest(content_date(item, timezone) for item in category_articles))
    for page in pages:
        if page.save_as:
            add(page.url, content_date(page, timezone))
    registered = site_pages(context)
    for page in registered:
        if page.indexable:
            add(page.url, site_lastmod)
    excluded = {page.url for page in registered if not page.indexable}
    return [PageEntry(url, found[url]) for url in sorted(found) if url not in excluded]
