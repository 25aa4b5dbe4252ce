"""Skip rendering a page whose inputs did not change since the last build: digests of
plain data and of templates, and the cache of the pages the last build wrote.

A page is skipped only when (1) the global digest is the one the last build saw:
every template file, the code, every setting and every context value the page
templates name; (2) its own digest (the data it shows) is unchanged; and (3) its
output file is still there with the size written. A context value that a template
names but that cannot be digested (an object) turns skipping off, so a stale page is
never kept.
"""

import contextlib
import dataclasses
import datetime as dt
import functools
import hashlib
import itertools
import logging
import marshal
import os
import weakref
from pathlib import Path

import jinja2
import pelican
from jinja2 import meta
from pelican.contents import Content
from pelican.urlwrappers import URLWrapper

from .files import (SIZE_STAMP, all_plain_relpaths, is_plain_relpath, load_marshalled,
                    output_file_path, replace_atomically, stats_below)
from .settings import NOT_OUTPUT_SETTINGS

logger = logging.getLogger(__name__)

TEMPLATE_NAMES_CACHE = "dalil_template_names.marshal"


class NotDigestable(Exception):
    pass


# Shown by their repr: the same from build to build (subclasses too, checked after).
_REPR_TYPES = (int, float, bool, bytes, dt.date, dt.datetime)
_REPR_CLASSES = frozenset({type(None), *_REPR_TYPES})


def stable_repr(value, _open=None):
    """A repr that is the same from build to build, for plain data (and dataclasses of it)."""
    # Exact classes first, by identity: a key is mostly text and plain lists and dicts.
    cls = value.__class__
    if cls is str:
        # Its length, then the text as it is: a repr of text that is mostly Arabic took
        # 14 ns a character, most of an article's key.
        return f'"{len(value)}"{value}'
    if cls in _REPR_CLASSES:
        return repr(value)
    if isinstance(value, str):
        return f'{cls.__qualname__}"{len(value)}"{value}'
    if isinstance(value, _REPR_TYPES):
        return repr(value)
    _open = set() if _open is None else _open
    if id(value) in _open:
        raise NotDigestable("a cycle")
    _open.add(id(value))
    try:
        if isinstance(value, (list, tuple)):
            return "[" + ",".join([stable_repr(item, _open) for item in value]) + "]"
        if isinstance(value, (set, frozenset)):
            return "{" + ",".join(sorted([stable_repr(item, _open) for item in value])) + "}"
        if isinstance(value, dict):
            return "{" + ",".join([f"{stable_repr(k, _open)}:{stable_repr(v, _open)}" for k, v in
                                   sorted(value.items(), key=_repr_of_key)]) + "}"
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return type(value).__qualname__ + stable_repr(
                {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}, _open)
        # Pelican's pages and articles (the theme's menu lists the pages): what a template
        # can read of one follows from its source's metadata and HTML, and the settings.
        if isinstance(value, Content):
            return type(value).__qualname__ + stable_repr(
                {"source_path": value.source_path, "content": value._content,
                 "metadata": value.metadata, "url": value.url, "save_as": value.save_as,
                 "status": value.status}, _open)
        if isinstance(value, URLWrapper):
            return type(value).__qualname__ + stable_repr((value.name, value.slug, value.url))
    finally:
        _open.discard(id(value))
    raise NotDigestable(type(value).__name__)


def _repr_of_key(item):
    return repr(item[0])


def digest(data):
    """16-byte BLAKE2b of ``data``: text (as UTF-8) or bytes."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).digest()


# env -> {name: (source, parsed template, undeclared names)}: parsing is most of a
# digest's time, and the directory and Pelican's writer digest the same base templates.
_PARSED = weakref.WeakKeyDictionary()


def _parsed_templates(env, names, memo=None):
    """``name -> (source, undeclared names)`` of ``names`` and every template they extend,
    include or import. A template is parsed again only if its source changed; ``memo``
    maps a source's digest to its undeclared and referenced names, from earlier builds."""
    known = _PARSED.setdefault(env, {})
    parsed, todo = {}, list(names)
    while todo:
        name = todo.pop()
        if name in parsed:
            continue
        source = env.loader.get_source(env, name)[0]
        if name not in known or known[name][0] != source:
            key = digest(source)
            found = memo.get(key) if memo is not None else None
            if found is None:
                tree = env.parse(source)
                found = (sorted(meta.find_undeclared_variables(tree)),
                         [ref for ref in meta.find_referenced_templates(tree) if ref])
                if memo is not None:
                    memo[key] = found
            known[name] = (source, set(found[0]), found[1])
        parsed[name] = known[name][:2]
        todo.extend(known[name][2])
    return parsed


