"""Checks of the open data files: the search indexes, the exports (CSV, JSON, GeoJSON,
vCards) and the listings they leave out."""

import csv
import io
import re
from urllib.parse import urlsplit

import lxml.html
from lxml import etree

from .parsing import check_against_schema, check_internal, load_json


_PHONE = re.compile(r"\+[0-9][0-9 ()./-]*")


def load_checked(site, outputs, name, schema_name, report):
    """The parsed output ``name``, checked against its schema ``schema_name`` when both
    are there; None when it is off, missing or does not parse."""
    path, schema_path = outputs.get(name), outputs.get(schema_name)
    if not path or not site.exists(path):
        return None
    document = load_json(site, path, report)
    if document is not None and schema_path and site.exists(schema_path):
        schema = load_json(site, schema_path, report)
        if schema is not None:
            check_against_schema(site, path, document, schema, schema_path, report)
    return document


def check_search_index(site, outputs, report):
    index_path = outputs.get("search_index")
    entries = load_checked(site, outputs, "search_index", "search_schema", report)
    if not isinstance(entries, list):
        return
    report.count("search index entries", len(entries))
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        for key, what in (("url", "url"), ("img", "image")):
            value = entry.get(key)
            if isinstance(value, str) and value.startswith("/"):
                check_internal(site, index_path, value, what, report)


def _numbers(text):
    """The numbers of an integer column (the schemas' NUMBERS: base-32 digits, a number's
    last one in U+0023-U+0042, the others in U+005D-U+007C)."""
    numbers, value = [], 0
    for character in text:
        code = ord(character)
        if code >= 0x5D:
            value = value * 32 + code - 0x5D
        else:
            numbers.append(value * 32 + code - 0x23)
            value = 0
    return numbers


def _block_entries(block):
    """The search index positions of a block's entries (its gaps added up)."""
    positions, at = [], 0
    for gap in _numbers(block.get("entries", "")):
        at += gap
        positions.append(at)
    return positions


def check_chunked_index(site, outputs, report):
    """The head and each of its parts parse and match their schemas, each part is of
    the head's version, and together they hold every entry of the search index: its
    record (the head's terms and the parts with records) and its display (the display
    parts)."""
    path, index_path = outputs.get("search_head"), outputs.get("search_index")
    head = load_checked(site, outputs, "search_head", "search_head_schema", report)
    entries = load_json(site, index_path, report) if index_path and site.exists(index_path) else None
    if not isinstance(head, dict) or not isinstance(entries, list):
        return
    folder = path.rpartition("/")[0]
    held = set(_block_entries(head.get("terms") or {}))
    shown = set()
    schema_path = outputs.get("search_part_schema")
    schema = load_json(site, schema_path, report) if schema_path and site.exists(schema_path) else None
    for name in head.get("parts") or ():
        part_path = f"{folder}/{name}.json" if folder else f"{name}.json"
        if not site.exists(part_path):
            report.problem(path, "its part %s is missing", part_path)
            continue
        part = load_json(site, part_path, report)
        if part is None:
            continue
        if schema is not None:
            check_against_schema(site, part_path, part, schema, schema_path, report)
        if isinstance(part, dict) and part.get("version") != head.get("version"):
            report.problem(part_path, "of version %s, not the head's %s", part.get("version"),
                           head.get("version"))
        if isinstance(part, dict) and isinstance(part.get("entries"), str):
            (shown if "slug" in part else held).update(_block_entries(part))
    every = set(range(len(entries)))
    if held != every:
        report.problem(path, "its head and parts hold %d of the %d entries of %s",
                       len(held & every), len(entries), index_path)
    if shown != every:
        report.problem(path, "its display parts hold %d of the %d entries of %s",
                       len(shown & every), len(entries), index_path)
    report.count("search index entries in parts", len(held))


def check_exports(site, outputs, report, languages=()):
    json_path, csv_path = outputs.get("export_json"), outputs.get("export_csv")
    schema_path = outputs.get("export_schema")
    records = None
    if json_path and site.exists(json_path):
        records = load_json(site, json_path, report)
        if records is not None and schema_path and site.exists(schema_path):
            schema = load_json(site, schema_path, report)
            if schema is not None:
                check_against_schema(site, json_path, records, schema, schema_path, report)
        if isinstance(records, list):
            report.count("exported listings", len(records))
            for record in records:
                if isinstance(record, dict) and record.get("url"):
                    check_internal(site, json_path, record["url"], "url", report)
                if isinstance(record, dict) and record.get("image", "").startswith(site.base):
                    check_internal(site, json_path, record["image"], "image", report)
        else:
            records = None
    if csv_path and site.exists(csv_path):
        check_csv(site, csv_path, records, report)
    check_unexported_listings(site, outputs, records, report, languages)
    for data_key, schema_key in (("export_geojson", "export_geojson_schema"),
                                 ("datapackage", "datapackage_schema")):
        load_checked(site, outputs, data_key, schema_key, report)


