"""Writing content source files from outside a build: what the importers share.

An importer reads the content's categories, cities and listings with Pelican's readers
(the build's rule for slugs), plans the terms it needs, and writes Markdown sources
whose metadata Dalil reads back unchanged, each through a temporary file and a rename.
"""

import html
from dataclasses import dataclass, field
from pathlib import Path

from pelican.readers import Readers

from dalil.core.files import replace_atomically
from dalil.core.i18n import content_lang
from dalil.core.slugs import derive_slug
from dalil.core.text import plain_text

from .sources import translation_lang


class ImportFailed(Exception):
    """The file cannot be imported at all (unreadable, not an export, unreadable content)."""


@dataclass
class Source:
    path: Path
    title: str
    slug: str
    names: tuple = ()  # Title, Name_en and Name_fr that are given
    metadata: dict = field(default_factory=dict, repr=False)


class _SourceFile:
    def __init__(self, content, metadata, settings, source_path, context):
        self.metadata, self.source_path = metadata, source_path


def read_sources(settings, folders, skip=None):
    """Every source file under ``folders``, with its names and slug (the build's rule);
    not those for which ``skip(path)`` is true (the caller knows them already)."""
    content = settings["PATH"]
    reader_settings = dict(settings, USE_FOLDER_AS_CATEGORY=False, DEFAULT_METADATA={},
                           DEFAULT_DATE=None, FILENAME_METADATA="", PATH_METADATA="")
    readers = Readers(reader_settings)
    written_in = content_lang(settings)
    sources = []
    for folder in folders:
        base = Path(content, folder)
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            if not path.is_file() or path.suffix.lstrip(".") not in readers.extensions:
                continue
            if skip is not None and skip(path):
                continue
            try:
                source = readers.read_file(content, str(path.relative_to(content)),
                                           content_class=_SourceFile)
            except Exception as error:  # a reader's own error: bad date, bad encoding, ...
                raise ImportFailed(f"{path}: cannot be read: {error}") from None
            meta = source.metadata
            if translation_lang(meta, written_in) is not None:
                continue  # a translation of a listing's description: not a source of its own
            title = plain_text(meta.get("title"))
            name_en, name_fr = plain_text(meta.get("name_en")), plain_text(meta.get("name_fr"))
            slug = str(meta.get("slug") or "").strip() or derive_slug(name_en, name_fr, title)
            names = tuple(name for name in (title, name_en, name_fr) if name)
            sources.append(Source(path, title, slug, names, meta))
    return sources


class Terms:
    """Categories or cities by name; new ones are planned with a free slug.

    A term is found by its Arabic name (``Title``); with ``any_name``, by its English or
    French name too when no term has that Arabic name."""

    def __init__(self, sources, folder, any_name=False):
        self.folder = folder
        self.slug_by_name = {}
        ordered = sorted(sources, key=lambda source: source.slug)
        for source in ordered:
            self.slug_by_name.setdefault(source.title, source.slug)
        if any_name:
            for source in ordered:
                for name in source.names:
                    self.slug_by_name.setdefault(name, source.slug)
        self.taken = {source.slug for source in sources} | {source.path.stem for source in sources}
        self.new = {}  # slug -> metadata of its file

    def find(self, *names):
        """The slug of the first of ``names`` that a term has, else None."""
        for name in names:
            if name and name in self.slug_by_name:
                return self.slug_by_name[name]
        return None

    def slug_for(self, name, name_en="", name_fr="", metadata=()):
        """The slug of the term named ``name`` (or, when it is new, ``name_en`` or ``name_fr``),
        planning a new term if needed, its file holding ``metadata`` after its Title and
        Slug; None if no slug can be derived."""
        found = self.find(name, name_en, name_fr)
        if found is not None:
            return found
        base = derive_slug(name_en, name_fr, name)
        if not base:
            return None
        slug, number = base, 2
        while slug in self.taken or (self.folder / f"{slug}.md").exists():
            slug, number = f"{base}-{number}", number + 1
        self.taken.add(slug)
        for known in (name, name_en, name_fr):
            if known:
                self.slug_by_name.setdefault(known, slug)
        self.new[slug] = [("Title", name), ("Slug", slug), *metadata]
        return slug


def metadata_value(value):
    """One line that Dalil's ``plain_text`` reads back as ``value`` (entities, tags)."""
    return value if plain_text(value) == value else html.escape(value, quote=False)


def plain_metadata_value(value):
    """``metadata_value`` of a value that is ``plain_text``'s own output, which reads back
    unchanged unless it has an ``&`` or a ``<``: read again only then (a fifth of an
    import's time, at 100,000 listings)."""
    return metadata_value(value) if "&" in value or "<" in value else value


def markdown_source(metadata, body="", plain=False):
    """A Markdown source: one ``Key: value`` line per non-empty value, a blank line, the body.
    ``plain``: every value is already plain text (``plain_text``'s output)."""
    line_value = plain_metadata_value if plain else metadata_value
    lines = [f"{key}: {line_value(value)}" for key, value in metadata if value]
    return "\n".join(lines) + "\n\n" + body


def write_atomically(path, text, overwrite):
    """Write ``text`` to ``path`` through a temporary file and a rename."""
    path = Path(path)
    if path.exists() and not overwrite:
        raise FileExistsError(f"{path} exists")
    replace_atomically(str(path), text.encode("utf-8"))
