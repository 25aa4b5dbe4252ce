"""The web-app generator: manifest, service worker, saved, compare and offline pages."""

import dataclasses
import logging
from dataclasses import dataclass
from pathlib import Path

from pelican.generators import Generator

from dalil.core.dates import build_time, rfc3339_millis
from dalil.core.i18n import (N_, SITE_DESCRIPTION, build_gettext, interface_settings,
                             script_messages_save_as)
from dalil.core.languages import is_last_language, language_folders
from dalil.core.output import output_files
from dalil.core.pages import register_page, site_pages
from dalil.core.search_settings import search_settings
from dalil.core.settings import language_path
from dalil.core.templates import add_plugin_templates
from dalil.directory.articles import empty_categories
from dalil.directory.settings import directory_settings

from .manifest import ICONS, manifest_json
from .settings import pwa_settings
from .worker import theme_static_files, worker_script

logger = logging.getLogger(__name__)

TEMPLATES_DIR = Path(__file__).parent / "templates"
CONTEXT_KEY = "dalil_pwa"


@dataclass(frozen=True)
class PwaLinks:
    """What base.html needs on every page (URLs are absolute, or "" when turned off)."""

    manifest_url: str
    sw_url: str
    scope: str
    theme_color: str
    apple_touch_icon: str
    saved_url: str


class PwaGenerator(Generator):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        add_plugin_templates(self, TEMPLATES_DIR)
        self.config = pwa_settings(self.settings)
        # URLs that other capabilities own: the search page and index, the directory.
        search = search_settings(self.settings)
        self.search_url, self.search_index_url = search.page_url, search.index_save_as
        # Read by scripts, kept for offline use once fetched: the index, the search page's
        # own index and the folder of its parts (a path ending in "/": what is below it).
        parts_folder = search.page_index_save_as.rpartition("/")[0] + "/" if (
            search.page_index_save_as == search.chunked_save_as) else ""
        self.data_urls = tuple(dict.fromkeys(
            url for url in (search.index_save_as, search.page_index_save_as, parts_folder)
            if url and url != "/"))
        self.directory_url = directory_settings(self.settings).index_url

    def _url(self, url):
        return self.settings.get("SITEURL", "") + "/" + url

    def generate_context(self):
        cfg = self.config
        static_dir = self.settings.get("THEME_STATIC_DIR", "theme")
        pages = ((cfg.saved_url, cfg.saved_save_as, N_("Saved listings")),
                 (cfg.compare_url, cfg.compare_save_as, N_("Compare saved listings")),
                 (cfg.offline_url, cfg.offline_save_as, N_("Offline")))
        for url, save_as, title in pages:
            if save_as:
                register_page(self.context, url, title, indexable=False)
        self.context[CONTEXT_KEY] = PwaLinks(
            manifest_url=self._url(cfg.manifest_save_as) if cfg.manifest_save_as else "",
            sw_url=self._url(cfg.sw_save_as) if cfg.sw_save_as else "",
            scope=self._url(cfg.sw_save_as.rpartition("/")[0] + "/" if "/" in cfg.sw_save_as else ""),
            theme_color=cfg.theme_color,
            apple_touch_icon=self._url(f"{static_dir}/icons/apple-touch-icon.png"),
            saved_url=self._url(cfg.saved_url) if cfg.saved_save_as else "",
        )

    def generate_output(self, writer):
        cfg = self.config
        pages = {"saved": cfg.saved_save_as, "compare": cfg.compare_save_as,
                 "offline": cfg.offline_save_as}
        for name, save_as in pages.items():
            if save_as:
                writer.write_file(save_as, self.get_template(f"pwa/{name}"), self.context,
                                  noindex=True, pwa=cfg, search_index_url=self.search_index_url)
        static_files = theme_static_files(self.settings)
        files = output_files(self.context)
        if cfg.manifest_save_as:
            self._check_manifest_targets(static_files)
            description = cfg.description or build_gettext(self.context)(SITE_DESCRIPTION)
            files.write(cfg.manifest_save_as, manifest_json(
                self.settings, cfg, self._shortcuts(), interface_settings(self.settings),
                description, home=language_path(self.settings)))
        if cfg.sw_save_as and is_last_language(self.settings):
            # Each language's messages and offline page (the earlier builds of this run
            # wrote theirs); the fallback when offline is the first language's page.
            output = Path(self.output_path)
            own = language_path(self.settings)
            folders = language_folders(self.settings)
            messages = [script_messages_save_as(self.settings, lang) for lang, _ in folders]
            precache = [*static_files, *((path, output / path) for path in messages)]
            if cfg.offline_save_as:  # written above
                offline = [(folder + cfg.offline_url[len(own):],
                            folder + cfg.offline_save_as[len(own):]) for _, folder in folders]
                precache += [(url, output / save_as) for url, save_as in offline]
                cfg = dataclasses.replace(cfg, offline_url=offline[0][0])
            built_at = rfc3339_millis(build_time())
            files.write(cfg.sw_save_as,
                        worker_script(cfg, built_at, precache, self.data_urls))

    def _shortcuts(self):
        """(name, description, url, icon) of the manifest's four shortcuts."""
        cfg = self.config
        news_url = self.settings.get("CATEGORY_URL", "category/{slug}.html").format(
            slug=cfg.news_category)
        gettext = build_gettext(self.context)
        return [
            (gettext(name), gettext(description), url, icon)
            for name, description, url, icon in (
                (N_("Search"), N_("Search the directory"), self.search_url, "shortcut-search.png"),
                (N_("Directory"), N_("Every category and city"), self.directory_url,
                 "shortcut-directory.png"),
                (N_("News"), N_("Latest news"), news_url, "shortcut-news.png"),
                (N_("Saved"), N_("Listings you saved"), cfg.saved_url, "shortcut-saved.png"))
        ]

    def _check_manifest_targets(self, static_files):
        """Warn about an icon or a shortcut that would point at nothing in this build."""
        static_dir = self.settings.get("THEME_STATIC_DIR", "theme")
        known_files = {relpath for relpath, _ in static_files}
        icons = [icon for icon, *_ in ICONS] + [icon for *_, icon in self._shortcuts()]
        for icon in icons:
            if f"{static_dir}/icons/{icon}" not in known_files:
                logger.warning("dalil.pwa: the manifest names icon %s/icons/%s, which the theme "
                               "does not have", static_dir, icon)
        written = {page.url for page in site_pages(self.context)}
        categories = self.context.get("categories", ())
        written.update(category.url for category, _ in categories)
        # Categories without an article yet (news on a new site) are written all the same.
        written.update(category.url for category in empty_categories(self.settings, categories))
        for name, _, url, _ in self._shortcuts():
            if url not in written:
                logger.warning("dalil.pwa: the manifest's shortcut %s points to /%s, which this "
                               "build does not write", name, url)
