"""The directory generator: reads listings, categories and cities; writes their pages."""

import contextlib
import datetime as dt
import fnmatch
import itertools
import logging
import marshal
import operator
import os
import posixpath
import re
import struct
import time
from pathlib import Path

import jinja2
from markupsafe import Markup
from pelican import signals
from pelican.generators import Generator
from pelican.readers import Readers, find_empty_alt

from dalil.core.background import BACKGROUND_NICENESS
from dalil.core.dates import build_time
from dalil.core.errors import ContentErrors
from dalil.core.i18n import (N_, content_lang, local_name_field, shown_name,
                             write_script_messages)
from dalil.core.languages import LANGUAGES_RUN_KEY, build_other_languages, language_record
from dalil.core.memory import kept_for_the_build, leave_build_to_exit
from dalil.core.output import CONTEXT_KEY as OUTPUT_FILES_KEY
from dalil.core.output import OBSERVER_KEY, output_files
from dalil.core.files import write_if_changed
from dalil.core.pages import register_page
from dalil.core.settings import BUILD_MEMORY_KEY, language_path
from dalil.core.pagecache import (PageCache, digest, last_build_stale, stored_pages,
                                  template_closure, undeclared_names)
from dalil.core.parallel import Pool, worker_count
from dalil.core.record import retire_leftovers
from dalil.core.templates import add_plugin_templates
from dalil.core.text import plain_text, report_removed
from dalil.core.urls import root_path
from dalil.core.writer import DalilWriter
from dalil.core.files import output_file_path, output_file_paths
from dalil.core.search_settings import search_settings

from .collation import WordCollator
from .hours import utc_offsets, utc_offsets_text
from .incremental import CACHE_NAME, global_digest, term_key
from .jsonld import listing_json_ld
from .model import CORE_FIELDS, CONTEXT_KEY, Directory, Listing, Term, cached_listing
from .progress import Progress, print_summary
from .reader import LeanMarkdownReader
from .sources import (DIGEST, LISTING_INDEX, WHERE, SourceCache, file_stamp, file_stamps,
                      is_listing, is_translation, listing_record, listing_texts, record_name,
                      record_sort_key, term_record, translation_lang, translation_record,
                      with_sort_key)
from .settings import directory_settings

logger = logging.getLogger(__name__)

TEMPLATES_DIR = Path(__file__).parent / "templates"
# Where a listing's record holds its slug and its terms' slugs: among every value, or among
# its core values (from the cache).
_TERMS_AT = _SLUG, _CATEGORY, _CITY = tuple(
    LISTING_INDEX[name] for name in ("slug", "category", "city"))
_CORE_TERMS_AT = tuple(CORE_FIELDS.index(name) for name in ("slug", "category", "city"))
_DATES = (LISTING_INDEX["date"], LISTING_INDEX["modified"])
_SAVE_AS = operator.attrgetter("save_as")
UTC_OFFSETS_KEY = "dalil_utc_offsets"
# How many of the newest listings the model keeps for ``Directory.recent``.
NEWEST_KNOWN = 64


class SourceFile:
    """What Pelican's readers give back: body HTML and processed metadata."""

    def __init__(self, content, metadata, settings, source_path, context):
        self.content = content or ""
        self.metadata = metadata
        self.source_path = source_path


