"""The JSON Schema (draft 2020-12) of ``/search-index.json``, published with it."""

import json

from dalil.core.urls import absolute_url

from .index import TYPES

SLUG = r"^[a-z0-9]+(-[a-z0-9]+)*$"
# Plain text on one line: no leading or trailing space, no line breaks or control characters.
TEXT = r"^[^\s\x00-\x1f\x7f-\x9f](?:[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f])?$"
ROOT_PATH = r"^/(?!/)"


def search_index_schema(siteurl, save_as):
    text = {"type": "string", "minLength": 1, "pattern": TEXT}
    path = {"type": "string", "pattern": ROOT_PATH}
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    if siteurl:
        schema["$id"] = absolute_url(siteurl, save_as)
    schema.update({
        "title": "Dalil search index",
        "description": (
            "Every published listing, category, city (t: location), news item, blog article "
            "and page, ordered by type then slug. Optional fields are present only when "
            "non-empty; url and img are paths relative to the site's base address."
        ),
        "type": "array",
        "items": {"$ref": "#/$defs/entry"},
        "$defs": {
            "entry": {
                "type": "object",
                "required": ["t", "s", "n", "url"],
                "additionalProperties": False,
                "properties": {
                    "t": {"enum": list(TYPES), "description": "entry type"},
                    "s": {"type": "string", "pattern": SLUG, "description": "slug"},
                    "n": {**text, "description": "name (Arabic)"},
                    "n_en": {**text, "description": "English name"},
                    "n_fr": {**text, "description": "French name"},
                    "c": {**text, "description": "category name (listings)"},
                    "a": {**text, "description": "address: street and city (listings)"},
                    "img": {**path, "description": "image path (listings)"},
                    "ll": {
                        "type": "array", "minItems": 2, "maxItems": 2,
                        "prefixItems": [{"type": "number", "minimum": -90, "maximum": 90},
                                        {"type": "number", "minimum": -180, "maximum": 180}],
                        "description": "[latitude, longitude], WGS 84 decimal degrees, at most "
                                       "6 decimals (listings with coordinates)",
                    },
                    "cs": {"type": "string", "pattern": SLUG,
                           "description": "category slug (listings): the s of its category entry"},
                    "ls": {"type": "string", "pattern": SLUG,
                           "description": "city slug (listings): the s of its location entry"},
                    "k": {"type": "array", "items": text, "minItems": 1, "uniqueItems": True,
                          "description": "search keywords of a category (its Keywords: "
                                         "singulars, plurals, synonyms, other languages); "
                                         "its listings match them too"},
                    "url": {**path, "description": "page path"},
                },
                "allOf": [
                    {"if": {"properties": {"t": {"const": "listing"}}},
                     "then": {"required": ["c", "cs", "ls"]},
                     "else": {"properties": {"c": False, "a": False, "img": False,
                                             "cs": False, "ls": False, "ll": False}}},
                    {"if": {"properties": {"t": {"const": "category"}}},
                     "else": {"properties": {"k": False}}},
                    {"if": {"properties": {"t": {"enum": ["news", "blog", "page"]}}},
                     "then": {"properties": {"n_en": False, "n_fr": False}}},
                ],
            },
        },
    })
    return schema


def serialise_schema(schema):
    return json.dumps(schema, ensure_ascii=False, allow_nan=False, indent=2) + "\n"
