"""The sitemaps of a site in three languages: each page in each language, with its
versions as <xhtml:link> alternates (valid against sitemaps.org's and XHTML's schemas),
each version listing the same alternates; the first language's pages are those of the
site in one language."""

from collections import Counter
from urllib.parse import urlsplit

import pytest
from lxml import etree

from tests.schemas import SITEMAP_NS, XHTML_NS, sitemap_with_alternates_schema

from .pages import FOLDERS, LANGUAGES, language_of, target

SM = f"{{{SITEMAP_NS}}}"
XHTML = f"{{{XHTML_NS}}}"


def sub_sitemaps(site):
    index = etree.fromstring(site.read("sitemap-index.xml", "rb"))
    return [target(loc.text) for loc in index.iter(f"{SM}loc")]


def urls(site):
    """``{loc: [(hreflang, href)]}`` over every sub-sitemap of the index."""
    found = {}
    for relpath in sub_sitemaps(site):
        for url in etree.fromstring(site.read(relpath, "b")).iter(f"{SM}url"):
            loc = url.findtext(f"{SM}loc")
            assert loc not in found, loc
            found[loc] = [(link.get("hreflang"), link.get("href"))
                          for link in url.iter(f"{XHTML}link") if link.get("rel") == "alternate"]
    return found


@pytest.fixture(scope="module")
def listed(site):
    return urls(site)


def test_the_sub_sitemaps_are_valid_with_their_alternates(site):
    schema = sitemap_with_alternates_schema()
    relpaths = sub_sitemaps(site)
    assert relpaths
    for relpath in relpaths:
        document = etree.parse(str(site.path(relpath)))
        assert schema.validate(document), (relpath, schema.error_log)
        assert document.getroot().find(f".//{XHTML}link") is not None, relpath


def test_each_url_lists_its_versions_and_each_lists_it_back(site, listed):
    problems = []
    for loc, links in listed.items():
        lang = language_of(target(loc))
        versions = dict(links)
        if Counter(hreflang for hreflang, _ in links) != Counter([*LANGUAGES, "x-default"]):
            problems.append((loc, links))
            continue
        if versions[lang] != loc or versions["x-default"] != versions["ar"]:
            problems.append((loc, versions))
        for hreflang in LANGUAGES:
            href = versions[hreflang]
            if sorted(listed.get(href, [])) != sorted(links) or \
                    language_of(target(href)) != hreflang or not site.path(target(href)).is_file():
                problems.append((loc, hreflang, href))
    assert problems == []


def test_each_language_lists_the_pages_a_one_language_site_lists(listed, one_language):
    alone = urls(one_language)
    assert all(links == [] for links in alone.values())
    by_language = {lang: sorted(urlsplit(loc).path for loc in listed
                                if language_of(target(loc)) == lang) for lang in LANGUAGES}
    assert by_language["ar"] == sorted(urlsplit(loc).path for loc in alone)
    for lang in ("fr", "en"):
        assert by_language[lang] == [f"/{FOLDERS[lang]}{path[1:]}" for path in by_language["ar"]]
