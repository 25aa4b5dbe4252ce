"""The JSON Schemas (draft 2020-12) of ``/directory/export.json``, ``export.geojson``
and ``datapackage.json``."""

import json

from dalil.core.urls import absolute_url
from dalil.directory.hours import DAYS

from .records import FIELDS, GEO_FIELDS

FIELD_DESCRIPTIONS = {
    "name": "Business name, plain text.",
    "category": "The category's Arabic name; stable, so clients may filter on it by equality.",
    "phone": "Telephone number as written by the operator, or \"\".",
    "email": "E-mail address, or \"\".",
    "website": "The business's own http(s) website, or \"\".",
    "address": "The full postal address on one line: street, postal code and city, country.",
    "image": "Absolute URL of the listing's image, or \"\".",
    "url": "Absolute URL of the listing's page.",
    "dateModified": "Last update, RFC 3339 UTC with seconds (2026-11-20T09:30:00Z), or \"\".",
    "slug": "The listing's identifier, the last segment of its url.",
    "city": "The city's Arabic name.",
    "hours": "Opening hours in schema.org openingHours syntax, in the site's time zone "
             "(Mo-Fr 09:00-18:00; Sa 09:00-13:00; a range ending at or before its start "
             "ends the next day), or \"\".",
}
_DAY = "(?:" + "|".join(DAYS) + ")"
_CLOCK = "[0-9]{2}:[0-9]{2}"
_HOURS_RULE = (f"{_DAY}(?:-{_DAY})?(?:,{_DAY}(?:-{_DAY})?)* "
               f"{_CLOCK}-{_CLOCK}(?:,{_CLOCK}-{_CLOCK})*")
FIELD_PATTERNS = {
    "email": r"^$|^[^@\s]+@[^@\s]+$",
    "website": r"^$|^https?://\S+$",
    "dateModified": r"^$|^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$",
    "slug": r"^[a-z0-9]+(-[a-z0-9]+)*$",
    "hours": f"^$|^{_HOURS_RULE}(?:; {_HOURS_RULE})*$",
}


def record_properties(siteurl, names=FIELDS):
    """The JSON Schema property of each field in ``names``."""
    absolute = siteurl.startswith(("http://", "https://"))
    url_pattern = r"^https?://\S+$" if absolute else r"^(https?://|/)\S*$"
    properties = {}
    for name in names:
        prop = {"type": "string", "description": FIELD_DESCRIPTIONS[name]}
        if name in ("name", "category", "address", "url", "slug", "city"):
            prop["minLength"] = 1
        if name in FIELD_PATTERNS:
            prop["pattern"] = FIELD_PATTERNS[name]
        elif name == "url":
            prop["pattern"] = url_pattern
        elif name == "image":
            prop["pattern"] = "^$|" + url_pattern
        properties[name] = prop
    return properties


def _document(siteurl, schema_url, schema):
    """The schema's text, with its ``$id`` when the site has an absolute address."""
    if siteurl.startswith(("http://", "https://")):
        schema = {"$id": absolute_url(siteurl, schema_url), **schema}
    return json.dumps(schema, ensure_ascii=False, allow_nan=False, indent=2) + "\n"


def export_schema(siteurl, schema_url):
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Dalil directory export",
        "description": "Every published listing, ordered by the slug of its url.",
        "type": "array",
        "items": {
            "type": "object",
            "properties": record_properties(siteurl),
            "required": list(FIELDS),
            "additionalProperties": False,
        },
    }
    return _document(siteurl, schema_url, schema)


def _degrees(limit, description):
    return {"type": "number", "minimum": -limit, "maximum": limit, "description": description}


def geojson_schema(siteurl, schema_url):
    """``/directory/export.geojson``: the RFC 7946 subset the export writes."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Dalil directory export, GeoJSON",
        "description": "An RFC 7946 FeatureCollection: one Point Feature per published listing "
                       "with coordinates, ordered by slug.",
        "type": "object",
        "required": ["type", "features"],
        "properties": {
            "type": {"const": "FeatureCollection"},
            "features": {"type": "array", "items": {
                "type": "object",
                "required": ["type", "id", "geometry", "properties"],
                "additionalProperties": False,
                "properties": {
                    "type": {"const": "Feature"},
                    "id": {"type": "string", "description": "The listing's slug."},
                    "geometry": {
                        "type": "object",
                        "required": ["type", "coordinates"],
                        "additionalProperties": False,
                        "properties": {
                            "type": {"const": "Point"},
                            "coordinates": {
                                "description": "[longitude, latitude], WGS 84 decimal degrees, "
                                               "at most 6 decimals (RFC 7946 order).",
                                "type": "array",
                                "prefixItems": [_degrees(180, "Longitude."),
                                                _degrees(90, "Latitude.")],
                                "minItems": 2, "maxItems": 2,
                            },
                        },
                    },
                    "properties": {
                        "type": "object",
                        "properties": record_properties(siteurl, GEO_FIELDS),
                        "required": list(GEO_FIELDS),
                        "additionalProperties": False,
                    },
                },
            }},
        },
    }
    return _document(siteurl, schema_url, schema)


def datapackage_schema(siteurl, schema_url):
    """``/directory/datapackage.json``: what this site's package holds (the Frictionless
    Data Package profile says the rest)."""
    string = {"type": "string", "minLength": 1}
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Dalil directory data package",
        "description": "A Frictionless Data Package (v1) describing the directory exports.",
        "type": "object",
        "required": ["profile", "name", "title", "created", "licenses", "resources"],
        "properties": {
            "profile": {"const": "data-package"},
            "id": {**string, "description": "Absolute URL of this file."},
            "name": {"const": "dalil-directory"},
            "title": {**string, "description": "The site's name."},
            "description": string,
            "homepage": {**string, "description": "The site's address."},
            "created": {"type": "string", "description": "The build time, RFC 3339 UTC.",
                        "pattern": FIELD_PATTERNS["dateModified"].removeprefix("^$|")},
            "licenses": {"type": "array", "minItems": 1, "items": {
                "type": "object", "required": ["title", "path"],
                "properties": {"title": string, "path": {
                    **string, "description": "The page stating the terms (/open-data/); "
                    "for listings imported from OpenStreetMap, the ODbL's text."},
                    "name": {"const": "ODbL-1.0", "description":
                             "The ODbL, named when some listings come from OpenStreetMap."}},
            }},
            "sources": {"type": "array", "description":
                        "OpenStreetMap, when some listings were imported from it.", "items": {
                "type": "object", "required": ["title", "path"],
                "properties": {"title": string, "path": string},
            }},
            "resources": {"type": "array", "minItems": 1, "items": {
                "type": "object",
                "required": ["name", "path", "profile", "format", "mediatype", "encoding"],
                "properties": {
                    "name": {"enum": ["directory-csv", "directory-json", "directory-geojson"]},
                    "path": {**string, "description": "Relative to this file, or an absolute URL."},
                    "profile": {"enum": ["tabular-data-resource", "data-resource"]},
                    "format": {"enum": ["csv", "json", "geojson"]},
                    "mediatype": {"enum": ["text/csv", "application/json",
                                           "application/geo+json"]},
                    "encoding": {"const": "utf-8"},
                    "schema": {"type": "object", "required": ["fields"], "description":
                               "Table Schema of the nine export fields (tabular resources)."},
                },
            }},
        },
    }
    return _document(siteurl, schema_url, schema)
