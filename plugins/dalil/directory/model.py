"""The directory model: built once per build, read by every writer."""

import contextlib
import hashlib
import heapq
import marshal
from dataclasses import dataclass, field, fields
from datetime import datetime
from operator import attrgetter
from urllib.parse import urlencode

from dalil.core.dates import rfc3339
from dalil.core.parallel import map_in_fresh_workers

from .hours import MINUTES_PER_DAY, clock

CONTEXT_KEY = "dalil_directory"
ADDRESS_SEPARATOR = "، "  # Arabic comma
OSM_DIRECTIONS = "https://www.openstreetmap.org/directions"


def format_degrees(value):
    """A coordinate as a plain decimal, never in exponent form (``1e-05``)."""
    return f"{value:.6f}".rstrip("0").rstrip(".")


class TextNotLoaded:
    """A cached listing's HTML until the directory generator loads it for the listing's
    page (``DirectoryGenerator._load_texts``): read before that, it fails loudly."""

    def _fail(self, *args):
        raise RuntimeError("a listing's HTML was read before it was loaded")

    __str__ = __html__ = __bool__ = __len__ = __iter__ = __getattr__ = _fail

    def __repr__(self):
        return "<listing HTML not loaded>"


TEXT_NOT_LOADED = TextNotLoaded()


def alternate_names(item, shown, title_lang=""):
    """``[(lang, name)]``: the names of a listing or term a page does not show already
    (``shown``), each once: its Title (written in ``title_lang``; left out without it),
    then its English and French names. "Casablanca", not "Casablanca · Casablanca",
    when two are the same."""
    names = []
    for lang, name in ((title_lang, item.name if title_lang else ""),
                       ("en", item.name_en), ("fr", item.name_fr)):
        if name and name != shown and all(name != other for _, other in names):
            names.append((lang, name))
    return names


@dataclass(eq=False)
class Term:
    """A category or a city (``kind``); ``listings`` holds its published listings."""

    kind: str
    slug: str
    name: str
    name_en: str
    name_fr: str
    province: str
    description: str
    source_path: str
    url: str
    save_as: str
    schema_type: str = "LocalBusiness"  # a category's schema.org LocalBusiness subtype
    listings: list = field(default_factory=list)
    # A category's search keywords (singulars, broken plurals, synonyms, other languages).
    keywords: tuple = ()

    alternate_names = alternate_names


@dataclass(eq=False, slots=True)  # no attribute dict for each of 10,000 listings
class Listing:
    slug: str
    name: str
    name_en: str
    name_fr: str
    category: Term
    city: Term
    street: str
    postal_code: str
    country: str
    phone: str
    email: str
    website: str
    image: str
    date: object  # aware UTC datetime or None
    modified: object
    summary: str  # HTML (TEXT_NOT_LOADED until needed, for a listing from the cache)
    content: str  # HTML (likewise)
    status: str
    source_path: str
    url: str
    save_as: str
    latitude: object = None  # WGS 84 degrees (float), or None: both or neither
    longitude: object = None
    hours: str = ""  # schema.org openingHours text
    opening_ranges: tuple = ()  # (day, opens, closes) from hours.parse_hours
    # "node/{id}" or "way/{id}": imported from OpenStreetMap, so ODbL data.
    osm: str = ""
    # ``date_modified`` as the reader made it (the page, its card, the exports and the
    # sitemap each show it: five dates formatted again for each listing); None: made here.
    date_modified_text: object = None
    # The other fields of a listing made from its record as the source cache keeps it, as
    # ``marshal`` data (see ``cached_listing``), else None.
    packed: object = field(default=None, init=False, repr=False)
    # The language of ``content`` and of ``summary`` when a translation shows them (see
    # ``generator.translate``), None for the language listings are written in.
    description_lang: object = field(default=None, init=False, repr=False)
    summary_lang: object = field(default=None, init=False, repr=False)

    def __getattr__(self, name):
        """Only for a field not set: a packed field of a listing from its packed record,
        unpacked for the listing read last in this process and kept nowhere else. A
        process reads a listing's fields together (its page, its card, its rows), and a
        process forked from the build's (the exports, the search index) reads every
        listing: kept on each, a million listings' fields would be made again in each."""
        index = _PACKED_INDEX.get(name)
        if index is None or self.packed is None:
            raise AttributeError(name)
        if _last_unpacked[0] is not self:
            _last_unpacked[:] = self, marshal.loads(self.packed)
        return _last_unpacked[1][index]

    alternate_names = alternate_names

    @property
    def has_coordinates(self):
        return self.latitude is not None

    @property
    def coordinates_text(self):
        """``(latitude, longitude)`` as plain decimals (``33.5731``), for URIs and vCards."""
        return tuple(format_degrees(value) for value in (self.latitude, self.longitude))

    @property
    def geo_uri(self):
        """RFC 5870 ``geo:`` URI: a phone opens its maps app on it."""
        return "geo:{},{}".format(*self.coordinates_text) if self.has_coordinates else ""

    @property
    def directions_url(self):
        """OpenStreetMap's directions to the listing, from a start the visitor types."""
        if not self.has_coordinates:
            return ""
        return OSM_DIRECTIONS + "?" + urlencode({"route": ";{},{}".format(*self.coordinates_text)})

    @property
    def week(self):
        """Seven ``(day, [(opens, closes), ...])`` rows from Monday, times as ``HH:MM``;
        a range ending the next day shows its real closing time."""
        rows = [(day, []) for day in range(7)]
        for day, opens, closes in self.opening_ranges:
            ends = closes - MINUTES_PER_DAY if closes > MINUTES_PER_DAY else closes
            rows[day][1].append((clock(opens), clock(ends)))
        return rows

    @property
    def last_modified(self):
        return self.modified or self.date

    @property
    def date_modified(self):
        """RFC 3339 UTC with seconds, ``""`` when the listing has no date."""
        if self.date_modified_text is not None:
            return self.date_modified_text
        when = self.last_modified
        return rfc3339(when) if when else ""

    @property
    def short_address(self):
        """Street and city: what a search result shows."""
        return ADDRESS_SEPARATOR.join(part for part in (self.street, self.city.name) if part)

    @property
    def address(self):
        """The full postal address on one line."""
        locality = " ".join(part for part in (self.postal_code, self.city.name) if part)
        return ADDRESS_SEPARATOR.join(part for part in (self.street, locality, self.country) if part)

    @property
    def tel_uri(self):
        digits = "".join(ch for ch in self.phone if ch.isdigit() or ch == "+")
        return f"tel:{digits}" if digits else ""


