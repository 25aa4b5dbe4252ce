"""A strict Content-Security-Policy holds on every page, whatever the content holds.

Pages carry no inline script but JSON data blocks, no ``<style>``, no ``style=``, no
``on*=`` handler and no ``javascript:`` URL. HTML written in Markdown by an operator
is cleaned of them, with a warning naming the file; what is harmless is kept.
"""

import json
import re

import pytest
from bs4 import BeautifulSoup

from tests import sitebuilder as sb
from tests.validate import fixtures

DATA_TYPES = {"application/ld+json", "application/json"}
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "poster", "data", "cite", "srcset")
HOSTILE_BODY = """
Intro with **bold** and [a link](https://example.org/page).

<script>alert("listing")</script>
<p style="color: red" onclick="steal()">styled</p>
<a href="javascript:alert(1)">js link</a> <a href=" JaVa&#x53;cript:alert(2)">encoded</a>
<img src="/images/zaytouna.svg" onerror="alert(3)" alt="">
<svg><a xlink:href="javascript:alert(4)"><text>svg</text></a></svg>
<iframe srcdoc="<script>alert(5)</script>"></iframe>
<style>body { display: none }</style>
<!-- --!><script>alert(6)</script> -->

| left | right |
|:-----|------:|
| a    | b     |
"""


def assert_strict_csp(relpath, html):
    soup = BeautifulSoup(html, "html.parser")
    for script in soup.find_all("script"):
        if not script.get("src"):
            assert (script.get("type") or "").lower() in DATA_TYPES, (relpath, str(script)[:80])
            json.loads(script.string)
    assert not soup.find_all("style"), relpath
    for element in soup.find_all(True):
        for name, value in element.attrs.items():
            assert name.lower() != "style", (relpath, element.name)
            assert not name.lower().startswith("on"), (relpath, element.name, name)
            if name.lower() in URL_ATTRIBUTES or name.lower().endswith(":href"):
                for url in value if isinstance(value, list) else [value]:
                    cleaned = re.sub(r"[\x00-\x20]", "", url).lower()
                    assert not cleaned.startswith(("javascript:", "vbscript:")), (relpath, url)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    files = fixtures.site_files()
    files.update(sb.listing("hostile-html", "مطعم بمحتوى خطر", body=HOSTILE_BODY,
                            Summary='<b onmouseover="x()">ملخص</b>'))
    files["news/hostile.md"] = sb.metadata_file(HOSTILE_BODY, Title="خبر <i>خطر</i>",
                                                Slug="hostile", Date="2026-11-21 09:00",
                                                Summary='<span style="x">ملخص</span>')
    files["pages/hostile.md"] = sb.metadata_file(HOSTILE_BODY, Title="صفحة", Slug="hostile")
    files["categories/hostile.md"] = sb.metadata_file(HOSTILE_BODY, Title="فئة", Slug="hostile")
    result = sb.build_site(tmp_path_factory.mktemp("csp"), files)
    assert result.returncode == 0, result.log
    return result


def test_every_page_keeps_a_strict_policy(site):
    pages = [relpath for relpath in site.files() if relpath.endswith(".html")]
    assert len(pages) > 25
    for relpath in pages:
        assert_strict_csp(relpath, site.read(relpath))


@pytest.mark.parametrize("relpath", ["directory/listing/hostile-html/index.html",
                                     "news/hostile/index.html", "hostile/index.html",
                                     "directory/category/hostile/index.html"])
def test_hostile_html_is_cleaned_and_the_rest_kept(site, relpath):
    html = site.read(relpath)
    soup = BeautifulSoup(html, "html.parser")
    for text in ("alert(", "steal()", "display: none", "javascript", "JaVa"):
        assert text not in html, text
    assert soup.find("a", href="https://example.org/page").get_text() == "a link"
    assert soup.find("strong").get_text() == "bold"
    assert soup.find("p", string="styled") is not None
    assert [cell["align"] for cell in soup.select("table th")] == ["left", "right"]
    assert soup.find("img", src="/images/zaytouna.svg") is not None


def test_each_cleaned_file_is_named_in_a_warning(site):
    warnings = [line for line in site.log.splitlines() if "WARNING" in line]
    for source in ("content/listings/hostile-html.md", "content/news/hostile.md",
                   "content/pages/hostile.md", "content/categories/hostile.md"):
        assert any(source in line and "removed" in line for line in warnings), (source, warnings)


def test_summaries_are_cleaned_too(site):
    listing = site.read("directory/listing/hostile-html/index.html")
    assert "onmouseover" not in listing and "ملخص" in listing
    feed = json.loads(site.read("feed.json"))
    (item,) = [item for item in feed["items"] if item["url"].endswith("/news/hostile/")]
    assert "alert(" not in item["content_html"] and "style=" not in item["content_html"]
    assert "style=" not in site.read("news/index.html")