def _names_memo(env, context):
    """``(path, salt, memo)`` of the templates' names kept in CACHE_PATH (parsing the
    templates was a tenth of a one-edit rebuild at 10,000 listings), or None without the
    content cache. The salt: Jinja, the environment's syntax and extensions, the code."""
    if not context.get("CACHE_CONTENT") or not context.get("CACHE_PATH"):
        return None
    syntax = (jinja2.__version__, env.block_start_string, env.block_end_string,
              env.variable_start_string, env.variable_end_string, env.comment_start_string,
              env.comment_end_string, env.line_statement_prefix, env.line_comment_prefix,
              sorted(f"{type(ext).__module__}.{type(ext).__qualname__}" for ext in env.extensions.values()),
              _code_digests())
    salt, memo = digest(repr(syntax)), {}
    path = os.path.join(context["CACHE_PATH"], TEMPLATE_NAMES_CACHE)
    if context.get("LOAD_CONTENT_CACHE"):
        with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
            stored_salt, stored = load_marshalled(path)
            if stored_salt == salt:
                memo = stored
    return path, salt, memo


def undeclared_names(env, name):
    """The names template ``name`` takes from its context (none if it cannot be parsed:
    rendering it reports why)."""
    try:
        return _parsed_templates(env, [name])[name][1]
    except jinja2.TemplateError:
        return set()


def template_closure(env, names):
    """``names`` and every template they extend, include or import (only ``names`` if one
    cannot be parsed: rendering reports why)."""
    try:
        return sorted(_parsed_templates(env, names))
    except jinja2.TemplateError:
        return sorted(names)


def _code_files(code_parts=None):
    # ``code_parts``: the parts of the package (folder names) whose code makes the pages,
    # when other plugins reach them only through context values, which are digested
    # themselves; with Pelican's __init__. None: Pelican's own pages (articles) are made by
    # Pelican and reach every plugin's signals: all of both.
    package = Path(__file__).parent.parent
    roots = [package] if code_parts is None else [package / part for part in code_parts]
    yield from sorted(path for root in roots for path in root.rglob("*.py"))
    if code_parts is None:
        yield from sorted(Path(pelican.__file__).parent.glob("*.py"))
    else:
        yield Path(pelican.__file__)


@functools.lru_cache(maxsize=None)
def _code_digests(code_parts=None):
    """Once per process: the code that runs is the code that was loaded."""
    return tuple(f"{path}:{digest(path.read_text('utf-8', 'replace')).hex()}"
                 for path in _code_files(code_parts))


def template_digest(env, context, template_names, page_names, template_folders=(),
                    code_parts=None):
    """The digest of everything pages of ``template_names`` depend on besides what each
    page is given itself (``page_names``), or None: the templates, the code (of
    ``code_parts``, ``_code_files``), the settings and every context value the templates
    name."""
    parts = [pelican.__version__, jinja2.__version__]
    for folder in template_folders:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file():
                parts.append(f"{path}:{digest(path.read_text('utf-8', 'replace')).hex()}")
    parts += _code_digests(code_parts)
    for key in sorted(k for k in context if k.isupper() and k not in NOT_OUTPUT_SETTINGS):
        try:
            parts.append(f"{key}={stable_repr(context[key])}")
        except NotDigestable as kind:
            parts.append(f"{key}=<{kind}>")  # code objects: covered by the code digests
    names_memo = _names_memo(env, context)
    memo = names_memo[2] if names_memo else None
    known = len(memo) if memo is not None else 0
    try:
        parsed = _parsed_templates(env, template_names, memo)
    except jinja2.TemplateError as error:
        logger.debug("dalil: no page skipping: %s", error)
        return None
    if memo is not None and len(memo) > known:
        path, salt, _ = names_memo
        with contextlib.suppress(OSError):
            replace_atomically(path, marshal.dumps((salt, memo)))
    used = set()
    for name, (source, undeclared) in sorted(parsed.items()):
        used |= undeclared
        parts.append(f"{name}:{digest(source).hex()}")
    for name in sorted(used - set(page_names)):
        if name in context and not name.isupper():
            try:
                parts.append(f"{name}={stable_repr(context[name])}")
            except NotDigestable:
                logger.info("dalil: every page of %s is rendered: template value %r is not "
                            "plain data", ", ".join(template_names), name)
                return None
        elif name not in context:
            parts.append(f"{name}=<absent>")
    return digest("\n".join(parts))


