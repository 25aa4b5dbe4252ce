"""Layout as a visitor meets it in Chromium: at 390 px (a phone) and 1366 px (issue 15,
items 1, 3, 5, 6 and 7)."""

from urllib.parse import quote

import pytest

from .checks import DESKTOP, PHONE, browsing, page_width

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def phone(chromium_browser, hostile):
    with browsing(chromium_browser, hostile.output, PHONE, saved=["zaytouna", "long-name"]) as open_page:
        yield open_page


def test_long_unbroken_names_wrap_on_a_phone(phone):
    for path in ("/directory/listing/long-name/", "/directory/category/doctors/",
                 "/search/?q=" + quote("مطعمالزيتونة"), "/news/market-opens/", "/"):
        page = phone(path)
        if path.startswith("/search/"):
            page.locator(".search-results li").first.wait_for()
        assert page_width(page) <= PHONE["width"], path
        header, footer = (page.locator(selector).bounding_box()
                          for selector in (".site-header", ".site-footer"))
        assert header["width"] == footer["width"] == PHONE["width"], path
        page.close()


def test_compare_shows_both_listings_beside_their_labels_on_a_phone(phone):
    page = phone("/compare/")
    table = page.locator("#compare-table")
    table.locator("thead th").nth(1).wait_for()
    region = page.locator("#compare-region")
    assert region.evaluate("r => r.scrollWidth <= r.clientWidth")
    for cell in table.locator("thead th, tbody th").all():
        box = cell.bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"], cell.inner_text()
    websites = table.locator("tbody tr").nth(3).locator("td a")
    # As written in the listing: no trailing slash added.
    assert "https://zaytouna.example" in websites.all_inner_texts()
    page.close()


def test_code_blocks_wrap_instead_of_scrolling(phone):
    page = phone("/code/")
    block = page.locator(".prose pre")
    assert block.evaluate("b => b.scrollWidth <= b.clientWidth")
    page.close()


# The x of a text's first and last characters, as drawn.
CHARACTER_EDGES = """e => {
    const text = e.firstChild, range = document.createRange(), x = i => {
        range.setStart(text, i); range.setEnd(text, i + 1);
        return range.getBoundingClientRect().x; };
    return [x(0), x(text.length - 1)]; }"""


def test_code_reads_left_to_right_on_an_rtl_page(phone):
    page = phone("/code/")
    codes = page.locator(".prose p code, .prose td code")
    assert codes.count() == 3
    for code in codes.all():
        first, last = code.evaluate(CHARACTER_EDGES)
        assert first < last, code.inner_text()  # "/search-index.json", not "search-index.json/"
    page.close()


def test_latin_words_in_brackets_read_left_to_right_in_arabic_text(phone):
    page = phone("/code/")
    # Where "(" and "P" of "(Path)" are drawn: the bracket before the word, on its left.
    opening, letter = page.locator(".prose th").nth(1).evaluate("""e => {
        const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
        for (let node; (node = walker.nextNode());) {
            const at = node.data.indexOf("(Path)");
            if (at < 0) continue;
            const range = document.createRange(), x = i => {
                range.setStart(node, i); range.setEnd(node, i + 1);
                return range.getBoundingClientRect().x; };
            return [x(at), x(at + 1)];
        } }""")
    assert opening < letter
    page.close()


def test_home_dates_stay_on_one_line(phone):
    page = phone("/")
    times = page.locator(".article-list time")
    assert times.count() == 2
    for time in times.all():
        assert time.evaluate("t => t.getClientRects().length") == 1, time.inner_text()
        assert time.evaluate("t => t.getBoundingClientRect().height < 2 * "
                             "parseFloat(getComputedStyle(t).lineHeight)"), time.inner_text()
    page.close()


def test_listing_other_names_align_with_the_title_on_desktop(chromium_browser, hostile):
    with browsing(chromium_browser, hostile.output, DESKTOP) as open_page:
        page = open_page("/directory/listing/zaytouna/")
        edge = ("e => { const r = document.createRange(); r.selectNodeContents(e);"
                " return r.getBoundingClientRect().right; }")
        title = page.locator("h1").evaluate(edge)
        for name in page.locator(".listing header .alt-name").all():
            assert abs(name.evaluate(edge) - title) < 2, name.inner_text()
        page.close()
