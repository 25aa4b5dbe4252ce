"""The JSON Schemas (draft 2020-12) of ``/search-index.json`` and of the search page's
index in parts (its head and its parts), published with them."""

import json

from dalil.core.urls import absolute_url

from .index import TYPES
from .chunked import HEAD_FORMAT, PART_FORMAT, TEXT_FIELDS

SLUG = r"^[a-z0-9]+(-[a-z0-9]+)*$"
# Plain text on one line: no leading or trailing space, no line breaks or control characters.
TEXT = r"^[^\s\x00-\x1f\x7f-\x9f](?:[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f])?$"
ROOT_PATH = r"^/(?!/)"
# chunked.encode_numbers: numbers of base-32 digits, the last one in #-B, the others in
# ]-| (no leading zero).
PHONE = r"^\+?[0-9]+$"
NUMBERS = r"^(?:(?:[\^-|][\]-|]*)?[#-B])*$"
VERSION = {"type": "string", "pattern": "^[0-9a-f]{16}$",
           "description": "the same in the head and its parts: what their numbers mean "
                          "(the tokens, the categories and cities, the entries' count)"}


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


def _block(count, description):
    """The schema of a block of entries: the head's terms, or a part's entries."""
    numbers = {"type": "string", "pattern": NUMBERS}
    token_ids = {"type": "array", "items": count}

    def pairs(first, second, text):
        return {"type": "array", "description": text,
                "items": {"type": "array", "prefixItems": [first, second], "minItems": 2,
                          "maxItems": 2}}

    return {
        "type": "object", "description": description,
        "required": ["entries", "records", "slug", "url_exceptions", "img_exceptions"],
        "properties": {
            "entries": {**numbers, "description": "numbers: the entries' positions in the "
                                                  "search index, ascending: the first, then "
                                                  "the difference to the one before"},
            "records": {**numbers, "description": (
                "numbers: per entry, its type (a position in types), per text field of "
                "text_fields how many tokens that text has, those tokens' numbers (positions "
                "in the head's tokens), field after field, then its category and its city "
                "(1 + the position of that entry in the head's terms; 0: none), then its image: "
                "0 none (or one of img_exceptions), 1 its type's img_patterns with its "
                "slug, 2 or more the head's images at that number - 2. A text is its tokens joined by one space: "
                "the build splits texts on the ASCII space only")},
            "slug": {"type": "string", "pattern": r"^([a-z0-9]+(-[a-z0-9]+)*( (?!$)|$))*$",
                     "description": "the entries' slugs (s), joined by one space"},
            "url_exceptions": pairs(count, {"type": "string", "pattern": ROOT_PATH},
                                    "[entry position in this block, page path] of the "
                                    "entries whose path does not follow their type's pattern"),
            "img_exceptions": pairs(count, {"type": "string", "pattern": ROOT_PATH},
                                    "[entry position in this block, image path] of the "
                                    "entries whose image does not follow their type's "
                                    "pattern"),
            "keywords": pairs(count, {"type": "array", "items": token_ids},
                              "[category position in this block, its keywords (k), each "
                              "as token numbers]"),
            "phone": {"type": "string", "pattern": r"^(\+?[0-9]+)( \+?[0-9]+)*$",
                      "description": "the entries' phones (p of the search index), joined "
                                     "by one space"},
        },
        "additionalProperties": False,
    }


