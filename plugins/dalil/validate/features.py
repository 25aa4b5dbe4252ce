"""Which outputs a build was asked to write, and where: read from its settings.

An output is on when its plugin is in ``PLUGINS`` and its ``*_SAVE_AS`` is not ``""``.
The path comes from the plugin's own settings class, so a site that moved a file is
validated where the file is; the interface's path is the fallback.
"""

import importlib
import logging
from dataclasses import dataclass

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Output:
    plugin: str  # the plugin that writes it, as named in PLUGINS
    loader: str  # "module:function" returning the plugin's settings object
    field: str  # the settings attribute holding the save-as path
    default: str  # the interface's path


OUTPUTS = {
    "search_index": Output("dalil.search", "dalil.core.search_settings:search_settings",
                           "index_save_as", "search-index.json"),
    "search_schema": Output("dalil.search", "dalil.core.search_settings:search_settings",
                            "schema_save_as", "schemas/search-index.schema.json"),
    "search_head": Output("dalil.search", "dalil.core.search_settings:search_settings",
                          "chunked_save_as", "search/index/head.json"),
    "search_head_schema": Output("dalil.search", "dalil.core.search_settings:search_settings",
                                 "head_schema_save_as", "schemas/search-index-head.schema.json"),
    "search_part_schema": Output("dalil.search", "dalil.core.search_settings:search_settings",
                                 "part_schema_save_as", "schemas/search-index-part.schema.json"),
    "opensearch": Output("dalil.search", "dalil.core.search_settings:search_settings",
                         "opensearch_save_as", "opensearch.xml"),
    "export_json": Output("dalil.exports", "dalil.exports.settings:export_settings",
                          "json_save_as", "directory/export.json"),
    "export_csv": Output("dalil.exports", "dalil.exports.settings:export_settings",
                         "csv_save_as", "directory/export.csv"),
    "export_schema": Output("dalil.exports", "dalil.exports.settings:export_settings",
                            "schema_save_as", "schemas/directory-export.schema.json"),
    "export_geojson": Output("dalil.exports", "dalil.exports.settings:export_settings",
                             "geojson_save_as", "directory/export.geojson"),
    "export_geojson_schema": Output("dalil.exports", "dalil.exports.settings:export_settings",
                                    "geojson_schema_save_as",
                                    "schemas/directory-geojson.schema.json"),
    "datapackage": Output("dalil.exports", "dalil.exports.settings:export_settings",
                          "datapackage_save_as", "directory/datapackage.json"),
    "datapackage_schema": Output("dalil.exports", "dalil.exports.settings:export_settings",
                                 "datapackage_schema_save_as", "schemas/datapackage.schema.json"),
    "listing_page": Output("dalil.directory", "dalil.directory.settings:directory_settings",
                           "listing_save_as", "directory/listing/{slug}/index.html"),
    "vcard": Output("dalil.exports", "dalil.exports.settings:export_settings",
                    "vcard_save_as", "directory/listing/{slug}/contact.vcf"),
    "rss": Output("dalil.feeds", "dalil.feeds.settings:feeds_settings",
                  "rss_save_as", "rss.xml"),
    "json_feed": Output("dalil.feeds", "dalil.feeds.settings:feeds_settings",
                        "json_save_as", "feed.json"),
    "sitemap_index": Output("dalil.sitemaps", "dalil.sitemaps.settings:sitemaps_settings",
                            "index_save_as", "sitemap-index.xml"),
    "news_sitemap": Output("dalil.sitemaps", "dalil.sitemaps.settings:sitemaps_settings",
                           "news_save_as", "news-sitemap.xml"),
    "robots": Output("dalil.sitemaps", "dalil.sitemaps.settings:sitemaps_settings",
                     "robots_save_as", "robots.txt"),
    "security_txt": Output("dalil.sitefiles", "dalil.sitefiles.settings:sitefiles_settings",
                           "security_txt_save_as", ".well-known/security.txt"),
    "build_info": Output("dalil.sitefiles", "dalil.sitefiles.settings:sitefiles_settings",
                         "build_info_save_as", "build-info.json"),
    "manifest": Output("dalil.pwa", "dalil.pwa.settings:pwa_settings",
                       "manifest_save_as", "manifest.webmanifest"),
    "service_worker": Output("dalil.pwa", "dalil.pwa.settings:pwa_settings",
                             "sw_save_as", "sw.js"),
}


def _plugin_settings(loader, settings):
    module_name, function_name = loader.split(":")
    try:
        function = getattr(importlib.import_module(module_name), function_name)
    except (ImportError, AttributeError):
        return None
    return function(settings)


def language_outputs(settings):
    """``[{name: relpath}]``: for each language after the first, the outputs that are its
    own (pages, feeds, manifest, OpenSearch: below its folder)."""
    from dalil.core.languages import language_settings, site_languages

    root = enabled_outputs(settings)
    languages = [enabled_outputs(language_settings(settings, lang))
                 for lang in site_languages(settings)[1:]]
    return [{name: relpath for name, relpath in outputs.items() if relpath != root.get(name)}
            for outputs in languages]


def enabled_outputs(settings):
    """``{name: relpath}`` of every output the build should have written."""
    plugins = {str(getattr(plugin, "__name__", plugin)) for plugin in settings.get("PLUGINS") or ()}
    loaded = {}
    outputs = {}
    for name, output in OUTPUTS.items():
        if output.plugin not in plugins:
            continue
        if output.loader not in loaded:
            loaded[output.loader] = _plugin_settings(output.loader, settings)
        path = getattr(loaded[output.loader], output.field, output.default)
        if path:
            outputs[name] = str(path).lstrip("/")
    return outputs
