"""Directory sources as records of plain data, made in worker processes, cached by stamp.

A listing's or a term's file becomes a record in a worker: its Markdown converted,
every field cleaned, its problems listed. The main process gives each record its
name's collation key (``sort_key``), links listings to their terms and checks what
spans files (duplicate slugs and names). Records are kept in CACHE_PATH, keyed by each file's
modification time and size, so a rebuild reads and cleans only the files that changed;
the cache is split in shards so that a rebuild saves only the shards it changed.

Shards are ``marshal`` data, not pickles: pickling a ``str`` leaves a UTF-8 copy of it
attached to the string for its lifetime, which for the records' Arabic text kept about
20 MiB more in the main process of a 10,000-listing build.

A listing's HTML (summary and description), two thirds of a shard, is kept apart in
the shard's texts file, keyed by the record's digest: a rebuild loads it
(``CachedTexts``) only for the listings whose pages it renders again.

A listing with no problem has a record that is a tuple (see ``LISTING_RECORD``), not a
dict: 100,000 of them are unmarshalled in a third of the time, and become listings
without a dict of their fields each.
"""

import contextlib
import hashlib
import itertools
import marshal
import operator
import os
import sys

import markdown
import pelican

from dalil.core.dates import to_utc
from dalil.core.files import load_marshalled, replace_atomically, stats_below
from dalil.core.memory import kept_for_the_build
from dalil.core.output import build_salt
from dalil.core.parallel import map_in_fresh_workers
from dalil.core.settings import below_folder
from dalil.core.slugs import SLUG_RULE, derive_slug, is_valid_slug
from dalil.core.text import clean_html, plain_text

from . import validate
from .hours import parse_hours
from .model import CORE_FIELDS, LISTING_FIELDS, PACKED_FIELDS

# A rebuild writes again the shards holding the files it read: 1,600 records at 100,000
# listings, a sixty-fourth of them.
SHARDS = 64
# A listing's record: where its file is, the HTML its sanitiser removed, the digest of its
# fields, its name's collation key (None until the main process gives it one), the
# values of its ``Listing``'s fields and None. The values are in their order, but for the
# slugs of its category and city in place of the terms and its dates as ISO 8601 text
# (marshal stores no datetime). From the cache (``storable``), the values are those of
# its ``CORE_FIELDS``, and the last item the ``marshal`` data of its ``PACKED_FIELDS``
# (see ``model.cached_listing``); its HTML is kept apart.
LISTING_RECORD = WHERE, REMOVED, DIGEST, SORT_KEY, VALUES, PACKED = range(6)
LISTING_INDEX = {name: index for index, name in enumerate(LISTING_FIELDS)}
_SUMMARY, _CONTENT = LISTING_INDEX["summary"], LISTING_INDEX["content"]
_CORE_VALUES = operator.itemgetter(*(LISTING_INDEX[name] for name in CORE_FIELDS))
_PACKED_VALUES = operator.itemgetter(*(LISTING_INDEX[name] for name in PACKED_FIELDS))
_CORE_NAME = CORE_FIELDS.index("name")
# Cleaned in the order a listing's problems are reported; each raises ValueError.
_FIELD_RULES = (("phone", validate.clean_phone), ("email", validate.clean_email),
                ("website", validate.clean_website), ("image", validate.clean_image),
                ("status", validate.clean_status), ("osm", validate.clean_osm))


def record_slug(metadata, *name_candidates):
    """``(slug, problem)``: the given slug if valid, else one derived from the names."""
    given = metadata.get("slug")
    if given is not None:
        slug = str(given).strip()
        if not is_valid_slug(slug):
            return None, f"Slug {slug!r} is not of the form {SLUG_RULE}"
        return slug, None
    slug = derive_slug(*name_candidates)
    if not slug:
        return None, "no Slug given and none can be derived from its names"
    return slug, None


def clean_names(metadata, limit, problems):
    """``(name, name_en, name_fr)`` of a listing or term, each at most ``limit`` characters;
    a longer one is told to ``problems`` (and kept, for deriving the slug)."""
    names = []
    for key in ("title", "name_en", "name_fr"):
        try:
            names.append(validate.clean_name(key.capitalize(), metadata.get(key), limit))
        except ValueError as error:
            problems.append(str(error))
            names.append(plain_text(metadata.get(key)))
    return names


