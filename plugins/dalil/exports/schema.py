"""The JSON Schema of ``/directory/export.json`` (draft 2020-12)."""

import json

from dalil.core.urls import absolute_url

from .records import FIELDS

_DESCRIPTIONS = {
    "name": "Business name, plain text.",
    "category": "The category's Arabic name; stable, so clients may filter on it by equality.",
    "phone": "Telephone number as written by the operator, or \"\".",
    "email": "E-mail address, or \"\".",
    "website": "The business's own http(s) website, or \"\".",
    "address": "The full postal address on one line: street, postal code and city, country.",
    "image": "Absolute URL of the listing's image, or \"\".",
    "url": "Absolute URL of the listing's page.",
    "dateModified": "Last update, RFC 3339 UTC with seconds (2026-11-20T09:30:00Z), or \"\".",
}
_PATTERNS = {
    "email": r"^$|^[^@\s]+@[^@\s]+$",
    "website": r"^$|^https?://\S+$",
    "dateModified": r"^$|^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$",
}


def export_schema(siteurl, schema_url):
    absolute = siteurl.startswith(("http://", "https://"))
    url_pattern = r"^https?://\S+$" if absolute else r"^(https?://|/)\S*$"
    properties = {}
    for name in FIELDS:
        prop = {"type": "string", "description": _DESCRIPTIONS[name]}
        if name in ("name", "category", "address", "url"):
            prop["minLength"] = 1
        if name in _PATTERNS:
            prop["pattern"] = _PATTERNS[name]
        elif name == "url":
            prop["pattern"] = url_pattern
        elif name == "image":
            prop["pattern"] = "^$|" + url_pattern
        properties[name] = prop
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Dalil directory export",
        "description": "Every published listing, ordered by the slug of its url.",
        "type": "array",
        "items": {
            "type": "object",
            "properties": properties,
            "required": list(FIELDS),
            "additionalProperties": False,
        },
    }
    if absolute:
        schema = {"$id": absolute_url(siteurl, schema_url), **schema}
    return json.dumps(schema, ensure_ascii=False, allow_nan=False, indent=2) + "\n"
