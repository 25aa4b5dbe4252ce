"""URLs: root-relative paths from ``*_URL`` patterns, absolute URLs from SITEURL."""

from urllib.parse import quote

# Characters RFC 3986 allows unescaped in a path (plus "%" for pre-encoded input).
_PATH_SAFE = "/:@!$&'()*+,;=-._~%"


def root_path(url):
    """``directory/listing/x/`` -> ``/directory/listing/x/``, percent-encoded."""
    return "/" + quote(url.lstrip("/"), safe=_PATH_SAFE)


def absolute_url(siteurl, url):
    """An absolute, percent-encoded URL for a page or file of the site."""
    if url.startswith(("http://", "https://")):
        return url
    return siteurl.rstrip("/") + root_path(url)