def output_sizes(output_path, save_as_list):
    """``{save_as: size}`` of the files of ``save_as_list`` that are under ``output_path``
    (stamped together, ``stats_below``)."""
    # A path that needs normalising is given whole: dir_fd is ignored for an absolute one.
    paths = save_as_list if all_plain_relpaths(save_as_list) else [
        save_as if is_plain_relpath(save_as) else output_file_path(output_path, save_as)
        for save_as in save_as_list]
    return {save_as: size for save_as, size
            in zip(save_as_list, stats_below(output_path, paths, SIZE_STAMP))
            if size is not None}


def stored_pages(settings, name):
    """``(key, {save_as: (digest, size)})`` as the last build kept them in ``name``, or None."""
    if not (settings.get("CACHE_CONTENT") and settings.get("LOAD_CONTENT_CACHE")):
        return None
    try:
        key, pages = load_marshalled(os.path.join(settings["CACHE_PATH"], name))
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return key, pages


def stale_pages(output_path, pages):
    """The pages of ``pages`` (``{save_as: (digest, size)}``, as a build wrote them) whose
    file is no longer there with that size."""
    sizes = output_sizes(output_path, list(pages))
    return {save_as for save_as, (_, size) in pages.items() if sizes.get(save_as) != size}


def last_build_stale(settings, output_path, name):
    """``stale_pages`` of the pages the last build wrote (``stored_pages``, whatever its
    key): found ahead, by a worker while the build reads, which sends only these (mostly
    none) instead of the size of each page (100,000 sizes to load in the build)."""
    stored = stored_pages(settings, name)
    return set() if stored is None else stale_pages(output_path, stored[1])


class PageCache:
    """Digests and sizes of the pages written by the last build, in CACHE_PATH's file
    ``name``; ``stale``,
    when given, those of its pages whose files changed since (``last_build_stale``);
    ``stored``, when given, what ``stored_pages`` loaded ahead."""

    def __init__(self, settings, output_path, global_key, name, stale=None, stored=None):
        self.enabled = bool(settings.get("CACHE_CONTENT")) and global_key is not None
        self.path = os.path.join(settings["CACHE_PATH"], name)
        self.output_path = output_path
        self.global_key = global_key
        self.previous = {}
        self.current = {}
        self.stale = stale
        if self.enabled:
            stored = stored or stored_pages(settings, name)
            if stored is not None and stored[0] == global_key:
                self.previous = stored[1]

    def is_fresh(self, save_as, page_digest):
        """True if the page need not be rendered again."""
        return self.fresh([save_as], [page_digest])[0]

    def fresh(self, save_as_list, digests):
        """``is_fresh`` of each page of ``save_as_list``, whose digests are ``digests``: its
        digest is the one the last build wrote it from, and its file is still there with
        that size: 100,000 listings' pages in a rebuild, the few stale ones checked apart."""
        if self.stale is None:
            self.stale = stale_pages(self.output_path, self.previous)
        known = list(map(self.previous.get, save_as_list))  # (digest, size) as last written
        flags = [entry is not None and entry[0] == page_digest
                 for entry, page_digest in zip(known, digests)]
        if self.stale:
            flags = [flag and save_as not in self.stale for flag, save_as in zip(flags, save_as_list)]
        self.current.update(itertools.compress(zip(save_as_list, known), flags))
        return flags

    def store(self, save_as, page_digest, size):
        self.current[save_as] = (page_digest, size)

    def save(self):
        if not self.enabled:
            return
        replace_atomically(self.path, marshal.dumps((self.global_key, self.current)))
