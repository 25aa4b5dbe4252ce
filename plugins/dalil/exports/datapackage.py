"""``/directory/datapackage.json``: a Frictionless Data Package (v1) describing the exports.

The CSV and JSON exports are tabular resources sharing one Table Schema; the GeoJSON
export is a plain file resource (Table Schema describes no GeoJSON document).
"""

import json
import posixpath

from dalil.core.dates import rfc3339
from dalil.core.text import plain_text
from dalil.core.urls import absolute_url

from .records import FIELDS
from .schema import FIELD_DESCRIPTIONS

# Table Schema type and format of each export field (strings unless named).
_TABLE_TYPES = {
    "email": ("string", "email"),
    "website": ("string", "uri"),
    "image": ("string", "uri"),
    "url": ("string", "uri"),
    "dateModified": ("datetime", "default"),
}
_REQUIRED = ("name", "category", "address", "url")
_CSV_NOTE = (" A CSV cell that would run as a spreadsheet formula (starting with =, @, a tab, "
             "a carriage return, or + or - and no phone number) is prefixed with an apostrophe.")


def table_schema(siteurl):
    """The nine fields; with a relative SITEURL, ``url`` and ``image`` are paths, not URIs."""
    absolute = siteurl.startswith(("http://", "https://"))
    fields = []
    for name in FIELDS:
        kind, form = _TABLE_TYPES.get(name, ("string", "default"))
        if name in ("url", "image") and not absolute:
            form = "default"
        field = {"name": name, "type": kind, "format": form, "description": FIELD_DESCRIPTIONS[name]}
        if name in _REQUIRED:
            field["constraints"] = {"required": True}
        fields.append(field)
    return {"fields": fields, "missingValues": [""]}


def _resource_path(siteurl, package_save_as, save_as):
    """Relative to the package when beside or below it (Frictionless refuses ``..``),
    else an absolute URL."""
    relative = posixpath.relpath(save_as, posixpath.dirname(package_save_as) or ".")
    return relative if not relative.startswith("..") else absolute_url(siteurl, save_as)


# Listings imported from OpenStreetMap (``Osm``) are ODbL data, credited to its contributors.
ODBL_LICENSE = {"name": "ODbL-1.0", "title": "Open Data Commons Open Database License 1.0",
                "path": "https://opendatacommons.org/licenses/odbl/1-0/"}
OSM_SOURCE = {"title": "© OpenStreetMap contributors",
              "path": "https://www.openstreetmap.org/copyright"}


def data_package(config, siteurl, sitename, built_at, has_osm_data=False):
    """The package's JSON text, or ``""`` when no export it describes is written.
    ``has_osm_data``: some listings come from OpenStreetMap, so the package names ODbL
    for them and credits OpenStreetMap as a source."""
    schema = table_schema(siteurl)
    resources = []

    def path(save_as):
        return _resource_path(siteurl, config.datapackage_save_as, save_as)

    if config.csv_save_as:
        resources.append({
            "name": "directory-csv", "path": path(config.csv_save_as),
            "profile": "tabular-data-resource", "format": "csv", "mediatype": "text/csv",
            "encoding": "utf-8",
            "description": "Every published listing, ordered by slug; UTF-8 with a byte-order "
                           "mark, RFC 4180." + _CSV_NOTE,
            "dialect": {"delimiter": ",", "lineTerminator": "\r\n", "quoteChar": '"',
                        "doubleQuote": True, "header": True},
            "schema": schema,
        })
    if config.json_save_as:
        resources.append({
            "name": "directory-json", "path": path(config.json_save_as),
            "profile": "tabular-data-resource", "format": "json", "mediatype": "application/json",
            "encoding": "utf-8",
            "description": "The same records as an array of objects, values unchanged.",
            "schema": schema,
        })
    if config.geojson_save_as:
        resources.append({
            "name": "directory-geojson", "path": path(config.geojson_save_as),
            "profile": "data-resource", "format": "geojson", "mediatype": "application/geo+json",
            "encoding": "utf-8",
            "description": "An RFC 7946 FeatureCollection: a Point per listing with coordinates "
                           "([longitude, latitude]); properties are the nine fields plus slug, "
                           "city and hours (schema.org openingHours).",
        })
    if not resources:
        return ""
    package = {
        "profile": "data-package",
        "name": "dalil-directory",
        "title": plain_text(sitename) or "Dalil directory",
        "description": "The directory's published listings, in three formats.",
        "homepage": absolute_url(siteurl, ""),
        "created": rfc3339(built_at),
        "licenses": [{"title": config.license_title,
                      "path": absolute_url(siteurl, config.license_url)}],
        "resources": resources,
    }
    if has_osm_data:
        package["licenses"].append(ODBL_LICENSE)
        package["sources"] = [OSM_SOURCE]
        package["description"] += (" Listings with an OpenStreetMap object (osm) are © "
                                   "OpenStreetMap contributors, under the ODbL.")
    if siteurl.startswith(("http://", "https://")):
        package["id"] = absolute_url(siteurl, config.datapackage_save_as)
    return json.dumps(package, ensure_ascii=False, allow_nan=False, indent=2) + "\n"
