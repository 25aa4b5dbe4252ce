"""Settings of the directory, with their defaults (prefix ``DALIL_DIRECTORY_``)."""

from dataclasses import dataclass
from typing import ClassVar

from dalil.core.parallel import worker_count
from dalil.core.settings import read_settings


@dataclass(frozen=True)
class DirectorySettings:
    # Each language's own: below its folder in a site of several (dalil.core.languages).
    PAGES: ClassVar[tuple] = (
        "listing_url", "listing_save_as", "listing_draft_url", "listing_draft_save_as",
        "category_url", "category_save_as", "city_url", "city_save_as", "index_url",
        "index_save_as", "not_found_save_as")
    listing_paths: tuple = ("listings",)
    category_paths: tuple = ("categories",)
    city_paths: tuple = ("cities",)
    listing_url: str = "directory/listing/{slug}/"
    listing_save_as: str = "directory/listing/{slug}/index.html"
    listing_draft_url: str = "drafts/listing/{slug}/"
    listing_draft_save_as: str = "drafts/listing/{slug}/index.html"
    category_url: str = "directory/category/{slug}/"
    category_save_as: str = "directory/category/{slug}/index.html"
    city_url: str = "directory/city/{slug}/"
    city_save_as: str = "directory/city/{slug}/index.html"
    index_url: str = "directory/"
    index_save_as: str = "directory/index.html"
    # Page N >= 2 of a category or city: appended to its URL.
    page_url: str = "page/{number}/"
    per_page: int = 24
    recent_count: int = 8
    not_found_save_as: tuple = ("404/index.html", "404.html")
    default_country: str = ""
    # Longest Title, Name_en or Name_fr of a listing, category or city, in characters.
    max_name_length: int = 200
    # Processes that read and render listings: 0 = one per core, 1 = serial.
    workers: int = 0


def directory_settings(settings):
    return read_settings(DirectorySettings, settings, "DALIL_DIRECTORY_")


def build_workers(settings):
    """The processes a build may use (``DALIL_DIRECTORY_WORKERS``): more than one lets
    the data files be written in forked processes beside the pages."""
    return worker_count(directory_settings(settings).workers)
