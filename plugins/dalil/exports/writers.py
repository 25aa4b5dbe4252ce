"""Streaming writers of the directory export (JSON, CSV) and of the vCards.

Each listing's rows are made once for every file and written as they come, so a
large directory is never held as one text in memory; with the content cache its
rows are kept for the next build in parts (``listing_parts``), which makes again only
those of the parts of listings that changed.
"""

import concurrent.futures
import contextlib
import csv
import itertools
import json
import operator

from dalil.core.compression import PRECOMPRESSED
from dalil.directory.model import listing_parts

from .records import FIELDS, export_record, geojson_feature
from .settings import export_settings
from .spreadsheet import guard_cell
from .vcard import listing_vcard

BOM = "\ufeff"
# json.dumps with options makes an encoder for each call: made once.
_ROW_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)


class JsonArrayWriter:
    """A JSON array, one ``json.dumps``'d record per line, after ``head`` and before ``tail``
    (the text around the array in a larger document); ``stream`` is binary."""

    def __init__(self, stream, head="", tail=""):
        self.stream = stream
        self.tail = tail.encode("utf-8")
        stream.write(head.encode("utf-8"))
        self.separator = b"["

    def row(self, record, listing):
        """The listing's line (UTF-8), or None when it has none in this file."""
        return _ROW_ENCODER.encode(record).encode("utf-8")

    @staticmethod
    def join(rows):
        """The text of ``rows`` (a listing's line each, or None where it has none) together."""
        return b",\n".join(row for row in rows if row is not None)

    def write(self, text):
        """Write what ``join`` made of some listings' rows."""
        if text:
            self.stream.write(self.separator + b"\n" + text)
            self.separator = b","

    def close(self):
        self.stream.write((b"[]" if self.separator == b"[" else b"\n]") + self.tail + b"\n")


class GeoJsonWriter(JsonArrayWriter):
    """An RFC 7946 FeatureCollection: one Point Feature per listing with coordinates."""

    def __init__(self, stream):
        head, tail = json.dumps({"type": "FeatureCollection", "features": None}).split("null")
        super().__init__(stream, head, tail)

    def row(self, record, listing):
        return super().row(geojson_feature(listing, record), listing) if listing.has_coordinates else None


class _Handed:
    """A file for ``csv.writer`` whose ``write`` hands the row's text back: ``writerow``
    returns what ``write`` returns."""

    @staticmethod
    def write(text):
        return text


class CsvWriter:
    """RFC 4180 with a header row, BOM first; ``stream`` is binary."""

    def __init__(self, stream):
        self.stream = stream
        self.rows = csv.writer(_Handed(), dialect="excel", lineterminator="\r\n")
        stream.write((BOM + self.rows.writerow(FIELDS)).encode("utf-8"))

    def row(self, record, listing):
        return self.rows.writerow([guard_cell(record[name]) for name in FIELDS]).encode("utf-8")

    @staticmethod
    def join(rows):
        return b"".join(rows)

    def write(self, text):
        self.stream.write(text)

    def close(self):
        pass


# The listings' rows in parts (``listing_parts``), each kept from one build to the next by
# its key: an edit makes the rows of the edited listing's part again, the others are
# copied whole (a few hundred texts to load and save, not 300,000).
ROWS_MEMO = "dalil_export_rows.marshal"


def write_exports(files, directory, config, siteurl):
    """Write every export of ``directory`` through ``files`` (a ``core.output.OutputFiles``).

    Returns the number of files written or left unchanged.
    """
    count = 0
    with concurrent.futures.ThreadPoolExecutor(1) as compressing:
        with contextlib.ExitStack() as stack:
            # Every file in one pass: each listing's record is made once.
            writers = [make(stack.enter_context(files.open(save_as, "wb")))
                       for save_as, make in ((config.json_save_as, JsonArrayWriter),
                                             (config.csv_save_as, CsvWriter),
                                             (config.geojson_save_as, GeoJsonWriter)) if save_as]
            purpose = ("export rows", *(type(writer).__name__ for writer in writers))
            known, kept = files.load_derived(ROWS_MEMO, purpose) or {}, {}
            digests = directory.digests
            # A part's rows at a time: one write for each file.
            for listings, key in listing_parts(directory.listings, digests):
                texts = known.get(key) if key is not None else None
                if texts is None:
                    records = [(export_record(listing, siteurl), listing) for listing in listings]
                    texts = tuple(writer.join([writer.row(*pair) for pair in records])
                                  for writer in writers)
                if key is not None:
                    kept[key] = texts
                for writer, text in zip(writers, texts):
                    writer.write(text)
            for writer in writers:
                writer.close()
            count += len(writers)
        if digests:
            files.save_derived(ROWS_MEMO, purpose, kept)
        del known, kept
        written = [save_as for save_as in (config.json_save_as, config.csv_save_as,
                                           config.geojson_save_as) if save_as]
        # Compression lets go of the GIL: the cards are made meanwhile.
        copies = compressing.submit(files.precompress, *written)
        if config.vcard_save_as:
            count += write_vcards(files, directory.listings, digests, config.vcard_save_as)
        copies.result()
        count += len(written) * len(PRECOMPRESSED)
    return count


# Each card's path and size by its listing's digest, for the next build: an unchanged
# listing's card is kept without making its path, so that the forked writer never reads
# the listing's slug (100,000 cards at 100,000 listings: each slug read copied a memory
# page the build's process shares, a second in all).
CARDS_MEMO = "dalil_vcards.marshal"


def write_vcards(files, listings, digests, save_as):
    """One card per listing, here: a build writes the exports in a process of their own,
    beside the pages' workers, and forking more workers from it for the cards cost more
    (copies of the model's memory pages) than they saved. On a cached rebuild a listing
    whose digest (``digests``) is unchanged keeps its card without making it again.
    Returns the number of cards."""
    known = files.load_derived(CARDS_MEMO, _cards_purpose(save_as)) or {}
    # In passes made in C: 100,000 cards kept in a rebuild.
    keys = list(map(digests.get, listings))
    known_keys = list(filter(known.__contains__, keys))
    changed = files.checked_ahead(CARDS_CHECK)
    flags = files.keep_unchanged(list(map(known.__getitem__, known_keys)),
                                 changed=None if changed is None else set(changed))
    kept = set(itertools.compress(known_keys, flags))
    kept_flags = list(map(kept.__contains__, keys))
    made = {key: known[key] for key in itertools.compress(keys, kept_flags)}
    for listing, key in itertools.compress(zip(listings, keys), map(operator.not_, kept_flags)):
        relpath = save_as.format(slug=listing.slug)
        data = listing_vcard(listing).encode("utf-8")
        files.write(relpath, data)
        if key is not None:
            made[key] = (relpath, len(data))
    if digests:
        files.save_derived(CARDS_MEMO, _cards_purpose(save_as), made)
    return len(listings)


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
