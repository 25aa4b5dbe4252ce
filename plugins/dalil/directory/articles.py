"""Slug rules for Pelican's own content: news and blog articles, and pages."""

import logging
import os
import weakref
from collections import defaultdict

from pelican import signals
from pelican.contents import Content
from pelican.generators import ArticlesGenerator
from pelican.urlwrappers import Category, URLWrapper
from pelican.utils import order_content, process_translations

from dalil.core.background import fork_available
from dalil.core.dates import build_time
from dalil.core.errors import ContentErrors
from dalil.core.i18n import content_lang
from dalil.core.output import output_files
from dalil.core.writer import CONTENT_PAGES_CACHES, DalilWriter
from dalil.core.slugs import SLUG_RULE, is_valid_slug
from dalil.core.text import html_text, plain_text, strip_unsafe

from .settings import build_workers, directory_settings

logger = logging.getLogger(__name__)


def _display_path(base, source_path):
    """``source_path`` relative to ``base``: cut from it when below it (no ``relpath``
    for each of 3,000 articles)."""
    prefix = base.rstrip(os.sep) + os.sep
    if source_path.startswith(prefix) and os.path.normpath(source_path) == source_path:
        return source_path[len(prefix):].replace(os.sep, "/")
    return os.path.relpath(source_path, base).replace(os.sep, "/")


def check_slugs(generator, items, kind_of):
    """Every slug of the form, and unique within its kind (``news``, ``blog``, ``page``)
    and language: a file with another's slug and another ``Lang`` is its translation."""
    errors = ContentErrors()
    seen = defaultdict(dict)
    base = os.path.dirname(os.path.abspath(generator.path))
    for item in sorted(items, key=lambda item: item.source_path):
        where = _display_path(base, item.source_path)
        kind = kind_of(item)
        lang = getattr(item, "lang", None)
        if not is_valid_slug(item.slug):
            errors.add(where, "Slug %r is not of the form %s", item.slug, SLUG_RULE)
        elif item.slug in seen[kind, lang]:
            errors.add(where, "duplicate %s slug %r, also used by %s%s", kind, item.slug,
                       seen[kind, lang][item.slug], "" if lang is None else f" (Lang: {lang})")
        else:
            seen[kind, lang][item.slug] = where
    errors.report(logger)


def claim_directory_folders(pelican):
    """``initialized``: listing, category and city files are the directory's, never
    Pelican articles or pages, even where ``ARTICLE_PATHS`` is the whole content
    folder (Pelican's default, and so ``pelican-quickstart``'s)."""
    settings = pelican.settings
    config = directory_settings(settings)
    folders = [*config.listing_paths, *config.category_paths, *config.city_paths]
    for key in ("ARTICLE_EXCLUDES", "PAGE_EXCLUDES"):
        excluded = list(settings.get(key) or [])
        settings[key] = excluded + [folder for folder in folders if folder not in excluded]


def tell_languages(generator, metadata):
    """``article_generator_context``, ``page_generator_context``: an article or page
    without ``Lang`` is in the language the content is written in, not in the build's
    ``DEFAULT_LANG`` (Pelican's default), which in another language's build is that of its
    translations: the original is then told from them, and shown where there is none.
    One in a third language is a translation (Pelican's ``Translation``) this build does
    not show: without one in the build's language, Pelican would show every version."""
    settings = generator.settings
    written_in = content_lang(settings)
    lang = metadata.setdefault("lang", written_in)
    if lang not in (written_in, settings.get("DEFAULT_LANG")):
        metadata.setdefault("translation", "true")


# generator -> {(wrapper class, name): the wrapper its content shares}
_SHARED_WRAPPERS = weakref.WeakKeyDictionary()