# The order of a ``Listing``'s fields: given by position, one is made in less than half
# the time of one given by keyword (100,000 in a rebuild).
LISTING_FIELDS = tuple(item.name for item in fields(Listing) if item.init)
# What a build reads of every listing (the model, the keys of its pages, the newest, the
# HTML sitemap's key, the check that its image is among the site's files): a listing from
# the source cache, or read in this build, is made with these alone. Its HTML is loaded
# for its page (``TEXT_NOT_LOADED`` until then), and its other fields unpacked when read.
# ``osm`` too: the data package names ODbL when any listing has one.
CORE_FIELDS = ("slug", "name", "category", "city", "status", "date", "modified", "url", "save_as",
               "image", "osm")
PACKED_FIELDS = tuple(name for name in LISTING_FIELDS
                      if name not in CORE_FIELDS and name not in ("summary", "content"))
_PACKED_INDEX = {name: index for index, name in enumerate(PACKED_FIELDS)}
# The listing whose packed fields this process read last, and their values.
_last_unpacked = [None, ()]


def cached_listing(core, category, city, packed):
    """A ``Listing`` of ``core``, its ``CORE_FIELDS`` as the source cache keeps them (its
    terms' slugs, its dates as ISO 8601 text), its terms, and ``packed``, the ``marshal``
    data of its ``PACKED_FIELDS``: its cached record holds half the objects, and 100,000
    of them load in half the time (0.24 against 0.50 CPU-s)."""
    listing = _new_listing(Listing)
    # In the order of CORE_FIELDS.
    (listing.slug, listing.name, _, _, listing.status, date, modified, listing.url,
     listing.save_as, listing.image, listing.osm) = core
    listing.category, listing.city = category, city
    listing.date = None if date is None else _from_iso(date)
    listing.modified = None if modified is None else _from_iso(modified)
    listing.summary = listing.content = TEXT_NOT_LOADED
    listing.packed = packed
    listing.description_lang = listing.summary_lang = None
    return listing


_new_listing = object.__new__
_from_iso = datetime.fromisoformat


