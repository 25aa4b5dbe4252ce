"""Import a directory export (ours, or JSON/CSV shaped like it) into ``content/``.

Each good row becomes ``content/listings/{slug}.md``; a category or city that the
content does not have yet (matched by its Arabic name) gets its own file. Bad rows
are reported with their row number and skipped: in a JSON file the row is the
record's position in the array (1 for the first), in a CSV file the spreadsheet
row (1 is the header). Every file is written to a temporary file and renamed, and
an existing listing is only replaced with ``force``.

The export has no city field: the city is read from the address, by name when the
content already has that city, else from the export's layout
``street، [postal code] city، country``.
"""

import csv
import datetime as dt
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from dalil.core.dates import rfc3339, to_utc
from dalil.core.slugs import derive_slug, is_valid_slug
from dalil.core.text import plain_text
from dalil.directory import validate
from dalil.directory.model import ADDRESS_SEPARATOR
from dalil.directory.settings import directory_settings
from dalil.directory.sourcefiles import (ImportFailed, Terms, markdown_source, read_sources,
                                         write_atomically)

from .records import FIELDS
from .spreadsheet import unguard_cell

_FIELD_BY_KEY = {name.lower(): name for name in FIELDS}
_POSTAL_AND_CITY = re.compile(r"(?P<code>\S*[0-9]\S*) (?P<city>\S.*)")
_COMMA = ADDRESS_SEPARATOR.strip()


@dataclass
class ImportReport:
    written: list = field(default_factory=list)  # paths of the files written
    skipped: list = field(default_factory=list)  # (row number, message)

    def lines(self):
        for number, message in self.skipped:
            yield f"row {number}: {message}; skipped"
        yield f"{len(self.written)} file(s) written, {len(self.skipped)} row(s) skipped"


# -- reading the file ------------------------------------------------------

def _read_json(path):
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as error:
        raise ImportFailed(f"{path}: not JSON: {error}") from None
    if not isinstance(data, list):
        raise ImportFailed(f"{path}: a JSON export is an array of records")
    for number, item in enumerate(data, start=1):
        if not isinstance(item, dict):
            yield number, None, "is not an object"
            continue
        record, problems = {}, []
        for key, value in item.items():
            name = _FIELD_BY_KEY.get(str(key).lower())
            if name is None:
                problems.append(f"unknown field {key!r}")
            elif not isinstance(value, str):
                problems.append(f"field {key!r} is not a string")
            else:
                record[name] = value
        yield number, record, "; ".join(problems)


def _read_csv(path):
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.reader(handle))
    except (UnicodeDecodeError, csv.Error) as error:
        raise ImportFailed(f"{path}: not a UTF-8 CSV file: {error}") from None
    if not rows:
        raise ImportFailed(f"{path}: empty file")
    header = [_FIELD_BY_KEY.get(cell.strip().lower()) for cell in rows[0]]
    unknown = [cell for cell, name in zip(rows[0], header) if name is None]
    if unknown or len(set(header)) != len(header) or "name" not in header:
        raise ImportFailed(f"{path}: the header row must name distinct export columns "
                           f"including name ({', '.join(FIELDS)}); unknown: {unknown}")
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue  # a blank line, as spreadsheets leave at the end
        problem = ""
        if len(row) > len(header):
            problem = f"unknown fields: {len(row) - len(header)} cell(s) beyond the header"
        yield number, {name: unguard_cell(cell) for name, cell in zip(header, row)}, problem


