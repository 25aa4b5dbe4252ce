"""Hypothesis strategies: directory sites whose content is hostile.

Two kinds of text. ``hostile_text`` is anything an operator could paste: markup and
scripts, quotes and CSV/vCard separators, line breaks, NUL and other controls, bidi
overrides, emoji, combining marks, formula starts, ``javascript:``. ``clean_text``
is text that is valid but awkward, built from pieces whose plain-text value is known,
so a test can check that every output carries exactly that value.
"""

import re
import unicodedata

from hypothesis import strategies as st

from dalil.core.text import plain_text
from tests import sitebuilder as sb

# DALIL_DIRECTORY_MAX_NAME_LENGTH's default: valid content keeps its names within it.
MAX_NAME_LENGTH = 200
LONG_ARABIC = ("مطعم الأصدقاء الكبير " * 20)[:MAX_NAME_LENGTH]  # the longest name allowed
HOSTILE_PIECES = [
    "<b>x</b>", "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "</title>",
    '"', "'", "&", "<", ">", ",", ";", "\\", ":", "\n", "\r", "\r\n", "\t", "\x00", "\x01",
    "\x08", "\x0b", "\x0c", "\x1b", "\x7f", "\x85", "\u2028", "\u202e", "\u202d", "\u2066",
    "\u200f", "\ufeff", "\ufffe", "😀", "👨‍👩‍👧", "e\u0301", "بَّ", LONG_ARABIC, "=", "+", "-",
    "@", "=HYPERLINK(\"http://x\")", "javascript:alert(1)", "&amp;", "&#0;", "&lt;", "]]>",
    "<!--", "-->", "{{ 7*7 }}", "{% raw %}", "%00", "../", "CON", " ", "<![", "<&",
]
# (source, plain text the outputs must show): valid text whose value is known.
CLEAN_PIECES = [
    ("مطعم", "مطعم"), ("Café", "Café"), ("42", "42"), ('"', '"'), ("'", "'"),
    (" & ", " & "), (" &amp; ", " & "), (" < ", " < "), (" > ", " > "), (",", ","),
    (";", ";"), ("\\", "\\"), ("=", "="), ("+", "+"), ("-", "-"), ("@", "@"), (":", ":"),
    ("<b>بارز</b>", "بارز"), ("<i>x</i>", "x"), ("\x01", ""), ("\x1b", ""), ("\x7f", ""),
    ("\x85", ""), ("\u202e", ""), ("\u202d", ""), ("\u2066", ""), ("\u200f", "\u200f"),
    ("\t", " "), ("😀", "😀"), ("👨‍👩‍👧", "👨‍👩‍👧"), ("e\u0301", "e\u0301"), ("بَّ", "بَّ"),
    (LONG_ARABIC, LONG_ARABIC), (" ", " "),
]
HOSTILE_SLUGS = ["../x", "a/b", "CON", "", "..", "x y", "a--b", "-a", "é", "/abs",
                 "a\\b", "x" * 300, "Upper", "a_b", "%2e%2e"]
VALID_SLUGS = ["ok", "con", "nul", "a-1", "x" * 60]
HOSTILE_WEBSITES = ["javascript:alert(1)", " JaVaScRiPt:alert(1)", "\x01javascript:alert(1)",
                    "jav&#x61;script:alert(1)", "data:text/html,<script>alert(1)</script>",
                    "vbscript:x", "ftp://x.example/", "https://", "//x.example/",
                    "https://x.example/a b", "http://x.example/a?b=1&c=<2>",
                    'https://x.example/"><script>alert(1)</script>', "https://x.example/it's",
                    "https://x.example/=HYPERLINK;a,b\\c"]
# What an attribute, a JSON-LD string or a vCard line would break on, percent-encoded.
VALID_WEBSITES = ["https://x.example/", "http://x.example/a?b=1&c=%3C2%3E",
                  "https://x.example/%22%3E%3Cscript%3Ealert(1)%3C/script%3E",
                  "https://x.example/=HYPERLINK;a,b%5Cc"]
