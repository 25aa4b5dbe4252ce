"""The files of a site in three languages: the root's feeds and the data files are those
of the same site in one language, byte for byte; each other language has its own feeds,
OpenSearch description and manifest below its folder, and no data file."""

import json
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import feedparser
import jsonschema
import pytest
from lxml import etree

from dalil.core.record import is_record
from tests import sitebuilder as sb
from tests.schemas import json_schema
from tests.sitefiles.fixture import HOST_FILES

from .pages import FOLDERS, target

OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
# Each language's own files, below its folder; every other file of it is a page.
LANGUAGE_FILES = {"rss.xml", "feed.json", "opensearch.xml", "manifest.webmanifest"}
DATA_FILES = ["search-index.json", "search/index/head.json",
              "directory/export.json", "directory/export.csv", "directory/export.geojson",
              "directory/datapackage.json", "build-info.json", ".well-known/security.txt",
              "robots.txt", "sitemap-index.xml"]
SUB_SITEMAP = re.compile(r"(news-)?sitemap(-\d+)?\.xml")
BASE = sb.SITEURL + "/"


def tree(output, below=""):
    """``{relpath: bytes}`` of the files under ``output`` outside the other languages'
    folders (``below`` "": the root's), or under ``below`` alone."""
    files = {}
    for path in Path(output, below).rglob("*"):
        relpath = path.relative_to(output).as_posix()
        if path.is_file() and (below or relpath.split("/", 1)[0] + "/" not in FOLDERS.values()):
            files[relpath] = path.read_bytes()
    return files


def test_the_root_feeds_are_those_of_the_site_in_one_language(site, one_language):
    for relpath in ("rss.xml", "feed.json"):
        assert site.read(relpath, "b") == one_language.read(relpath, "b"), relpath
    assert json.loads(site.read("feed.json"))["language"] == "ar"


@pytest.mark.parametrize("relpath", DATA_FILES)
def test_a_data_file_is_that_of_the_site_in_one_language(site, one_language, relpath):
    assert site.read(relpath, "b") == one_language.read(relpath, "b")


def test_the_vcards_are_those_of_the_site_in_one_language(site, one_language):
    cards = sorted(path.relative_to(one_language.output).as_posix()
                   for path in one_language.output.rglob("*.vcf"))
    assert len(cards) > 50
    assert sorted(path.relative_to(site.output).as_posix()
                  for path in site.output.rglob("*.vcf")) == cards
    assert [relpath for relpath in cards
            if site.read(relpath, "b") != one_language.read(relpath, "b")] == []


def test_the_root_s_other_files_are_those_of_the_site_in_one_language(site, one_language):
    """Apart from the pages (each links its versions), the builds' records, the service
    worker (it caches the other languages' pages too), the sub-sitemaps (they list each
    page's versions), the host files (they type each language's feeds: test_serving) and
    what the other languages' builds add: their record and their scripts' messages. A
    one-language site writes the translations of news and pages beside their originals,
    Pelican's way ({slug}-fr.html): they are the other languages' pages here."""
    ours, theirs = tree(site.output), tree(one_language.output)
    added = {".dalil-output-files.fr.json", ".dalil-output-files.en.json",
             "theme/js/messages.fr.js", "theme/js/messages.en.js"}
    assert sorted(set(ours) - set(theirs)) == sorted(added)
    translations = sorted(set(theirs) - set(ours))
    assert translations
    assert all(re.search(r"-(fr|en)\.html$", relpath) for relpath in translations)
    differ = [relpath for relpath in set(ours) & set(theirs) if ours[relpath] != theirs[relpath]]
    assert [relpath for relpath in differ if not relpath.endswith(".html")
            and not is_record(relpath) and relpath not in ("sw.js", *HOST_FILES)
            and not SUB_SITEMAP.fullmatch(relpath)] == []


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_no_data_file_below_a_language_s_folder(site, lang):
    files = tree(site.output, FOLDERS[lang])
    assert {relpath for relpath in files if not relpath.endswith(".html")} == \
        {FOLDERS[lang] + name for name in LANGUAGE_FILES}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_language_s_rss_feed(site, lang):
    parsed = feedparser.parse(site.read(f"{lang}/rss.xml", "rb"))
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "rss20"
    assert parsed.feed.language == lang
    assert parsed.feed.link == f"{BASE}{lang}/"
    root = feedparser.parse(site.read("rss.xml", "rb"))
    assert len(parsed.entries) == len(root.entries) > 0
    for entry, original in zip(parsed.entries, root.entries):
        assert entry.link == original.link.replace(BASE, f"{BASE}{lang}/")
        assert site.path(target(entry.link)).is_file(), entry.link


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_language_s_json_feed(site, lang):
    feed = json.loads(site.read(f"{lang}/feed.json"))
    jsonschema.Draft7Validator(json_schema("jsonfeed-1.1.schema.json"),
                               format_checker=jsonschema.FormatChecker()).validate(feed)
    assert feed["language"] == lang
    assert feed["home_page_url"] == f"{BASE}{lang}/"
    assert feed["feed_url"] == f"{BASE}{lang}/feed.json"
    root = json.loads(site.read("feed.json"))
    assert [item["url"] for item in feed["items"]] == \
        [item["url"].replace(BASE, f"{BASE}{lang}/") for item in root["items"]]
    for item in feed["items"]:
        assert site.path(target(item["url"])).is_file(), item["url"]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_language_s_opensearch_description(site, lang):
    description = etree.fromstring(site.read(f"{lang}/opensearch.xml", "rb"))
    assert description.tag == f"{OPENSEARCH}OpenSearchDescription"
    assert description.findtext(f"{OPENSEARCH}Language") == lang
    urls = {url.get("type"): url.get("template") for url in description.iter(f"{OPENSEARCH}Url")}
    assert urls["text/html"] == f"{BASE}{lang}/search/?q={{searchTerms}}"
    assert urls["application/opensearchdescription+xml"] == f"{BASE}{lang}/opensearch.xml"
    root = etree.fromstring(site.read("opensearch.xml", "rb"))
    assert description.findtext(f"{OPENSEARCH}Description") != \
        root.findtext(f"{OPENSEARCH}Description")


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_language_s_manifest(site, lang):
    manifest_url = f"{BASE}{lang}/manifest.webmanifest"
    manifest = json.loads(site.read(f"{lang}/manifest.webmanifest"))
    root = json.loads(site.read("manifest.webmanifest"))
    assert (manifest["lang"], manifest["dir"]) == (lang, "ltr")
    assert (root["lang"], root["dir"]) == ("ar", "rtl")
    assert urljoin(manifest_url, manifest["start_url"]) == f"{BASE}{lang}/"
    assert urljoin(manifest_url, manifest["scope"]) == f"{BASE}{lang}/"
    assert len(manifest["shortcuts"]) == 4
    shortcuts = [urljoin(manifest_url, shortcut["url"]) for shortcut in manifest["shortcuts"]]
    assert shortcuts == [url.replace(BASE, f"{BASE}{lang}/") for url in
                         (urljoin(f"{BASE}manifest.webmanifest", shortcut["url"])
                          for shortcut in root["shortcuts"])]
    for url in shortcuts:
        assert site.path(target(urlsplit(url).path)).is_file(), url
    assert [shortcut["name"] for shortcut in manifest["shortcuts"]] != \
        [shortcut["name"] for shortcut in root["shortcuts"]]
    for icon in manifest["icons"]:
        assert site.path(urlsplit(urljoin(manifest_url, icon["src"])).path).is_file(), icon
