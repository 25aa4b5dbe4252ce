"""Sitemap XML (sitemaps.org 0.9, Google News), serialised with lxml.

One ``<url>`` per line. Sub-sitemaps are filled in URL order up to both limits, so the
same pages always give the same files.
"""

from dataclasses import dataclass
from typing import NamedTuple

from lxml import etree

from dalil.core.dates import rfc3339

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9"
# A page's versions in other languages (Google's hreflang in sitemaps).
XHTML_NS = "http://www.w3.org/1999/xhtml"


class Location(NamedTuple):  # a tuple: one for each of 100,000 URLs
    loc: str  # absolute, percent-encoded URL
    lastmod: object  # its date as the sitemap shows it (``rfc3339``), or None
    # ((hreflang, absolute URL), …): the page's versions, itself included; none in a
    # site of one language.
    alternates: tuple = ()


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
_LINK = _tag("link", XHTML_NS)
# The sub-sitemaps' namespaces; with alternates, xhtml's is declared once, on the root.
_NSMAP = {None: SITEMAP_NS}
_ALTERNATES_NSMAP = {None: SITEMAP_NS, "xhtml": XHTML_NS}


def _append_location(parent, location, tag=_URL):
    element = etree.SubElement(parent, tag)
    etree.SubElement(element, _LOC).text = location.loc
    if location.lastmod:
        etree.SubElement(element, _LASTMOD).text = location.lastmod
    for lang, href in location.alternates:
        etree.SubElement(element, _LINK, rel="alternate", hreflang=lang, href=href)
    element.tail = "\n"


class SitemapTooSmall(ValueError):
    """One URL alone does not fit in a sub-sitemap of the configured size."""


@dataclass(frozen=True)
class Sitemap:
    document: bytes
    locs: tuple  # the URLs it lists, in order
    lastmod: object  # the newest of their ``lastmod`` texts, or None


def url_lines(locations):
    """Each location's ``<url>`` line, as a sitemap listing them gives it (bytes, no line end)."""
    root = _root("urlset", _ALTERNATES_NSMAP)  # declared here, not on each line
    for location in locations:
        _append_location(root, location)
    # Serialised once, then cut at its line ends (one <url> per line).
    _, _, *lines, closing, end = _document(root).split(b"\n")
    if len(lines) != len(locations) or closing != b"</urlset>" or end:
        raise ValueError("a sitemap URL contains a line break")
    return lines


def _around_lines(nsmap):
    """What comes before and after the lines of a sitemap: an empty one, cut at its end tag."""
    head, tail = _document(_root("urlset", nsmap)).split(b"</urlset>")
    return head, b"</urlset>" + tail


_AROUND = {False: _around_lines(_NSMAP), True: _around_lines(_ALTERNATES_NSMAP)}


def line_key(location):
    """What a location's line is made of, as plain data (the memo is ``marshal`` data)."""
    return location.loc, location.lastmod, location.alternates


def sitemap_lines(locations, memo=None, used=None):
    """Each location's line, taken from ``memo`` (``line_key`` -> line) when there, made
    otherwise; ``used`` gets the lines of these locations."""
    memo = memo or {}
    keys = list(map(line_key, locations))
    lines = list(map(memo.get, keys))
    missing = [index for index, line in enumerate(lines) if line is None]
    for index, line in zip(missing, url_lines([locations[index] for index in missing])):
        lines[index] = line
    if used is not None:
        used.update(zip(keys, lines))
    return lines


def split_lines(locs, lastmods, lines, max_urls, max_bytes, alternates=False):
    """The sitemaps of the URLs ``locs``, each with its ``lastmod`` text and its line
    (three columns), in URL order: filled up to both limits, so the same pages always
    give the same files. With ``alternates``, the lines hold ``xhtml:link``s."""
    _HEAD, _TAIL = _AROUND[alternates]
    order = sorted(range(len(locs)), key=locs.__getitem__)
    locs, lastmods, lines = ([*map(column.__getitem__, order)] for column in (locs, lastmods, lines))
    # A sub-sitemap is the head, its lines and the closing tag: the bytes lxml gives for it alone.
    empty_size = len(_HEAD) + len(_TAIL)
    sizes = [len(line) + 1 for line in lines]
    if sizes and empty_size + max(sizes) > max_bytes:
        too_big = locs[next(index for index, size in enumerate(sizes) if empty_size + size > max_bytes)]
        raise SitemapTooSmall(f"{too_big} does not fit in a sitemap of {max_bytes} bytes")
    bounds, start, size = [], 0, empty_size
    for index, line_size in enumerate(sizes):
        if index > start and (index - start >= max_urls or size + line_size > max_bytes):
            bounds.append((start, index))
            start, size = index, empty_size
        size += line_size
    bounds.append((start, len(sizes)))
    return [Sitemap(b"".join((_HEAD, *(line + b"\n" for line in lines[start:end]), _TAIL)),
                    tuple(locs[start:end]), max(filter(None, lastmods[start:end]), default=None))
            for start, end in bounds]


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
