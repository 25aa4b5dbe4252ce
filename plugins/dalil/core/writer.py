"""Pelican's writer, except that a file whose bytes did not change is left alone, and
that with the content cache an article or page whose inputs did not change is not
rendered again.

An unchanged page keeps its mtime, so rsync and S3 uploads move only what changed.
Everything else (sanitised paths, the ``override_output`` rules, signals, feeds) is
Pelican's own ``Writer``.
"""

import io
import marshal
import os

from pelican.urlwrappers import URLWrapper
from pelican.writers import FileOverwriteFailedError, Writer

from . import background
from .files import output_file_path, write_if_changed, write_pieces_if_changed
from .output import OBSERVER_KEY
from .pagecache import NotDigestable, PageCache, digest, stable_repr, template_digest

# The digests of the article pages and of the pages, each kind in a file of its own: the
# articles may be written by a forked process (``directory.articles.write_articles_beside``).
CONTENT_PAGES_CACHES = {"article": "dalil_article_pages.marshal",
                        "page": "dalil_page_pages.marshal"}
# What Pelican gives the template of one article or one page (generate_articles,
# generate_pages), besides the context; any other write is rendered every time.
_CONTENT_PAGE_ARGS = {"article", "page", "category", "relative_urls", "override_output", "url",
                      "blog"}
# Names the writer sets in each page's variables itself.
_WRITER_NAMES = {"output_file", "localsiteurl"}


class _CompareOnClose(io.StringIO):
    """Collects text; on close writes it only if the file's bytes would change."""

    def __init__(self, writer, path, encoding):
        super().__init__()
        self._writer, self._path, self._encoding = writer, path, encoding

    def close(self):
        if not self.closed:
            data = self.getvalue().encode(self._encoding)
            super().close()
            self._writer.record(self._path, write_if_changed(self._path, data))


