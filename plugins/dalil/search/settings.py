"""Settings of search and discovery, with their defaults (prefix ``DALIL_SEARCH_``)."""

from dataclasses import dataclass

from dalil.core.settings import read_settings


@dataclass(frozen=True)
class SearchSettings:
    index_save_as: str = "search-index.json"
    schema_save_as: str = "schemas/search-index.schema.json"
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


def search_settings(settings):
    return read_settings(SearchSettings, settings, "DALIL_SEARCH_")
