"""Settings of the web-app files and pages, with their defaults (prefix ``DALIL_PWA_``)."""

from dataclasses import dataclass

from dalil.core.settings import read_settings


@dataclass(frozen=True)
class PwaSettings:
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
    description: str = "دليل الأعمال والخدمات: ابحث عن المطاعم والصيدليات والفنادق وغيرها في مدن المغرب."
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
