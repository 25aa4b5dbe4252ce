"""The combined search index: one JSON array of every published listing, term, article and page.

Keys are short (``t``, ``s``, ``n`` ...) because the whole file is fetched by the
browser; a key whose value is empty is left out. Entries are ordered by type, then slug,
so two builds of the same content give the same bytes.
"""

import json
import logging

from dalil.core.text import plain_text
from dalil.core.urls import root_path

logger = logging.getLogger(__name__)

TYPES = ("listing", "category", "location", "news", "blog", "page")
# Pelican article category slug -> index type.
ARTICLE_TYPES = {"news": "news", "blog": "blog"}


def make_entry(kind, slug, name, url, **optional):
    """An entry with keys in the documented order; empty optional values are left out."""
    entry = {"t": kind, "s": slug, "n": name}
    entry.update((key, value) for key, value in optional.items() if value)
    entry["url"] = root_path(url)
    return entry


def listing_entry(listing):
    image = listing.image if listing.image.startswith("/") else ""  # external images: no path
    coordinates = [listing.latitude, listing.longitude] if listing.has_coordinates else None
    return make_entry("listing", listing.slug, listing.name, listing.url,
                      n_en=listing.name_en, n_fr=listing.name_fr, c=listing.category.name,
                      a=listing.short_address, img=root_path(image) if image else "",
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


def build_entries(directory, articles, pages, memo=None, used=None):
    """Every entry, ordered by type then slug. Drafts and hidden items are never passed in.
    ``memo`` maps a listing's digest (``Directory.digests``) to its entry, made otherwise;
    ``used`` gets the listings' entries by digest."""
    entries = []
    if directory is not None:
        memo, digests = memo or {}, directory.digests
        for listing in directory.listings:
            key = digests.get(listing)
            entry = memo.get(key) if key is not None else None
            if entry is None:
                entry = listing_entry(listing)
            if used is not None and key is not None:
                used[key] = entry
            entries.append(entry)
        entries += [term_entry(term) for term in (*directory.categories, *directory.cities)]
    for article in articles:
        kind = ARTICLE_TYPES.get(getattr(article.category, "slug", ""))
        if kind:
            entries.append(content_entry(kind, article))
    entries += [content_entry("page", page) for page in pages]
    rank = {kind: number for number, kind in enumerate(TYPES)}
    entries.sort(key=lambda entry: (rank[entry["t"]], entry["s"]))
    return entries


def serialise(entries):
    """Compact UTF-8 JSON (the browser fetches it whole), no BOM, no trailing newline."""
    return "".join(serialised_pieces(entries))


def serialised_pieces(entries, per_piece=512):
    """``serialise(entries)`` in pieces of ``per_piece`` entries: written one by one, the
    index is never one string in memory (about 13 MiB at 10,000 listings)."""
    yield "["
    for start in range(0, len(entries), per_piece):
        piece = json.dumps(entries[start:start + per_piece], ensure_ascii=False,
                           allow_nan=False, separators=(",", ":"))
        yield ("," if start else "") + piece[1:-1]
    yield "]"