def _slug_pattern(save_as):
    """A regular expression of the paths ``save_as`` (with one ``{slug}``) gives, the slug
    its one group; None for another form."""
    if save_as.count("{slug}") != 1 or save_as.count("{") != 1:
        return None
    head, _, tail = save_as.partition("{slug}")
    return re.compile(re.escape(head) + r"([^/]+)" + re.escape(tail))


def _is_noindex(site, relpath):
    """True if the page asks crawlers not to index it (a hidden listing's page)."""
    try:
        document = lxml.html.document_fromstring(site.read_bytes(relpath))
    except (etree.ParserError, ValueError):
        return False
    return any("noindex" in (meta.get("content") or "").lower()
               for meta in document.xpath("//meta[@name='robots']"))


def check_unexported_listings(site, outputs, records, report, languages=()):
    """Every listing page (in each language: ``languages``' outputs) and vCard belongs to a
    listing of the JSON export, but the page of a hidden listing (``noindex``, never
    exported): any other is a leftover of a listing that is gone (removed, renamed, or
    skipped for an error) and must not be published."""
    page_pattern = _slug_pattern(outputs.get("listing_page") or "")
    language_patterns = [pattern for language in languages
                         if (pattern := _slug_pattern(language.get("listing_page") or ""))]
    card_pattern = _slug_pattern(outputs.get("vcard") or "")
    if page_pattern is None or not isinstance(records, list):
        return
    exported = set()
    for record in records:
        url = record.get("url") if isinstance(record, dict) else None
        path = urlsplit(url).path if isinstance(url, str) else ""
        relpath = path[len(site.prefix):] if path.startswith(site.prefix) else ""
        match = page_pattern.fullmatch(relpath + "index.html" if relpath.endswith("/") else relpath)
        if match:
            exported.add(match.group(1))
    for relpath in sorted(site.files):
        page = next(filter(None, (pattern.fullmatch(relpath)
                                  for pattern in (page_pattern, *language_patterns))), None)
        card = card_pattern and card_pattern.fullmatch(relpath)
        if page and page.group(1) not in exported and not _is_noindex(site, relpath):
            report.problem(relpath, "the page of listing %r, which the exports do not hold: left "
                           "by an earlier build? (rebuild, or remove it)", page.group(1))
        elif card and card.group(1) not in exported:
            report.problem(relpath, "the vCard of listing %r, which the exports do not hold: "
                           "left by an earlier build? (rebuild, or remove it)", card.group(1))


def check_csv(site, relpath, records, report):
    data = site.read_bytes(relpath)
    if not data.startswith(b"\xef\xbb\xbf"):
        report.problem(relpath, "has no UTF-8 byte-order mark (spreadsheets then garble Arabic)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        report.problem(relpath, "not UTF-8: %s", error)
        return
    if re.search(r"(?<!\r)\n", text):
        report.problem(relpath, "has a line not ended by CRLF (RFC 4180)")
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error as error:
        report.problem(relpath, "not valid CSV: %s", error)
        return
    if not rows:
        report.problem(relpath, "has no header row")
        return
    header, body = rows[0], rows[1:]
    for number, row in enumerate(body, start=2):
        if len(row) != len(header):
            report.problem(relpath, "row %d has %d cells, the header %d", number, len(row),
                           len(header))
        for cell in row:
            starts_formula = cell.startswith(("=", "@", "\t", "\r")) or (
                cell.startswith(("+", "-")) and not _PHONE.fullmatch(cell))
            if starts_formula:
                report.problem(relpath, "row %d: cell %r would run as a spreadsheet formula",
                               number, cell[:40])
    if records is not None:
        if len(body) != len(records):
            report.problem(relpath, "has %d rows, the JSON export %d records", len(body),
                           len(records))
        if records and isinstance(records[0], dict) and header != list(records[0]):
            report.problem(relpath, "columns %s differ from the JSON export's fields %s",
                           header, list(records[0]))