def head_schema(siteurl, save_as):
    count = {"type": "integer", "minimum": 0}
    arabic_word = {"type": "string", "pattern": "^[\u0621-\u064a]{2,}$"}
    numbers = {"type": "string", "pattern": NUMBERS}
    patterns = {"type": "array", "minItems": len(TYPES), "maxItems": len(TYPES),
                "items": {"type": "string"}}
    return _schema(siteurl, save_as, {
        "title": "Dalil search index head",
        "description": (
            "The head of the search page's index in parts: the raw tokens of every text, "
            "the categories and cities whole, and which part (a file beside this one, "
            "{name}.json) holds the entries of each token and of each category and city. "
            "/search-index.json stays the reference: together, the head's terms and the "
            "parts hold each of its entries, without coordinates."
        ),
        "type": "object",
        "required": ["format", "version", "types", "url_patterns", "img_patterns", "images",
                     "text_fields", "count",
                     "tokens", "plurals", "parts", "token_part", "address_part", "terms", "term_part",
                     "term_listings", "phone_part", "display_size", "display_part"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": HEAD_FORMAT, "description": "name and version of this format"},
            "version": VERSION,
            "types": {"const": list(TYPES), "description": "entry types, numbered from 0"},
            "url_patterns": {**patterns, "description": "per type, the entries' page path "
                                                        "with {slug} for the slug (\"\" for "
                                                        "a type without entries)"},
            "img_patterns": {**patterns, "description": "per type, the image path with "
                                                        "{slug} for the slug that entries "
                                                        "marked 1 in their record have"},
            "images": {"type": "array", "uniqueItems": True,
                       "items": {"type": "string", "pattern": ROOT_PATH},
                       "description": "image paths off their type's pattern that several "
                                      "entries share, sorted; a record names one by number"},
            "text_fields": {"const": list(TEXT_FIELDS),
                            "description": "the search index fields of each entry's texts, "
                                           "in this order"},
            "count": {**count, "description": "how many entries the search index has"},
            "tokens": {"type": "array", "items": {"type": "string"}, "uniqueItems": True,
                       "description": "the raw tokens of every text, the most frequent "
                                      "first (ties by code point); a token is numbered by "
                                      "its position"},
            "plurals": {"type": "array", "description": (
                "[broken plural, singular] pairs of the Arramooz lexicon whose plural or "
                "singular is a word of the tokens (normalised: no tashkeel, ة as ه, ى as ي), "
                "sorted; the search finds either from the other"),
                "items": {"type": "array", "prefixItems": [arabic_word, arabic_word],
                          "minItems": 2, "maxItems": 2}},
            "parts": {"type": "array", "uniqueItems": True,
                      "items": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"},
                      "description": "the parts' names: a part is {name}.json beside "
                                     "this file"},
            "token_part": {**numbers, "description": "numbers: per token, 1 + the position "
                                                     "in parts of the part that holds every "
                                                     "entry outside terms with that token in "
                                                     "a name (n, n_en, n_fr) (0: none); the "
                                                     "listings a query finds through a "
                                                     "category's or city's names or keywords "
                                                     "are in that term's part (term_part)"},
            "address_part": {**numbers, "description": "numbers: per token, 1 + the position "
                                                       "in parts of the part that holds every "
                                                       "entry outside terms with that token "
                                                       "in its address (a) (0: none)"},
            "terms": _block(count, "the category and location entries, in index order"),
            "term_part": {**numbers, "description": "numbers: per entry of terms, 1 + the "
                                                    "position in parts of the part that "
                                                    "holds its listings (0: none)"},
            "term_listings": {**numbers, "description": "numbers: per entry of terms, how "
                                                        "many listings it has (the facets' "
                                                        "counts of no query)"},
            "phone_part": {**count, "description": "1 + the position in parts of the part "
                                                   "that holds every entry with a phone, "
                                                   "with its phone (0: none)"},
            "display_size": {"type": "integer", "minimum": 1,
                             "description": "how many entries a display part holds"},
            "display_part": {**count, "description": (
                "1 + the position in parts of the first display part: the entry at "
                "position p of the search index has its slug and path exceptions in the "
                "display part at display_part + floor(p / display_size) (0: no entries)")},
        },
    })


def part_schema(siteurl, save_as):
    count = {"type": "integer", "minimum": 0}
    block = _block(count, "")
    return _schema(siteurl, save_as, {
        "title": "Dalil search index part",
        "description": (
            "A part of the search page's index: entries of the search index as columns "
            "(see the head, which numbers the tokens and says which part holds what). A "
            "part of tokens, of a category or city, or of phones holds their records "
            "(what the search reads); a display part (d-{n}) holds the slugs and path "
            "exceptions of the display_size entries from n * display_size on (what a "
            "result shows)."
        ),
        "type": "object",
        "required": ["format", "version", "entries"],
        "oneOf": [{"required": ["records"], "not": {"required": ["slug"]}},
                  {"required": ["slug", "url_exceptions", "img_exceptions"],
                   "not": {"anyOf": [{"required": ["records"]}, {"required": ["phone"]}]}}],
        "additionalProperties": False,
        "properties": {
            "format": {"const": PART_FORMAT, "description": "name and version of this format"},
            "version": VERSION,
            **block["properties"],
        },
    })


def serialise_schema(schema):
    return json.dumps(schema, ensure_ascii=False, allow_nan=False, indent=2) + "\n"
