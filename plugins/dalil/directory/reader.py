"""Lean Markdown readers: one for directory sources, one for Pelican's articles and pages.

Pelican's ``MarkdownReader`` builds a new ``Markdown`` object for every file and
parses dates with dateutil; at 10,000 listings that is a tenth of a build. This
reader keeps Pelican's metadata rules but reuses two ``Markdown`` objects (one
for documents, one for formatted fields such as ``Summary``), ``reset()`` between
files, parses ISO dates with ``datetime.fromisoformat`` (dateutil only for other
forms) and keeps ``Category`` as text (cheap to send between processes).

Text that is only plain paragraphs (most listings, nearly every summary) is not run
through Markdown's block and inline passes, whose output for it is known: each
paragraph in ``<p>``. Python-Markdown still reads the metadata header (its own
whitespace and ``meta`` preprocessors) and converts everything else; a property test
checks the two give the same bytes.

``ContentMarkdownReader`` does the same for Pelican's articles and pages, giving
exactly what Pelican's reader gives (its metadata objects and messages).
"""

import contextlib
import copy
import datetime as dt
import functools
import logging
import os
import re

from markdown import Markdown
from markdown.extensions.meta import MetaPreprocessor
from markdown.preprocessors import NormalizeWhitespace
from pelican.readers import DUPLICATES_DEFINITIONS_ALLOWED, MarkdownReader, _filter_discardable_metadata
from pelican.utils import SafeDatetime, get_date, pelican_open

from dalil.core.bidi import isolate_in_text

META_EXTENSION = "markdown.extensions.meta"
logger = logging.getLogger(__name__)
# Kept as text: the directory reads them as plain strings.
_TEXT_FIELDS = {"category", "author", "authors", "tags"}
# Extensions that leave plain paragraphs as they are (Pelican's and Dalil's defaults;
# dalil.core.bidi's work on them is done here too). Another one (smarty, nl2br, toc, ...)
# might not: everything then goes through Markdown.
_PLAIN_SAFE_EXTENSIONS = {*(f"markdown.extensions.{name}" for name in ("codehilite", "extra", "meta")),
                          "dalil.core.bidi"}
# Naive ISO 8601 dates, which dateutil reads as ``fromisoformat`` does (aware ones get
# dateutil's own tzinfo classes from Pelican, which format differently).
_NAIVE_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)?")
# A line no block or inline syntax of those extensions applies to: it starts with a
# letter, has no character that starts inline syntax, no tab or other control
# character, no whitespace but the ASCII space, and does not end with a space.
_PLAIN_LINE = re.compile(r"[^\W\d_][^\\`*_{}\[\]<>&|~^\x00-\x1f\x7f\x80-\x9f\u0085\u00a0\u1680"
                         r"\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*(?<! )")

# What Markdown's NormalizeWhitespace changes: its placeholder markers, carriage returns,
# tabs and lines of spaces. A text without any is only given two empty lines at its end,
# without its five passes over the text (30 µs a listing; a regular expression for
# these takes as long, five substring searches a tenth of it).
_NORMALIZED_AWAY = ("\x02", "\x03", "\r", "\t", " \n")


def parse_date(value):
    """The value ``pelican.utils.get_date`` gives, without dateutil for ISO 8601 text."""
    text = value.strip()
    try:
        parsed = dt.datetime.fromisoformat(text)
    except ValueError:
        return get_date(text)
    # A plain datetime: equal to Pelican's SafeDatetime, and its strftime is much faster.
    return parsed


class LeanMarkdownReader(MarkdownReader):
    file_extensions = MarkdownReader.file_extensions

    def __init__(self, settings):
        super().__init__(settings)
        self._plain_allowed = all(isinstance(ext, str) and ext in _PLAIN_SAFE_EXTENSIONS
                                  for ext in self.settings["MARKDOWN"].get("extensions", ()))

    # Made on first use: every generator makes its own readers, a reader for each of the
    # four Markdown extensions, and most never read a file (88 Markdown objects a build,
    # 0.1 s, for the two or three that convert anything).
    @functools.cached_property
    def _document(self):
        return Markdown(**copy.deepcopy(self.settings["MARKDOWN"]))

    @functools.cached_property
    def _fields(self):
        config = copy.deepcopy(self.settings["MARKDOWN"])
        config["extensions"] = [ext for ext in config["extensions"] if ext != META_EXTENSION]
        return Markdown(**config)

    def process_metadata(self, name, value):
        if name in ("date", "modified"):
            return parse_date(value.replace("_", " ") if name == "date" else value)
        if name in _TEXT_FIELDS:
            return value.strip() if isinstance(value, str) else value
        return super().process_metadata(name, value)

    def _parse_metadata(self, meta):
        """Pelican's ``MarkdownReader._parse_metadata``, with the reused field converter."""
        formatted_fields = self.settings["FORMATTED_FIELDS"]
        output = {}
        for name, value in meta.items():
            name = name.lower()
            if name in formatted_fields:
                output[name] = self.process_metadata(name, self.convert(self._fields,
                                                                        "\n".join(value)))
            elif not DUPLICATES_DEFINITIONS_ALLOWED.get(name, True) or len(value) == 1:
                output[name] = self.process_metadata(name, value[0])
            else:
                output[name] = self.process_metadata(name, value)
        return _filter_discardable_metadata(output)

    def read(self, source_path):
        self._source_path = source_path
        content = self.convert(self._document, read_text(source_path))
        return content, self._parse_metadata(getattr(self._document, "Meta", {}))

    def convert(self, markdown, text):
        """``markdown.convert(text)`` (its ``Meta`` set too), plain paragraphs without it.
        Plain paragraphs use no state ``reset`` clears, and set ``Meta`` themselves: only
        a full conversion resets (a fifth of reading a listing)."""
        if self._plain_allowed:
            html = plain_paragraphs(markdown, text)
            if html is not None:
                return html
        markdown.reset()
        return markdown.convert(text)