VALID_PHONES = ["+212 522 123 456", "0522-12-34-56", "(05) 22.12/34", "+1"]
HOSTILE_PHONES = ["=1+2", "@SUM(1)", "-1+2", "+1; DROP", "٠٥٢٢", "tel:+212", "\x00"]
VALID_EMAILS = ["a@x.example", "o'neil+x@x.example"]
HOSTILE_EMAILS = ["a@", "<a@x.example>", "a@x.example\nBCC: b@x.example", "=a@x.example"]
VALID_IMAGES = ["/images/z.svg", "https://img.example/x.png?a=1&b=2"]
HOSTILE_IMAGES = ["../../etc/passwd", "javascript:alert(1)", "/images/<x>.png",
                  "/images/a\"b.png", "C:\\x.png", "/images/..%2f..%2fx"]
VALID_DATES = ["2026-11-20 10:00", "2026-01-01", "2026-11-21T11:59:00+00:00"]
HOSTILE_DATES = ["2026-13-45", "not a date", "0000-00-00", "9999-99-99T99:99"]
STATUSES = [None, "draft", "hidden", "published", "Draft", "secret", "<b>draft</b>"]

_WHITESPACE = re.compile(r"\s+")

hostile_pieces = st.lists(
    st.one_of(st.sampled_from(HOSTILE_PIECES), st.text(max_size=6)), max_size=6)
hostile_text = hostile_pieces.map("".join)


def _expected_text(pieces):
    expected = _WHITESPACE.sub(" ", "".join(value for _, value in pieces)).strip()
    return unicodedata.normalize("NFC", expected)


@st.composite
def clean_text(draw, min_pieces=1):
    """``(source, expected)``: the plain text every output must carry for ``source``, at
    most ``MAX_NAME_LENGTH`` characters (the last pieces left out till it fits)."""
    pieces = draw(st.lists(st.sampled_from(CLEAN_PIECES), min_size=min_pieces, max_size=6))
    while len(pieces) > min_pieces and len(_expected_text(pieces)) > MAX_NAME_LENGTH:
        pieces.pop()
    source = "".join(piece for piece, _ in pieces)
    expected = _expected_text(pieces)
    if not expected:  # a name must hold something
        return ("مطعم " + source, unicodedata.normalize(
            "NFC", _WHITESPACE.sub(" ", "مطعم " + "".join(v for _, v in pieces)).strip()))
    return source, expected


def maybe(strategy):
    return st.one_of(st.none(), strategy)


def one_line(text):
    """Metadata is one ``Key: value`` line: a line break would end the metadata block."""
    return re.sub(r"[\r\n]", " ", text)


named_text = hostile_text.map(lambda text: "مطعم " + one_line(text))
line_text = hostile_text.map(one_line)


def _within_name_limit(prefix):
    """Hostile text as one line after ``prefix``, its last pieces left out while its plain
    text would be longer than a name may be: a name of valid content."""
    def name(pieces):
        while len(plain_text(prefix + one_line("".join(pieces)))) > MAX_NAME_LENGTH:
            pieces = pieces[:-1]
        return prefix + one_line("".join(pieces))
    return hostile_pieces.map(name)


valid_name = _within_name_limit("مطعم ")
valid_other_name = _within_name_limit("")