def read_records(path):
    """``(row number, record or None, problem)`` for every row of a JSON or CSV export."""
    path = Path(path)
    if not path.is_file():
        raise ImportFailed(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix not in (".json", ".csv"):
        with open(path, "rb") as handle:
            suffix = ".json" if handle.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"[" else ".csv"
    return list(_read_json(path) if suffix == ".json" else _read_csv(path))


# -- one row -----------------------------------------------------------------

def split_address(address, city_names, default_country):
    """``(street, postal code, city, country)`` from an export's one-line address."""
    parts = [part.strip() for part in address.split(_COMMA)]
    parts = [part for part in parts if part]

    def locality(part):
        match = _POSTAL_AND_CITY.fullmatch(part)
        if match and part not in city_names:
            return match["code"], match["city"]
        return "", part

    for index in range(len(parts) - 1, -1, -1):
        postal_code, city = locality(parts[index])
        if city in city_names:
            return (ADDRESS_SEPARATOR.join(parts[:index]), postal_code, city,
                    ADDRESS_SEPARATOR.join(parts[index + 1:]))
    if not parts:
        return "", "", "", ""
    if len(parts) == 1:
        return ("", *locality(parts[0]), "")
    if len(parts) == 2 and parts[1] != default_country:
        return (parts[0], *locality(parts[1]), "")
    return (ADDRESS_SEPARATOR.join(parts[:-2]), *locality(parts[-2]), parts[-1])


def _slug_from_url(url):
    if not url:
        return ""
    parts = urlsplit(url)
    if parts.scheme not in ("", "http", "https") or (parts.scheme and not parts.netloc) or (
            not parts.scheme and not url.startswith("/")):
        raise ValueError(f"url {url!r} is not an http(s) URL or a root-relative path")
    segments = [segment for segment in parts.path.split("/") if segment]
    if not segments or not is_valid_slug(segments[-1]):
        raise ValueError(f"url {url!r} does not end with a listing slug")
    return segments[-1]


def _date(value, timezone):
    if not value:
        return ""
    try:
        when = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        raise ValueError(f"dateModified {value!r} is not an RFC 3339 date") from None
    return rfc3339(to_utc(when, timezone))


@dataclass
class _Listing:
    slug: str
    path: Path
    metadata: list  # (key, value), in the order of the file


class _Importer:
    def __init__(self, settings, force):
        self.settings, self.force = settings, force
        self.config = directory_settings(settings)
        content = Path(settings["PATH"])
        self.listings_dir = content / self.config.listing_paths[0]
        self.categories = Terms(read_sources(settings, self.config.category_paths),
                                 content / self.config.category_paths[0])
        self.cities = Terms(read_sources(settings, self.config.city_paths),
                             content / self.config.city_paths[0])
        self.existing = {}
        for source in read_sources(settings, self.config.listing_paths):
            self.existing.setdefault(source.slug, source.path)
        self.siteurl = settings.get("SITEURL", "").rstrip("/")
        self.content = content
        self.static_paths = [path.strip("/") for path in settings.get("STATIC_PATHS", [])]
        self.rows_by_slug = {}
        self.targets = set(self.existing.values())

    def listing(self, number, record):
        """A planned listing, or ValueError naming what is wrong with the row."""
        get = {name: " ".join(record.get(name, "").split()) for name in FIELDS}
        name = get["name"]
        if not plain_text(name):
            raise ValueError("no name")
        if not get["category"]:
            raise ValueError("no category")
        limit = self.config.max_name_length
        validate.clean_name("name", name, limit)
        validate.clean_name("category", get["category"], limit)
        phone = validate.clean_phone(get["phone"])
        email = validate.clean_email(get["email"])
        website = validate.clean_website(get["website"])
        image = get["image"]
        if self.siteurl and image.startswith(self.siteurl + "/"):
            image = image[len(self.siteurl):]  # this site's own image: keep it root-relative
        image = validate.clean_image(image)
        if image.startswith("/") and not self._is_static_file(image):
            raise ValueError(f"image {validate.shown(image)} is not a file of the content's "
                             f"{', '.join(self.static_paths)}")
        modified = _date(get["dateModified"], self.settings.get("TIMEZONE", "UTC"))
        slug = _slug_from_url(get["url"]) or derive_slug(name)
        if not slug:
            raise ValueError("no url, and no slug can be derived from the name")
        if slug in self.rows_by_slug:
            raise ValueError(f"duplicate of row {self.rows_by_slug[slug]} (slug {slug!r})")
        street, postal_code, city, country = split_address(
            get["address"], self.cities.slug_by_name, self.config.default_country)
        if not city:
            raise ValueError("the address names no city")
        validate.clean_name("city", city, limit)
        if slug in self.existing and not self.force:
            raise ValueError(f"{self.existing[slug]} already holds listing {slug!r} "
                             "(use --force to replace it)")
        for term_name, terms in ((get["category"], self.categories), (city, self.cities)):
            if term_name not in terms.slug_by_name and not derive_slug(term_name):
                raise ValueError(f"no slug can be derived for {term_name!r}")
        self.rows_by_slug[slug] = number
        return _Listing(slug, self._target(slug), [
            ("Title", name), ("Slug", slug),
            ("Category", self.categories.slug_for(get["category"])),
            ("City", self.cities.slug_for(city)),
            ("Street", street), ("Postal_code", postal_code), ("Country", country),
            ("Phone", phone), ("Email", email), ("Website", website), ("Image", image),
            ("Modified", modified),
        ])

    def _is_static_file(self, image):
        """True when the root-relative ``image`` is a file in the content's STATIC_PATHS,
        as the build requires (``directory.images``)."""
        relpath = unquote(image).lstrip("/")
        return any(relpath.startswith(folder + "/") for folder in self.static_paths) and (
            self.content / relpath).is_file()

    def _target(self, slug):
        """The existing file of ``slug``, else a free file name in the listings folder."""
        if slug in self.existing:
            return self.existing[slug]
        target, number = self.listings_dir / f"{slug}.md", 2
        while target in self.targets or target.exists():
            target, number = self.listings_dir / f"{slug}-{number}.md", number + 1
        self.targets.add(target)
        return target


def import_listings(path, settings, force=False):
    """Import the export at ``path`` into ``settings["PATH"]``; returns an ``ImportReport``."""
    records = read_records(path)
    importer = _Importer(settings, force)
    report = ImportReport()
    planned = []
    for number, record, problem in records:
        try:
            if problem:
                raise ValueError(problem)
            planned.append(importer.listing(number, record))
        except ValueError as error:
            report.skipped.append((number, str(error)))
    for terms in (importer.categories, importer.cities):
        for slug, metadata in sorted(terms.new.items()):
            target = terms.folder / f"{slug}.md"
            write_atomically(target, markdown_source(metadata), False)
            report.written.append(target)
    for listing in planned:
        write_atomically(listing.path, markdown_source(listing.metadata), force)
        report.written.append(listing.path)
    return report
