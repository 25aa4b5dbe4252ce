"""Streaming writers of the directory export (JSON, CSV) and of the vCards.

Each listing's rows are made once for every file and written as they come, so a
large directory is never held as one text in memory; with the content cache its
rows are kept for the next build, which makes again only those of listings that changed.
"""

import concurrent.futures
import contextlib
import csv
import json

from dalil.core.output import PRECOMPRESSED, write_if_changed
from dalil.core.parallel import Pool

from .records import FIELDS, export_record, geojson_feature
from .spreadsheet import guard_cell
from .vcard import listing_vcard

BOM = "\ufeff"


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
        return json.dumps(record, ensure_ascii=False, allow_nan=False).encode("utf-8")

    def write(self, row):
        if row is not None:
            self.stream.write(self.separator + b"\n" + row)
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

    def write(self, row):
        self.stream.write(row)

    def close(self):
        pass


# A listing's rows, kept from one build to the next by its digest (``Directory.digests``):
# an edit makes the edited listing's rows again, the others are copied.
ROWS_MEMO = "dalil_export_rows.pickle"


def write_exports(files, directory, config, siteurl, workers=1):
    """Write every export of ``directory`` through ``files`` (a ``core.output.OutputFiles``).

    Returns the number of files written or left unchanged.
    """
    count = 0
    with Pool(directory.listings, workers) as pool, \
            concurrent.futures.ThreadPoolExecutor(1) as compressing:
        with contextlib.ExitStack() as stack:
            # Every file in one pass: each listing's record is made once.
            writers = [make(stack.enter_context(files.open(save_as, "wb")))
                       for save_as, make in ((config.json_save_as, JsonArrayWriter),
                                             (config.csv_save_as, CsvWriter),
                                             (config.geojson_save_as, GeoJsonWriter)) if save_as]
            purpose = ("export rows", *(type(writer).__name__ for writer in writers))
            known, kept = files.load_derived(ROWS_MEMO, purpose) or {}, {}
            digests = directory.digests
            for listing in directory.listings:
                key = digests.get(listing)
                rows = known.get(key) if key is not None else None
                if rows is None:
                    record = export_record(listing, siteurl)
                    rows = tuple(writer.row(record, listing) for writer in writers)
                if key is not None:
                    kept[key] = rows
                for writer, row in zip(writers, rows):
                    writer.write(row)
            for writer in writers:
                writer.close()
            count += len(writers)
        if digests:
            files.save_derived(ROWS_MEMO, purpose, kept)
        del known, kept
        written = [save_as for save_as in (config.json_save_as, config.csv_save_as,
                                           config.geojson_save_as) if save_as]
        # Compression lets go of the GIL: the cards are checked and started meanwhile,
        # then made by the workers.
        copies = compressing.submit(files.precompress, *written)
        cards = (start_vcards(files, directory.listings, digests, config.vcard_save_as, pool)
                 if config.vcard_save_as else None)
        copies.result()
        count += len(written) * len(PRECOMPRESSED)
        if cards is not None:
            count += cards()
    return count


def start_vcards(files, listings, digests, save_as, pool):
    """Start making one card per listing in ``pool``'s workers: on a cached rebuild a
    listing whose digest (``digests``) is unchanged keeps its card without making it
    again. Returns the function that waits for the cards and records them: the number
    of cards."""
    pending = []
    for index, listing in enumerate(listings):
        relpath = save_as.format(slug=listing.slug)
        key = digests.get(listing)
        if key is None or not files.keep_if_current(relpath, key):
            pending.append((index, files.reserve(relpath)))
    results = pool.map(_vcards_chunk, pending)

    def finish():
        for (index, _), (changed, size) in results:
            listing = listings[index]
            files.record_keyed(save_as.format(slug=listing.slug), digests.get(listing), changed, size)
        return len(listings)

    return finish


def _vcards_chunk(listings, jobs):
    """``(changed, size)`` of each ``(index, path)`` card written. Indexes, not listings,
    go to the workers: a pickled listing drags its category's and city's every listing along."""
    results = []
    for index, path in jobs:
        data = listing_vcard(listings[index]).encode("utf-8")
        results.append((write_if_changed(path, data), len(data)))
    return results