@st.composite
def hostile_site(draw):
    """A site on top of a valid base. Half of the sites are broken: any field of any
    item may be invalid (a bad slug, an unknown city, a ``javascript:`` website, a line
    break that ends the metadata). The other half only hold hostile text, so that
    their build succeeds and every file is read."""
    broken = draw(st.booleans())

    def pick(valid, hostile):
        if not broken:
            return draw(st.sampled_from(valid))
        return draw(st.integers(0, 3).flatmap(
            lambda roll: st.sampled_from(valid) if roll else st.one_of(
                st.sampled_from(hostile), hostile_text)))

    def text(name=False):
        """Hostile text; one line unless the site is broken."""
        if broken:
            return draw(st.one_of(hostile_text, named_text) if name else hostile_text)
        return draw(named_text if name else line_text)

    def optional(value):
        return value if draw(st.booleans()) else None

    files = base_files()
    categories, cities = ["restaurants"], ["casablanca"]
    for number in range(draw(st.integers(0, 2))):
        slug = pick([f"cat-{number}"], HOSTILE_SLUGS)
        categories.append(slug)
        files[f"categories/c{number}.md"] = sb.metadata_file(
            draw(hostile_text), Title=text(name=True), Slug=slug,
            Name_en=optional(text()), Name_fr=optional(text()))
    for number in range(draw(st.integers(0, 2))):
        slug = pick([f"city-{number}"], HOSTILE_SLUGS)
        cities.append(slug)
        files[f"cities/t{number}.md"] = sb.metadata_file(
            draw(hostile_text), Title=text(name=True), Slug=slug,
            Province=optional(text()), Name_en=optional(text()))
    for number in range(draw(st.integers(1, 3))):
        files[f"listings/l{number}.md"] = sb.metadata_file(
            draw(hostile_text),
            Title=draw(st.sampled_from([text(name=True), LONG_ARABIC])),
            Slug=optional(pick([f"listing-{number}"], HOSTILE_SLUGS)),
            Name_en=optional(text()), Name_fr=optional(text()),
            Category=pick(categories, HOSTILE_PIECES), City=pick(cities, HOSTILE_PIECES),
            Street=optional(text()), Postal_code=optional(text()), Country=optional(text()),
            Phone=optional(pick(VALID_PHONES, HOSTILE_PHONES)),
            Email=optional(pick(VALID_EMAILS, HOSTILE_EMAILS)),
            Website=optional(pick(VALID_WEBSITES, HOSTILE_WEBSITES)),
            Image=optional(pick(VALID_IMAGES, HOSTILE_IMAGES)),
            Date=optional(pick(VALID_DATES, HOSTILE_DATES)),
            Summary=optional(text()), Status=pick([None, "draft", "hidden"], STATUSES),
        )
    for number in range(draw(st.integers(0, 2))):
        files[f"news/n{number}.md"] = sb.metadata_file(
            draw(hostile_text), Title=text(name=True), Slug=pick([f"news-{number}"], HOSTILE_SLUGS),
            Date=pick(VALID_DATES, HOSTILE_DATES), Summary=optional(text()),
            Status=pick([None, "draft"], STATUSES),
            Save_as=pick([None], ["../../escaped.html", "/tmp/escaped.html"]),
        )
    return files


@st.composite
def hostile_text_site(draw):
    """Valid structure (slugs, terms, phones, URLs, dates), hostile text everywhere else:
    such a site must build, and every file must read back.

    Returns ``(files, listing_slugs, news_slugs)`` of the published items."""
    files = base_files()
    files["categories/hostile.md"] = sb.metadata_file(
        draw(hostile_text), Title=draw(valid_name), Slug="hostile",
        Name_en=draw(maybe(valid_other_name)), Name_fr=draw(maybe(valid_other_name)))
    files["cities/hostile.md"] = sb.metadata_file(
        draw(hostile_text), Title=draw(valid_name), Slug="hostile-city",
        Province=draw(maybe(line_text)), Name_en=draw(maybe(valid_other_name)))
    listings = [f"listing-{number}" for number in range(draw(st.integers(1, 3)))]
    for slug in listings:
        files[f"listings/{slug}.md"] = sb.metadata_file(
            draw(hostile_text), Title=draw(valid_name), Slug=slug,
            Name_en=draw(maybe(valid_other_name)), Name_fr=draw(maybe(valid_other_name)),
            Category=draw(st.sampled_from(["restaurants", "hostile"])),
            City=draw(st.sampled_from(["casablanca", "hostile-city"])),
            Street=draw(maybe(line_text)), Postal_code=draw(maybe(line_text)),
            Country=draw(maybe(line_text)), Phone=draw(maybe(st.sampled_from(VALID_PHONES))),
            Email=draw(maybe(st.sampled_from(VALID_EMAILS))),
            Website=draw(maybe(st.sampled_from(VALID_WEBSITES))),
            Image=draw(maybe(st.sampled_from(VALID_IMAGES))),
            Date=draw(maybe(st.sampled_from(VALID_DATES))), Summary=draw(maybe(line_text)))
    news = [f"news-{number}" for number in range(draw(st.integers(0, 2)))]
    for slug in news:
        files[f"news/{slug}.md"] = sb.metadata_file(
            draw(hostile_text), Title=draw(named_text), Slug=slug,
            Date=draw(st.sampled_from(VALID_DATES)), Summary=draw(maybe(line_text)))
    return files, listings, news


def base_files():
    """A valid site whose theme links (contact, terms, blog) all resolve."""
    files = sb.base_files()
    files["pages/contact.md"] = sb.metadata_file("اتصل بنا.", Title="اتصل بنا", Slug="contact")
    files["pages/terms.md"] = sb.metadata_file("الشروط.", Title="شروط الاستخدام", Slug="terms")
    files["blog/welcome.md"] = sb.metadata_file("مرحبا.", Title="مرحبا", Slug="welcome",
                                                Date="2026-11-01")
    files["images/z.svg"] = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'
    return files
