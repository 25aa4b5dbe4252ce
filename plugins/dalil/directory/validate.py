"""Field rules for listing metadata: each returns a clean value or raises ValueError."""

import re
from urllib.parse import urlsplit

from dalil.core.text import plain_text

# "+212 522-12 34 56", "(05) 22.12/34": a digit first, or "+" or "(" before it.
_PHONE = re.compile(r"\+?\(?[0-9][0-9 ()./-]*")
_EMAIL = re.compile(r"[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
STATUSES = ("published", "hidden", "draft")
# A value quoted in a message is cut to this many characters.
SHOWN_LENGTH = 40
# Refused in a website: each would end or break an attribute, a JSON-LD string or a vCard
# line it is written into (a URL that needs one can percent-encode it).
_NOT_IN_URL = frozenset("\"'<>\\")


def shown(value):
    """``value`` quoted for a message, cut to ``SHOWN_LENGTH`` characters."""
    return repr(value if len(value) <= SHOWN_LENGTH else value[:SHOWN_LENGTH - 1] + "…")


def clean_name(label, value, limit):
    """A listing's or term's name (``label``: ``Title``, ``Name_en``, ``Name_fr``) as plain
    text, at most ``limit`` characters (``DALIL_DIRECTORY_MAX_NAME_LENGTH``)."""
    name = plain_text(value)
    if len(name) > limit:
        raise ValueError(f"{label} {shown(name)} has {len(name)} characters "
                         f"(DALIL_DIRECTORY_MAX_NAME_LENGTH: {limit})")
    return name


def clean_phone(value):
    phone = plain_text(value)
    if phone and not _PHONE.fullmatch(phone):
        raise ValueError(f"Phone {shown(phone)} is not a phone number (digits, spaces, + ( ) . / -)")
    return phone


def clean_email(value):
    email = plain_text(value)
    if email and not _EMAIL.fullmatch(email):
        raise ValueError(f"Email {shown(email)} is not an e-mail address")
    return email


def clean_website(value, label="Website"):
    website = plain_text(value)
    if not website:
        return ""
    try:
        parts = urlsplit(website)
    except ValueError:  # an unclosed IPv6 bracket
        parts = None
    if (parts is None or parts.scheme.lower() not in ("http", "https") or not parts.hostname
            or any(char.isspace() or char in _NOT_IN_URL for char in website)):
        raise ValueError(f"{label} {shown(website)} is not an http(s) URL (with a host; no "
                         "space, quote, <, > or backslash)")
    return website


def clean_image(value):
    """A root-relative path under the site (``/images/x.jpg``) or an http(s) URL."""
    image = plain_text(value)
    if not image:
        return ""
    if image.startswith(("http://", "https://")):
        return clean_website(image, "Image")
    path = "/" + image.lstrip("/")
    if ".." in path.split("/") or ":" in path or "\\" in path or any(c in path for c in "\"'<>?#"):
        raise ValueError(f"Image {image!r} is not a path inside the site")
    return path


_OSM_OBJECT = re.compile(r"(?:node|way)/[1-9][0-9]{0,18}")


def clean_osm(value):
    """The OpenStreetMap object a listing was imported from: ``node/{id}`` or ``way/{id}``."""
    osm = plain_text(value)
    if osm and not _OSM_OBJECT.fullmatch(osm):
        raise ValueError(f"Osm {osm!r} is not an OpenStreetMap node/ID or way/ID")
    return osm


def clean_status(value):
    status = (value or "published").strip().lower()
    if status not in STATUSES:
        raise ValueError(f"Status {status!r} is not one of {', '.join(STATUSES)}")
    return status


_DEGREES = re.compile(r"[+-]?[0-9]{1,3}(?:\.[0-9]+)?")
# Beyond 6 decimals (about 0.1 m) a position says nothing more.
COORDINATE_DECIMALS = 6


def _degrees(name, value, limit):
    text = plain_text(value)
    if not _DEGREES.fullmatch(text) or abs(float(text)) > limit:
        raise ValueError(f"{name} {text!r} is not a number of degrees from -{limit} to {limit}")
    return round(float(text), COORDINATE_DECIMALS) + 0.0  # no -0.0


def clean_coordinates(latitude, longitude):
    """``(latitude, longitude)`` in WGS 84 decimal degrees, or ``(None, None)``: both or neither."""
    given = [value is not None and plain_text(value) != "" for value in (latitude, longitude)]
    if not any(given):
        return None, None
    if not all(given):
        present, missing = ("Latitude", "Longitude") if given[0] else ("Longitude", "Latitude")
        raise ValueError(f"{present} is given without {missing}: give both or neither")
    return _degrees("Latitude", latitude, 90), _degrees("Longitude", longitude, 180)


_SCHEMA_TYPE = re.compile(r"[A-Z][A-Za-z]{1,63}")


def clean_schema_type(value):
    """A schema.org type name such as ``Restaurant`` (a LocalBusiness subtype)."""
    schema_type = plain_text(value)
    if not schema_type:
        return "LocalBusiness"
    if not _SCHEMA_TYPE.fullmatch(schema_type):
        raise ValueError(f"Schema_type {schema_type!r} is not a schema.org type name such as "
                         "Restaurant")
    return schema_type
def clean_keywords(value):
    """A category's ``Keywords``: comma-separated (Latin or Arabic comma), each plain text;
    a repeated ``Keywords:`` line adds to the list. Empty and repeated words are dropped."""
    lines = value if isinstance(value, list) else [value or ""]
    words = (plain_text(word) for line in lines for word in re.split(r"[,،]", str(line)))
    return tuple(dict.fromkeys(word for word in words if word))
