"""Streaming writers of the directory export (JSON, CSV) and of the vCards.

Each record is serialised as it is written, so a large directory is never held
as one text in memory.
"""

import csv
import json

from .records import FIELDS, export_record
from .spreadsheet import guard_cell
from .vcard import listing_vcard, vcard_key

BOM = "\ufeff"


def write_json(stream, records):
    """A JSON array, one record per line; each record is ``json.dumps``'d."""
    stream.write("[")
    separator = "\n"
    for record in records:
        stream.write(separator)
        stream.write(json.dumps(record, ensure_ascii=False, allow_nan=False))
        separator = ",\n"
    stream.write("]\n" if separator == "\n" else "\n]\n")


def write_csv(stream, records):
    """RFC 4180 with a header row, BOM first; ``stream`` must be opened with ``newline=""``."""
    stream.write(BOM)
    writer = csv.writer(stream, dialect="excel", lineterminator="\r\n")
    writer.writerow(FIELDS)
    for record in records:
        writer.writerow([guard_cell(record[name]) for name in FIELDS])


def write_exports(files, directory, config, siteurl):
    """Write every export of ``directory`` through ``files`` (a ``core.output.OutputFiles``).

    Returns the number of files written or left unchanged.
    """
    count = 0
    if config.json_save_as:
        with files.open(config.json_save_as, "w") as stream:
            write_json(stream, (export_record(item, siteurl) for item in directory.listings))
        count += 1
    if config.csv_save_as:
        with files.open(config.csv_save_as, "w", newline="") as stream:
            write_csv(stream, (export_record(item, siteurl) for item in directory.listings))
        count += 1
    if config.vcard_save_as:
        for listing in directory.listings:  # published only, as the listing page links it
            # An unchanged listing's card is not even serialised again (vobject is slow).
            files.write_derived(config.vcard_save_as.format(slug=listing.slug),
                                vcard_key(listing), lambda listing=listing: listing_vcard(listing))
            count += 1
    return count
