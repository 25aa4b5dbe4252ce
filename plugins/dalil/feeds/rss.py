"""What Pelican's feed writer reads, and what it leaves out of an RSS channel."""

import html

from dalil.core.dates import build_time
from dalil.core.settings import language_path
from dalil.core.text import html_text, plain_text
from dalil.core.urls import absolute_url


class FeedEntry:
    """A news article as ``Writer.write_feed`` reads it, with the data-file text rules.

    The writer passes ``title`` through ``Markup(title).striptags()``, which would
    drop "<الميناء>" from a plain-text name; handing it over HTML-escaped makes
    striptags give back exactly the plain text.
    """

    def __init__(self, article, siteurl):
        self.title = html.escape(plain_text(article.title), quote=False)
        self.url = article.url
        self.summary = html_text(article.summary)
        self._content = html_text(article.get_content(siteurl))
        self.category = article.category
        self.author = plain_text(str(getattr(article, "author", "") or ""))
        self.date = article.date
        if getattr(article, "modified", None):
            self.modified = article.modified

    def get_content(self, siteurl):
        return self._content


def finish_feed(context, feed):
    """``feed_generated`` receiver: complete a feed Pelican's writer built."""
    channel = feed.feed
    # Pelican's writer links the site's root: a language's feed links its home page.
    channel["link"] = absolute_url(context.get("SITEURL", ""), language_path(context))
    if channel.get("language") is None:
        channel["language"] = context.get("DEFAULT_LANG")
    if not channel.get("description"):
        channel["description"] = channel["title"]
    for item in feed.items:
        # The item's URL, as the JSON Feed's ``id``: one identity for a news item in both
        # feeds (Pelican's own guid is a tag: URI).
        item["unique_id"] = item["link"]
        item["unique_id_is_permalink"] = True
    if not feed.items:
        # feedgenerator dates an empty channel "now"; the build time keeps builds reproducible.
        when = build_time()
        feed.latest_post_date = lambda: when
