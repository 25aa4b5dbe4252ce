"""The feeds generator: /rss.xml (Pelican's writer) and /feed.json of news."""

import logging

from pelican.generators import Generator

from dalil.core.i18n import N_, build_gettext
from dalil.core.output import output_files
from dalil.core.settings import language_path
from dalil.core.text import plain_text

from .jsonfeed import json_feed, serialise
from .rss import FeedEntry
from .settings import feeds_settings

logger = logging.getLogger(__name__)

# Read by base.html: one <link rel="alternate"> per feed on every page.
LINKS_CONTEXT_KEY = "dalil_feeds"


class FeedsGenerator(Generator):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.config = feeds_settings(self.settings)

    @property
    def section(self):
        """The feeds' own title: the setting's, else "News" in the build's language."""
        return self.config.title or build_gettext(self.context)(N_("News"))

    @property
    def title(self):
        return plain_text(f"{self.settings.get('SITENAME', '')} - {self.section}")

    def generate_context(self):
        cfg = self.config
        links = []
        if cfg.rss_save_as:
            links.append({"type": "application/rss+xml", "url": cfg.rss_save_as,
                          "title": f"{self.title} (RSS)"})
        if cfg.json_save_as:
            links.append({"type": "application/feed+json", "url": cfg.json_save_as,
                          "title": f"{self.title} (JSON Feed)"})
        self.context[LINKS_CONTEXT_KEY] = links

    def news(self):
        """Published articles of the feeds' category, newest first, at most FEED_MAX_ITEMS."""
        articles = [article for article in self.context.get("articles", [])
                    if article.category.slug == self.config.category]
        articles.sort(key=lambda article: (article.date, article.slug), reverse=True)
        return articles[: self.settings.get("FEED_MAX_ITEMS")]

    def generate_output(self, writer):
        cfg = self.config
        siteurl = self.settings.get("SITEURL", "")
        news = self.news()
        if cfg.rss_save_as:
            writer.write_feed([FeedEntry(article, siteurl) for article in news], self.context,
                              cfg.rss_save_as, cfg.rss_save_as, feed_type="rss",
                              feed_title=self.section)
        if cfg.json_save_as:
            feed = json_feed(news, siteurl=siteurl, title=self.title, feed_url=cfg.json_save_as,
                             language=self.settings.get("DEFAULT_LANG", "ar"),
                             home_page=language_path(self.settings),
                             description=plain_text(self.settings.get("SITESUBTITLE")),
                             timezone=self.settings.get("TIMEZONE") or "UTC")
            output_files(self.context).write(cfg.json_save_as, serialise(feed))
        logger.debug("dalil.feeds: %d news item(s) in the feeds", len(news))
