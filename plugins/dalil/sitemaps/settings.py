"""Settings of the sitemaps and robots.txt, with their defaults (prefix ``DALIL_SITEMAPS_``)."""

from dataclasses import dataclass
from typing import ClassVar

from dalil.core.settings import read_settings

# The sitemaps.org protocol's limits for one sub-sitemap.
PROTOCOL_MAX_URLS = 50_000
PROTOCOL_MAX_BYTES = 50 * 1024 * 1024


@dataclass(frozen=True)
class SitemapsSettings:
    # Each language's own: below its folder in a site of several (dalil.core.languages).
    PAGES: ClassVar[tuple] = (
        "page_url", "page_save_as")
    index_save_as: str = "sitemap-index.xml"
    save_as: str = "sitemap-{number}.xml"  # sub-sitemaps, numbered from 0
    max_urls: int = PROTOCOL_MAX_URLS
    max_bytes: int = PROTOCOL_MAX_BYTES
    page_url: str = "sitemap/"  # the human-readable sitemap
    page_save_as: str = "sitemap/index.html"
    news_save_as: str = "news-sitemap.xml"
    news_category: str = "news"
    news_hours: int = 48
    news_max_items: int = 1000
    news_publication_name: str = ""  # "" means SITENAME
    robots_save_as: str = "robots.txt"
    robots_disallow: tuple = ("/saved/", "/compare/", "/404/")


def sitemaps_settings(settings):
    return read_settings(SitemapsSettings, settings, "DALIL_SITEMAPS_")
