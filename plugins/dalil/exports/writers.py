"""Streaming writers of the directory export (JSON, CSV) and of the vCards.

Each record is serialised as it is written, so a large directory is never held
as one text in memory.
"""

import concurrent.futures
import contextlib
import csv
import json

from dalil.core.output import PRECOMPRESSED, write_if_changed
from dalil.core.parallel import Pool

from .records import FIELDS, export_record, geojson_feature
from .spreadsheet import guard_cell
from .vcard import listing_vcard, vcard_key

BOM = "\ufeff"


class JsonArrayWriter:
    """A JSON array, one ``json.dumps``'d record per line, after ``head`` and before ``tail``
    (the text around the array in a larger document)."""

    def __init__(self, stream, head="", tail=""):
        self.stream = stream
        self.tail = tail
        stream.write(head)
        self.separator = "["

    def writerecord(self, record, listing):
        self.stream.write(self.separator + "\n")
        self.stream.write(json.dumps(record, ensure_ascii=False, allow_nan=False))
        self.separator = ","

    def close(self):
        self.stream.write(("[]" if self.separator == "[" else "\n]") + self.tail + "\n")


class GeoJsonWriter(JsonArrayWriter):
    """An RFC 7946 FeatureCollection: one Point Feature per listing with coordinates."""

    def __init__(self, stream):
        head, tail = json.dumps({"type": "FeatureCollection", "features": None}).split("null")
        super().__init__(stream, head, tail)

    def writerecord(self, record, listing):
        if listing.has_coordinates:
            super().writerecord(geojson_feature(listing, record), listing)


class CsvWriter:
    """RFC 4180 with a header row, BOM first; ``stream`` must be opened with ``newline=""``."""

    def __init__(self, stream):
        stream.write(BOM)
        self.writer = csv.writer(stream, dialect="excel", lineterminator="\r\n")
        self.writer.writerow(FIELDS)

    def writerecord(self, record, listing):
        self.writer.writerow([guard_cell(record[name]) for name in FIELDS])

    def close(self):
        pass


def write_exports(files, directory, config, siteurl, workers=1):
    """Write every export of ``directory`` through ``files`` (a ``core.output.OutputFiles``).

    Returns the number of files written or left unchanged.
    """
    count = 0
    with Pool(directory.listings, workers) as pool, \
            concurrent.futures.ThreadPoolExecutor(1) as compressing:
        with contextlib.ExitStack() as stack:
            # Every file in one pass: each record is made once and never kept.
            writers = []
            if config.json_save_as:
                writers.append(JsonArrayWriter(stack.enter_context(files.open(config.json_save_as))))
            if config.csv_save_as:
                writers.append(CsvWriter(stack.enter_context(
                    files.open(config.csv_save_as, newline=""))))
            if config.geojson_save_as:
                writers.append(GeoJsonWriter(stack.enter_context(
                    files.open(config.geojson_save_as))))
            for listing in directory.listings:
                record = export_record(listing, siteurl)
                for writer in writers:
                    writer.writerecord(record, listing)
            for writer in writers:
                writer.close()
            count += len(writers)
        written = [save_as for save_as in (config.json_save_as, config.csv_save_as,
                                           config.geojson_save_as) if save_as]
        # Compression lets go of the GIL: the cards are checked and started meanwhile,
        # then made by the workers.
        copies = compressing.submit(files.precompress, *written)
        cards = (start_vcards(files, directory.listings, config.vcard_save_as, pool)
                 if config.vcard_save_as else None)
        copies.result()
        count += len(written) * len(PRECOMPRESSED)
        if cards is not None:
            count += cards()
    return count


def start_vcards(files, listings, save_as, pool):
    """Start making one card per listing in ``pool``'s workers: on a cached rebuild an
    unchanged listing's card is kept without being made again. Returns the function that
    waits for the cards and records them: the number of cards."""
    pending = []
    for index, listing in enumerate(listings):
        relpath = save_as.format(slug=listing.slug)
        if not files.keep_if_current(relpath, vcard_key(listing)):
            pending.append((index, files.reserve(relpath)))
    results = pool.map(_vcards_chunk, pending)

    def finish():
        for (index, _), (changed, size) in results:
            listing = listings[index]
            files.record_keyed(save_as.format(slug=listing.slug), vcard_key(listing), changed, size)
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
