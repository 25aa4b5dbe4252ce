"""Streaming writers of the directory export (JSON, CSV) and of the vCards.

Each listing's rows are made once for every file and written as they come, so a
large directory is never held as one text in memory; with the content cache the
next build copies the rows of the parts of listings (``listing_parts``) that did not
change from the files as this one left them, and makes only the others again.
"""

import concurrent.futures
import contextlib
import csv
import itertools
import json
import operator
import os

from dalil.core.compression import PRECOMPRESSED
from dalil.core.files import write_if_changed
from dalil.core.parallel import map_in_fresh_workers
from dalil.directory.model import parts_known_or_made

from .records import FIELDS, export_record, geojson_feature
from .settings import export_settings
from .spreadsheet import guard_cell
from .vcard import listing_vcard

BOM = "\ufeff"
# json.dumps with options makes an encoder for each call: made once.
_ROW_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)


class Spliced:
    """A binary ``stream`` to which ranges of ``source`` (the last build's file, open for
    reading) are also copied, in the kernel (``os.copy_file_range``), ranges that follow
    each other in one call; ``position`` counts the bytes of both."""

    def __init__(self, stream, source=None):
        self.stream = stream
        self.source = source
        self.position = 0
        self._pending = None  # (start, end) of ``source`` to copy before the next write

    def write(self, data):
        self._copy_pending()
        self.stream.write(data)
        self.position += len(data)

    def copy(self, start, length):
        if self._pending is not None and self._pending[1] == start:
            self._pending = (self._pending[0], start + length)
        else:
            self._copy_pending()
            self._pending = (start, start + length)
        self.position += length

    def close(self):
        self._copy_pending()

    def _copy_pending(self):
        if self._pending is None:
            return
        (start, end), self._pending = self._pending, None
        self.stream.flush()  # then the file's own offset is where the copy goes
        copy_range(self.source, self.stream.fileno(), start, end - start)


def copy_range(source, target_fd, start, length):
    """Append ``length`` bytes of the file ``source`` from ``start`` to the file open as
    ``target_fd``: in the kernel where it can, else read and written here."""
    copy = getattr(os, "copy_file_range", None)
    while length and copy is not None:
        try:
            copied = copy(source.fileno(), target_fd, length, start)
        except OSError:  # not between these files (another file system, an old kernel)
            break
        if not copied:
            break
        start, length = start + copied, length - copied
    source.seek(start)
    while length:
        data = source.read(min(length, 1 << 20))
        if not data:
            raise OSError(f"{source.name} is shorter than the last build left it")
        os.write(target_fd, data)  # a regular file: whole
        start, length = start + len(data), length - len(data)


class JsonArrayWriter:
    """A JSON array, one ``json.dumps``'d record per line, after ``head`` and before ``tail``
    (the text around the array in a larger document), written to ``out`` (``Spliced``).
    A part's chunk is its lines after a separator: ``[`` and a line end for the first,
    a comma and a line end for the others."""

    def __init__(self, out, head="", tail=""):
        self.out = out
        self.tail = tail.encode("utf-8")
        self.head_size = len(head.encode("utf-8"))
        out.write(head.encode("utf-8"))
        self.separator = b"["

    def row(self, record, listing):
        """The listing's line (UTF-8), or None when it has none in this file."""
        return _ROW_ENCODER.encode(record).encode("utf-8")

    @staticmethod
    def join(rows):
        """The text of ``rows`` (a listing's line each, or None where it has none) together."""
        return b",\n".join(row for row in rows if row is not None)

    def write(self, text):
        """Write what ``join`` made of some listings' rows: ``(start, length)`` of its chunk."""
        place = (self.out.position, 0)
        if text:
            chunk = self.separator + b"\n" + text
            self.out.write(chunk)
            place, self.separator = (place[0], len(chunk)), b","
        return place

    def copy(self, start, length):
        """Copy a chunk ``write`` placed in the last build's file: ``(start, length)`` of it
        here. Its separator is copied with it when it is the one it has here."""
        place = (self.out.position, length)
        if length:
            if (start == self.head_size) == (self.separator == b"["):
                self.out.copy(start, length)
            else:  # first there, not here, or the other way: both separators are 2 bytes
                self.out.write(self.separator + b"\n")
                self.out.copy(start + 2, length - 2)
            self.separator = b","
        return place

    def close(self):
        self.out.write((b"[]" if self.separator == b"[" else b"\n]") + self.tail + b"\n")
        self.out.close()