def term_record(kind, content, metadata, where, max_name_length):
    """A category's or city's record: ``fields`` is None when ``problems`` stop it."""
    if not plain_text(metadata.get("title")):
        return {"where": where, "problems": [f"has no Title (the Arabic name of the {kind})"],
                "fields": None}
    problems = []
    name, name_en, name_fr = clean_names(metadata, max_name_length, problems)
    slug, problem = record_slug(metadata, name_en, name_fr, name)
    if problem:
        problems.append(problem)
    schema_type = "LocalBusiness"
    if kind == "category" and not problems:
        try:
            schema_type = validate.clean_schema_type(metadata.get("schema_type"))
        except ValueError as error:
            problems.append(str(error))
    removed = []
    fields = None if problems else {
        "kind": kind, "slug": slug, "name": name, "name_en": name_en, "name_fr": name_fr,
        "province": plain_text(metadata.get("province")), "schema_type": schema_type,
        "description": clean_html(content, removed), "source_path": where,
        "keywords": validate.clean_keywords(metadata.get("keywords")),
    }
    return {"where": where, "problems": problems, "fields": fields, "removed": removed}


# What a translation of a listing's description holds: the rest is the listing's own.
TRANSLATION_KEYS = ("slug", "lang", "summary")


def translation_lang(metadata, content_language):
    """The ``Lang`` of a translation of a listing's description (a listing file whose Lang
    is not ``content_language``, the language listings are written in), else None."""
    lang = plain_text(str(metadata.get("lang") or ""))
    return lang if lang and lang != content_language else None


def translation_record(content, metadata, where, lang):
    """The record of a translation of a listing's description into ``lang``: a dict with
    ``translation`` (its slug, language, summary, text and digest), None when ``problems``
    stop it. It is no listing: the listing of its slug shows it in its language's build."""
    problems = []
    data = sorted(key.capitalize() for key in metadata if key not in TRANSLATION_KEYS)
    if data:
        problems.append(f"is a translation (Lang: {lang}) of a listing's description, which "
                        f"holds only Slug, Lang, Summary and the text, not {', '.join(data)} "
                        "(the listing's own file has them)")
    slug = None
    if metadata.get("slug") is None:
        problems.append(f"is a translation (Lang: {lang}) with no Slug: it needs the Slug of "
                        "the listing it translates")
    else:
        slug, problem = record_slug(metadata)
        if problem:
            problems.append(problem)
    removed = []
    summary, text = clean_html(metadata.get("summary"), removed), clean_html(content, removed)
    if not plain_text(text):
        problems.append(f"is a translation (Lang: {lang}) with no text")
    translation = None if problems else {"slug": slug, "lang": lang, "summary": summary,
                                         "content": text}
    if translation is not None:
        translation["digest"] = fields_digest(translation)
    return {"where": where, "problems": problems, "fields": None, "removed": removed,
            "category": "", "city": "", "translation": translation}


def is_translation(record):
    """True for the record of a translation (``translation_record``)."""
    return record.__class__ is dict and "translation" in record


