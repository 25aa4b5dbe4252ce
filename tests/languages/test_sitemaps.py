"""The sitemaps of a site in three languages: each page in each language, with its
versions as <xhtml:link> alternates (valid against sitemaps.org's and XHTML's schemas),
each version listing the same alternates; the first language's pages are those of the
site in one language."""

from collections import Counter
from urllib.parse import urlsplit

import pytest
from lxml import etree

from tests.schemas import (NEWS_NS, SITEMAP_NS, XHTML_NS, news_sitemap_schema,
                           sitemap_with_alternates_schema)

from .pages import FOLDERS, LANGUAGES, language_of, parse, target

SM = f"{{{SITEMAP_NS}}}"
XHTML = f"{{{XHTML_NS}}}"
NEWS = f"{{{NEWS_NS}}}"


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


def test_the_news_sitemap_lists_each_language_s_translation_of_a_news_item(site):
    """A news item's version in a language it is translated into is listed with that
    language and the title its page shows; an untranslated version is not news of that
    language."""
    document = etree.parse(str(site.path("news-sitemap.xml")))
    schema = news_sitemap_schema()
    assert schema.validate(document), schema.error_log
    entries = []
    for url in document.getroot().iter(f"{SM}url"):
        relpath = target(url.findtext(f"{SM}loc"))
        page = parse(site.output, relpath)
        title = url.findtext(f".//{NEWS}title")
        assert url.findtext(f".//{NEWS}language") == page.get("lang") == language_of(relpath)
        assert title == page.xpath("string(//main//h1)").strip(), relpath
        assert page.xpath("//main//h1/@lang") == [], relpath  # shown in its language
        entries.append(relpath)
    assert {language_of(relpath) for relpath in entries} == set(LANGUAGES)