class GeoJsonWriter(JsonArrayWriter):
    """An RFC 7946 FeatureCollection: one Point Feature per listing with coordinates."""

    def __init__(self, out):
        head, tail = json.dumps({"type": "FeatureCollection", "features": None}).split("null")
        super().__init__(out, head, tail)

    def row(self, record, listing):
        return super().row(geojson_feature(listing, record), listing) if listing.has_coordinates else None


class _Handed:
    """A file for ``csv.writer`` whose ``write`` hands the row's text back: ``writerow``
    returns what ``write`` returns."""

    @staticmethod
    def write(text):
        return text


class CsvWriter:
    """RFC 4180 with a header row, BOM first, written to ``out`` (``Spliced``)."""

    def __init__(self, out):
        self.out = out
        self.rows = csv.writer(_Handed(), dialect="excel", lineterminator="\r\n")
        out.write((BOM + self.rows.writerow(FIELDS)).encode("utf-8"))

    def row(self, record, listing):
        return self.rows.writerow([guard_cell(record[name]) for name in FIELDS]).encode("utf-8")

    @staticmethod
    def join(rows):
        return b"".join(rows)

    def write(self, text):
        place = (self.out.position, len(text))
        self.out.write(text)
        return place

    def copy(self, start, length):
        place = (self.out.position, length)
        self.out.copy(start, length)
        return place

    def close(self):
        self.out.close()


# Where each part of the listings (``listing_parts``) lies in each export file, by its key,
# and the files' stamps as the build left them: the next build copies an unchanged part
# from the file it finds as it was left, in the kernel, and makes only an edited part's
# rows (a 100,000-listing rebuild loaded and saved again 75 MB of rows kept in a memo).
ROWS_MEMO = "dalil_export_rows.marshal"
_WRITERS = (("json_save_as", JsonArrayWriter), ("csv_save_as", CsvWriter),
            ("geojson_save_as", GeoJsonWriter))


def _identity(stat):
    """A file's size, modification time and inode: the memo's stamp of an export file."""
    return stat.st_size, stat.st_mtime_ns, stat.st_ino


def _last_files(files, save_as_list, purpose, stack):
    """``(sources, places)``: the last build's export files, open, and where its parts lie
    in them (``ROWS_MEMO``), when every one of them is as it left them; else ``([], {})``."""
    stamps, places = files.load_derived(ROWS_MEMO, purpose) or ((), {})
    if len(stamps) != len(save_as_list):
        return [], {}
    sources = []
    for save_as, stamp in zip(save_as_list, stamps):
        try:
            source = stack.enter_context(open(files.path_for(save_as), "rb", buffering=0))
        except OSError:
            return [], {}
        if stamp is None or _identity(os.fstat(source.fileno())) != tuple(stamp):
            return [], {}
        sources.append(source)
    return sources, places


def write_exports(files, directory, config, siteurl):
    """Write every export of ``directory`` through ``files`` (a ``core.output.OutputFiles``).

    Returns the number of files written or left unchanged.
    """
    count = 0
    chosen = [(getattr(config, name), make) for name, make in _WRITERS if getattr(config, name)]
    save_as_list, makers = [save_as for save_as, _ in chosen], [make for _, make in chosen]
    purpose = ("export rows' places", *(make.__name__ for make in makers))
    digests = directory.digests
    with concurrent.futures.ThreadPoolExecutor(1) as compressing:
        with contextlib.ExitStack() as stack:
            sources, known = _last_files(files, save_as_list, purpose, stack)
            # Every file in one pass: each listing's record is made once.
            writers = [make(Spliced(stack.enter_context(files.open(save_as, "wb")), source))
                       for save_as, make, source
                       in itertools.zip_longest(save_as_list, makers, sources)]
            places = {}
            # A part at a time: one write (or copy) for each file.
            for key, part in parts_known_or_made(directory, known.get,
                                                 (directory.listings, siteurl, writers), _part_rows):
                if key in known:  # where it lies in the last build's files
                    placed = tuple(writer.copy(*place) for writer, place in zip(writers, part))
                else:
                    placed = tuple(writer.write(text) for writer, text in zip(writers, part))
                if key is not None:
                    places[key] = placed
            for writer in writers:
                writer.close()
            count += len(writers)
        if digests:
            stamps = tuple(_identity(os.stat(files.path_for(save_as))) for save_as in save_as_list)
            files.save_derived(ROWS_MEMO, purpose, (stamps, places))
        # Compression lets go of the GIL: the cards are made meanwhile.
        copies = compressing.submit(files.precompress, *save_as_list)
        if config.vcard_save_as:
            count += write_vcards(files, directory.listings, directory.listing_keys(),
                                  config.vcard_save_as)
        copies.result()
        count += len(save_as_list) * len(PRECOMPRESSED)
    return count


