"""The Pelican settings a Dalil site starts from: ``from dalil.conf import *``.

A site's ``pelicanconf.py`` imports them, then sets its own (``SITENAME``,
``SITEURL``, ``TIMEZONE``, the security contact, …) and may override any of them.
"""

import dalil

THEME = dalil.theme_path()
PLUGINS = list(dalil.PLUGINS)
PATH = "content"
OUTPUT_PATH = "output"
DEFAULT_LANG = "ar"
# The theme's interface language: "ar" (right to left), "fr" or "en" (README).
DALIL_INTERFACE_LANG = "ar"
DEFAULT_DATE_FORMAT = "%Y-%m-%d"

# News and blog are the two Pelican categories (one folder each).
ARTICLE_PATHS = ["news", "blog"]
PAGE_PATHS = ["pages"]
STATIC_PATHS = ["images"]
# Copy a static file only when it is newer than its copy (mtimes survive rebuilds).
STATIC_CHECK_IF_MODIFIED = True
USE_FOLDER_AS_CATEGORY = True
# News and blog articles dated after the build time wait for their date (as drafts).
WITH_FUTURE_DATES = False

ARTICLE_URL = "{category}/{slug}/"
ARTICLE_SAVE_AS = "{category}/{slug}/index.html"
DRAFT_URL = "drafts/{category}/{slug}/"
DRAFT_SAVE_AS = "drafts/{category}/{slug}/index.html"
PAGE_URL = "{slug}/"
PAGE_SAVE_AS = "{slug}/index.html"
DRAFT_PAGE_URL = "drafts/pages/{slug}/"
DRAFT_PAGE_SAVE_AS = "drafts/pages/{slug}/index.html"
CATEGORY_URL = "{slug}/"
CATEGORY_SAVE_AS = "{slug}/index.html"
# No tag, author, archive or category-list pages in a directory.
TAG_SAVE_AS = TAGS_SAVE_AS = ""
AUTHOR_SAVE_AS = AUTHORS_SAVE_AS = ""
ARCHIVES_SAVE_AS = CATEGORIES_SAVE_AS = ""
YEAR_ARCHIVE_SAVE_AS = MONTH_ARCHIVE_SAVE_AS = DAY_ARCHIVE_SAVE_AS = ""
DIRECT_TEMPLATES = ["index"]
DEFAULT_PAGINATION = False
SLUGIFY_SOURCE = "basename"
# Every template escapes by default; HTML from Markdown is marked |safe where shown.
JINJA_ENVIRONMENT = {"trim_blocks": True, "lstrip_blocks": True, "autoescape": True}
# Pelican's Markdown defaults, but aligned table columns get align="…", not style="…",
# which a strict Content-Security-Policy blocks; bracketed Latin text in Arabic text is
# set apart (dalil.core.bidi).
MARKDOWN = {
    "extension_configs": {
        "markdown.extensions.codehilite": {"css_class": "highlight"},
        "markdown.extensions.extra": {"tables": {"use_align_attribute": True}},
        "markdown.extensions.meta": {},
        "dalil.core.bidi": {},
    },
    "output_format": "html5",
}

# Pelican's stock feeds are off; Dalil writes /rss.xml and /feed.json of news.
FEED_ALL_ATOM = None
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
FEED_MAX_ITEMS = 20

CACHE_CONTENT = False
LOAD_CONTENT_CACHE = False
# With the cache on, Pelican's reader caches are saved every build: gzip at level 9 made
# that a tenth of a one-listing rebuild; uncompressed, it takes about 2.5 KB an article.
GZIP_CACHE = False
RELATIVE_URLS = False
