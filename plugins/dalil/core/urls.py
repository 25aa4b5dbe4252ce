"""URLs: root-relative paths from ``*_URL`` patterns, absolute URLs from SITEURL."""

import re
from urllib.parse import quote

# Characters RFC 3986 allows unescaped in a path (plus "%" for pre-encoded input).
_PATH_SAFE = "/:@!$&'()*+,;=-._~%"


# A path of these characters only is its own encoding (slugs are: the common case).
_ENCODED_PATH = re.compile(r"[A-Za-z0-9/:@!$&'()*+,;=\-._~]*")


def root_path(url):
    """``directory/listing/x/`` -> ``/directory/listing/x/``, percent-encoded."""
    path = url.lstrip("/")
    if _ENCODED_PATH.fullmatch(path):
        return "/" + path
    return "/" + quote(path, safe=_PATH_SAFE)


def absolute_url(siteurl, url):
    """An absolute, percent-encoded URL for a page or file of the site."""
    if url.startswith(("http://", "https://")):
        return url
    return siteurl.rstrip("/") + root_path(url)
