"""The JSON Schemas (draft 2020-12) of ``/search-index.json`` and of the prepared index,
published with them."""

import json

from dalil.core.urls import absolute_url

from .index import TYPES
from .prepared import FORMAT, PHONES_FORMAT, TEXT_FIELDS

SLUG = r"^[a-z0-9]+(-[a-z0-9]+)*$"
# Plain text on one line: no leading or trailing space, no line breaks or control characters.
TEXT = r"^[^\s\x00-\x1f\x7f-\x9f](?:[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f])?$"
ROOT_PATH = r"^/(?!/)"
# prepared.encode_numbers: numbers of base-32 digits, the last one in #-B, the others in
# ]-| (no leading zero).
PHONE = r"^\+?[0-9]+$"
NUMBERS = r"^(?:(?:[\^-|][\]-|]*)?[#-B])*$"


def _schema(siteurl, save_as, body):
    """A draft 2020-12 schema: ``$id`` is its own absolute URL when SITEURL is set."""
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    if siteurl:
        schema["$id"] = absolute_url(siteurl, save_as)
    schema.update(body)
    return schema


def search_index_schema(siteurl, save_as):
    text = {"type": "string", "minLength": 1, "pattern": TEXT}
    path = {"type": "string", "pattern": ROOT_PATH}
    return _schema(siteurl, save_as, {
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
                    "p": {"type": "string", "pattern": PHONE,
                          "description": "phone (listings): its digits, after a + when "
                                         "written in international form (+ or 00)"},
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
                     "else": {"properties": {"c": False, "a": False, "p": False, "img": False,
                                             "cs": False, "ls": False, "ll": False}}},
                    {"if": {"properties": {"t": {"const": "category"}}},
                     "else": {"properties": {"k": False}}},
                    {"if": {"properties": {"t": {"enum": ["news", "blog", "page"]}}},
                     "then": {"properties": {"n_en": False, "n_fr": False}}},
                ],
            },
        },
    })


def prepared_index_schema(siteurl, save_as):
    count = {"type": "integer", "minimum": 0}
    arabic_word = {"type": "string", "pattern": "^[\u0621-\u064a]{2,}$"}
    token_ids = {"type": "array", "items": count}
    numbers = {"type": "string", "pattern": NUMBERS}

    def column(items, description):
        return {"type": "array", "items": items, "description": description}

    def pairs(first, second, description):
        return column({"type": "array", "prefixItems": [first, second], "minItems": 2,
                       "maxItems": 2}, description)

    return _schema(siteurl, save_as, {
        "title": "Dalil prepared search index",
        "description": (
            "The entries of the search index, in its order, as columns: one value per entry "
            "in type, slug, category, city and img, and the entry's texts as numbers of raw "
            "tokens. A text is its tokens joined by one space: the build splits texts on "
            "the ASCII space only. The search page's worker reads this file; "
            "/search-index.json stays the reference. Coordinates are left out."
        ),
        "type": "object",
        "required": ["format", "types", "url_patterns", "text_fields", "tokens", "type",
                     "slug", "text_lengths", "text_tokens", "category", "city", "img",
                     "url_exceptions", "img_patterns", "img_exceptions", "keywords", "plurals"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": FORMAT, "description": "name and version of this format"},
            "types": {"const": list(TYPES), "description": "entry types, numbered from 0"},
            "url_patterns": {
                "type": "array", "minItems": len(TYPES), "maxItems": len(TYPES),
                "items": {"type": "string"},
                "description": "per type, the entries' page path with {slug} for the slug "
                               "(\"\" for a type without entries)"},
            "text_fields": {"const": list(TEXT_FIELDS),
                            "description": "the search index fields of each entry's texts, "
                                           "in this order"},
            "tokens": {"type": "array", "items": {"type": "string"}, "uniqueItems": True,
                       "description": "the raw tokens of every text, the most frequent "
                                      "first (ties by code point); a token is numbered by "
                                      "its position"},
            "type": {**numbers, "description": "numbers: entry type, a position in types"},
            "slug": {"type": "string", "pattern": r"^([a-z0-9]+(-[a-z0-9]+)*( (?!$)|$))*$",
                     "description": "the entries' slugs (s), joined by one space"},
            "text_lengths": {**numbers, "description": "numbers: per entry, per text field, "
                                                       "how many tokens of text_tokens that "
                                                       "text has (0: no such field)"},
            "text_tokens": {**numbers, "description": "numbers: the texts' token numbers, "
                                                      "entry after entry, field after field"},
            "category": {**numbers, "description": "numbers: listings, 1 + the number of "
                                                   "their category's entry (its name is c, "
                                                   "its slug cs) among the category entries "
                                                   "in index order; 0 otherwise"},
            "city": {**numbers, "description": "numbers: listings, 1 + the number of their "
                                               "city's entry (its slug is ls) among the "
                                               "location entries in index order; 0 "
                                               "otherwise"},
            "img": {**numbers, "description": "numbers: 1 when the entry's image path (img) "
                                              "is its type's img_patterns with its slug, 0 "
                                              "otherwise (no image, or one of "
                                              "img_exceptions)"},
            "img_patterns": {
                "type": "array", "minItems": len(TYPES), "maxItems": len(TYPES),
                "items": {"type": "string"},
                "description": "per type, the image path with {slug} for the slug that "
                               "entries marked 1 in img have (\"\" for none)"},
            "img_exceptions": pairs(count, {"type": "string", "pattern": ROOT_PATH},
                                    "[entry position, image path] of the entries whose "
                                    "image does not follow their type's pattern"),
            "url_exceptions": pairs(count, {"type": "string", "pattern": ROOT_PATH},
                                    "[entry position, page path] of the entries whose path "
                                    "does not follow their type's pattern"),
            "keywords": pairs(count, {"type": "array", "items": token_ids},
                              "[category entry position, its keywords (k), each as token "
                              "numbers]"),
            "plurals": column({"type": "array", "prefixItems": [arabic_word, arabic_word],
                               "minItems": 2,
                               "maxItems": 2},
                              "[broken plural, singular] pairs of the Arramooz lexicon "
                              "whose plural or singular is a word of the tokens "
                              "(normalised: no tashkeel, ة as ه, ى as ي), sorted; the "
                              "search finds either from the other"),
        },
    })


def phones_schema(siteurl, save_as):
    return _schema(siteurl, save_as, {
        "title": "Dalil search phones",
        "description": (
            "The phones of the prepared search index's entries, in its order: the search "
            "page fetches them after it, for queries of digits."
        ),
        "type": "object",
        "required": ["format", "phone"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": PHONES_FORMAT, "description": "name and version of this format"},
            "phone": {"type": "string", "pattern": r"^(\+?[0-9]+)?( (\+?[0-9]+)?)*$",
                      "description": "the entries' phones (p of the search index; \"\" for an "
                                     "entry without one), joined by one space"},
        },
    })


def serialise_schema(schema):
    return json.dumps(schema, ensure_ascii=False, allow_nan=False, indent=2) + "\n"
