"""Settings of search and discovery, with their defaults (prefix ``DALIL_SEARCH_``): in core,
since the directory (its "near me" index), the PWA and the checks read them too."""

from dataclasses import dataclass
from typing import ClassVar

from .settings import read_settings


@dataclass(frozen=True)
class SearchSettings:
    # Each language's own: below its folder in a site of several (dalil.core.languages).
    PAGES: ClassVar[tuple] = (
        "opensearch_save_as", "page_url", "page_save_as", "random_url", "random_save_as")
    index_save_as: str = "search-index.json"
    schema_save_as: str = "schemas/search-index.schema.json"
    # The search page's index: the same entries as flat integer columns (prepared.py).
    prepared_save_as: str = "search/prepared-index.json"
    prepared_schema_save_as: str = "schemas/search-prepared-index.schema.json"
    # The prepared index's phones: fetched after it, so that they add nothing to the
    # bytes before the first results.
    phones_save_as: str = "search/phones.json"
    phones_schema_save_as: str = "schemas/search-phones.schema.json"
    opensearch_save_as: str = "opensearch.xml"
    # "" means SITENAME; OpenSearch allows at most 16 characters.
    opensearch_short_name: str = ""
    opensearch_description: str = ""
    opensearch_image: str = "theme/icons/icon.svg"  # relative to SITEURL
    opensearch_image_size: int = 64
    page_url: str = "search/"
    page_save_as: str = "search/index.html"
    random_url: str = "random/"
    random_save_as: str = "random/index.html"
    # Results shown at once on the search page; a button shows as many more.
    result_limit: int = 20

    @property
    def page_index_save_as(self):
        """The index the search page's worker loads: the prepared one when it is written."""
        if self.index_save_as and self.prepared_save_as:
            return self.prepared_save_as
        return self.index_save_as

    @property
    def page_phones_save_as(self):
        """The phones the search page fetches after the prepared index, when both are
        written ("" otherwise: the full index holds them)."""
        return self.phones_save_as if self.page_index_save_as == self.prepared_save_as else ""


def search_settings(settings):
    return read_settings(SearchSettings, settings, "DALIL_SEARCH_")
