"""Settings of the directory, with their defaults (prefix ``DALIL_DIRECTORY_``)."""

from dataclasses import dataclass
from typing import ClassVar

from dalil.core.parallel import worker_count
from dalil.core.settings import read_settings, setting


@dataclass(frozen=True)
class DirectorySettings:
    # Each language's own: below its folder in a site of several (dalil.core.languages).
    PAGES: ClassVar[tuple] = (
        "listing_url", "listing_save_as", "listing_draft_url", "listing_draft_save_as",
        "category_url", "category_save_as", "city_url", "city_save_as", "index_url",
        "index_save_as", "not_found_save_as")
    listing_paths: tuple = setting(("listings",), "folders of listings, under `PATH`")
    category_paths: tuple = setting(("categories",), "folders of categories, under `PATH`")
    city_paths: tuple = setting(("cities",), "folders of cities, under `PATH`")
    listing_url: str = setting("directory/listing/{slug}/", "the URL of a listing's page")
    listing_save_as: str = setting("directory/listing/{slug}/index.html",
                                   "where a listing's page is written")
    listing_draft_url: str = setting("drafts/listing/{slug}/",
                                     "the URL of a draft listing's preview")
    listing_draft_save_as: str = setting("drafts/listing/{slug}/index.html",
                                         "where a draft listing's preview is written")
    category_url: str = setting("directory/category/{slug}/", "the URL of a category's page")
    category_save_as: str = setting("directory/category/{slug}/index.html",
                                    "where a category's page is written")
    city_url: str = setting("directory/city/{slug}/", "the URL of a city's page")
    city_save_as: str = setting("directory/city/{slug}/index.html",
                                "where a city's page is written")
    index_url: str = setting("directory/", "the URL of the directory index")
    index_save_as: str = setting("directory/index.html", "where the directory index is written")
    page_url: str = setting("page/{number}/",
                            "page 2 and on of a category or city, after its URL")
    per_page: int = setting(24, "listings per category or city page")
    recent_count: int = setting(8, "recent listings on the home page")
    not_found_save_as: tuple = setting(("404/index.html", "404.html"), "the not-found pages")
    default_country: str = setting("", "country of a listing that names none")
    max_name_length: int = setting(
        200, "most characters in a listing's, category's or city's `Title`, `Name_en` or "
             "`Name_fr` (a longer one is a content error)")
    workers: int = setting(
        0, "processes that read and render listings, and that write the data files beside "
           "them (the exports and vCards, the search index, the sitemaps; one process per "
           "core at most): `0` one per core, `1` serial (the output is the same)")


def directory_settings(settings):
    return read_settings(DirectorySettings, settings, "DALIL_DIRECTORY_")


def build_workers(settings):
    """The processes a build may use (``DALIL_DIRECTORY_WORKERS``): more than one lets
    the data files be written in forked processes beside the pages."""
    return worker_count(directory_settings(settings).workers)
