"""The pages of each language as people meet them: the Nu Html Checker finds no error on
any page of the three languages; in French and English axe-core finds no violation on a
1280 px desktop or a 390 px phone, and the scripts link the language's pages; no page of
any language is wider than the phone."""

import pytest

from tests.interface.checks import PHONE, axe_violations, browsing, first, page_width, vnu_errors

from .pages import DIRECTIONS, FOLDERS, language_of, target

DESKTOP = {"width": 1280, "height": 900}
# A breadcrumb trail's separator points the way the trail reads.
SEPARATORS = {"rtl": '"‹"', "ltr": '"›"'}
# Each separator of the trail: its text, its direction (a mirrored glyph is the other way
# round) and the room before the crumb's own content on the trail's starting side, where
# the separator stands (none when it went to the crumb's far side).
BREADCRUMB_SEPARATORS = """(() => [...document.querySelectorAll(".breadcrumbs li + li")]
.map(item => {
  const separator = getComputedStyle(item, "::before"), content = document.createRange();
  content.selectNodeContents(item);
  const inner = content.getBoundingClientRect(), outer = item.getBoundingClientRect();
  const room = document.dir === "rtl" ? outer.right - inner.right : inner.left - outer.left;
  return [separator.content, separator.direction, room >= 5];
}))()"""


def paths(output, lang):
    """Home, a listing, a category, search with results, a news item and about, in ``lang``."""
    return [f"/{FOLDERS[lang]}{path.lstrip('/')}" for path in (
        "/", first(output, "directory/listing"), first(output, "directory/category"),
        "/search/?q=%D9%85", first(output, "news"), "/about/")]


def open_ready(open_page, path):
    page = open_page(path)
    if "/search/" in path:
        page.locator(".search-results li").first.wait_for()
    return page


def test_nu_html_checker_finds_no_error_in_any_language(site):
    assert vnu_errors(site.output) == []


@pytest.mark.browser
def test_axe_finds_no_violation_in_french_and_english_on_a_desktop(site, chromium_browser):
    problems = []
    with browsing(chromium_browser, site.output, DESKTOP) as open_page:
        for lang in ("fr", "en"):
            for path in paths(site.output, lang):
                page = open_ready(open_page, path)
                problems += [(path, violation) for violation in axe_violations(page)]
                page.close()
    assert problems == []


@pytest.mark.browser
def test_on_a_phone_no_page_is_wider_and_axe_finds_no_violation(site, chromium_browser):
    """Every language's pages fit a 390 px phone, their breadcrumbs' separators pointing
    the way they read; axe-core checks the French and English ones (the Arabic ones are
    the interface tests')."""
    problems, crumbs = [], 0
    with browsing(chromium_browser, site.output, PHONE) as open_page:
        for lang in FOLDERS:
            for path in paths(site.output, lang):
                page = open_ready(open_page, path)
                width = page.evaluate("[document.documentElement.scrollWidth,"
                                      " document.documentElement.clientWidth]")
                if width[0] > width[1] or page_width(page) > PHONE["width"]:
                    problems.append((path, width, page_width(page)))
                if lang != "ar":
                    problems += [(path, violation) for violation in axe_violations(page)]
                expected = [SEPARATORS[DIRECTIONS[lang]], DIRECTIONS[lang], True]
                found = page.evaluate(BREADCRUMB_SEPARATORS)
                problems += [(path, "breadcrumb", separator) for separator in found
                             if separator != expected]
                crumbs += len(found)
                page.close()
    assert problems == []
    assert crumbs >= 3 * 3  # a listing's trail and a category's, in each language


@pytest.mark.browser
def test_the_scripts_link_the_pages_of_the_page_s_language(site, chromium_browser):
    """Search results, the saved list, the comparison and the random listing: the links the
    scripts write lead to the language's own pages, which exist."""
    saved = ["zaytouna-restaurant", "dar-tajine"]
    problems, links = [], 0
    with browsing(chromium_browser, site.output, PHONE, saved=saved) as open_page:
        for lang in ("fr", "en"):
            for path, ready in (("search/?q=%D9%85", ".search-results li a"),
                                ("saved/", ".saved-list a, main li a"),
                                ("compare/", "#compare-table thead th a"),
                                ("random/", "main a[href*='/directory/listing/']")):
                page = open_page(f"/{FOLDERS[lang]}{path}")
                page.locator(ready).first.wait_for()
                for href in page.evaluate("[...document.querySelectorAll('main a[href]')]"
                                          ".map(link => link.href)"):
                    relpath = target(href)
                    if relpath is None or not relpath.endswith(".html"):
                        continue
                    links += 1
                    if language_of(relpath) != lang or not site.path(relpath).is_file():
                        problems.append((lang, path, href))
                page.close()
    assert problems == []
    assert links >= 2 * (10 + 2 + 2 + 1)
