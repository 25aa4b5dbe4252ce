"""The directory generator: reads listings, categories and cities; writes their pages. Its
parts: reading the sources (``reading``), the model (``assembly``), the pages (``rendering``)."""

import logging
import os
import time
from pathlib import Path

from pelican import signals
from pelican.generators import Generator
from pelican.readers import Readers

from dalil.core.dates import build_time
from dalil.core.errors import ContentErrors
from dalil.core.i18n import N_, content_lang, local_name_field
from dalil.core.languages import build_other_languages, language_record
from dalil.core.memory import kept_for_the_build, leave_build_to_exit
from dalil.core.output import CONTEXT_KEY as OUTPUT_FILES_KEY
from dalil.core.output import output_files
from dalil.core.pages import register_page
from dalil.core.parallel import ITEMS_PER_FRESH_WORKER, worker_count
from dalil.core.record import retire_leftovers
from dalil.core.search_settings import search_settings
from dalil.core.settings import BUILD_MEMORY_KEY
from dalil.core.templates import add_plugin_templates
from dalil.core.urls import root_path
from dalil.core.writer import DalilWriter

from .assembly import Assembly
from .hours import utc_offsets, utc_offsets_text
from .model import CONTEXT_KEY
from .progress import print_summary
from .reader import LeanMarkdownReader
from .reading import Reading, source_cache
from .rendering import Rendering
from .settings import directory_settings

logger = logging.getLogger(__name__)

TEMPLATES_DIR = Path(__file__).parent / "templates"
UTC_OFFSETS_KEY = "dalil_utc_offsets"


class DirectoryGenerator(Reading, Assembly, Rendering, Generator):
    """Pelican's generator of the directory: its model in the context, its pages written."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Pelican's article defaults (category from the folder name, date from the
        # file name, DEFAULT_METADATA) must not invent listing metadata.
        reader_settings = dict(self.settings, USE_FOLDER_AS_CATEGORY=False, DEFAULT_METADATA={},
                               DEFAULT_DATE=None, CATEGORY_SAVE_AS="", FILENAME_METADATA="",
                               PATH_METADATA="")
        self.readers = Readers(reader_settings, "dalil-directory")
        add_plugin_templates(self, TEMPLATES_DIR)
        self.config = directory_settings(self.settings)
        self.directory = None
        self.page_listings = ()
        self.page_variables = {}
        self.writer = None
        self.cards = None  # id(listing) -> its card, while term pages wait for them
        self.card_macro = None
        self.workers = worker_count(self.config.workers)
        self.lean_reader = LeanMarkdownReader(reader_settings)
        self.near_me_index = near_me_index(self.settings)
        # The listings' and terms' names in the pages' language: their ``name_fr``, say.
        self.local_name_field = local_name_field(self.settings)
        self.source_cache = source_cache(self.settings)
        self.own_spill = None  # the spill this build made, removed as it ends (see spill)
        self.content_folder = os.path.basename(os.path.abspath(self.path))
        self.collator = None  # loaded on first use, dropped once the listings are sorted
        self.sort_keys = {}  # id(listing or term) -> collation key of its name
        self.known_sort_keys = {}  # name -> collation key, from the cache
        self.unloaded_texts = {}  # listing -> its record: its HTML still in the cache
        self.content_language = content_lang(self.settings)  # listings' own
        self.translations = {}  # listing -> its description's translation this build shows
        self._sizing = None  # (pool, result) of a worker measuring the last build's pages
        self._stored_pages = None  # the last build's page digests, loaded ahead (stored_pages)
        self._stale_pages = None  # the pages _sizing found changed, once taken (_measured_stale)
        self._ignored = None  # IGNORE_FILES as one compiled expression (see _include_name)
        self.cached_texts = self.source_cache.texts
        self.sources_read = 0
        self.started = time.perf_counter()
        self.stats = {"rendered": 0, "skipped": 0, "changed": 0}
        self.removed = 0  # files of the last build this one did not produce, removed
        # Bound to this build; the generator holds it, so blinker's weak reference lives.
        self._summary_receiver = self._print_summary
        signals.finalized.connect(self._summary_receiver)
        self._reading = self._start_reading([("category", self.config.category_paths),
                                             ("city", self.config.city_paths),
                                             ("listing", self.config.listing_paths)])
        # Nothing for the workers to read (a cached rebuild): the model is made now, before
        # the other generators make their contexts, so that the exports can start beside them.
        pool, holes = self._reading[:2]
        if not pool.in_workers(len(holes)):
            self._make_context()

    def generate_context(self):
        if self.directory is None:
            self._make_context()

    def _make_context(self):
        cfg = self.config
        errors = ContentErrors()
        records = self._finish_reading(errors)
        with kept_for_the_build():
            self.directory = self._make_model(records, errors)
            del records
        self.readers.save_cache()
        if self.sources_read > ITEMS_PER_FRESH_WORKER:
            # Their pages are rendered again: the data writers fork once they are.
            output_files(self.context).hold_background()
        if BUILD_MEMORY_KEY in self.settings:
            self.source_cache.save()  # kept in memory for the next livereload build
        else:
            # Nothing in this build reads it again: written beside the pages, by a forked
            # writer. It stays until the build ends: freed here, its objects would be
            # written to (counts, the allocator's lists) on pages the writer shares, each
            # page copied (0.1 s at 10,000 listings, a second at 100,000).
            # Last: only the next build needs it.
            output_files(self.context).in_background(self.source_cache.save,
                                                     forked=self.workers > 1, rank=-1)
        self.context[CONTEXT_KEY] = self.directory
        # Listing pages tell "open now" with the build's zone data (see hours.utc_offsets).
        self.context[UTC_OFFSETS_KEY] = utc_offsets_text(
            utc_offsets(self.settings.get("TIMEZONE") or "UTC", build_time().year))
        register_page(self.context, cfg.index_url, N_("Directory"))
        for save_as in cfg.not_found_save_as:
            url = save_as[: -len("index.html")] if save_as.endswith("/index.html") else save_as
            register_page(self.context, url, N_("Page not found"), indexable=False)
        errors.report(logger)

    def _print_summary(self, pelican_object):
        signals.finalized.disconnect(self._summary_receiver)
        files = self.context.get(OUTPUT_FILES_KEY)
        if files is not None:
            files.run_untaken()
            files.save_memo()
        if isinstance(self.writer, DalilWriter):
            self.writer_counts = (self.writer.changed, self.writer.unchanged)
            # Every writer joined: what the build produced is known, and only now.
            self.removed = retire_leftovers(output_files(self.context), self.writer,
                                            self.context.get("staticfiles", ()),
                                            **language_record(self.settings))
        print_summary(self, time.perf_counter() - self.started)
        leave_build_to_exit()
        build_other_languages(pelican_object)  # which read this build's spill
        if self.own_spill is not None:
            self.own_spill.remove()


def near_me_index(settings):
    """The search index's path, which "near me" on category and city pages reads; ``""``
    when the search plugin does not write it."""
    plugins = {str(getattr(plugin, "__name__", plugin)) for plugin in settings.get("PLUGINS") or ()}
    if "dalil.search" not in plugins:
        return ""
    save_as = search_settings(settings).index_save_as
    return root_path(save_as) if save_as else ""


