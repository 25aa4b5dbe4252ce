"""Settings of the feeds, with their defaults (prefix ``DALIL_FEEDS_``).

How many items: Pelican's ``FEED_MAX_ITEMS``. RSS item descriptions: Pelican's
``RSS_FEED_SUMMARY_ONLY`` (the summary when true, else the full content).
"""

from dataclasses import dataclass
from typing import ClassVar

from dalil.core.settings import read_settings, setting


@dataclass(frozen=True)
class FeedsSettings:
    # Each language's own: below its folder in a site of several (dalil.core.languages).
    PAGES: ClassVar[tuple] = (
        "rss_save_as", "json_save_as")
    category: str = setting("news", "slug of the Pelican category the feeds carry")
    title: str = setting("", "feed title, after `SITENAME - ` (\"دليل - الأخبار\"); `\"\"`: "
                             "\"News\" in the build's language")
    rss_save_as: str = setting("rss.xml", "the RSS 2.0 feed, written by Pelican's feed writer")
    json_save_as: str = setting("feed.json", "the JSON Feed 1.1")


def feeds_settings(settings):
    return read_settings(FeedsSettings, settings, "DALIL_FEEDS_")