def listing_record(content, metadata, where, config, timezone):
    """A listing's record (``LISTING_RECORD``); when problems stop it, a dict of them, with
    ``fields`` None and the slugs of its ``category`` and ``city``. ``config`` is the
    directory's settings (its URLs and default country)."""
    if not plain_text(metadata.get("title")):
        return {"where": where, "problems": ["has no Title (the Arabic name of the business)"],
                "fields": None, "category": "", "city": ""}
    problems = []
    name, name_en, name_fr = clean_names(metadata, config.max_name_length, problems)
    terms = {}
    for key in ("category", "city"):
        terms[key] = plain_text(str(metadata.get(key) or ""))
        if not terms[key]:
            problems.append(f"has no {key.capitalize()}")
    fields = {}
    for key, clean in _FIELD_RULES:
        try:
            fields[key] = clean(metadata.get(key))
        except ValueError as error:
            problems.append(str(error))
    try:
        fields["latitude"], fields["longitude"] = validate.clean_coordinates(
            metadata.get("latitude"), metadata.get("longitude"))
    except ValueError as error:
        problems.append(str(error))
    try:
        fields["hours"], fields["opening_ranges"] = parse_hours(metadata.get("hours"))
    except ValueError as error:
        problems.append(str(error))
    slug, problem = record_slug(metadata, name_en, name_fr, name)
    if problem:
        problems.append(problem)
    record = {"where": where, "problems": problems, "fields": None, "removed": [],
              "category": terms["category"], "city": terms["city"]}
    if problems:
        return record
    draft = fields["status"] == "draft"
    removed = []
    date = _iso(to_utc(metadata.get("date"), timezone))
    modified = _iso(to_utc(metadata.get("modified"), timezone))
    fields.update(
        slug=slug, name=name, name_en=name_en, name_fr=name_fr,
        street=plain_text(metadata.get("street")),
        postal_code=plain_text(metadata.get("postal_code")),
        country=plain_text(metadata.get("country")) or config.default_country,
        date=date, modified=modified, date_modified_text=rfc3339_of_iso(modified or date),
        summary=clean_html(metadata.get("summary"), removed),
        content=clean_html(content, removed),
        source_path=where,
        url=(config.listing_draft_url if draft else config.listing_url).format(slug=slug),
        save_as=(config.listing_draft_save_as if draft else config.listing_save_as).format(slug=slug),
        category=terms["category"], city=terms["city"],
    )
    # A tuple: marshal loads an empty one without making it (100,000 cached records).
    return (where, tuple(removed), fields_digest(fields), None,
            tuple(fields[name] for name in LISTING_FIELDS), None)


def _iso(value):
    return None if value is None else value.isoformat()


def rfc3339_of_iso(text):
    """``dates.rfc3339`` of the UTC time ``_iso`` wrote as ``text`` (``""`` for None): its
    date and time to the second (a four-digit year: always 19 characters), then Z."""
    return text[:19] + "Z" if text else ""


def is_listing(record):
    """True for a listing's record with no problem (``LISTING_RECORD``)."""
    return record.__class__ is tuple


def record_name(record):
    """The name of the listing or term of ``record``, None when problems stop it."""
    if is_listing(record):
        return record[VALUES][_CORE_NAME if record[PACKED] is not None else LISTING_INDEX["name"]]
    return record["fields"]["name"] if record.get("fields") is not None else None


def record_sort_key(record):
    return record[SORT_KEY] if is_listing(record) else record.get("sort_key")


def with_sort_key(record, sort_key):
    """``record`` with its name's collation key."""
    if is_listing(record):
        return (*record[:SORT_KEY], sort_key, *record[SORT_KEY + 1:])
    return {**record, "sort_key": sort_key}


def listing_texts(record):
    """``(summary, content)`` of a listing's record, None when kept apart in the cache."""
    if record[PACKED] is not None:
        return None
    values = record[VALUES]
    return values[_SUMMARY], values[_CONTENT]


def fields_digest(fields):
    """The page cache's digest of a listing's fields, made once as it is read: the texts
    as their UTF-8 bytes, the rest as ``marshal`` data (version 2: no back-references,
    so equal values give equal bytes), texts by their length.
    A repr of the fields took a third longer (40 µs a listing), and a fifth of reading
    a listing when it took in the HTML."""
    texts, rest = [], []
    for key, value in fields.items():
        if value.__class__ is str:
            texts.append(value)
            rest.append((key, len(value)))
        else:
            rest.append((key, None, value))
    hasher = hashlib.blake2b(marshal.dumps(rest, 2), digest_size=16)
    hasher.update("".join(texts).encode("utf-8"))
    return hasher.digest()


def file_stamp(path):
    return _stamp(os.stat(path))


def _stamp(stat):
    """A file's modification time and size as one number (the size in the low 64 bits):
    a pair of them made two objects more for each of 100,000 files as the cache loaded
    and as the listed files came from their worker."""
    return stat.st_mtime_ns << 64 | stat.st_size


def file_stamps(folder, relpaths):
    """``file_stamp`` of each of ``relpaths`` (below ``folder``), or None for a file gone
    since it was listed (its reader reports it)."""
    return stats_below(folder, relpaths, _stamp)


