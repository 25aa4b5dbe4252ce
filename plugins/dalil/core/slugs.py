"""Slugs: ASCII, lowercase words joined by single hyphens."""

import re

from unidecode import unidecode

SLUG_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


def is_valid_slug(slug):
    return bool(SLUG_PATTERN.fullmatch(slug or ""))


def slugify(text):
    """Derive a slug from any text, transliterating non-Latin scripts."""
    ascii_text = unidecode(text or "").lower()
    return _NOT_ALNUM.sub("-", ascii_text).strip("-")


def derive_slug(*candidates):
    """The slug of the first candidate that yields one, or ``""``."""
    for candidate in candidates:
        slug = slugify(candidate)
        if slug:
            return slug
    return ""
