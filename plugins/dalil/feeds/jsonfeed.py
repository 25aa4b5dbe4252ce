"""JSON Feed 1.1 (https://jsonfeed.org/version/1.1) of news articles."""

import json

from dalil.core.dates import rfc3339, to_utc
from dalil.core.text import html_text, plain_text
from dalil.core.urls import absolute_url

VERSION = "https://jsonfeed.org/version/1.1"


def feed_item(article, siteurl, timezone, feed_language=None):
    url = absolute_url(siteurl, article.url)
    item = {
        "id": url,
        "url": url,
        "title": plain_text(article.title),
        "content_html": html_text(article.get_content(siteurl)),
        "date_published": rfc3339(to_utc(article.date, timezone)),
    }
    modified = getattr(article, "modified", None)
    if modified:
        item["date_modified"] = rfc3339(to_utc(modified, timezone))
    # Only a summary the author wrote: Pelican's fallback is the truncated content.
    summary = plain_text(article.metadata.get("summary"))
    if summary:
        item["summary"] = summary
    image = plain_text(getattr(article, "image", ""))
    if image:
        item["image"] = absolute_url(siteurl, image)
    # An item the feed's language has no translation of is shown in its own.
    lang = getattr(article, "lang", None)
    if lang and feed_language and lang != feed_language:
        item["language"] = lang
    return item


def json_feed(articles, *, siteurl, title, feed_url, language, home_page="", description="",
              timezone="UTC"):
    """The feed as a dict, keys in the specification's order (version first);
    ``home_page``: the root-relative home page of the feed's language ("" or "fr/")."""
    feed = {
        "version": VERSION,
        "title": title,
        "home_page_url": absolute_url(siteurl, home_page),
        "feed_url": absolute_url(siteurl, feed_url),
        "language": language,
    }
    if description:
        feed["description"] = description
    feed["items"] = [feed_item(article, siteurl, timezone, language) for article in articles]
    return feed


def serialise(feed):
    return json.dumps(feed, ensure_ascii=False, allow_nan=False, indent=1) + "\n"