class DalilWriter(Writer):
    def __init__(self, output_path, settings=None):
        super().__init__(output_path, settings=settings)
        self.changed = 0
        self.unchanged = 0
        self._content_pages = {}  # "article" or "page" -> its PageCache, made on first use
        self._template_keys = {}  # template name -> its digest (or None: never skipped)
        background.writer_made(self)

    def record(self, path, changed):
        if changed:
            self.changed += 1
        else:
            self.unchanged += 1

    def claim(self, path):
        """Note ``path`` as written by someone else (a worker process), as ``_open_w`` would."""
        if path in self._written_files or path in self._overridden_files:
            raise FileOverwriteFailedError(
                f'Failed to overwrite "{path}" as Pelican has already written to it previously')
        self._written_files.add(path)

    def written_paths(self):
        """Every path this writer wrote, kept or was told of (``claim``), in this build."""
        return self._written_files

    def claim_unchanged(self, paths):
        """``claim`` and ``record(path, False)`` for each of ``paths``, with set operations
        (100,000 pages kept in a rebuild)."""
        claimed = set(paths)
        clash = (claimed & self._written_files) | (claimed & self._overridden_files)
        if clash or len(claimed) != len(paths):
            for path in paths:  # the first of them, as ``claim`` would meet it
                self.claim(path)
        self._written_files |= claimed
        self.unchanged += len(claimed)

    def _open_w(self, filename, encoding, override=False):
        # Pelican's bookkeeping, word for word, then a buffer instead of open(..., "w").
        if filename in self._overridden_files:
            if override:
                raise FileOverwriteFailedError(
                    f'Failed to overwrite "{filename}" a second time (was previously overwritten)')
            return open(os.devnull, "w", encoding=encoding)
        if filename in self._written_files and not override:
            raise FileOverwriteFailedError(
                f'Failed to overwrite "{filename}" as Pelican has already '
                "written to it previously (set `override=True` if intended)")
        if override:
            self._overridden_files.add(filename)
        self._written_files.add(filename)
        return _CompareOnClose(self, filename, encoding)

    def write_file(self, name, template, context, *args, **kwargs):
        key = self._content_page_key(name, template, context, args, kwargs)
        pages = self._content_pages.get(_content_kind(kwargs))
        if key is not None and pages.is_fresh(name, key):
            self.claim_unchanged([output_file_path(self.output_path, name)])
        else:
            super().write_file(name, template, context, *args, **kwargs)
            if key is not None:
                pages.store(name, key, os.path.getsize(output_file_path(self.output_path, name)))
        _observe(context, name)

    def write_file_in_pieces(self, name, template, variables):
        """Write ``name`` as ``template`` makes it from ``variables`` (all of them), never
        whole in memory: a page too large to hold twice (see ``write_pieces_if_changed``)."""
        path = output_file_path(self.output_path, name)
        self.claim(path)
        pieces = (piece.encode("utf-8") for piece in template.generate(variables))
        self.record(path, write_pieces_if_changed(path, pieces))
        _observe(variables, name)

    def _content_page_key(self, name, template, context, args, kwargs):
        """The digest of what one article's or page's file is made of, or None when the
        page must be rendered (no content cache, or another kind of write)."""
        content = kwargs.get("article", kwargs.get("page"))
        if (content is None or args or not name or kwargs.get("override_output")
                or not set(kwargs) <= _CONTENT_PAGE_ARGS or not self.settings.get("CACHE_CONTENT")):
            return None
        if template.name not in self._template_keys:
            self._template_keys[template.name] = template_digest(
                template.environment, context, [template.name], _CONTENT_PAGE_ARGS | _WRITER_NAMES)
        template_key = self._template_keys[template.name]
        if template_key is None:
            return None
        kind = _content_kind(kwargs)
        if kind not in self._content_pages:
            self._content_pages[kind] = PageCache(self.settings, self.output_path,
                                                  b"content pages", CONTENT_PAGES_CACHES[kind])
        try:
            # Its HTML as the template reads it (links to other content resolved, so that a
            # moved target makes the page again) and its metadata; the rest of what the
            # template reads of it (summary, dates, category) follows from those, the
            # settings and the code. Its URL and path are among ``kwargs`` and ``name``.
            shown = (_tagged(content.content), _tagged_items(content.metadata),
                     _tagged(content.status),
                     [_tagged((item.lang, item.url, item.source_path))
                      for item in getattr(content, "translations", [])])
            given = _tagged_items({key: value for key, value in kwargs.items()
                                   if key not in ("article", "page")})
            return digest(marshal.dumps((template_key, name, shown, given), 2))
        except (NotDigestable, ValueError):  # ValueError: a key marshal cannot write
            return None

    def save_content_pages(self, kind):
        """Keep the digests of this build's pages of ``kind`` ("article" or "page") for the
        next build."""
        if kind in self._content_pages:
            self._content_pages[kind].save()

    def write_feed(self, elements, context, path=None, *args, **kwargs):
        feed = super().write_feed(elements, context, path, *args, **kwargs)
        _observe(context, path)
        return feed


# Written by ``marshal`` as they are: text, numbers, bytes, None. Version 2 writes a value
# the same whatever its identity (no references, no interning).
_MARSHALLED_AS_THEY_ARE = frozenset({str, int, float, bool, type(None), bytes})


def _tagged(value):
    """``value`` as plain data for a page's key, each kind tagged apart: a value of one of
    ``_MARSHALLED_AS_THEY_ARE`` as it is, a URL wrapper (a category, tag or author) as what
    a template reads of it, anything else as its ``stable_repr``. Twice as fast as a
    ``stable_repr`` of the whole key (3,000 articles at 100,000 listings)."""
    cls = value.__class__
    if cls in _MARSHALLED_AS_THEY_ARE:
        return 0, value
    if isinstance(value, URLWrapper):
        return 1, cls.__qualname__, value.name, value.slug, value.url
    return 2, stable_repr(value)


def _tagged_items(mapping):
    """``_tagged`` of each value of ``mapping``, by key (its keys in ``repr`` order)."""
    return [(key, _tagged(mapping[key])) for key in sorted(mapping, key=repr)]


def _content_kind(kwargs):
    """"article" or "page": which of ``CONTENT_PAGES_CACHES`` keeps a write's digest."""
    return "article" if "article" in kwargs else "page"


def _observe(context, name):
    observer = context.get(OBSERVER_KEY) if name else None
    if observer is not None:
        observer.mark(name)


def get_writer(pelican_object):
    return DalilWriter
