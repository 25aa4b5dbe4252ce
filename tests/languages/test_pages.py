"""Every page in each language: the same paths below /fr/ and /en/ as at the root, in
the page's language and direction, each page linking its versions (hreflang, crawled over
every page of the output) and, in its language menu, the same page in the other
languages."""

from collections import Counter
from urllib.parse import unquote, urlsplit

from tests.interface.checks import page_types

from .pages import (DIRECTIONS, FOLDERS, LANGUAGES, html_files, language_of, menu, parse,
                    target, versions)

# Each language's name in itself, as the menu shows it.
AUTONYMS = {"ar": "العربية", "fr": "Français", "en": "English"}


def output_file(path):
    """``/news/`` -> ``news/index.html`` (a page type's URL path, query dropped)."""
    return target(urlsplit(path).path)


def test_each_page_type_is_in_each_language_at_the_same_path(site):
    for path in page_types(site.output):
        for lang in LANGUAGES:
            relpath = FOLDERS[lang] + output_file(path)
            assert site.path(relpath).is_file(), relpath
            root = parse(site.output, relpath)
            assert (root.get("lang"), root.get("dir")) == (lang, DIRECTIONS[lang]), relpath


def test_each_language_has_the_pages_the_root_has(site):
    files = html_files(site.output)
    by_language = {lang: sorted(relpath[len(FOLDERS[lang]):] for relpath in files
                                if language_of(relpath) == lang) for lang in LANGUAGES}
    assert len(by_language["ar"]) > 100
    assert by_language["fr"] == by_language["ar"] == by_language["en"]


def test_every_page_links_its_versions_and_each_links_it_back(site):
    """hreflang as search engines read it: one alternate per language and x-default (the
    root's), each leading to a page that lists the same versions, the page itself among
    them under its own language; the canonical, where a page has one, is the page."""
    problems = []
    pages = {relpath: parse(site.output, relpath) for relpath in html_files(site.output)}
    for relpath, page in pages.items():
        lang = language_of(relpath)
        links = versions(page)
        hreflangs = Counter(hreflang for hreflang, _ in links)
        if hreflangs != Counter([*LANGUAGES, "x-default"]):
            problems.append((relpath, "hreflangs", dict(hreflangs)))
            continue
        found = {hreflang: target(href) for hreflang, href in links}
        if found[lang] != relpath:
            problems.append((relpath, "own version", found[lang]))
        if found["x-default"] != found["ar"] or language_of(found["ar"]) != "ar":
            problems.append((relpath, "x-default", found["x-default"]))
        for hreflang in LANGUAGES:
            other = found[hreflang]
            if other not in pages or language_of(other) != hreflang:
                problems.append((relpath, hreflang, "missing", other))
            elif sorted(versions(pages[other])) != sorted(links):
                problems.append((relpath, hreflang, "not reciprocal", other))
        canonical = page.xpath("/html/head/link[@rel='canonical']/@href")
        if canonical and [target(href) for href in canonical] != [relpath]:
            problems.append((relpath, "canonical", canonical))
    assert len(pages) > 300
    assert problems == []


def test_every_page_has_a_language_menu_to_the_same_page_in_the_others(site):
    problems = []
    for relpath in html_files(site.output):
        page = parse(site.output, relpath)
        lang = language_of(relpath)
        own = {hreflang: href for hreflang, href in versions(page)}
        links = menu(page)
        expected = [(other, other, own.get(other), AUTONYMS[other])
                    for other in LANGUAGES if other != lang]
        if links != expected:
            problems.append((relpath, links))
            continue
        for _, other, href, _ in links:
            path = target(href)
            if not site.path(path).is_file() or path[len(FOLDERS[other]):] != \
                    relpath[len(FOLDERS[lang]):]:
                problems.append((relpath, href))
        label = page.xpath("//nav[@class='languages']/@aria-label")
        if len(label) != 1 or not label[0].strip():
            problems.append((relpath, "label", label))
    assert problems == []


def test_a_page_links_the_pages_of_its_own_language(site):
    """Apart from its versions, a page of /fr/ leads to pages of /fr/: the menus, the
    breadcrumbs, the listings' and the news' links (the data files and images are the
    site's, at the root)."""
    problems = []
    for relpath in html_files(site.output):
        lang = language_of(relpath)
        if lang == "ar":
            continue
        page = parse(site.output, relpath)
        # Not the links an author wrote in a text (a news item's, a page's, a text shown in
        # the language it is written in): they lead where the author wrote.
        hrefs = page.xpath("//a[not(ancestor::nav[@class='languages'])]"
                           "[not(ancestor::*[@lang='ar'])]"
                           "[not(ancestor::article[contains(@class, 'prose')])"
                           " or ancestor::header[parent::article]]/@href | //form/@action")
        for href in hrefs:
            path = target(href)
            if path is not None and path.endswith(".html") and language_of(path) != lang:
                problems.append((relpath, unquote(href)))
    assert problems == []


def test_a_page_is_closed_to_search_engines_in_every_language_or_in_none(site):
    """A page's versions carry the same robots directive (noindex: saved, compare, 404)."""
    directives = {}
    for relpath in html_files(site.output):
        page = parse(site.output, relpath)
        directive = page.xpath("/html/head/meta[@name='robots']/@content")
        directives.setdefault(relpath[len(FOLDERS[language_of(relpath)]):], set()).add(
            tuple(directive))
    assert {path for path, found in directives.items() if found == {("noindex",)}} >= \
        {"saved/index.html", "compare/index.html", "404.html"}
    assert {path: found for path, found in directives.items() if len(found) != 1} == {}
