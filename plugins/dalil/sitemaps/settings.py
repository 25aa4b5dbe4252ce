"""Settings of the sitemaps and robots.txt, with their defaults (prefix ``DALIL_SITEMAPS_``)."""

from dataclasses import dataclass
from typing import ClassVar

from dalil.core.settings import read_settings, setting

# The sitemaps.org protocol's limits for one sub-sitemap.
PROTOCOL_MAX_URLS = 50_000
PROTOCOL_MAX_BYTES = 50 * 1024 * 1024


@dataclass(frozen=True)
class SitemapsSettings:
    # Each language's own: below its folder in a site of several (dalil.core.languages).
    PAGES: ClassVar[tuple] = (
        "page_url", "page_save_as")
    index_save_as: str = setting("sitemap-index.xml",
                                 "the sitemap index (`\"\"`: robots.txt names the sub-sitemaps)")
    save_as: str = setting("sitemap-{number}.xml",
                           "sub-sitemaps, numbered from 0, filled in URL order")
    max_urls: int = setting(PROTOCOL_MAX_URLS, "most URLs in one sub-sitemap (the protocol's "
                                               "limit, never raised above it)")
    max_bytes: int = setting(PROTOCOL_MAX_BYTES, "most bytes of one sub-sitemap (the "
                                                 "protocol's limit, never raised above it)")
    page_url: str = setting("sitemap/", "the URL of the human-readable sitemap")
    page_save_as: str = setting("sitemap/index.html",
                                "where the human-readable sitemap is written")
    news_save_as: str = setting("news-sitemap.xml", "the Google News sitemap")
    news_category: str = setting("news", "slug of the Pelican category of news")
    news_hours: int = setting(48, "news window before the build time (`SOURCE_DATE_EPOCH` when "
                                  "set), in hours")
    news_max_items: int = setting(1000, "most entries of the news sitemap")
    news_publication_name: str = setting("", "`news:publication` name; `\"\"`: `SITENAME`")
    robots_save_as: str = setting("robots.txt", "crawler rules")
    robots_disallow: tuple = setting(("/saved/", "/compare/", "/404/"),
                                     "paths robots.txt closes (under `SITEURL`'s path); never "
                                     "listed in a sitemap")


def sitemaps_settings(settings):
    return read_settings(SitemapsSettings, settings, "DALIL_SITEMAPS_")
