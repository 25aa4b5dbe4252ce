"""The Content-Type of every file the site publishes: the one source of truth.

INTERFACE.md lists the type of each published path. The development servers
(``invoke serve``, ``invoke livereload``, the tests' server), the host header
files (nginx, ``_headers``, ``.htaccess``) and the S3 upload all take their
types from here. Paths are relative to the output folder (``directory/export.json``).
"""

import posixpath

from dalil.core.i18n import DIRECTIONS

# By extension. Text types carry their charset, as INTERFACE.md asks; the
# manifest, the schemas and binary files carry none.
EXTENSION_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".xml": "application/xml; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".csv": "text/csv; charset=utf-8",
    ".vcf": "text/vcard; charset=utf-8",
    ".geojson": "application/geo+json",  # RFC 7946 registers no charset: always UTF-8
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".avif": "image/avif",
    ".ico": "image/vnd.microsoft.icon",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".pdf": "application/pdf",
}

# Exact paths whose type is not their extension's; each language after the first has its
# own at the same paths below its folder (``fr/rss.xml``).
PATH_TYPES = {
    "rss.xml": "application/rss+xml; charset=utf-8",
    "feed.json": "application/feed+json; charset=utf-8",
    "opensearch.xml": "application/opensearchdescription+xml; charset=utf-8",
}

# Name endings longer than an extension (``/schemas/{name}.schema.json``).
SUFFIX_TYPES = {
    ".schema.json": "application/schema+json",
}

DEFAULT_TYPE = "application/octet-stream"

# The JSON and XML files INTERFACE.md publishes. ``_headers`` cannot say "every
# .json file except feed.json" (hosts join the values of overlapping rules), so
# it names these; ``*`` stands for any characters.
PUBLISHED_JSON_AND_XML = (
    "search-index.json",
    "search/index/*.json",
    "build-info.json",
    "feed.json",
    "directory/export.json",
    "directory/datapackage.json",
    "schemas/*.schema.json",
    "opensearch.xml",
    "rss.xml",
    "sitemap-*.xml",
    "news-sitemap.xml",
)


def path_type(relpath):
    """The type of ``relpath`` if it is one of ``PATH_TYPES``, at the root or below a
    language's folder, else None."""
    folder, _, below = relpath.partition("/")
    return PATH_TYPES.get(relpath) or (PATH_TYPES.get(below) if folder in DIRECTIONS else None)


def content_type(relpath):
    """The Content-Type to serve ``relpath`` (a path under the output folder) with."""
    relpath = str(relpath).replace("\\", "/").lstrip("/")
    media_type = path_type(relpath)
    if media_type:
        return media_type
    name = posixpath.basename(relpath).lower()
    for suffix, media_type in SUFFIX_TYPES.items():
        if name.endswith(suffix):
            return media_type
    return EXTENSION_TYPES.get(posixpath.splitext(name)[1], DEFAULT_TYPE)
