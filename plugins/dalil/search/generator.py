"""Search and discovery: the search index and its schema, OpenSearch, /search/ and /random/."""

import logging
from pathlib import Path

from pelican.generators import Generator

from dalil.core.background import when_contexts_done
from dalil.core.i18n import N_, build_gettext, interface_settings
from dalil.core.languages import writes_site_files
from dalil.core.output import output_files
from dalil.core.pages import register_page
from dalil.core.search_settings import search_settings
from dalil.core.templates import add_plugin_templates
from dalil.core.urls import root_path
from dalil.directory.model import CONTEXT_KEY as DIRECTORY_KEY
from dalil.directory.settings import build_workers

from .chunked import ChunkedIndex, EntriesOfTexts, serialise_chunk
from .index import index_key, index_parts, serialised_texts
from .opensearch import SHORT_NAME_MAX, opensearch_xml
from .schema import head_schema, part_schema, search_index_schema, serialise_schema

logger = logging.getLogger(__name__)

TEMPLATES_DIR = Path(__file__).parent / "templates"
# Read by base.html to link the OpenSearch description from every page.
OPENSEARCH_CONTEXT_KEY = "dalil_opensearch"
# Read by category and city pages for their scoped search box.
SEARCH_URL_CONTEXT_KEY = "dalil_search_url"
ENTRIES_MEMO = "dalil_search_entries.marshal"
ENTRIES_PURPOSE = "search entries' JSON and its digest, by part"
PARTS_MEMO = "dalil_search_chunked_parts.marshal"
PARTS_PURPOSE = "the names of the page index's parts"
# Parts precompressed together: each file takes two threads.
PRECOMPRESS_BATCH = 16


def part_path(folder, name):
    """Where a part of the page index is written: beside its head."""
    return f"{folder}/{name}.json" if folder else f"{name}.json"


def precompress_in_batches(files, paths):
    """Their .br and .gz copies, a batch at a time: a batch's copies are made side by
    side, one thread each."""
    for start in range(0, len(paths), PRECOMPRESS_BATCH):
        files.precompress(*paths[start:start + PRECOMPRESS_BATCH])