def share_url_wrappers(generator, metadata):
    """``article_generator_context``, ``page_generator_context``: one ``Category``,
    ``Author`` or ``Tag`` for each name across a generator's content. Pelican's readers
    make one for each article, each of which slugifies its name again: 6,000 slugifies a
    build for 3,000 articles. They compare by slug, so that Pelican's grouping by
    category, tag and author is the same."""
    shared = _SHARED_WRAPPERS.setdefault(generator, {})

    def share(wrapper):
        return shared.setdefault((type(wrapper), wrapper.name), wrapper)

    for key, value in metadata.items():
        if isinstance(value, URLWrapper):
            metadata[key] = share(value)
        elif isinstance(value, list) and any(isinstance(item, URLWrapper) for item in value):
            metadata[key] = [share(item) if isinstance(item, URLWrapper) else item
                             for item in value]


# The generator's lists of articles by status: originals, then translations.
_ARTICLE_LISTS = {"published": ("articles", "translations"),
                  "hidden": ("hidden_articles", "hidden_translations"),
                  "draft": ("drafts", "drafts_translations")}


def wait_for_dates(generator):
    """``article_generator_pretaxonomy``: Pelican's ``WITH_FUTURE_DATES`` (off in
    ``dalil.conf``), by the build's time (``SOURCE_DATE_EPOCH`` when set) instead of the
    machine's clock Pelican reads, so that a build is reproducible: with it off, an article
    dated after the build time is a draft until then; otherwise, or once its date has
    come, it has the status its file gives (also when Pelican's clock made it a draft).
    Cached articles are decided again in each build."""
    waits = not generator.settings.get("WITH_FUTURE_DATES", True)
    now = build_time()
    by_status = {status: [] for status in _ARTICLE_LISTS}
    moved = False
    for status, names in _ARTICLE_LISTS.items():
        for article in (item for name in names for item in getattr(generator, name)):
            wanted = article.metadata.get("status") or article.default_status
            date = getattr(article, "date", None)
            if wanted != "draft" and waits and date is not None and date > now:
                wanted = "draft"
            if wanted not in by_status:  # a status Pelican refused: its own list keeps it
                wanted = status
            if wanted != status:
                article.status, moved = wanted, True
            by_status[wanted].append(article)
    if not moved:
        return
    settings = generator.settings
    for status, (originals, translations) in _ARTICLE_LISTS.items():
        found, translated = process_translations(
            by_status[status], translation_id=settings["ARTICLE_TRANSLATION_ID"])
        setattr(generator, originals, order_content(found, settings["ARTICLE_ORDER_BY"]))
        setattr(generator, translations, translated)


# The lists of the articles and pages a build shows (Pelican's originals), by status.
_SHOWN_LISTS = ("articles", "hidden_articles", "drafts", "pages", "hidden_pages", "draft_pages")


def show_at_own_urls(generator):
    """``article_generator_finalized``, ``page_generator_finalized``: Pelican gives an
    item not in ``DEFAULT_LANG`` a translation's URL and ``save_as`` (``*_LANG_URL``, ""
    in a language's build: not written). The items a build shows are its own pages, at
    their own URLs: its language's translations, and the originals it has none of."""
    for name in _SHOWN_LISTS:
        for item in getattr(generator, name, ()):
            item.in_default_lang = True


def check_article_slugs(generator):
    items = [*generator.articles, *generator.translations, *generator.drafts,
             *generator.drafts_translations, *generator.hidden_articles,
             *generator.hidden_translations]
    check_slugs(generator, items, lambda article: article.category.slug)


def check_page_slugs(generator):
    items = [*generator.pages, *generator.translations, *generator.hidden_pages,
             *generator.hidden_translations, *generator.draft_pages,
             *generator.draft_translations]
    check_slugs(generator, items, lambda page: "page")


