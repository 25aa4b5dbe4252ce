"""Settings of the web-app files and pages, with their defaults (prefix ``DALIL_PWA_``)."""

from dataclasses import dataclass
from typing import ClassVar

from dalil.core.settings import read_settings, setting


@dataclass(frozen=True)
class PwaSettings:
    # Each language's own: below its folder in a site of several (dalil.core.languages).
    PAGES: ClassVar[tuple] = (
        "manifest_save_as", "saved_url", "saved_save_as", "compare_url", "compare_save_as",
        "offline_url", "offline_save_as")
    manifest_save_as: str = setting("manifest.webmanifest",
                                    "the web-app manifest (its URLs are relative to it)")
    # At the site's root, so the worker's scope is the whole site.
    sw_save_as: str = setting("sw.js", "the service worker; its folder is its scope, so keep "
                                       "it at the root")
    saved_url: str = setting("saved/", "the URL of the saved listings' page")
    saved_save_as: str = setting("saved/index.html", "where the saved listings' page is written")
    compare_url: str = setting("compare/", "the URL of the page comparing saved listings")
    compare_save_as: str = setting("compare/index.html", "where that page is written")
    offline_url: str = setting("offline/", "the URL of the offline page")
    offline_save_as: str = setting("offline/index.html", "where the offline page is written")
    name: str = setting("", "the installed app's name; `\"\"`: `SITENAME`")
    short_name: str = setting("", "the installed app's short name; `\"\"`: `SITENAME`")
    description: str = setting("", "the manifest's description; `\"\"`: the theme's "
                                    "description, in the build's language")
    theme_color: str = setting("#0b5d3b", "the theme's `--brand` (`theme/static/css/dalil.css`)")
    background_color: str = setting("#ffffff", "the theme's `--paper`")
    news_category: str = setting("news", "the Pelican category of the news shortcut")
    never_cache: tuple = setting(("build-info.json",),
                                 "paths (under `SITEURL`) the worker never caches (`sw.js` is "
                                 "never cached either)")
    max_pages: int = setting(200, "visited pages kept for offline use; the oldest go first")


def pwa_settings(settings):
    return read_settings(PwaSettings, settings, "DALIL_PWA_")