class SearchGenerator(Generator):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        add_plugin_templates(self, TEMPLATES_DIR)
        self.config = search_settings(self.settings)
        self.short_name = self._short_name()
        when_contexts_done(self, self._start_data_files)

    def _short_name(self):
        name = self.config.opensearch_short_name or self.settings.get("SITENAME", "")
        if len(name) > SHORT_NAME_MAX:
            logger.warning("dalil.search: OpenSearch short name %r is longer than %d characters; "
                           "set DALIL_SEARCH_OPENSEARCH_SHORT_NAME", name, SHORT_NAME_MAX)
        return name[:SHORT_NAME_MAX]

    @property
    def opensearch_enabled(self):
        # The description's template points at the search page: no page, no description.
        return bool(self.config.opensearch_save_as and self.config.page_save_as)

    def generate_context(self):
        cfg = self.config
        if cfg.page_save_as:
            register_page(self.context, cfg.page_url, N_("Search"))
            if cfg.index_save_as:
                self.context[SEARCH_URL_CONTEXT_KEY] = cfg.page_url
        if cfg.random_save_as:
            register_page(self.context, cfg.random_url, N_("Discover a random listing"))
        if self.opensearch_enabled:
            self.context[OPENSEARCH_CONTEXT_KEY] = {"url": cfg.opensearch_save_as,
                                                    "title": self.short_name}

    def _start_data_files(self):
        files = output_files(self.context)
        if not writes_site_files(self.settings):
            self._write_opensearch(files)  # the first language's build writes the rest
            return
        # Made from the contexts, and nothing else in the build reads them: with a second
        # core they are written beside all the pages.
        directory = self.context.get(DIRECTORY_KEY)
        files.in_background(lambda: self._write_data_files(files, directory),
                            forked=build_workers(self.settings) > 1, rank=1)

    def generate_output(self, writer):
        cfg = self.config
        directory = self.context.get(DIRECTORY_KEY)
        if (cfg.page_save_as or cfg.random_save_as) and not cfg.index_save_as:
            logger.warning("dalil.search: the search and random pages need the search index; "
                           "DALIL_SEARCH_INDEX_SAVE_AS is empty")
        pages = {"index_url": root_path(cfg.index_save_as),
                 "page_index_url": root_path(cfg.page_index_save_as), "search_url": cfg.page_url,
                 "random_url": cfg.random_url, "result_limit": int(cfg.result_limit),
                 "facet_categories": directory.categories if directory else [],
                 "facet_cities": directory.cities if directory else []}
        if cfg.page_save_as:
            writer.write_file(cfg.page_save_as, self.get_template("search/search"), self.context,
                              **pages)
        if cfg.random_save_as:
            writer.write_file(cfg.random_save_as, self.get_template("search/random"),
                              self.context, **pages)

    def _write_data_files(self, files, directory):
        """The index, the page index in parts, their schemas and the OpenSearch description."""
        cfg = self.config
        siteurl = self.settings.get("SITEURL", "")
        if cfg.index_save_as:
            if directory is None:
                logger.warning("dalil.search: no directory model in the context; the search "
                               "index lists no listing (add dalil.directory to PLUGINS)")
            # Each part of the listings' entries is kept for the next build as its JSON,
            # which makes those of changed listings' parts only.
            used = {}
            parts = index_parts(directory, self.context.get("articles", []),
                                self.context.get("pages", []),
                                files.load_derived(ENTRIES_MEMO, ENTRIES_PURPOSE), used)
            files.save_derived(ENTRIES_MEMO, ENTRIES_PURPOSE, used)
            del used
            texts = [text for text, _ in parts]
            key = index_key(parts)
            if not files.keep_if_current(cfg.index_save_as, key):
                # Written a part at a time: the index is never one string in memory.
                with files.open(cfg.index_save_as, "wb", key=key) as handle:
                    for piece in serialised_texts(texts, per_piece=1):
                        handle.write(piece)
            if cfg.chunked_save_as:
                self._write_chunked(files, texts, key)
            del parts, texts
            files.precompress(cfg.index_save_as)
        if cfg.schema_save_as:
            files.write(cfg.schema_save_as,
                        serialise_schema(search_index_schema(siteurl, cfg.schema_save_as)))
        if cfg.head_schema_save_as:
            files.write(cfg.head_schema_save_as, serialise_schema(
                head_schema(siteurl, cfg.head_schema_save_as)))
        if cfg.part_schema_save_as:
            files.write(cfg.part_schema_save_as, serialise_schema(
                part_schema(siteurl, cfg.part_schema_save_as)))
        self._write_opensearch(files)

    def _write_chunked(self, files, texts, key):
        """The page index in parts, from the index's bytes alone (``texts``, as
        ``index_parts`` makes them): kept while they are (the names of its parts are
        remembered for that). A part whose bytes did not change is not written again."""
        head = self.config.chunked_save_as
        folder = head.rpartition("/")[0]
        names = files.load_derived(PARTS_MEMO, PARTS_PURPOSE)
        paths = [head] + [part_path(folder, name) for name in names or ()]
        # Written by the last build from the same index: kept (with their copies).
        stale = {path for path, _ in files.keep_current([(path, key) for path in paths])}
        kept = set(paths) - stale if names is not None else set()
        if names is not None and not stale:
            precompress_in_batches(files, paths)
            return
        chunked = ChunkedIndex(EntriesOfTexts(texts), self.config.part_size)
        if head not in kept:
            files.write_keyed(head, key, serialise_chunk(chunked.head()))
        names, batch = [], [head]
        for name, data in chunked.parts():
            names.append(name)
            batch.append(part_path(folder, name))
            if batch[-1] not in kept:
                files.write_keyed(batch[-1], key, serialise_chunk(data))
            if len(batch) >= PRECOMPRESS_BATCH:
                precompress_in_batches(files, batch)
                batch = []
        precompress_in_batches(files, batch)
        files.save_derived(PARTS_MEMO, PARTS_PURPOSE, names)

    def _write_opensearch(self, files):
        """Each language's OpenSearch description (its search page's)."""
        cfg = self.config
        if not self.opensearch_enabled:
            return
        siteurl = self.settings.get("SITEURL", "")
        sitename = self.settings.get("SITENAME", "")
        gettext = build_gettext(self.context)
        description = cfg.opensearch_description or gettext(
            N_("Search %(site)s: businesses, categories, cities and news")) % {"site": sitename}
        files.write(cfg.opensearch_save_as, opensearch_xml(
            siteurl=siteurl, short_name=self.short_name, description=description,
            page_url=cfg.page_url, self_url=cfg.opensearch_save_as,
            image=cfg.opensearch_image, image_size=cfg.opensearch_image_size,
            language=interface_settings(self.settings).lang, example=gettext(N_("restaurant"))))