def read_text(path):
    """The text of the file at ``path`` as Pelican's ``pelican_open`` gives it (UTF-8, a
    BOM dropped, line ends made ``\n``) in half its time (12 against 25 µs a listing):
    its text file decodes with the incremental, pure-Python utf-8-sig codec. A file
    that is not UTF-8 gets ``pelican_open``'s own error."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
    finally:
        os.close(fd)
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        with pelican_open(path) as text:  # raises its error
            return text
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


class ContentMarkdownReader(LeanMarkdownReader):
    """Pelican's ``MarkdownReader`` for articles and pages (installed in its place by
    ``use_for_content``), giving what it gives: categories, authors and tags as Pelican's
    objects, dates as ``SafeDatetime``, the same duplicate warnings. It keeps the lean
    reader's reused ``Markdown`` objects and plain paragraphs: Pelican builds a
    ``Markdown`` object per file, a third of reading 300 articles."""

    def process_metadata(self, name, value):
        if name in ("date", "modified"):
            text = (value.replace("_", " ") if name == "date" else value).strip()
            if _NAIVE_ISO_DATE.fullmatch(text):
                with contextlib.suppress(ValueError):  # Pelican's own message for a bad date
                    return SafeDatetime.fromisoformat(text)
        return MarkdownReader.process_metadata(self, name, value)

    def _parse_metadata(self, meta):
        for name, value in meta.items():
            if not DUPLICATES_DEFINITIONS_ALLOWED.get(name.lower(), True) and len(value) > 1:
                logger.warning("Duplicate definition of `%s` for %s. Using first one.",
                               name.lower(), self._source_path)
        return super()._parse_metadata(meta)


def use_for_content(readers):
    """``readers_init``: read Markdown articles and pages with ``ContentMarkdownReader``
    unless the site chose its own reader for them."""
    for extension, reader_class in readers.reader_classes.items():
        if reader_class is MarkdownReader:
            readers.reader_classes[extension] = ContentMarkdownReader


def plain_paragraphs(markdown, text):
    """What ``markdown.convert(text)`` gives if ``text``, after its metadata header
    (read by ``markdown``'s own preprocessors), is only plain paragraphs; else None."""
    lines = _preprocessed_lines(markdown, text)
    isolate = isolate_in_text if "dalil_bidi" in markdown.treeprocessors else str
    paragraphs, paragraph = [], []
    for line in lines:
        if not line:
            if paragraph:
                paragraphs.append("<p>" + isolate("\n".join(paragraph)) + "</p>")
                paragraph = []
        elif _PLAIN_LINE.fullmatch(line):
            paragraph.append(line)
        else:
            return None
    if paragraph:
        paragraphs.append("<p>" + isolate("\n".join(paragraph)) + "</p>")
    return "\n".join(paragraphs)


def _preprocessed_lines(markdown, text):
    """The lines ``markdown``'s whitespace and metadata preprocessors leave of ``text``,
    its ``Meta`` set. Their work is known for a text with nothing to normalise, and for
    a header of plain ``Key: value`` lines then an empty line: such text is not run
    through them (68 µs a listing, against 8)."""
    preprocessors = markdown.preprocessors
    normalize = preprocessors["normalize_whitespace"] if "normalize_whitespace" in preprocessors else None
    meta = preprocessors["meta"] if "meta" in preprocessors else None
    if type(normalize) is NormalizeWhitespace and not any(mark in text for mark in _NORMALIZED_AWAY):
        # What normalising gives such a text: two empty lines more at its end.
        if type(meta) is MetaPreprocessor and (header := _plain_header(text)) is not None:
            markdown.Meta, body_start = header
            return text[body_start:].split("\n") + ["", ""]
        lines = text.split("\n") + ["", ""]
    else:
        lines = text.split("\n")
        if normalize is not None:
            lines = normalize.run(lines)
    return meta.run(lines) if meta is not None else lines


# Metadata lines that no other rule of the meta preprocessor can apply to, then an empty
# line: each starts with a letter, digit or "_" (not "---", "...", nor a space).
_PLAIN_HEADER = re.compile(r"(?:[A-Za-z0-9_][A-Za-z0-9_-]*:.*\n)*\n")
_PLAIN_FIELD = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_-]*):(.*)\n")


def _plain_header(text):
    """``(Meta, where the body starts)`` as Markdown's meta preprocessor reads ``text`` if
    it starts with a plain header (``_PLAIN_HEADER``); else None."""
    header = _PLAIN_HEADER.match(text)
    if header is None:  # a line of another kind: the preprocessor reads it
        return None
    fields = {}
    for key, value in _PLAIN_FIELD.findall(text, 0, header.end()):
        fields.setdefault(key.lower(), []).append(value.strip())
    return fields, header.end()
