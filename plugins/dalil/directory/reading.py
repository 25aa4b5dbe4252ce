"""Reading the directory's sources for ``DirectoryGenerator``: which files, read in
workers or taken from the source cache (``sources.SourceCache``), each record checked."""

import contextlib
import fnmatch
import marshal
import os
import re
from pathlib import Path

from pelican.readers import find_empty_alt

from dalil.core.background import BACKGROUND_NICENESS
from dalil.core.languages import LANGUAGES_RUN_KEY
from dalil.core.output import output_files
from dalil.core.pagecache import last_build_stale, stored_pages
from dalil.core.parallel import Pool
from dalil.core.settings import BUILD_MEMORY_KEY, language_path

from .incremental import CACHE_NAME
from .reader import LeanMarkdownReader
from .sources import (SourceCache, file_stamp, file_stamps, is_listing, listing_record,
                      record_name, record_sort_key, storable, term_record, translation_lang,
                      translation_record, with_sort_key)
from .spill import TextSpill


class SourceFile:
    """What Pelican's readers give back: body HTML and processed metadata."""

    def __init__(self, content, metadata, settings, source_path, context):
        self.content = content or ""
        self.metadata = metadata
        self.source_path = source_path


class Reading:
    """The directory generator's reading: its files listed, read in workers, cached."""

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
        # Made before the workers fork, which put the listings' HTML there (see spill);
        # a build kept in memory keeps it in its records instead.
        if cache.texts.spill is None and BUILD_MEMORY_KEY not in self.settings:
            cache.texts.spill = self.own_spill = TextSpill()
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
                stamp, record, spilled = outcome
                if spilled is not None:
                    self.cached_texts.spilled[relpath] = spilled
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
        stamp, record = file_stamp(os.path.join(self.path, relpath)), self.read_record(kind, relpath)
        spill = self.cached_texts.spill
        if spill is None or not is_listing(record):
            return stamp, record, None
        # As the cache keeps it, packed (see model.cached_listing), its HTML in the spill.
        record, texts = storable(record)
        return stamp, record, spill.put(texts)

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
