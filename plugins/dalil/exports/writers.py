"""Streaming writers of the directory export (JSON, CSV) and of the vCards.

Each record is serialised as it is written, so a large directory is never held
as one text in memory.
"""

import contextlib
import csv
import json

from .records import FIELDS, export_record
from .spreadsheet import guard_cell
from .vcard import listing_vcard, vcard_key

BOM = "\ufeff"


class JsonArrayWriter:
    """A JSON array, one ``json.dumps``'d record per line."""

    def __init__(self, stream):
        self.stream = stream
        self.separator = "["

    def writerecord(self, record):
        self.stream.write(self.separator + "\n")
        self.stream.write(json.dumps(record, ensure_ascii=False, allow_nan=False))
        self.separator = ","

    def close(self):
        self.stream.write("[]\n" if self.separator == "[" else "\n]\n")


class CsvWriter:
    """RFC 4180 with a header row, BOM first; ``stream`` must be opened with ``newline=""``."""

    def __init__(self, stream):
        stream.write(BOM)
        self.writer = csv.writer(stream, dialect="excel", lineterminator="\r\n")
        self.writer.writerow(FIELDS)

    def writerecord(self, record):
        self.writer.writerow([guard_cell(record[name]) for name in FIELDS])

    def close(self):
        pass


def write_exports(files, directory, config, siteurl):
    """Write every export of ``directory`` through ``files`` (a ``core.output.OutputFiles``).

    Returns the number of files written or left unchanged.
    """
    count = 0
    with contextlib.ExitStack() as stack:
        # Both files in one pass: each record is made once and never kept.
        writers = []
        if config.json_save_as:
            writers.append(JsonArrayWriter(stack.enter_context(files.open(config.json_save_as))))
        if config.csv_save_as:
            writers.append(CsvWriter(stack.enter_context(
                files.open(config.csv_save_as, newline=""))))
        for listing in directory.listings:
            record = export_record(listing, siteurl)
            for writer in writers:
                writer.writerecord(record)
        for writer in writers:
            writer.close()
        count += len(writers)
    if config.vcard_save_as:
        for listing in directory.listings:  # published only, as the listing page links it
            # An unchanged listing's card is not even serialised again (vobject is slow).
            files.write_derived(config.vcard_save_as.format(slug=listing.slug),
                                vcard_key(listing), lambda listing=listing: listing_vcard(listing))
            count += 1
    return count