_URL_AT = (LISTING_INDEX["url"], LISTING_INDEX["save_as"])
_CORE_URL_AT = (CORE_FIELDS.index("url"), CORE_FIELDS.index("save_as"))


def in_folder(record, folder):
    """A listing's ``record`` with its page's URL and path below ``folder`` ("fr/"), as
    the build of that language reads them (the others' records are the same)."""
    if not is_listing(record):
        return record
    values = list(record[VALUES])
    for index in _URL_AT if record[PACKED] is None else _CORE_URL_AT:
        values[index] = below_folder(values[index], folder)
    return (*record[:VALUES], tuple(values), *record[VALUES + 1:])


def storable(record):
    """``(record, texts)``: ``record`` as the cache keeps it (its core values, the others
    packed; see ``LISTING_RECORD``) and its HTML, ``(summary, content)``, None when it has
    none (a term's), or holds none (loaded from the cache)."""
    if not is_listing(record) or record[PACKED] is not None:
        return record, None
    values = record[VALUES]
    return ((*record[:VALUES], _CORE_VALUES(values), marshal.dumps(_PACKED_VALUES(values))),
            (values[_SUMMARY], values[_CONTENT]))


class CachedTexts:
    """The HTML of listings whose records came from the cache, loaded shard by shard on
    first use, or read in this run and put in its ``spill`` (see ``spill``). A shard's
    texts map its relpaths to ``(record digest, summary, content)``."""

    def __init__(self, folder, salt):
        self.folder = folder
        self.salt = salt
        self.shards = {}
        self.spill = None  # this run's, made by the build that reads the files
        self.spilled = {}  # relpath -> where in ``spill`` its HTML is

    def path(self, number):
        return os.path.join(self.folder, f"{number:02d}.texts.marshal")

    def shard(self, number):
        texts = self.shards.get(number)
        if texts is None:
            texts = {}
            with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
                salt, stored = load_marshalled(self.path(number))
                if salt == self.salt:
                    texts = stored
            self.shards[number] = texts
        return texts

    def get(self, relpath, digest):
        """``(summary, content)`` of the record of ``relpath`` whose digest is ``digest``,
        else None."""
        where = self.spilled.get(relpath)
        if where is not None:  # read in this run: its digest is the record's
            return self.spill.get(where)
        known = self.shard(shard_of(relpath)).get(relpath)
        return (known[1], known[2]) if known is not None and known[0] == digest else None


def shard_of(relpath):
    return hashlib.blake2b(relpath.encode("utf-8", "surrogateescape"), digest_size=1).digest()[0] % SHARDS


