"""Slugs: ASCII, lowercase words joined by single hyphens."""

import re

from unidecode import unidecode

SLUG_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# A slug names a folder of the output: file systems refuse names over 255 bytes.
SLUG_MAX_LENGTH = 100
SLUG_RULE = f"[a-z0-9]+(-[a-z0-9]+)* of at most {SLUG_MAX_LENGTH} characters"
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


def is_valid_slug(slug):
    return bool(SLUG_PATTERN.fullmatch(slug or "")) and len(slug) <= SLUG_MAX_LENGTH


def slugify(text):
    """Derive a slug from any text, transliterating non-Latin scripts."""
    ascii_text = unidecode(text or "").lower()
    slug = _NOT_ALNUM.sub("-", ascii_text).strip("-")
    if len(slug) > SLUG_MAX_LENGTH:  # a long name: cut at a word boundary
        slug = slug[:SLUG_MAX_LENGTH + 1].rsplit("-", 1)[0] or slug[:SLUG_MAX_LENGTH]
    return slug


def derive_slug(*candidates):
    """The slug of the first candidate that yields one, or ``""``."""
    for candidate in candidates:
        slug = slugify(candidate)
        if slug:
            return slug
    return ""