def _part_rows(state, ranges):
    """Each file's text of the rows of each part of the listings (``(start, end)`` in
    ``ranges``), made once for every file; the writers only make rows here."""
    listings, siteurl, writers = state
    made = []
    for start, end in ranges:
        records = [(export_record(listing, siteurl), listing) for listing in listings[start:end]]
        made.append(tuple(writer.join([writer.row(*pair) for pair in records]) for writer in writers))
    return made


# Each card's path and size by its listing's digest, for the next build: an unchanged
# listing's card is kept without making its path, so that the forked writer never reads
# the listing's slug (100,000 cards at 100,000 listings: each slug read copied a memory
# page the build's process shares, a second in all).
CARDS_MEMO = "dalil_vcards.marshal"


def write_vcards(files, listings, keys, save_as):
    """One card per listing, made and written in one worker at a time
    (``map_in_fresh_workers``). On a cached rebuild a listing whose digest (``keys``, in order, None
    without the cache) is unchanged keeps its card without making it again. Returns the
    number of cards."""
    known = files.load_derived(CARDS_MEMO, _cards_purpose(save_as)) or {}
    # In passes made in C: 100,000 cards kept in a rebuild.
    known_keys = list(filter(known.__contains__, keys))
    changed = files.checked_ahead(CARDS_CHECK)
    flags = files.keep_unchanged(list(map(known.__getitem__, known_keys)),
                                 changed=None if changed is None else set(changed))
    kept = set(itertools.compress(known_keys, flags))
    kept_flags = list(map(kept.__contains__, keys))
    made = {key: known[key] for key in itertools.compress(keys, kept_flags)}
    fresh = list(itertools.compress(range(len(listings)), map(operator.not_, kept_flags)))
    for index, (relpath, size, changed) in map_in_fresh_workers(
            (listings, save_as, files), _cards, fresh, reads=len(fresh), chunk_size=256):
        files.written_apart(relpath, changed)
        if keys[index] is not None:
            made[keys[index]] = (relpath, size)
    if None not in keys:
        files.save_derived(CARDS_MEMO, _cards_purpose(save_as), made)
    return len(listings)


def _cards(state, indexes):
    """Write the cards of the listings at ``indexes``: ``(relpath, size, changed)`` of each.
    Written here, by the worker that makes them: sent to the writer, a million cards
    waited in its memory (1 GB) for their turn to be written."""
    listings, save_as, files = state
    made = []
    for index in indexes:
        relpath = save_as.format(slug=listings[index].slug)
        data = listing_vcard(listings[index]).encode("utf-8")
        made.append((relpath, len(data), write_if_changed(files.path_for(relpath), data)))
    return made


def _cards_purpose(save_as):
    return ("vCards", save_as)


# What ``stale_cards`` finds ahead, as ``OutputFiles.checked_ahead`` names it.
CARDS_CHECK = "vcards"


def stale_cards(files):
    """The cards the last build wrote (``CARDS_MEMO``) that are no longer there with the
    size it wrote, or None without a memo: found by a worker while the build reads
    (``OutputFiles.check_ahead``), for ``write_vcards``."""
    save_as = export_settings(files.settings).vcard_save_as
    known = files.load_derived(CARDS_MEMO, _cards_purpose(save_as)) if save_as else None
    return None if known is None else files.stale_files(list(known.values()))
