"""Sitemap XML (sitemaps.org 0.9, Google News), serialised with lxml.

One ``<url>`` per line. Sub-sitemaps are filled in URL order up to both limits, so the
same pages always give the same files.
"""

from dataclasses import dataclass
from operator import itemgetter
from typing import NamedTuple

from lxml import etree

from dalil.core.dates import rfc3339

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9"


class Location(NamedTuple):  # a tuple: one for each of 100,000 URLs
    loc: str  # absolute, percent-encoded URL
    lastmod: object  # aware datetime or None


@dataclass(frozen=True)
class NewsLocation:
    loc: str
    published: object  # aware datetime
    title: str  # plain text
    publication_name: str
    language: str


def _tag(name, namespace=SITEMAP_NS):
    return etree.QName(namespace, name).text


def _document(root):
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8") + b"\n"


def _root(name, nsmap):
    root = etree.Element(_tag(name), nsmap=nsmap)
    root.text = "\n"
    return root


_URL, _LOC, _LASTMOD = _tag("url"), _tag("loc"), _tag("lastmod")


def _append_location(parent, location, tag=_URL):
    element = etree.SubElement(parent, tag)
    etree.SubElement(element, _LOC).text = location.loc
    if location.lastmod:
        etree.SubElement(element, _LASTMOD).text = rfc3339(location.lastmod)
    element.tail = "\n"


class SitemapTooSmall(ValueError):
    """One URL alone does not fit in a sub-sitemap of the configured size."""


@dataclass(frozen=True)
class Sitemap:
    document: bytes
    locations: tuple  # the Locations it lists, in order


def url_lines(locations):
    """Each location's ``<url>`` line, as a sitemap listing them gives it (bytes, no line end)."""
    root = _root("urlset", {None: SITEMAP_NS})
    for location in locations:
        _append_location(root, location)
    # Serialised once, then cut at its line ends (one <url> per line).
    _, _, *lines, closing, end = _document(root).split(b"\n")
    if len(lines) != len(locations) or closing != b"</urlset>" or end:
        raise ValueError("a sitemap URL contains a line break")
    return lines


def _around_lines():
    """What comes before and after the lines of a sitemap: an empty one, cut at its end tag."""
    head, tail = _document(_root("urlset", {None: SITEMAP_NS})).split(b"</urlset>")
    return head, b"</urlset>" + tail


_HEAD, _TAIL = _around_lines()


def line_key(location):
    """What a location's line is made of, as plain data (the memo is ``marshal`` data):
    its URL and its date's POSIX time, which tells apart every microsecond (a fourth of
    the time of its text)."""
    lastmod = location.lastmod
    return location.loc, None if lastmod is None else lastmod.timestamp()


def split_sitemaps(locations, max_urls, max_bytes, memo=None, used=None):
    """``locations`` in URL order, as ``Sitemap``s within both limits (at least one).
    ``memo`` maps a location's key (``line_key``) to its line, made otherwise; ``used``
    gets the lines of these sitemaps."""
    ordered = sorted(locations, key=itemgetter(0))  # by loc
    memo = memo or {}
    keys = list(map(line_key, ordered))
    lines = [memo.get(key) for key in keys]
    missing = [index for index, line in enumerate(lines) if line is None]
    for index, line in zip(missing, url_lines([ordered[index] for index in missing])):
        lines[index] = line
    if used is not None:
        used.update(zip(keys, lines))
    # A sub-sitemap is the head, its lines and the closing tag: the bytes lxml gives for it alone.
    empty_size = len(_HEAD) + len(_TAIL)
    chunks, chunk, size = [], [], empty_size
    for location, line in zip(ordered, lines):
        line_size = len(line) + 1
        if empty_size + line_size > max_bytes:
            raise SitemapTooSmall(f"{location.loc} does not fit in a sitemap of {max_bytes} bytes")
        if chunk and (len(chunk) >= max_urls or size + line_size > max_bytes):
            chunks.append(chunk)
            chunk, size = [], empty_size
        chunk.append((location, line))
        size += line_size
    chunks.append(chunk)
    return [Sitemap(_HEAD + b"".join(line + b"\n" for _, line in chunk) + _TAIL,
                    tuple(location for location, _ in chunk)) for chunk in chunks]


def sitemap_index(locations):
    """The sitemap index of sub-sitemaps (``Location``: loc, newest lastmod)."""
    root = _root("sitemapindex", {None: SITEMAP_NS})
    for location in locations:
        _append_location(root, location, _tag("sitemap"))
    return _document(root)


def news_sitemap(news_locations):
    """A Google News sitemap; a well-formed, empty urlset when there is no news."""
    root = _root("urlset", {None: SITEMAP_NS, "news": NEWS_NS})
    for item in news_locations:
        url = etree.SubElement(root, _tag("url"))
        etree.SubElement(url, _tag("loc")).text = item.loc
        news = etree.SubElement(url, _tag("news", NEWS_NS))
        publication = etree.SubElement(news, _tag("publication", NEWS_NS))
        etree.SubElement(publication, _tag("name", NEWS_NS)).text = item.publication_name
        etree.SubElement(publication, _tag("language", NEWS_NS)).text = item.language
        etree.SubElement(news, _tag("publication_date", NEWS_NS)).text = rfc3339(item.published)
        etree.SubElement(news, _tag("title", NEWS_NS)).text = item.title
        url.tail = "\n"
    return _document(root)