class DirectoryGenerator(Generator):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Pelican's article defaults (category from the folder name, date from the
        # file name, DEFAULT_METADATA) must not invent listing metadata.
        reader_settings = dict(self.settings, USE_FOLDER_AS_CATEGORY=False, DEFAULT_METADATA={},
                               DEFAULT_DATE=None, CATEGORY_SAVE_AS="", FILENAME_METADATA="",
                               PATH_METADATA="")
        self.readers = Readers(reader_settings, "dalil-directory")
        add_plugin_templates(self, TEMPLATES_DIR)
        self.config = directory_settings(self.settings)
        self.directory = None
        self.page_listings = ()
        self.page_variables = {}
        self.writer = None
        self.cards = None  # id(listing) -> its card, while term pages wait for them
        self.card_macro = None
        self.workers = worker_count(self.config.workers)
        self.lean_reader = LeanMarkdownReader(reader_settings)
        self.near_me_index = near_me_index(self.settings)
        # The listings' and terms' names in the pages' language: their ``name_fr``, say.
        self.local_name_field = local_name_field(self.settings)
        self.source_cache = source_cache(self.settings)
        self.content_folder = os.path.basename(os.path.abspath(self.path))
        self.collator = None  # loaded on first use, dropped once the listings are sorted
        self.sort_keys = {}  # id(listing or term) -> collation key of its name
        self.known_sort_keys = {}  # name -> collation key, from the cache
        self.unloaded_texts = {}  # listing -> its record: its HTML still in the cache
        self.content_language = content_lang(self.settings)  # listings' own
        self.translations = {}  # listing -> its description's translation this build shows
        self._sizing = None  # (pool, result) of a worker measuring the last build's pages
        self._stored_pages = None  # the last build's page digests, loaded ahead (stored_pages)
        self._stale_pages = None  # the pages _sizing found changed, once taken (_measured_stale)
        self._ignored = None  # IGNORE_FILES as one compiled expression (see _include_name)
        self.cached_texts = self.source_cache.texts
        self.sources_read = 0
        self.started = time.perf_counter()
        self.stats = {"rendered": 0, "skipped": 0, "changed": 0}
        self.removed = 0  # files of the last build this one did not produce, removed
        # Bound to this build; the generator holds it, so blinker's weak reference lives.
        self._summary_receiver = self._print_summary
        signals.finalized.connect(self._summary_receiver)
        self._reading = self._start_reading([("category", self.config.category_paths),
                                             ("city", self.config.city_paths),
                                             ("listing", self.config.listing_paths)])
        # Nothing for the workers to read (a cached rebuild): the model is made now, before
        # the other generators make their contexts, so that the exports can start beside them.
        pool, holes = self._reading[:2]
        if not pool.in_workers(len(holes)):
            self._make_context()

    # -- reading ---------------------------------------------------------

    def get_files(self, paths, exclude=None, extensions=None):
        """Pelican's ``get_files`` (the same walk, pruning and rule), with the rule applied
        to each file's name as the walk gives it instead of to a path joined and split
        again: 100,000 listings are listed in 0.22 against 0.58 s, while the main process
        waits for them (``_start_reading``)."""
        if isinstance(paths, str):
            paths = [paths]
        exclusions_by_dirpath = {}
        for excluded in exclude or ():
            parent_path, subdir = os.path.split(os.path.join(self.path, excluded))
            exclusions_by_dirpath.setdefault(parent_path, set()).add(subdir)
        ignores = self.settings["IGNORE_FILES"]
        files = set()
        for path in paths:
            root = os.path.join(self.path, path) if path else self.path
            if os.path.isdir(root):
                for dirpath, dirs, names in os.walk(root, topdown=True, followlinks=True):
                    excluded = exclusions_by_dirpath.get(dirpath, ())
                    dirs[:] = [name for name in dirs if name not in excluded and not any(
                        fnmatch.fnmatch(name, ignore) for ignore in ignores)]
                    prefix = os.path.join(os.path.relpath(dirpath, self.path), "")
                    included = self._included_names(names, extensions)
                    files.update([prefix + name for name in included])
            elif os.path.exists(root) and self._include_path(path, extensions):
                files.add(path)
        return files

    def _include_path(self, path, extensions=None):
        """Pelican's rule for ``get_files``: see ``_include_name``."""
        return self._include_name(os.path.basename(path), extensions)

    def _include_name(self, name, extensions=None):
        """Pelican's rule for a file named ``name``: see ``_included_names``."""
        return bool(self._included_names([name], extensions))

    def _included_names(self, names, extensions=None):
        """The names of ``names`` Pelican's rule keeps (not a match of ``IGNORE_FILES``, an
        extension of ``extensions``), with the patterns compiled into one expression once
        and each name tested in a list's pass, without ``splitext`` or a call of its own:
        the names of 100,000 listings, while the main process waits for them."""
        if self._ignored is None:
            patterns = [fnmatch.translate(os.path.normcase(pattern))
                        for pattern in self.settings["IGNORE_FILES"]]
            self._ignored = re.compile("|".join(patterns)).match if patterns else (lambda name: None)
        if extensions is None:
            extensions = tuple(self.readers.extensions)
        ignored, normcase = self._ignored, os.path.normcase
        kept = [name for name in names if not ignored(normcase(name))]
        if extensions is False:
            return kept
        extensions = frozenset(extensions)
        # splitext's extension: after the last dot, unless only dots come before it.
        return [name for name in kept if (parts := name.rpartition("."))[2] in extensions
                and parts[0].lstrip(".")]

    def _display_path(self, source_path):
        """``content/listings/x.md``: the path an operator recognises."""
        base = os.path.dirname(os.path.abspath(self.path))
        return Path(os.path.relpath(source_path, base)).as_posix()

    def _start_reading(self, sources):
        """Start reading every source of ``sources`` (``(kind, paths)`` pairs): a worker
        lists the files, and stamps them when the source cache may know them, while this
        process loads the cache (at 100,000 listings, a second on each side); unchanged
        files' records come from the cache, the others are made in the workers (Markdown
        with the lean reader), which start at once, so that they read while the other
        generators make their contexts; ``_finish_reading`` takes the records."""
        pool, cache = Pool(self, self.workers), self.source_cache
        stamped = cache.may_hold_records()
        if stamped and cache.to_load:
            output_files(self.context).start_checking_ahead()  # before the workers fork
            listing = pool.submit(_list_sources, sources, stamped)
            # Meanwhile, a worker measures the pages the last build wrote (see PageCache):
            # at a low priority, on what core this process and the listing leave idle.
            self._sizing = pool, pool.submit(_measure_last_build, niceness=BACKGROUND_NICENESS)
            cache.load()
            # Loaded while the worker still lists: the pages' digests, for generate_output.
            self._stored_pages = stored_pages(self.settings, CACHE_NAME)
            listed = listing.get()
        else:  # nothing to load meanwhile
            cache.load()
            listed = _list_sources(self, sources, stamped)
        # Each kind's records in the order of its files, None for a file to read: its
        # index is among ``holes`` (in passes made in C, for 100,000 cached listings).
        records, holes, to_read = {}, [], []
        known = any(cache.shards)  # else, in a cold build, no file has a previous record
        for kind, kind_relpaths, stamps in marshal.loads(listed):
            records[kind] = found = cache.get_all(kind_relpaths, stamps)
            for index in [index for index, record in enumerate(found) if record is None]:
                relpath = kind_relpaths[index]
                holes.append((kind, index))
                to_read.append((kind, relpath))
                # An edited file mostly keeps its name: no collation table to load for it.
                previous = cache.previous(relpath) if known else None
                sort_key = record_sort_key(previous) if previous is not None else None
                if sort_key is not None:
                    self.known_sort_keys[record_name(previous)] = sort_key
        return pool, holes, pool.map(_read_chunk, to_read), records

    def _finish_reading(self, errors):
        """``{kind: records}`` of the sources ``_start_reading`` started with."""
        (pool, holes, outcomes, records), self._reading = self._reading, None
        # The pool ends here, or with the sizes its worker measures (``_measured_stale``).
        with pool if self._sizing is None else contextlib.nullcontext():
            for (kind, index), ((_, relpath), outcome) in zip(holes, outcomes):
                if isinstance(outcome, str):  # a reader's own error: bad date, encoding, ...
                    errors.add(self._display_path(os.path.join(self.path, relpath)),
                               "cannot be read: %s", outcome)
                    continue
                stamp, record = outcome
                name = record_name(record)
                if name is not None:
                    record = with_sort_key(record, self.collation_key(name))
                records[kind][index] = record
                self.source_cache.put(relpath, record, stamp)
                self.sources_read += 1
        return {kind: [record for record in found if record is not None]
                for kind, found in records.items()}

    def read_stamped(self, kind, relpath):
        """``(stamp, record)`` of one source file, its stamp taken before it is read (runs
        in a worker: a file the cache has never seen is stamped there, not by the parent
        on one core, 100,000 stats in a cold build)."""
        return file_stamp(os.path.join(self.path, relpath)), self.read_record(kind, relpath)

    def read_record(self, kind, relpath):
        """The record of one source file (runs in a worker); see ``sources``."""
        content, metadata = self.read_source(relpath)
        # relpaths are below self.path: no os.path.relpath per file (a tenth of a rebuild).
        where = self.content_folder + "/" + relpath.replace(os.sep, "/")
        if kind == "listing":
            lang = translation_lang(metadata, self.content_language)
            if lang is not None:
                return translation_record(content, metadata, where, lang)
            return listing_record(content, metadata, where, self.config,
                                  self.settings.get("TIMEZONE", "UTC"))
        return term_record(kind, content, metadata, where, self.config.max_name_length)

    def collation_key(self, name):
        """``name``'s Unicode collation key (the table is loaded on first use), packed as
        big-endian 32-bit weights: bytes compare as the tuple of weights does, in a
        quarter of its memory (10,000 keys are kept). Made in this process, word by word
        as the records arrive: the workers would each load the table (80 ms)."""
        if name in self.known_sort_keys:
            return self.known_sort_keys[name]
        if self.collator is None:
            self.collator = WordCollator()
        weights = self.collator.sort_key(name)
        return struct.pack(f">{len(weights)}I", *weights)

    def _shown_name_order(self, sort_keys):
        """The sort key of a term by the name its pages show (``shown_name``), then slug."""
        if self.local_name_field is None:
            return lambda term: (sort_keys[id(term)], term.slug)
        return lambda term: (self.collation_key(shown_name(term, self.local_name_field)), term.slug)

    def read_source(self, relpath):
        """``(content, metadata)`` of one source file (runs in a worker)."""
        full_path = os.path.join(self.path, relpath)
        if relpath.rsplit(".", 1)[-1] in LeanMarkdownReader.file_extensions:
            content, metadata = self.lean_reader.read(full_path)
            if content:
                find_empty_alt(content, full_path)
            return content or "", metadata
        source = self.readers.read_file(base_path=self.path, path=relpath,
                                        content_class=SourceFile, context=self.context)
        return source.content, source.metadata

    @staticmethod
    def _accepted(record, errors):
        """Report ``record``'s problems; True if it has none."""
        for problem in record["problems"]:
            errors.add(record["where"], "%s", problem)
        return record["fields"] is not None and not record["problems"]

    def _read_terms(self, kind, records, url_pattern, save_as_pattern, errors):
        terms = {}
        # Listings name their category and city by slug, but exports and people tell
        # terms apart by name: two with one name would merge for them. An error, but
        # both terms stay, each with its listings: which file came first (a new file
        # may sort before an old one) never drops a term that was valid before.
        by_name = {}
        for record in records:
            if not self._accepted(record, errors):
                continue
            fields, where = record["fields"], record["where"]
            slug, name = fields["slug"], fields["name"]
            if slug in terms:
                errors.add(where, "duplicate %s slug %r, also used by %s",
                           kind, slug, terms[slug].source_path)
                continue
            if name in by_name:
                errors.add(where, "duplicate %s name %r, also used by %s",
                           kind, name, by_name[name].source_path)
            report_removed(where, record["removed"])
            terms[slug] = Term(
                url=url_pattern.format(slug=slug), save_as=save_as_pattern.format(slug=slug),
                **fields)
            by_name.setdefault(name, terms[slug])
            self.sort_keys[id(terms[slug])] = record["sort_key"]
        return terms

    def _read_listings(self, records, categories, cities, errors):
        """``(listings by slug, digests)``: ``digests`` (with the content cache, else None)
        maps each listing to the digest of everything it shows of itself and its terms, the
        key of its page, its card and its export rows from one build to the next."""
        by_slug, unloaded, sort_keys = {}, self.unloaded_texts, self.sort_keys
        from_iso, modified_at = dt.datetime.fromisoformat, _DATES[1]
        digests = term_digests = None
        if self.settings.get("CACHE_CONTENT"):
            # Fixed-size digests (the record's covers the listing's URL and path): no repr
            # for each of 100,000.
            digests = {}
            term_digests = {id(term): digest(repr(term_key(term)))
                            for term in (*categories.values(), *cities.values())}
        translations = []
        for record in records:
            if record.__class__ is not tuple:  # not is_listing: stopped by its problems
                if is_translation(record):
                    translations.append(record)
                    continue
                for key, known in (("category", categories), ("city", cities)):
                    if record[key] and record[key] not in known:
                        errors.add(record["where"], "names unknown %s %r", key, record[key])
                self._accepted(record, errors)
                continue
            where, removed, record_digest, sort_key, values, packed = record
            slug_at, category_at, city_at = _TERMS_AT if packed is None else _CORE_TERMS_AT
            slug, category_slug, city_slug = values[slug_at], values[category_at], values[city_at]
            category, city = categories.get(category_slug), cities.get(city_slug)
            if category is None or city is None:
                for key, term, term_slug in (("category", category, category_slug),
                                             ("city", city, city_slug)):
                    if term is None:
                        errors.add(where, "names unknown %s %r", key, term_slug)
                continue
            if slug in by_slug:
                errors.add(where, "duplicate listing slug %r, also used by %s",
                           slug, by_slug[slug].source_path)
                continue
            if removed:
                report_removed(where, removed)
            if packed is None:
                values = list(values)
                values[_CATEGORY], values[_CITY] = category, city
                date, modified = values[_DATES[0]], values[modified_at]
                if date is not None:
                    values[_DATES[0]] = from_iso(date)
                if modified is not None:
                    values[modified_at] = from_iso(modified)
                listing = by_slug[slug] = Listing(*values)
            else:
                # Its HTML is loaded for its page if that is rendered again (_load_texts).
                listing = by_slug[slug] = cached_listing(values, category, city, packed)
                unloaded[listing] = record
            sort_keys[id(listing)] = sort_key
            if digests is not None:
                digests[listing] = digest(record_digest + term_digests[id(category)]
                                          + term_digests[id(city)])
        self._read_translations(translations, by_slug, digests, errors)
        return [by_slug[slug] for slug in sorted(by_slug)], digests

    def _read_translations(self, records, by_slug, digests, errors):
        """Check the translations of listings' descriptions; those in the language of this
        build (``DEFAULT_LANG``) replace their listings' descriptions (``translate``)."""
        build_lang = self.settings.get("DEFAULT_LANG")
        seen = {}  # (slug, lang) -> where
        for record in sorted(records, key=lambda record: record["where"]):
            for problem in record["problems"]:
                errors.add(record["where"], "%s", problem)
            if record["translation"] is None:
                continue
            where, translation = record["where"], record["translation"]
            slug, lang = translation["slug"], translation["lang"]
            listing = by_slug.get(slug)
            if listing is None:
                errors.add(where, "is a translation (Lang: %s) of listing %r, which does not "
                           "exist: no listing has that Slug", lang, slug)
                continue
            if (slug, lang) in seen:
                errors.add(where, "is a second translation of listing %r into %s, also "
                           "translated by %s", slug, lang, seen[slug, lang])
                continue
            seen[slug, lang] = where
            if lang != build_lang:
                continue
            if record["removed"]:
                report_removed(where, record["removed"])
            self.translations[listing] = translation
            if listing not in self.unloaded_texts:  # else once its texts are loaded
                translate(listing, translation)
            if digests is not None:
                digests[listing] = digest(digests[listing] + translation["digest"])

    def generate_context(self):
        if self.directory is None:
            self._make_context()

    def _make_context(self):
        cfg = self.config
        errors = ContentErrors()
        records = self._finish_reading(errors)
        with kept_for_the_build():
            self.directory = self._make_model(records, errors)
            del records
        self.readers.save_cache()
        if BUILD_MEMORY_KEY in self.settings:
            self.source_cache.save()  # kept in memory for the next livereload build
        else:
            # Nothing in this build reads it again: written beside the pages, by a forked
            # writer. It stays until the build ends: freed here, its objects would be
            # written to (counts, the allocator's lists) on pages the writer shares, each
            # page copied (0.1 s at 10,000 listings, a second at 100,000).
            # Last: only the next build needs it.
            output_files(self.context).in_background(self.source_cache.save,
                                                     forked=self.workers > 1, rank=-1)
        self.context[CONTEXT_KEY] = self.directory
        # Listing pages tell "open now" with the build's zone data (see hours.utc_offsets).
        self.context[UTC_OFFSETS_KEY] = utc_offsets_text(
            utc_offsets(self.settings.get("TIMEZONE") or "UTC", build_time().year))
        register_page(self.context, cfg.index_url, N_("Directory"))
        for save_as in cfg.not_found_save_as:
            url = save_as[: -len("index.html")] if save_as.endswith("/index.html") else save_as
            register_page(self.context, url, N_("Page not found"), indexable=False)
        errors.report(logger)

    def _make_model(self, records, errors):
        """The ``Directory`` of ``records`` (see ``_finish_reading``), its problems told to ``errors``."""
        cfg = self.config
        categories = self._read_terms("category", records["category"], cfg.category_url,
                                      cfg.category_save_as, errors)
        cities = self._read_terms("city", records["city"], cfg.city_url, cfg.city_save_as, errors)
        listings, digests = self._read_listings(records["listing"], categories, cities, errors)
        published = [listing for listing in listings if listing.status == "published"]
        sort_keys = self.sort_keys
        # One stable sort by name of listings in slug order: each term's listings by name,
        # then slug, without a sort and a key tuple for each term.
        newest_by_term = {}
        for listing in sorted(published, key=lambda listing: sort_keys[id(listing)]):
            category, city = listing.category, listing.city
            category.listings.append(listing)
            city.listings.append(listing)
            when = listing.modified or listing.date
            if when is not None:
                for term in (category, city):
                    if term not in newest_by_term or newest_by_term[term] < when:
                        newest_by_term[term] = when

        directory = Directory(
            listings=published,
            hidden=[listing for listing in listings if listing.status == "hidden"],
            drafts=[listing for listing in listings if listing.status == "draft"],
            categories=[categories[slug] for slug in sorted(categories)],
            cities=[cities[slug] for slug in sorted(cities)],
            categories_by_name=sorted(categories.values(), key=self._shown_name_order(sort_keys)),
            cities_by_name=sorted(cities.values(), key=self._shown_name_order(sort_keys)),
        )
        directory.newest_known = directory.newest(NEWEST_KNOWN)
        directory.newest_by_term = newest_by_term
        self.sort_keys = self.known_sort_keys = {}  # sorted: not needed any more
        self.collator = None
        if digests is not None:
            directory.digests = digests
        return directory

    # -- writing ---------------------------------------------------------

    def generate_output(self, writer):
        self.writer = writer
        cfg = self.config
        directory = self.directory
        listing_template = self.get_template("directory/listing")
        term_template = self.get_template("directory/term")
        self.page_listings = (*directory.listings, *directory.hidden, *directory.drafts)
        self.page_variables = {}  # template name -> the variables its pages share
        global_key = None
        if self.settings.get("CACHE_CONTENT"):
            global_key = global_digest(self, [listing_template.name, term_template.name])
        cache = PageCache(self.settings, self.output_path, global_key, CACHE_NAME,
                          stale=self._measured_stale(), stored=self._stored_pages)
        self._stored_pages = None
        # Without the cache nothing is skipped, so nothing needs a digest.
        listing_digests = directory.digests if cache.enabled else dict.fromkeys(self.page_listings)
        # A term page's: its term and page number, then its listings' fixed-size digests as
        # they are (a repr of them took 60 µs a page).
        term_page_digest = ((lambda head, digests: digest(head + b"".join(digests)))
                            if cache.enabled else (lambda head, digests: None))
        # Pages as columns (refs, save_as, digests): a job is made only for a page rendered
        # again, and the cache checks the 100,000 others in a few passes made in C.
        listings = self.page_listings
        listing_pages = (range(len(listings)), list(map(_SAVE_AS, listings)),
                         list(map(listing_digests.__getitem__, listings)))
        term_pages = tuple(map(list, zip(*[
            ((kind, index, number), save_as, page_digest)
            for kind, terms in (("category", directory.categories), ("city", directory.cities))
            for index, term in enumerate(terms)
            for number, save_as, page_digest
            in self._term_pages(term, term_page_digest, listing_digests)]))) or ([], [], [])
        # Each listing's card, made with its page, for its category's and city's pages.
        self.cards = {} if "page_cards" in undeclared_names(self.env, term_template.name) else None
        observer = self.context.get(OBSERVER_KEY)
        # Compiled before the workers fork, which then share them: each compiled those it
        # extends and imports (0.1 CPU-s).
        for name in template_closure(self.env, [listing_template.name, term_template.name]):
            with contextlib.suppress(jinja2.TemplateError):  # rendering reports it
                self.env.get_template(name)
        with Pool(self, self.workers) as pool:
            self._render_all(pool, writer, cache, "listing pages", "listing", listing_pages,
                             observer)
            # Only the pages rendered again take their cards: 8,000 pages at 100,000 listings.
            self._render_all(pool, writer, cache, "category and city pages", "term", term_pages,
                             observer, complete=lambda job: (*job, self._page_cards(job[1])))
            self.cards = None
        cache.save()
        write_script_messages(self.context, self.settings)  # what the theme's pages load
        writer.write_file(cfg.index_save_as, self.get_template("directory/index"), self.context)
        not_found = self.get_template("404")
        for save_as in cfg.not_found_save_as:
            writer.write_file(save_as, not_found, self.context, noindex=True)

    def _measured_stale(self):
        """The last build's pages whose files changed since, as a reading worker found
        them, else None; the reading pool ends here."""
        if self._sizing is not None:
            with self._sizing[0]:
                self._stale_pages = set(marshal.loads(self._sizing[1].get()))
            self._sizing = None
        return self._stale_pages

    def _render_all(self, pool, writer, cache, label, kind, pages, observer, complete=None):
        """Render the pages of ``kind`` that the cache does not keep, ``pages`` their refs,
        ``save_as`` and digests (three sequences); a page's job is ``(kind, ref, save_as,
        digest)``, made whole by ``complete`` when given."""
        refs, save_as_list, digests = pages
        fresh = cache.fresh(save_as_list, digests)
        kept = list(itertools.compress(save_as_list, fresh))
        todo = [(kind, refs[index], save_as_list[index], digests[index])
                for index in itertools.compress(range(len(fresh)), map(operator.not_, fresh))]
        if complete is not None:
            todo = [complete(job) for job in todo]
        self.stats["skipped"] += len(kept)
        if isinstance(writer, DalilWriter):
            writer.claim_unchanged(output_file_paths(writer.output_path, kept))
        self._load_texts(todo)  # before the workers are forked
        progress = Progress(label, len(todo))
        for job, (size, changed, card) in pool.map(_render_chunk, todo):
            cache.store(job[2], job[3], size)
            self.stats["rendered"] += 1
            self.stats["changed"] += changed
            self._claim(writer, job[2], changed)
            if card is not None:
                self.cards[id(self.page_listings[job[1]])] = card
            progress.advance()
        progress.done()
        if observer is not None and save_as_list:
            observer.mark(save_as_list[-1], count=len(save_as_list))

    def _page_cards(self, ref):
        """The cards of a term page's listings made with their own pages (see term.html)."""
        if self.cards is None:
            return None
        kind, index, number = ref
        return tuple(self.cards.get(id(listing))
                     for listing in self._page_listings(self._term(kind, index), number))

    def _term(self, kind, index):
        return (self.directory.categories if kind == "category" else self.directory.cities)[index]

    def _page_listings(self, term, number):
        """The listings on page ``number`` (from 1) of ``term``'s pages."""
        per_page = max(1, int(self.config.per_page))
        return term.listings[(number - 1) * per_page:number * per_page]

    def _page_count(self, term):
        return max(1, -(-len(term.listings) // max(1, int(self.config.per_page))))

    def _load_texts(self, jobs):
        """Give the listings of ``jobs`` their HTML, kept apart in the source cache; if it
        is gone from there (a cache emptied during the build), their files are read again."""
        for job in jobs:
            if job[0] != "listing":
                continue
            listing = self.page_listings[job[1]]
            record = self.unloaded_texts.pop(listing, None)
            if record is None:
                continue
            relpath = record[WHERE][len(self.content_folder) + 1:].replace("/", os.sep)
            record_digest = record[DIGEST]
            texts = self.cached_texts.get(relpath, record_digest)
            if texts is None:
                read_again = self.read_record("listing", relpath)
                texts = listing_texts(read_again) if is_listing(read_again) else ("", "")
            listing.summary, listing.content = texts
            if listing in self.translations:
                translate(listing, self.translations[listing])

    @staticmethod
    def _claim(writer, save_as, changed):
        if isinstance(writer, DalilWriter):
            path = output_file_path(writer.output_path, save_as)
            writer.claim(path)
            writer.record(path, changed)

    def _term_pages(self, term, page_digest, listing_digests):
        """``(number, save_as, digest)`` of each page of a category or city."""
        cfg = self.config
        count = self._page_count(term)
        base_dir = posixpath.dirname(term.save_as)
        key = repr((term_key(term), len(term.listings), count))
        for number in range(1, count + 1):
            save_as = term.save_as if number == 1 else posixpath.join(
                base_dir, cfg.page_url.format(number=number), "index.html")
            chunk = self._page_listings(term, number)
            yield number, save_as, page_digest(f"{key}:{number}:".encode("utf-8"),
                                               map(listing_digests.__getitem__, chunk))

    def render_page(self, job):
        """Render one page and write it if its bytes changed: ``(size, changed, card)``,
        ``card`` the listing's card for its terms' pages when they need it, else None."""
        kind, ref, save_as = job[:3]
        card = None
        if kind == "listing":
            listing = self.page_listings[ref]
            template = self.get_template("directory/listing")
            # Its description and its JSON-LD's: made once (7 µs a page each time).
            summary_text = plain_text(listing.summary)
            # A hidden listing is listed nowhere: no crawler indexes it either, and
            # ``invoke validate`` tells its page from a leftover of a removed listing.
            extra = {"listing": listing, "noindex": listing.status != "published",
                     "summary_text": summary_text,
                     "json_ld": listing_json_ld(listing, self.settings.get("SITEURL", ""),
                                                summary_text, self.local_name_field)}
            if self.cards is not None and listing.status == "published":
                card = str(self._card_macro()(listing, self.context.get("SITEURL"), 2))
        else:
            term_kind, index, number = ref
            template = self.get_template("directory/term")
            extra = self._term_page_context(self._term(term_kind, index), number, job[4])
        # Template.render, without copying the variables every page shares (a few hundred
        # settings): the page's own are the context's, which it looks up first.
        context = template.new_context(self._page_variables(template), shared=True)
        context.vars["output_file"] = save_as
        context.vars.update(extra)
        try:
            text = template.environment.concat(template.root_render_func(context))
        except Exception:
            template.environment.handle_exception()
        data = text.encode("utf-8")
        changed = write_if_changed(output_file_path(self.output_path, save_as), data)
        return len(data), changed, card

    def _card_macro(self):
        """``listing_card`` of _macros.html, as term.html imports it (without context)."""
        if self.card_macro is None:
            self.card_macro = self.env.get_template("_macros.html").module.listing_card
        return self.card_macro

    def _page_variables(self, template):
        """What Pelican's Writer.write_file gives ``template``, without relative URLs,
        over the template's globals: made once per template and process."""
        variables = self.page_variables.get(template.name)
        if variables is None:
            variables = self.page_variables[template.name] = dict(template.globals, **self.context)
            variables["localsiteurl"] = self.context.get("localsiteurl", None)
        return variables

    def _term_page_context(self, term, number, cards=None):
        cfg = self.config
        count = self._page_count(term)
        page_listings = self._page_listings(term, number)

        def page_url(page):
            return term.url if page == 1 else term.url + cfg.page_url.format(number=page)

        return {
            "term": term, "page_listings": page_listings,
            "page_cards": [None if card is None else Markup(card) for card in cards]
                          if cards else [None] * len(page_listings),
            "near_me_index": self.near_me_index,
            "page_number": number, "page_count": count,
            "previous_url": page_url(number - 1) if number > 1 else "",
            "next_url": page_url(number + 1) if number < count else "",
        }

    def _print_summary(self, pelican_object):
        signals.finalized.disconnect(self._summary_receiver)
        files = self.context.get(OUTPUT_FILES_KEY)
        if files is not None:
            files.run_untaken()
            files.save_memo()
        if isinstance(self.writer, DalilWriter):
            self.writer_counts = (self.writer.changed, self.writer.unchanged)
            # Every writer joined: what the build produced is known, and only now.
            self.removed = retire_leftovers(output_files(self.context), self.writer,
                                            self.context.get("staticfiles", ()),
                                            **language_record(self.settings))
        print_summary(self, time.perf_counter() - self.started)
        leave_build_to_exit()
        build_other_languages(pelican_object)


def translate(listing, translation):
    """Show ``translation``'s description on ``listing``'s page: its text, and its summary
    when it has one (else the listing's own, in the listing's language)."""
    listing.content, listing.description_lang = translation["content"], translation["lang"]
    if translation["summary"]:
        listing.summary, listing.summary_lang = translation["summary"], translation["lang"]


def source_cache(settings):
    """The source records (loaded as the build starts reading): kept in memory from one
    livereload build to the next."""
    memory = settings.get(BUILD_MEMORY_KEY)
    # One for each language's build: records hold the URLs of their language.
    folder = language_path(settings)
    key = ("directory_sources", folder)
    cache = memory.get(key) if memory is not None else None
    run = settings.get(LANGUAGES_RUN_KEY)  # a site of several languages
    if cache is None:
        cache = SourceCache(settings, "dalil_directory_records",
                            shared=run is not None and not folder)
        if memory is not None:
            memory[key] = cache
    # The first language's build reads the files; the others take its records.
    if run is not None and not folder:
        run["records"] = cache
    elif run is not None and "records" in run:
        cache.seed(run["records"], folder)
    cache.start_build()
    return cache


def near_me_index(settings):
    """The search index's path, which "near me" on category and city pages reads; ``""``
    when the search plugin does not write it."""
    plugins = {str(getattr(plugin, "__name__", plugin)) for plugin in settings.get("PLUGINS") or ()}
    if "dalil.search" not in plugins:
        return ""
    save_as = search_settings(settings).index_save_as
    return root_path(save_as) if save_as else ""


def _measure_last_build(generator):
    """``marshal`` data of ``last_build_stale`` for the directory's pages, sorted (runs in
    a worker); first the other plugins' checks ahead, which a writer forked sooner takes."""
    output_files(generator.context).check_ahead()
    return marshal.dumps(sorted(last_build_stale(generator.settings, generator.output_path, CACHE_NAME)))


def _list_sources(generator, sources, stamped):
    """``marshal`` data of ``(kind, relpaths, stamps)`` for each of ``sources``, ``stamps``
    None unless ``stamped`` (runs in a worker)."""
    listed = []
    for kind, paths in sources:
        relpaths = sorted(generator.get_files(list(paths), extensions=generator.readers.extensions))
        listed.append((kind, relpaths, file_stamps(generator.path, relpaths) if stamped else None))
    return marshal.dumps(listed)


def _read_chunk(generator, jobs):
    results = []
    for kind, relpath in jobs:
        try:
            results.append(generator.read_stamped(kind, relpath))
        except Exception as error:  # reported with the file's name by the caller
            results.append(str(error) or type(error).__name__)
    return results


def _render_chunk(generator, jobs):
    return [generator.render_page(job) for job in jobs]
