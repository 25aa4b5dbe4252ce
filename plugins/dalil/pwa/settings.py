"""Settings of the web-app files and pages, with their defaults (prefix ``DALIL_PWA_``)."""

from dataclasses import dataclass
from typing import ClassVar

from dalil.core.settings import read_settings


@dataclass(frozen=True)
class PwaSettings:
    # Each language's own: below its folder in a site of several (dalil.core.languages).
    PAGES: ClassVar[tuple] = (
        "manifest_save_as", "saved_url", "saved_save_as", "compare_url", "compare_save_as",
        "offline_url", "offline_save_as")
    manifest_save_as: str = "manifest.webmanifest"
    # At the site's root, so the worker's scope is the whole site.
    sw_save_as: str = "sw.js"
    saved_url: str = "saved/"
    saved_save_as: str = "saved/index.html"
    compare_url: str = "compare/"
    compare_save_as: str = "compare/index.html"
    offline_url: str = "offline/"
    offline_save_as: str = "offline/index.html"
    name: str = ""  # "" means SITENAME
    short_name: str = ""  # "" means SITENAME
    description: str = ""  # "" means the theme's description, in the build's language
    # --brand and --paper of theme/static/css/dalil.css
    theme_color: str = "#0b5d3b"
    background_color: str = "#ffffff"
    # The Pelican category whose page is the "news" shortcut.
    news_category: str = "news"
    # Root-relative paths (under SITEURL) whose responses the worker never caches.
    never_cache: tuple = ("build-info.json",)
    # Visited pages kept for offline use; the oldest go first.
    max_pages: int = 200


def pwa_settings(settings):
    return read_settings(PwaSettings, settings, "DALIL_PWA_")