def fix_content_urls(generator):
    """``article_generator_finalized``, ``page_generator_finalized``: each article's and
    page's URL, final once its generator has made its context, is kept as the
    ``override_url`` Pelican's ``Content.url`` returns as it is. Without it every read
    formats the URL from a copy of the metadata and a ``relpath`` of the source (about
    50 µs): the pages, feeds, search index and sitemaps read each one six times or more
    (3,000 articles at 100,000 listings: a second of CPU a build). ``override_save_as``
    would also make Pelican's writer take the page as an override, so ``save_as`` stays,
    and is kept beside it for Dalil's own reads (``content_save_as``)."""
    for name in ("articles", "translations", "drafts", "drafts_translations",
                 "hidden_articles", "hidden_translations", "pages", "hidden_pages",
                 "draft_pages", "draft_translations"):
        for item in getattr(generator, name, ()):
            if not hasattr(item, "override_url"):
                item.override_url = item.url
            setattr(item, _SAVE_AS_KEPT, item.save_as)


# The attribute in which ``fix_content_urls`` keeps an article's or page's ``save_as``.
_SAVE_AS_KEPT = "dalil_save_as"


def content_save_as(item):
    """``item.save_as``, as ``fix_content_urls`` kept it once its generator was done: Pelican
    formats it again on each read (11 µs; the sitemaps read 3,000 at 100,000 listings)."""
    kept = getattr(item, _SAVE_AS_KEPT, None)
    return item.save_as if kept is None else kept


class _ArticleList(list):
    """A list of articles whose ``in`` is a set lookup: Pelican's category, tag and author
    pages each keep the site's articles that are ``in`` theirs, a scan of the list for
    each (3,000 articles at 100,000 listings: 0.3 s a build). Articles compare by
    identity, as a list compares them."""

    def __contains__(self, item):
        if getattr(self, "_size", None) != len(self):  # made, or changed since
            self._ids, self._size = {id(article) for article in self}, len(self)
        return id(item) in self._ids


def index_taxonomy_articles(generator):
    """``article_generator_finalized``: each category's, tag's and author's articles as an
    ``_ArticleList``, in place, so that Pelican's context sees the same lists."""
    for name in ("categories", "authors"):
        pairs = getattr(generator, name, [])
        pairs[:] = [(term, _ArticleList(articles)) for term, articles in pairs]
    tags = getattr(generator, "tags", {})
    for tag, articles in tags.items():
        tags[tag] = _ArticleList(articles)


def publish_page_links(generator):
    """``page_generator_finalized``: the footer's links to the site's pages, as plain
    data, so that a page's digest notices a renamed page (Page objects it cannot read)."""
    generator.context["dalil_page_links"] = tuple(
        (page.url, plain_text(page.title), page.lang) for page in generator.pages)


def sanitize_content(instance):
    """Articles and pages get the listings' treatment: no script, style or control
    character of their content reaches a page (``content_object_init``)."""
    if not isinstance(getattr(instance, "_content", None), str):
        return  # static files
    where = instance.source_path or "content"
    if instance.source_path and instance.settings.get("PATH"):
        where = _display_path(os.path.dirname(os.path.abspath(instance.settings["PATH"])),
                              instance.source_path)
    instance._content = html_text(instance._content, where)
    if isinstance(instance.metadata.get("summary"), str):
        instance.metadata["summary"] = html_text(instance.metadata["summary"], where)
        instance._summary = instance.metadata["summary"]
    if isinstance(getattr(instance, "title", None), str):
        instance.title = strip_unsafe(instance.title)


class _KnownRelativeSourcePath:
    """An article's or page's ``get_relative_source_path``, its answer for its own source
    kept (see ``keep_relative_source_path``); picklable, as Pelican's generator-layer
    cache pickles the content."""

    __slots__ = ("content", "source_path", "relative")

    def __init__(self, content):
        self.content = content
        self.source_path, self.relative = content.source_path, content.relative_source_path

    def __call__(self, source_path=None):
        content = self.content
        source_path = source_path or content.source_path
        if source_path == self.source_path:
            return self.relative
        return type(content).get_relative_source_path(content, source_path)


def keep_relative_source_path(instance):
    """``content_object_init``: Pelican's ``Content`` works out its source's path below
    the content folder (two ``abspath`` and a ``relpath``, 11 µs) each time it formats its
    URL or ``save_as``, and once more for its generator: 15,000 times a build for
    3,000 articles. It keeps the answer it found as it was made."""
    if isinstance(getattr(instance, "relative_source_path", None), str) and instance.source_path:
        instance.get_relative_source_path = _KnownRelativeSourcePath(instance)


