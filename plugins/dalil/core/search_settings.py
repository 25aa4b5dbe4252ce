"""Settings of search and discovery, with their defaults (prefix ``DALIL_SEARCH_``): in core,
since the directory (its "near me" index), the PWA and the checks read them too."""

from dataclasses import dataclass
from typing import ClassVar

from .settings import read_settings, setting


@dataclass(frozen=True)
class SearchSettings:
    # Each language's own: below its folder in a site of several (dalil.core.languages).
    PAGES: ClassVar[tuple] = (
        "opensearch_save_as", "page_url", "page_save_as", "random_url", "random_save_as")
    index_save_as: str = setting("search-index.json",
                                 "the search index (the search and random pages need it)")
    schema_save_as: str = setting("schemas/search-index.schema.json", "the index's JSON Schema")
    chunked_save_as: str = setting(
        "search/index/head.json",
        "the search page's own index, in parts: its head here, its parts beside it "
        "(`{name}.json`); the page loads the head, then the parts its query needs "
        "(`\"\"`: the page loads the search index whole)")
    head_schema_save_as: str = setting("schemas/search-index-head.schema.json",
                                       "the JSON Schema of the page index's head")
    part_schema_save_as: str = setting("schemas/search-index-part.schema.json",
                                       "the JSON Schema of the page index's parts")
    part_size: int = setting(4000, "about how many entries a part of the page index holds "
                                   "(a token's entries are never split)")
    opensearch_save_as: str = setting(
        "opensearch.xml", "the OpenSearch description (written only with the search page)")
    opensearch_short_name: str = setting(
        "", "its `ShortName`, at most 16 characters (a longer one is cut, with a warning); "
            "`\"\"`: `SITENAME`")
    opensearch_description: str = setting(
        "", "its `Description`; `\"\"`: a sentence of the catalog, in the build's language")
    opensearch_image: str = setting("theme/icons/icon.svg", "its icon, relative to `SITEURL`")
    opensearch_image_size: int = setting(64, "the icon's size in pixels")
    page_url: str = setting("search/", "the URL of the search page")
    page_save_as: str = setting("search/index.html", "where the search page is written")
    random_url: str = setting("random/", "the URL of the random-discovery page")
    random_save_as: str = setting("random/index.html", "where the random page is written")
    result_limit: int = setting(20, "results shown at once; a button shows as many more")

    @property
    def page_index_save_as(self):
        """The index the search page's worker loads: the head of the index in parts when
        it is written."""
        if self.index_save_as and self.chunked_save_as:
            return self.chunked_save_as
        return self.index_save_as


def search_settings(settings):
    return read_settings(SearchSettings, settings, "DALIL_SEARCH_")
