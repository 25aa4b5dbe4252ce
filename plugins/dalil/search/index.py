"""The combined search index: one JSON array of every published listing, term, article and page.

Keys are short (``t``, ``s``, ``n`` ...) because the whole file is fetched by the
browser; a key whose value is empty is left out. Entries are ordered by type, then slug,
so two builds of the same content give the same bytes.
"""

import hashlib
import json
import logging
import unicodedata

from dalil.core.text import plain_text
from dalil.core.urls import root_path
from dalil.directory.model import parts_known_or_made

logger = logging.getLogger(__name__)

TYPES = ("listing", "category", "location", "news", "blog", "page")
# Pelican article category slug -> index type.
ARTICLE_TYPES = {"news": "news", "blog": "blog"}


def make_entry(kind, slug, name, url, **optional):
    """An entry with keys in the documented order; empty optional values are left out."""
    entry = {"t": kind, "s": slug, "n": name}
    for key, value in optional.items():
        if value:
            entry[key] = value
    entry["url"] = root_path(url)
    return entry


def search_phone(phone):
    """A phone as the search matches it: its digits (0-9), after a ``+`` when it is
    written in international form (``+212 522 264 519``, or ``00212 ...``), so a
    searcher tells ``+212`` from a trunk ``0``; ``""`` without digits."""
    digits = "".join(str(unicodedata.digit(ch)) for ch in phone if ch.isdigit())
    if phone.lstrip().startswith("+"):
        return "+" + digits if digits else ""
    return "+" + digits[2:] if digits.startswith("00") else digits


def listing_entry(listing):
    image = listing.image if listing.image.startswith("/") else ""  # external images: no path
    coordinates = [listing.latitude, listing.longitude] if listing.has_coordinates else None
    return make_entry("listing", listing.slug, listing.name, listing.url,
                      n_en=listing.name_en, n_fr=listing.name_fr, c=listing.category.name,
                      a=listing.short_address, p=search_phone(listing.phone),
                      img=root_path(image) if image else "",
                      cs=listing.category.slug, ls=listing.city.slug, ll=coordinates)


def term_entry(term):
    kind = "location" if term.kind == "city" else "category"
    return make_entry(kind, term.slug, term.name, term.url, n_en=term.name_en, n_fr=term.name_fr,
                      k=list(term.keywords))


def content_entry(kind, item):
    """A news item, blog article or page: Pelican content, whose title may hold HTML."""
    name = plain_text(item.title)
    if not name:
        logger.warning("dalil.search: %s has an empty title; its slug names it in the index",
                       item.source_path)
        name = item.slug
    return make_entry(kind, item.slug, name, item.url)


def build_entries(directory, articles, pages):
    """Every entry, ordered by type then slug. Drafts and hidden items are never passed in."""
    texts = [text for text, _ in index_parts(directory, articles, pages)]
    return json.loads(b"".join(serialised_texts(texts)))


def index_parts(directory, articles, pages, memo=None, used=None):
    """``(text, text digest)`` of each part of the entries, ordered by type then slug: the
    listings in their parts (``listing_parts``), then the terms, then the other content;
    ``text`` the part's entries' JSON as the index holds it, joined by commas (UTF-8).
    ``memo`` maps a part of the listings' key to its text and digest; ``used`` gets the
    listings' parts' texts and digests by key: a rebuild encodes again only the entries
    of the parts of changed listings, and tells an unchanged index by its parts' digests
    (``index_key``). The listings' entries are made in a worker of their own
    (``parts_known_or_made``), and no part keeps its entries: only their text."""
    parts = []
    if directory is not None:
        memo = memo or {}
        for key, part in parts_known_or_made(directory, memo.get, directory.listings,
                                             _listings_texts):
            if used is not None and key is not None:
                used[key] = part
            parts.append(part)
        parts.append(_part([term_entry(term) for term in (*directory.categories, *directory.cities)]))
    content = [content_entry(ARTICLE_TYPES[article.category.slug], article) for article in articles
               if getattr(article.category, "slug", "") in ARTICLE_TYPES]
    content += [content_entry("page", page) for page in pages]
    rank = {kind: number for number, kind in enumerate(TYPES)}
    content.sort(key=lambda entry: (rank[entry["t"]], entry["s"]))
    parts.append(_part(content))
    return [part for part in parts if part[0]]


def _listings_texts(listings, ranges):
    """``_part`` of the entries of each part of ``listings`` (``(start, end)`` in ``ranges``)."""
    return [_part([listing_entry(listing) for listing in listings[start:end]])
            for start, end in ranges]


def _part(entries):
    text = entries_text(entries)
    return text, text_digest(text)


def text_digest(text):
    """16 bytes of the SHA-256 of a part's ``text`` (processors run SHA-256 in hardware)."""
    return hashlib.sha256(text).digest()[:16]


def index_key(parts):
    """The key of the index ``serialised_texts`` makes of ``parts`` (``index_parts``): its
    parts' digests together, so that an unchanged index of 34 MB (100,000 listings) is
    neither written nor hashed again."""
    return hashlib.sha256(b"".join(digest for _, digest in parts)).hexdigest()


# json.dumps with these options makes an encoder for each call: a third of the time of
# 100,000 entries.
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def entry_text(entry):
    """One entry's JSON in the index, UTF-8: compact, as ``serialise`` writes each."""
    return _ENCODER.encode(entry).encode("utf-8")


def entries_text(entries):
    """``entry_text`` of each of ``entries``, joined by commas: encoded as one JSON array,
    its brackets cut off (one call of the C encoder: ``encode`` makes an encoder for each
    call, most of an entry's time)."""
    return _ENCODER.encode(entries)[1:-1].encode("utf-8")


def serialised_texts(texts, per_piece=512):
    """The index of the entries whose ``entry_text`` are ``texts`` (or the texts of parts of
    them, as ``index_parts`` joins them), as ``serialise`` gives it (UTF-8), in pieces of
    ``per_piece`` texts: never one string in memory."""
    yield b"["
    for start in range(0, len(texts), per_piece):
        yield (b"," if start else b"") + b",".join(texts[start:start + per_piece])
    yield b"]"


def serialise(entries):
    """Compact UTF-8 JSON (the browser fetches it whole), no BOM, no trailing newline."""
    return b"".join(serialised_texts([entry_text(entry) for entry in entries])).decode("utf-8")
