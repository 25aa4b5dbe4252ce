"""Plan and write the listings of an OpenStreetMap file, in step with earlier imports.

Every listing written is recorded in the site's ``osm-import.json`` with the digest of
the file's bytes. A re-import rewrites a listing only when its file still has those
bytes: a file the operator has edited since is left alone and reported. A listing is
found again by its ``Osm`` line, so its slug and file stay what they were.
"""

import hashlib
import json
import os
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from pelican.settings import read_settings

from dalil.core.dates import rfc3339
from dalil.core.files import replace_atomically
from dalil.core.slugs import derive_slug
from dalil.core.text import plain_text
from dalil.directory import validate
from dalil.directory.settings import directory_settings
from dalil.directory.sourcefiles import (ImportFailed, Source, Terms, markdown_source,
                                         read_sources, write_atomically)

from .hours import convert_hours
from .mapping import load_mapping
from .reader import read_objects

STATE_FILE = "osm-import.json"
# What the build refuses in a website beyond clean_website's rule.
_WEBSITE_FORBIDDEN = set(" \"'<>\\")


@dataclass
class Report:
    per_category: Counter = field(default_factory=Counter)  # category slug -> listings
    skipped: dict = field(default_factory=lambda: defaultdict(list))  # reason -> keys
    bad_values: list = field(default_factory=list)  # (key, message): value left out
    hours_not_converted: list = field(default_factory=list)  # (key, value, why)
    new: list = field(default_factory=list)  # paths written for new listings
    updated: list = field(default_factory=list)
    unchanged: int = 0
    edited: list = field(default_factory=list)  # (key, path) left alone: edited
    deleted: list = field(default_factory=list)  # (key, path) deleted by the operator
    gone: list = field(default_factory=list)  # (key, path) no longer in the file
    hidden: list = field(default_factory=list)  # (key, path) marked hidden
    new_terms: list = field(default_factory=list)  # paths of new category and city files
    dry_run: bool = False

    def lines(self):
        yield "Listings per category:"
        for slug, count in sorted(self.per_category.items()):
            yield f"  {slug}: {count}"
        for reason, keys in sorted(self.skipped.items()):
            yield f"Skipped, {reason}: {len(keys)}" + (f" ({', '.join(keys[:10])}"
                                                       f"{', …' if len(keys) > 10 else ''})")
        for key, message in self.bad_values:
            yield f"{key}: {message}; left out"
        for key, value, why in self.hours_not_converted:
            yield f"{key}: opening_hours {value!r} not converted ({why})"
        for key, path in self.edited:
            yield f"{key}: {path} edited since the last import; left alone"
        for key, path in self.deleted:
            yield f"{key}: {path} deleted since the last import; not written again"
        for key, path in self.gone:
            yield f"{key}: {path} is no longer in the file"
        for key, path in self.hidden:
            yield f"{key}: {path} marked Status: hidden"
        for path in self.new_terms:
            yield f"new: {path}"
        total_skipped = sum(len(keys) for keys in self.skipped.values())
        yield (f"{len(self.new)} new, {len(self.updated)} updated, {self.unchanged} unchanged, "
               f"{len(self.edited)} edited and kept, {len(self.gone)} gone from OpenStreetMap, "
               f"{total_skipped} skipped, {len(self.hours_not_converted)} opening hours not "
               f"converted" + (" (dry run: nothing written)" if self.dry_run else ""))


@dataclass
class _Planned:
    key: str
    slug: str
    metadata: list
    path: Path = None


def digest(data):
    return hashlib.sha256(data).hexdigest()


def parse_bbox(text):
    """``(west, south, east, north)`` from ``W,S,E,N`` in degrees."""
    try:
        west, south, east, north = (float(part) for part in text.split(","))
    except ValueError:
        raise ImportFailed(f"--bbox {text!r} is not W,S,E,N in degrees") from None
    if not (-180 <= west < east <= 180 and -90 <= south < north <= 90):
        raise ImportFailed(f"--bbox {text!r}: west < east and south < north, in degrees")
    return west, south, east, north


