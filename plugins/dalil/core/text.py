"""Plain text for data files: no tags, no entities, no control or override characters."""

import html
import logging
import re
import unicodedata

from .sanitize import ANY_TAG, needs_parsing, sanitize_html

logger = logging.getLogger(__name__)

# C0/C1 controls (XML 1.0 forbids most of them) and the bidi embedding/override
# characters, which can make a name display as something it is not.
_UNSAFE_CHARS = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ufffe\uffff]"
)


def strip_unsafe(value):
    """Remove control and bidi-override characters, keep everything else."""
    return _UNSAFE_CHARS.sub("", value)


def plain_text(value):
    """Return ``value`` as one line of plain text.

    Tags are stripped and entities decoded (``&amp;`` becomes ``&``), control
    and bidi-override characters removed, whitespace (newlines included)
    collapsed, and the result NFC-normalised.
    """
    if value is None:
        return ""
    value = str(value)
    if value.isascii() and value.isprintable() and "<" not in value and "&" not in value:
        # No tag, entity, control or bidi character, and NFC already (a listing's phone,
        # email, URLs, slugs, Latin names): only the spaces to collapse.
        return " ".join(value.split())
    if "<" in value and needs_parsing(value):
        from bs4 import BeautifulSoup  # as in sanitize_html: rarely needed
        from bs4.exceptions import ParserRejectedMarkup

        try:
            # A space after it: at the very end of its input the parser holds back, then
            # drops, the "&" of a trailing "<&A" ("x <&A" gave "x <A"); collapsed below.
            value = BeautifulSoup(value + " ", "html.parser").get_text()
        except ParserRejectedMarkup:  # "<![" before more text: no markup, only text
            value = html.unescape(value)
    elif "<" in value:
        # Markdown's usual tags only (a summary's <p>): nothing to parse but the tags.
        value = html.unescape(ANY_TAG.sub("", value))
    elif "&" in value:
        # Without a tag there is no markup to parse (a URL with "&" is no document).
        value = html.unescape(value)
    if "&" in value:
        value = html.unescape(value)  # entities left over by double encoding
    value = unicodedata.normalize("NFC", strip_unsafe(value))
    # split() takes the whitespace that ``\s`` matches: a third of the time of a
    # substitution and a strip, for each of a listing's dozen fields.
    return " ".join(value.split())


def clean_html(value, removed):
    """HTML safe to publish: characters that XML 1.0 forbids removed, and what a strict
    Content-Security-Policy blocks (scripts, styles, event handlers, ``javascript:``
    URLs) taken out; the names of what was taken out are added to ``removed``."""
    clean, taken_out = sanitize_html(strip_unsafe(value or ""))
    removed.extend(taken_out)
    return clean


def report_removed(source, removed):
    """Warn, naming ``source``, that ``clean_html`` took ``removed`` out of its HTML."""
    if removed and source:
        logger.warning("%s: removed %s from the HTML (pages run no script or style of their "
                       "content, so that a strict Content-Security-Policy holds)",
                       source, ", ".join(sorted(set(removed))))


def html_text(value, source=None):
    """``clean_html`` of ``value``, with a warning naming ``source`` when given."""
    removed = []
    clean = clean_html(value, removed)
    report_removed(source, removed)
    return clean
