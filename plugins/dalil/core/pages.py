"""Stand-alone HTML pages (search, random, directory index, 404, …) that plugins write.

Each generator registers its pages in ``generate_context``, so that writers which list
pages (sitemaps) know them without reading another writer's output.
"""

from dataclasses import dataclass

CONTEXT_KEY = "dalil_site_pages"


@dataclass(frozen=True)
class SitePage:
    url: str  # relative to SITEURL, e.g. "search/"
    title: str
    indexable: bool = True  # False: kept out of sitemaps, robots and search engines


def register_page(context, url, title, indexable=True):
    pages = context.setdefault(CONTEXT_KEY, {})
    pages[url] = SitePage(url=url, title=title, indexable=indexable)


def site_pages(context):
    """Registered pages, ordered by URL."""
    pages = context.get(CONTEXT_KEY, {})
    return [pages[url] for url in sorted(pages)]