class SourceCache:
    """Records by source path and stamp, in ``SHARDS`` marshal files under CACHE_PATH/``name``.

    A shard holds the salt of the code and settings that made it: records made by
    other code, other settings or other versions of Markdown and Pelican are not used.
    """

    def __init__(self, settings, name, shared=False):
        self.enabled = bool(settings.get("CACHE_CONTENT"))
        # Records kept for the builds of the site's other languages (``seed``), even
        # without the content cache: their files are stamped to be known again.
        self.shared = shared
        self.folder = os.path.join(settings["CACHE_PATH"], name)
        self.salt = build_salt(settings) + repr(
            (settings.get("MARKDOWN"), settings.get("FORMATTED_FIELDS"),
             markdown.__version__, pelican.__version__, sys.version)).encode("utf-8")
        self.shards = [{} for _ in range(SHARDS)]
        self.texts = CachedTexts(self.folder, self.salt)
        self.changed = set()  # numbers of the shards to save
        self.start_build()
        self.to_load = self.enabled and bool(settings.get("LOAD_CONTENT_CACHE"))

    def may_hold_records(self):
        """False when ``get`` is sure to find nothing (files then need no stamps)."""
        return (self.shared or any(self.shards)
                or (self.to_load and os.path.isdir(self.folder)))

    def load(self):
        """Load the shards from CACHE_PATH, the first time only."""
        if self.to_load:
            self.to_load = False
            with kept_for_the_build():
                for number in range(SHARDS):
                    with contextlib.suppress(OSError, EOFError, ValueError, TypeError, KeyError):
                        salt, entries = load_marshalled(self._shard_path(number))
                        if salt == self.salt:  # records seeded by this run stay
                            self.shards[number] = {**entries, **self.shards[number]}
                self._merged = None

    def start_build(self):
        """Forget which files the last build read (a cache kept in memory between builds)."""
        self.seen = set()
        self._merged = None  # every shard's entries in one dict (see get_all)

    def _shard_path(self, number):
        return os.path.join(self.folder, f"{number:02d}.marshal")

    def get_all(self, relpaths, stamps):
        """The record of each of ``relpaths`` if its file, stamped as ``stamps`` gives it now
        (None: not stamped), is unchanged since it was made, else None; looked up in one
        view of all the shards, not in each file's shard (100,000 digests of relpaths)."""
        if self._merged is None:  # once a build, for its kinds of sources
            self._merged = {}
            for entries in self.shards:
                self._merged.update(entries)
        self.seen.update(relpaths)
        found = map(self._merged.get, relpaths)
        return [known[1] if known is not None and known[0] == stamp else None
                for known, stamp in zip(found, stamps or itertools.repeat(None))]

    def previous(self, relpath):
        """The record ``relpath`` had when it was last made, changed since or not."""
        known = self.shards[shard_of(relpath)].get(relpath)
        return known[1] if known is not None else None

    def put(self, relpath, record, stamp):
        """Keep ``record``, made from the file with ``stamp`` (taken before reading it)."""
        if not (self.enabled or self.shared):
            return
        number = shard_of(relpath)
        self.shards[number][relpath] = (stamp, record)
        self._merged = None
        self.changed.add(number)

    def seed(self, other, folder):
        """Take the records ``other`` (the first language's build's cache) made in this
        run, their pages below ``folder`` (this build's language folder): the files are
        not read again."""
        self.texts.spill, self.texts.spilled = other.texts.spill, other.texts.spilled
        for number, entries in enumerate(other.shards):
            own = self.shards[number]
            for relpath, (stamp, record) in entries.items():
                if stamp is not None and own.get(relpath, (None,))[0] != stamp:
                    own[relpath] = (stamp, in_folder(record, folder))
                    self.changed.add(number)
        self._merged = None

    def save(self):
        """Write the shards that changed; records of files no longer read are dropped."""
        if not self.enabled:
            return
        self.load()  # a no-op unless nothing loaded them: none is lost
        for number, entries in enumerate(self.shards):
            gone = entries.keys() - self.seen
            for relpath in gone:
                del entries[relpath]
            if gone:
                self.changed.add(number)
        if not self.changed:
            return
        changed = sorted(self.changed)
        # Read in workers of their own, but for a cache kept in memory: it keeps their texts.
        reads = sum(len(self.shards[number]) for number in changed) if self.texts.spill else 0
        for number, texts in map_in_fresh_workers(self, SourceCache.save_shards, changed, reads):
            if texts is not None:
                self.texts.shards[number] = texts
        self.changed.clear()
        # The folder is the cache's own: shards of an earlier format are dropped.
        shard_names = {os.path.basename(path(number)) for number in range(SHARDS)
                       for path in (self._shard_path, self.texts.path)}
        for name in os.listdir(self.folder):
            if name not in shard_names and not name.startswith("."):
                with contextlib.suppress(OSError):
                    os.remove(os.path.join(self.folder, name))

    def save_shards(self, numbers):
        """Write the shards ``numbers`` and their texts: each one's texts if kept in memory."""
        kept = []
        for number in numbers:
            entries, texts = {}, {}
            for relpath, (stamp, record) in self.shards[number].items():
                stored, text = storable(record)
                if text is None and is_listing(record):
                    text = self.texts.get(relpath, record[DIGEST])
                    if text is None:  # its HTML is gone: the next build reads the file again
                        continue
                entries[relpath] = (stamp, stored)
                if text is not None:
                    texts[relpath] = (record[DIGEST], *text)
            replace_atomically(self.texts.path(number), marshal.dumps((self.salt, texts)))
            replace_atomically(self._shard_path(number), marshal.dumps((self.salt, entries)))
            kept.append(texts if self.texts.spill is None else None)
        return kept