@dataclass(eq=False)
class Directory:
    """Published listings, hidden and draft ones apart; terms; all in stable order."""

    listings: list  # published, by slug
    hidden: list
    drafts: list
    categories: list  # by slug
    cities: list
    # For people: in the alphabetical order of their names (Unicode collation).
    categories_by_name: list = field(default_factory=list)
    cities_by_name: list = field(default_factory=list)
    # With the content cache: listing -> digest of everything it shows of itself and its
    # terms, the key of its page, its card and its export rows from one build to the next.
    digests: dict = field(default_factory=dict)

    # The newest listings, by ``newest``, and each term's newest ``last_modified`` (a term
    # without dated listings has none): made with the model, before any process is forked
    # from the build's, whose later reads of 100,000 dates each copied a shared memory page.
    newest_known: list = field(default_factory=list)
    newest_by_term: dict = field(default_factory=dict)
    # Each published listing's digest, in order (``listing_keys``), made with the model:
    # a forked writer that looked them up copied the memory page of every listing.
    keys: list = None

    def newest(self, count):
        """The ``count`` most recently modified published listings (``last_modified``, then
        slug), newest first: the first ``count`` of each of the two kinds, modified and
        only dated, by keys made in C."""
        modified = [listing for listing in self.listings if listing.modified is not None]
        dated = [listing for listing in self.listings
                 if listing.modified is None and listing.date is not None]
        newest = [*heapq.nlargest(count, modified, key=attrgetter("modified", "slug")),
                  *heapq.nlargest(count, dated, key=attrgetter("date", "slug"))]
        return heapq.nlargest(count, newest, key=lambda listing: (listing.last_modified, listing.slug))

    def recent(self, count):
        """``newest(count)``, from the listings found as the model was made when they suffice."""
        if count <= len(self.newest_known) or len(self.newest_known) == len(self.listings):
            return self.newest_known[:count]
        return self.newest(count)

    def last_modified_of(self, term):
        """The newest ``last_modified`` of ``term``'s listings, None if none is dated."""
        if self.newest_by_term:
            return self.newest_by_term.get(term)
        dates = [listing.last_modified for listing in term.listings if listing.last_modified]
        return max(dates) if dates else None

    def listing_keys(self):
        """Each published listing's digest (``digests``), None for one without."""
        return self.keys if self.keys is not None else list(map(self.digests.get, self.listings))

    def listing_ranges(self):
        """``listing_ranges`` of the published listings, from ``listing_keys``."""
        return key_ranges(self.listing_keys())

    def popular_categories(self, count):
        ranked = sorted(self.categories, key=lambda term: (-len(term.listings), term.slug))
        return [term for term in ranked if term.listings][:count]


# Listings in parts for the memos of what is made of them (``listing_parts``). A part
# ends after a listing whose digest starts with a zero byte (one in 256), or at
# the maximum: ends set by the content, so that a listing added or removed changes the
# key of its own part only.
LISTINGS_PER_PART_MAX = 2048


def listing_parts(listings, digests):
    """``(listings, key)`` of each part of ``listings``: ``key`` the digest of their digests
    (``Directory.digests``), None when one of them has none (no content cache: parts of the
    maximum size). A memo of what is made of each part (export rows, search entries) makes
    again, in a rebuild, the part of an edited listing only."""
    return [(listings[start:end], key) for start, end, key in listing_ranges(listings, digests)]


def listing_ranges(listings, digests):
    """``(start, end, key)`` of each part of ``listings`` (``listing_parts``): what a worker
    is sent to make a part's data of its own copy of the model."""
    return key_ranges(list(map(digests.get, listings)))


def key_ranges(keys):
    """``listing_ranges`` of listings whose digests are ``keys``."""
    if None in keys:
        return [(start, min(start + LISTINGS_PER_PART_MAX, len(keys)), None)
                for start in range(0, len(keys), LISTINGS_PER_PART_MAX)]
    ends = [index + 1 for index, key in enumerate(keys) if key[0] == 0]
    parts, start = [], 0
    for end in (*ends, len(keys)):
        while end - start > LISTINGS_PER_PART_MAX:
            parts.append((start, start + LISTINGS_PER_PART_MAX))
            start += LISTINGS_PER_PART_MAX
        if end > start:
            parts.append((start, end))
            start = end
    return [(start, end, hashlib.blake2b(b"".join(keys[start:end]), digest_size=16).digest())
            for start, end in parts]


def parts_known_or_made(directory, known, state, function):
    """``(key, value)`` of each part of the published listings (``listing_ranges``): the
    value ``known(key)`` gives (None: none), else ``function(state, [(start, end)])``'s,
    made in a worker of its own (``map_in_fresh_workers``)."""
    ranges = directory.listing_ranges()
    values = [None if key is None else known(key) for _, _, key in ranges]
    fresh = [(start, end) for (start, end, _), value in zip(ranges, values) if value is None]
    made = map_in_fresh_workers(state, function, fresh,
                                reads=sum(end - start for start, end in fresh))
    with contextlib.closing(made):
        for (_, _, key), value in zip(ranges, values):
            yield key, next(made)[1] if value is None else value