class _Importer:
    def __init__(self, site, mapping, city, report):
        self.site = Path(site).resolve()
        self.site_prefix = os.path.join(os.fspath(self.site), "")
        config_file = self.site / "pelicanconf.py"
        if not config_file.is_file():
            raise ImportFailed(f"{self.site}: no pelicanconf.py (give the site's folder with --site)")
        self.settings = read_settings(str(config_file))
        self.config = directory_settings(self.settings)
        self.mapping, self.report = mapping, report
        content = Path(self.settings["PATH"])
        self.listings_dir = content / self.config.listing_paths[0]
        self.categories = Terms(read_sources(self.settings, self.config.category_paths),
                                content / self.config.category_paths[0], any_name=True)
        self.cities = Terms(read_sources(self.settings, self.config.city_paths),
                            content / self.config.city_paths[0], any_name=True)
        self.state_path = self.site / STATE_FILE
        self.state = self._load_state()
        # A listing whose file is as the last import wrote it is known from the state:
        # only the others are read with Pelican's readers (100,000 took 110 CPU-s).
        self.digests = {}  # path -> digest of the file's bytes now
        imported = {}
        for key, entry in self.state.items():
            if isinstance(entry, dict) and {"path", "digest", "slug"} <= entry.keys():
                imported[self.site / entry["path"]] = key, entry

        def as_imported(path):
            known = imported.get(path)
            if known is None:
                return False
            self.digests[path] = digest(path.read_bytes())
            return self.digests[path] == known[1]["digest"]

        listings = read_sources(self.settings, self.config.listing_paths, skip=as_imported)
        listings += [Source(path, "", imported[path][1]["slug"], (),
                            {"osm": imported[path][0]})
                     for path in self.digests if self.digests[path] == imported[path][1]["digest"]]
        self.by_key = {}
        for source in sorted(listings, key=lambda source: source.path):
            key = plain_text(source.metadata.get("osm"))
            if key:
                self.by_key.setdefault(key, source)
        self.taken = {source.slug for source in listings} | {source.path.stem for source in listings}
        # Every file name in the folder, once: a slug is not given a file that exists.
        self.file_names = set(os.listdir(self.listings_dir)) if self.listings_dir.is_dir() else set()
        self.default_city = plain_text(city)

    def _load_state(self):
        if not self.state_path.exists():
            return {}
        try:
            state = json.loads(self.state_path.read_text(encoding="utf-8"))
            return dict(state["listings"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ImportFailed(f"{self.state_path}: cannot be read: {error}") from None

    def _value(self, obj, field_name, clean, *tags):
        """The first of ``tags`` that ``obj`` has (the first of ``;``-separated values),
        cleaned; a refused value is left out and reported."""
        for tag in tags:
            raw = obj.tags.get(tag)
            if raw:
                value = plain_text(raw.split(";")[0])
                try:
                    return clean(value)
                except ValueError as error:
                    self.report.bad_values.append((obj.key, f"{tag}: {error}"))
                    return ""
        return ""

    def _name(self, obj, tag):
        """``obj``'s ``tag`` as a name the build takes, else "" (reported)."""
        try:
            return validate.clean_name(tag, obj.tags.get(tag), self.config.max_name_length)
        except ValueError as error:
            self.report.bad_values.append((obj.key, str(error)))
            return ""

    def plan(self, obj, category):
        """A planned listing of ``obj``, or the reason it is skipped (a str)."""
        title = self._name(obj, "name:ar") or self._name(obj, "name")
        if not title:
            return "no name" if not (obj.tags.get("name") or obj.tags.get("name:ar")) \
                else "bad value"
        if obj.latitude is None:
            return "way with nodes missing from the file"
        name_fr, name_en = (self._name(obj, f"name:{lang}") for lang in ("fr", "en"))
        city_name = self._name(obj, "addr:city") or self.default_city
        if not city_name:
            return ("bad value" if obj.tags.get("addr:city")
                    else "no addr:city (give a default with --city)")
        if self.cities.find(city_name) is None and not derive_slug(city_name):
            self.report.bad_values.append(
                (obj.key, f"addr:city {validate.shown(city_name)}: no slug can be derived from it"))
            return "bad value"
        category_slug = self.categories.slug_for(
            category.name, category.name_en, category.name_fr,
            [("Name_en", category.name_en), ("Name_fr", category.name_fr),
             ("Schema_type", category.schema_type if category.schema_type != "LocalBusiness"
              else "")])
        city_slug = self.cities.slug_for(city_name)
        street = plain_text(obj.tags.get("addr:street"))
        number = plain_text(obj.tags.get("addr:housenumber"))
        if street and number:
            street = self.mapping.address_format.format(street=street, housenumber=number)
        hours = ""
        raw_hours = obj.tags.get("opening_hours")
        if raw_hours:
            try:
                hours = convert_hours(raw_hours)
            except ValueError as error:
                self.report.hours_not_converted.append((obj.key, raw_hours, str(error)))
        website = self._value(obj, "Website", _clean_website, "website", "contact:website")
        latitude, longitude = validate.clean_coordinates(
            f"{obj.latitude:.6f}", f"{obj.longitude:.6f}")
        metadata = [
            ("Title", title), ("Slug", None),
            ("Name_fr", name_fr if name_fr != title else ""),
            ("Name_en", name_en if name_en != title else ""),
            ("Category", category_slug), ("City", city_slug),
            ("Street", street), ("Postal_code", plain_text(obj.tags.get("addr:postcode"))),
            ("Phone", self._value(obj, "Phone", validate.clean_phone, "phone", "contact:phone")),
            ("Email", self._value(obj, "Email", validate.clean_email, "email", "contact:email")),
            ("Website", website),
            ("Latitude", f"{latitude:.6f}"), ("Longitude", f"{longitude:.6f}"),
            ("Hours", hours), ("Osm", obj.key), ("Modified", rfc3339(obj.timestamp)),
        ]
        return _Planned(obj.key, "", metadata)

    def place(self, planned, title_slug_candidates):
        """Give ``planned`` its slug and file: those of its earlier import, else new ones.
        Returns False when the listing is to be left alone."""
        source = self.by_key.get(planned.key)
        if source is not None:
            planned.slug, planned.path = source.slug, source.path
        elif planned.key in self.state:
            self.report.deleted.append((planned.key, self.state[planned.key]["path"]))
            return False
        else:
            base = derive_slug(*title_slug_candidates) or derive_slug(planned.key)
            slug, number = base, 2
            while slug in self.taken or f"{slug}.md" in self.file_names:
                slug, number = f"{base}-{number}", number + 1
            self.taken.add(slug)
            planned.slug, planned.path = slug, self.listings_dir / f"{slug}.md"
        planned.metadata[1] = ("Slug", planned.slug)
        return True

    def relpath(self, path):
        """``path`` (below the site) relative to the site, with slashes."""
        text = os.fspath(path)
        if text.startswith(self.site_prefix):
            text = text[len(self.site_prefix):]
        else:  # a content folder outside the site's
            text = os.path.relpath(text, self.site)
        return text.replace(os.sep, "/")

    def unedited(self, key, path):
        """True when the file at ``path`` has the bytes the last import wrote."""
        known = self.state.get(key)
        if known is None or not Path(path).is_file():
            return False
        if path not in self.digests:
            self.digests[path] = digest(Path(path).read_bytes())
        return self.digests[path] == known.get("digest")

    def save_state(self):
        text = json.dumps({"format": 1, "listings": dict(sorted(self.state.items()))},
                          ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        if not self.state_path.exists() or self.state_path.read_text(encoding="utf-8") != text:
            replace_atomically(str(self.state_path), text.encode("utf-8"))


def _clean_website(value):
    website = validate.clean_website(value)
    if _WEBSITE_FORBIDDEN & set(website):
        raise ValueError(f"Website {website!r} has a space, quote, <, > or backslash")
    return website


def _in_bbox(obj, bbox):
    west, south, east, north = bbox
    return obj.latitude is not None and west <= obj.longitude <= east and \
        south <= obj.latitude <= north


def _hidden(text):
    """A listing source's text with ``Status: hidden`` in its metadata."""
    head, separator, body = text.partition("\n\n")
    lines = [line for line in head.split("\n") if not line.lower().startswith("status:")]
    return "\n".join([*lines, "Status: hidden"]) + separator + body


def import_osm(path, site=".", bbox=None, mapping=None, city="", dry_run=False,
               hide_gone=False, on_object=None):
    """Import the OpenStreetMap file at ``path`` into the site in ``site``; a ``Report``.
    ``mapping``: a ``Mapping`` (default: the package's table)."""
    mapping = mapping or load_mapping()
    path = Path(path)
    if not path.is_file():
        raise ImportFailed(f"{path}: no such file")
    report = Report(dry_run=dry_run)
    importer = _Importer(site, mapping, city, report)
    objects = read_objects(path, list(mapping.categories), on_object)
    objects.sort(key=lambda obj: (obj.kind != "node", obj.id))
    planned, seen = [], set()
    for obj in objects:
        if bbox is not None and not _in_bbox(obj, bbox):
            continue
        seen.add(obj.key)
        category = mapping.category_of(obj.tags)
        if category is None:
            if obj.tags.get("name"):
                report.skipped["unmapped tag"].append(obj.key)
            continue
        result = importer.plan(obj, category)
        if isinstance(result, str):
            report.skipped[result].append(obj.key)
            continue
        names = (obj.tags.get("name:en"), obj.tags.get("name:fr"), obj.tags.get("name"),
                 obj.tags.get("name:ar"))
        if importer.place(result, [plain_text(name) for name in names if name]):
            planned.append(result)
            report.per_category[dict(result.metadata)["Category"]] += 1

    writes = []  # (path, text, key, slug): key and slug None for a term's file
    for terms in (importer.categories, importer.cities):
        for slug, metadata in sorted(terms.new.items()):
            target = terms.folder / f"{slug}.md"
            writes.append((target, markdown_source(metadata), None, None))
            report.new_terms.append(importer.relpath(target))
    for listing in planned:
        text = markdown_source(listing.metadata, plain=True)
        relpath = importer.relpath(listing.path)
        if listing.key not in importer.by_key:
            writes.append((listing.path, text, listing.key, listing.slug))
            report.new.append(relpath)
        elif not importer.unedited(listing.key, listing.path):
            report.edited.append((listing.key, relpath))
        elif listing.path.read_text(encoding="utf-8") != text:
            writes.append((listing.path, text, listing.key, listing.slug))
            report.updated.append(relpath)
        else:
            report.unchanged += 1
    for key, source in sorted(importer.by_key.items()):
        if key in seen:
            continue
        relpath = importer.relpath(source.path)
        report.gone.append((key, relpath))
        if hide_gone:
            if not importer.unedited(key, source.path):
                report.edited.append((key, relpath))
                continue
            text = source.path.read_text(encoding="utf-8")
            hidden = _hidden(text)
            if hidden != text:
                writes.append((source.path, hidden, key, source.slug))
                report.hidden.append((key, relpath))
    if dry_run:
        return report
    importer.listings_dir.mkdir(parents=True, exist_ok=True)
    for target, text, key, slug in writes:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, text, overwrite=key in importer.by_key)
        if key is not None:
            importer.state[key] = {"path": importer.relpath(target), "slug": slug,
                                   "digest": digest(text.encode("utf-8"))}
    importer.save_state()
    return report