def empty_categories(settings, categories):
    """The article categories without an article that ``write_empty_categories`` writes,
    given the build's ``categories`` (Pelican's ``(category, articles)`` pairs)."""
    if not settings.get("CATEGORY_SAVE_AS"):
        return []
    present = {category.slug for category, _ in categories}
    # The theme's navigation links news and blog, whatever the folders are called.
    folders = [os.path.basename(path.rstrip("/")) for path in settings.get("ARTICLE_PATHS") or ()]
    empty = []
    for name in dict.fromkeys([*folders, "news", "blog"]):
        category = Category(name, settings)
        if not name or category.slug in present or not category.save_as:
            continue
        present.add(category.slug)
        empty.append(category)
    return empty


def write_empty_categories(generator, writer):
    """``/news/`` and ``/blog/`` exist before their first article: the navigation of every
    page and the manifest's shortcuts link them (``article_writer_finalized``)."""
    template = generator.get_template("category")
    for category in empty_categories(generator.settings, generator.categories):
        writer.write_file(category.save_as, template, generator.context, url=category.url,
                          category=category, articles=[], dates=[], template_name="category",
                          blog=True, page_name=category.page_name, all_articles=[])


def save_content_pages(generator, writer):
    """``article_writer_finalized``, ``page_writer_finalized``: the digests of the
    generator's articles or pages, for the next build."""
    if isinstance(writer, DalilWriter):
        writer.save_content_pages("article" if isinstance(generator, ArticlesGenerator) else "page")


# Signals sent as articles are written: with a receiver that is not Dalil's, which might
# keep what it is given in the build's process, the articles are written there.
_ARTICLE_WRITER_SIGNALS = (signals.article_writer_finalized, signals.content_written,
                           signals.feed_generated, signals.feed_written)


def write_articles_beside(generators):
    """``all_generators_finalized``: in a rebuild (the article pages' digests kept by the
    last build), Pelican's article output (its pages, feeds and the category, tag and
    author pages) is written by a forked process beside the build's own, which Dalil's
    writer then learns of. A one-listing rebuild at 100,000 listings lasts as long as its
    main process, which spent 0.3 to 0.5 s on 3,000 articles it mostly kept."""
    for generator in generators:
        if type(generator) is ArticlesGenerator and _may_write_beside(generator.settings):
            generator.generate_output = _written_beside(generator, generator.generate_output)


def _may_write_beside(settings):
    if not (settings.get("CACHE_CONTENT") and settings.get("LOAD_CONTENT_CACHE")
            and fork_available() and build_workers(settings) > 1):
        return False
    if not os.path.exists(os.path.join(settings["CACHE_PATH"], CONTENT_PAGES_CACHES["article"])):
        return False  # a first build: the pages are rendered, the work the workers share
    return all(_receiver_module(receiver).startswith("dalil.")
               for signal in _ARTICLE_WRITER_SIGNALS for receiver in signal.receivers.values())


def _receiver_module(receiver):
    if isinstance(receiver, weakref.ref):
        receiver = receiver()
    return getattr(receiver, "__module__", None) or ""


def _written_beside(generator, generate_output):
    def write_beside(writer):
        if not isinstance(writer, DalilWriter):
            return generate_output(writer)
        output_files(generator.context).in_background(lambda: generate_output(writer),
                                                      writer=writer, now=True)
    return write_beside


def forget_memoized_content(pelican_object):
    """``finalized``: Pelican memoizes each article's and page's HTML and summary on the
    ``Content`` class, keyed by the object, so every build's content, and through it the
    build's whole context and directory, stays alive in a process that builds again
    (``invoke livereload``): a 10,000-listing site grew by 15 MiB a rebuild."""
    for name in ("get_content", "get_summary"):
        cache = getattr(Content.__dict__.get(name), "cache", None)
        if isinstance(cache, dict):
            cache.clear()
