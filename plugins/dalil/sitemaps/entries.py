"""Every published HTML page of the site, with its last modification, for the sitemaps.

Read from the model and Pelican's context, never from written files: listings,
categories and cities (with their page/N/ pages), articles, Pelican's category pages
(/news/, /blog/), pages, direct templates (the home page) and the pages plugins
registered with ``dalil.core.pages.register_page``.
"""

import math
from typing import NamedTuple

from dalil.core.dates import build_time, to_utc
from dalil.core.pages import site_pages
from dalil.directory.articles import content_save_as
from dalil.directory.model import CONTEXT_KEY as DIRECTORY_KEY
from dalil.directory.settings import directory_settings


class PageEntry(NamedTuple):  # a tuple: made in a third of a frozen dataclass's time
    url: str  # relative to SITEURL, e.g. "directory/listing/x/"
    lastmod: object  # aware UTC datetime; a listing's: its RFC 3339 text, or None (``listing_entries``)




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


def site_lastmod(context):
    """The newest date of the site's content, else the build time: the ``lastmod`` of a
    page without a date of its own (home, indexes, an undated page or listing)."""
    timezone = context.get("TIMEZONE") or "UTC"
    directory = context.get(DIRECTORY_KEY)
    newest_listing = directory.recent(1) if directory is not None else []
    return newest([
        *(listing.last_modified for listing in newest_listing),
        *(content_date(item, timezone)
          for item in (*context.get("articles", []), *context.get("pages", []))),
    ]) or build_time()


def listing_entries(listings):
    """A ``PageEntry`` for each published listing of ``listings``: its URL and its own
    date as the sitemap shows it (``Listing.date_modified``, made as it was read), None
    when it has none (its sitemap line shows ``site_lastmod``)."""
    return [PageEntry(listing.url, listing.date_modified or None)
            for listing in listings if listing.save_as]


def closed_urls(context):
    """The URLs of the pages registered as not indexable: no sitemap lists them."""
    return {page.url for page in site_pages(context) if not page.indexable}


def site_entries(context, lastmod):
    """Every indexable page but the listings' (``listing_entries``), ordered by URL, each
    URL once; ``lastmod`` (``site_lastmod``) for a page without a date of its own."""
    timezone = context.get("TIMEZONE") or "UTC"
    directory = context.get(DIRECTORY_KEY)
    found = {}
    keep_first = found.setdefault

    def add(url, date):
        keep_first(url, date or lastmod)

    for name in context.get("DIRECT_TEMPLATES", ()):
        save_as = context.get(f"{name.upper()}_SAVE_AS", f"{name}.html")
        if save_as:
            add(url_of_save_as(save_as), lastmod)
    if directory is not None:
        cfg = directory_settings(context)
        for term in (*directory.categories, *directory.cities):
            if term.save_as:
                date = directory.last_modified_of(term)
                for url in term_page_urls(term, cfg.per_page, cfg.page_url):
                    add(url, date)
    for article in context.get("articles", []):
        if content_save_as(article):
            add(article.url, content_date(article, timezone))
    for category, category_articles in context.get("categories", []):
        if category.save_as:
            add(category.url, newest(content_date(item, timezone) for item in category_articles))
    for page in context.get("pages", []):
        if content_save_as(page):
            add(page.url, content_date(page, timezone))
    for page in site_pages(context):
        if page.indexable:
            add(page.url, lastmod)
    excluded = closed_urls(context)
    return [PageEntry(url, found[url]) for url in sorted(found) if url not in excluded]
