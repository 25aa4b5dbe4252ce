"""Names as an Arabic page shows them: each set apart with its own direction (a name that
starts with Latin letters or punctuation is not scrambled by the text around it), and
an alternate name shown once when the English and French names are the same."""

import pytest
from bs4 import BeautifulSoup

from tests import sitebuilder as sb

from .checks import DESKTOP, browsing

# Latin first, punctuation last: unisolated on an RTL page, the full stop is drawn first.
LISTING = "Dalil Pro."
CATEGORY = "B&B الضيافة"
CITY = "«Fès» المدينة"
NEWS = "COVID-19: إجراءات جديدة"
PAGE = "FAQ: أسئلة"
BLOG = "SEO للمبتدئين"
NAMES = (LISTING, CATEGORY, CITY, NEWS, PAGE, BLOG)


def files():
    files = sb.base_files()
    files.update(sb.category("guesthouses", CATEGORY, "Guesthouses", "Guesthouses"))
    files.update(sb.city("fes", CITY, "FES", "Fes", "Fes"))
    files.update(sb.listing("dalil-pro", LISTING, category="guesthouses", city="fes",
                            Name_en="Dalil Pro", Name_fr="Dalil Pro", Date="2026-11-01",
                            Street="12 Rue Atlas"))
    files.update(sb.listing("zaytouna", "مطعم الزيتونة", Name_en="Zaytouna",
                            Name_fr="La Zaytouna", Date="2026-10-01"))
    files.update(sb.news("covid", NEWS, "2026-11-20 10:00"))
    files["blog/seo.md"] = sb.metadata_file("نص.", Title=BLOG, Slug="seo", Date="2026-11-01")
    files["pages/faq.md"] = sb.metadata_file("نص.", Title=PAGE, Slug="faq")
    return files


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("names"), files())
    assert result.returncode == 0, result.log
    return result


def unisolated(root, names):
    """``[(name, tag)]``: each name shown in ``root`` without a ``dir`` (or a ``bdi``) of
    its own: the nearest element with one must hold the name alone, or the one text the
    name is part of (an address)."""
    found = []
    for text in root.find_all(string=True):
        if text.parent.name in ("script", "style", "title", "template"):
            continue
        for name in names:
            if name not in text:
                continue
            holder = text.parent
            while holder is not root and not (holder.name == "bdi" or holder.has_attr("dir")):
                holder = holder.parent
            if holder is root or holder.get_text().strip() not in (name, text.strip()):
                found.append((name, text.parent.name))
    return found


def test_every_name_on_every_page_keeps_its_own_direction(site):
    pages = [relpath for relpath in site.files() if relpath.endswith(".html")]
    shown = set()
    for relpath in pages:
        body = BeautifulSoup(site.read(relpath), "html.parser").body
        assert unisolated(body, NAMES) == [], relpath
        shown.update(name for name in NAMES if name in body.get_text())
    assert shown == set(NAMES)


def test_an_alternate_name_is_shown_once_when_english_and_french_agree(site):
    def alternates(relpath):
        page = BeautifulSoup(site.read(relpath), "html.parser")
        return [span.get_text() for span in page.select(".alt-name span")]

    assert alternates("directory/listing/dalil-pro/index.html") == ["Dalil Pro"]
    assert alternates("directory/city/fes/index.html") == ["Fes"]
    assert alternates("directory/category/restaurants/index.html") == ["Restaurants"]
    assert alternates("directory/listing/zaytouna/index.html") == ["Zaytouna", "La Zaytouna"]


# The x of the first and last characters of an element's text, as drawn.
CHARACTER_EDGES = """e => {
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT), nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    const x = (node, i) => { const range = document.createRange();
        range.setStart(node, i); range.setEnd(node, i + 1);
        return range.getBoundingClientRect().x; };
    const last = nodes[nodes.length - 1];
    return [x(nodes[0], 0), x(last, last.length - 1)]; }"""

# Every element of a page whose text is a name, built by the page or by its scripts:
# its own dir (or a bdi) and where its first and last characters are drawn.
SHOWN_NAMES = """names => [...document.body.querySelectorAll('*')]
    .filter(e => names.includes(e.textContent.trim()) && e.children.length === 0
                 && e.getClientRects().length)
    .map(e => { const holder = e.closest('bdi, [dir]');
        return [e.textContent.trim(), holder && holder !== document.documentElement
                && holder.textContent.trim() === e.textContent.trim()]; })"""


@pytest.mark.browser
@pytest.mark.parametrize("path", [
    "/directory/listing/dalil-pro/", "/search/?q=Dalil", "/saved/", "/compare/", "/sitemap/",
])
def test_names_read_in_their_own_order_in_chromium(chromium_browser, site, path):
    with browsing(chromium_browser, site.output, DESKTOP, saved=["dalil-pro", "zaytouna"]) as open_page:
        page = open_page(path)
        listing = page.get_by_text(LISTING, exact=True)
        listing.first.wait_for()
        shown = page.evaluate(SHOWN_NAMES, list(NAMES))
        assert shown and all(isolated for _, isolated in shown), shown
        for element in listing.all():
            if element.is_visible():
                first, last = element.evaluate(CHARACTER_EDGES)
                assert first < last, path  # "Dalil Pro.", not ".Dalil Pro"
        page.close()
