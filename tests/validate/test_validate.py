"""``dalil.validate`` on a fixture site: passes as built, fails on each kind of breakage."""

import datetime as dt
import json
import re
import shutil

import pytest
from pelican.settings import read_settings

from dalil.validate import validate_site
from dalil.validate.site import Site
from tests import sitebuilder as sb
from tests.validate import fixtures

NOW = fixtures.BUILD_TIME + dt.timedelta(days=1)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("validate"), fixtures.site_files())
    assert result.returncode == 0, result.log
    return result


@pytest.fixture
def site(built, tmp_path):
    """A copy of the built site to break, and a ``validate(**settings)`` of it."""
    output = tmp_path / "output"
    shutil.copytree(built.output, output)
    settings = read_settings(str(built.root / "pelicanconf.py"))

    class Copy:
        path = output

        @staticmethod
        def validate(now=NOW, **overrides):
            return validate_site(output, {**settings, **overrides}, now=now)

        @staticmethod
        def edit(relpath, change):
            target = output / relpath  # bytes: line ends stay as they are
            target.write_bytes(change(target.read_bytes().decode("utf-8")).encode("utf-8"))

    return Copy


def problems(report):
    return "\n".join(report.lines())


def test_the_built_fixture_site_passes(site):
    report = site.validate()
    assert report.ok, problems(report)
    for kind in ("HTML pages", "JSON files", "XML files", "vCards", "sitemap URLs",
                 "search index entries", "search index entries in parts", "exported listings",
                 "feed items"):
        assert report.checked[kind] > 0, kind


def test_removed_image(site):
    (site.path / "images/zaytouna.svg").unlink()
    text = problems(site.validate())
    # One line for the four pages that show it (listing, category, city, home).
    assert re.search(r"FAIL \S+index.html: image https://dalil.test/images/zaytouna.svg does "
                     r"not resolve to a file of the site \(and on 3 other pages\)", text), text
    assert "search-index.json: image /images/zaytouna.svg does not resolve" in text
    assert "directory/export.json: image https://dalil.test/images/zaytouna.svg does not" in text


def test_broken_internal_link_is_reported_once_for_all_pages(site):
    shutil.rmtree(site.path / "terms")
    report = site.validate()
    pages = [line for line in report.lines() if ": <a href> https://dalil.test/terms/" in line]
    assert len(pages) == 1 and "does not resolve" in pages[0], report.lines()
    # The footer of every page links it.
    assert f"(and on {report.checked['HTML pages'] - 1} other pages)" in pages[0]
    assert any(line.startswith("FAIL sitemap-0.xml: <loc> https://dalil.test/terms/")
               for line in report.lines())


def test_truncated_json(site):
    for relpath in ("search-index.json", "directory/export.json", "feed.json"):
        site.edit(relpath, lambda text: text[: len(text) // 2])
    text = problems(site.validate())
    for relpath in ("search-index.json", "directory/export.json", "feed.json"):
        assert f"FAIL {relpath}: not valid JSON (truncated?)" in text, relpath


def test_data_not_matching_its_published_schema(site):
    site.edit("search-index.json", lambda text: json.dumps(
        [{**entry, "n": ""} for entry in json.loads(text)]))
    site.edit("directory/export.json", lambda text: json.dumps(
        [{**record, "phone": None} for record in json.loads(text)]))
    site.edit("directory/export.geojson", lambda text: json.dumps(
        {"type": "FeatureCollection", "features": [{"type": "Feature"}]}))
    site.edit("directory/datapackage.json", lambda text: json.dumps(
        {**json.loads(text), "resources": []}))
    text = problems(site.validate())
    assert "directory/export.geojson: does not match schemas/directory-geojson.schema.json" in text
    assert "directory/datapackage.json: does not match schemas/datapackage.schema.json" in text
    assert "search-index.json: does not match schemas/search-index.schema.json" in text
    assert "directory/export.json: does not match schemas/directory-export.schema.json" in text


def test_expired_and_far_future_security_txt(site):
    text = problems(site.validate(now=fixtures.BUILD_TIME + dt.timedelta(days=400)))
    assert "FAIL .well-known/security.txt: expired on" in text
    site.edit(".well-known/security.txt",
              lambda text: re.sub(r"Expires: .*", "Expires: 2030-01-01T00:00:00Z", text))
    assert "more than a year ahead" in problems(site.validate())


def test_manifest_icon_and_shortcut_missing(site):
    manifest = json.loads((site.path / "manifest.webmanifest").read_text(encoding="utf-8"))
    icon = manifest["icons"][0]["src"]
    _, target = Site(site.path, {"SITEURL": sb.SITEURL}).resolve(icon, "manifest.webmanifest")
    (site.path / target).unlink()
    site.edit("manifest.webmanifest", lambda text: json.dumps(
        {**json.loads(text), "shortcuts": json.loads(text)["shortcuts"][:3]}))
    text = problems(site.validate())
    assert f"manifest.webmanifest: icon 1 {icon} does not resolve" in text
    assert "manifest.webmanifest: has 3 shortcuts, the interface promises 4" in text


def test_sitemap_index_naming_a_missing_sitemap(site):
    (site.path / "sitemap-0.xml").unlink()
    text = problems(site.validate())
    assert re.search(r"sitemap-index.xml: lists \S+/sitemap-0.xml, which is not a file", text)


def test_sitemap_and_feed_that_do_not_parse(site):
    site.edit("news-sitemap.xml", lambda text: text.replace("</urlset>", ""))
    site.edit("rss.xml", lambda text: text.replace("<rss", "<rdf", 1))
    text = problems(site.validate())
    assert "news-sitemap.xml: not well-formed XML" in text
    assert "rss.xml: not well-formed XML" in text


def test_csp_breakers_and_javascript_links_in_a_page(site):
    site.edit("about/index.html", lambda text: text.replace(
        "</main>", '<p style="color:red" onclick="x()">x</p><script>alert(1)</script>'
        '<style>p{}</style><a href=" javascript:alert(1)">x</a></main>'))
    text = problems(site.validate())
    for message in ("style attribute on <p>", "event handler attribute onclick on <p>",
                    "inline <script>", "<style> element", "javascript URL in <a href>"):
        assert f"FAIL about/index.html: {message}" in text, message


def test_csv_formula_cell_and_row_count(site):
    site.edit("directory/export.csv", lambda text: text.replace("مطعم الزيتونة", "=HYPERLINK(1)")
              + '"extra",,,,,,,,\r\n')
    text = problems(site.validate())
    assert "would run as a spreadsheet formula" in text
    assert "directory/export.csv: has 4 rows, the JSON export 3 records" in text


def test_vcard_without_crlf(site):
    site.edit("directory/listing/zaytouna/contact.vcf", lambda text: text.replace("\r\n", "\n"))
    assert "contact.vcf: lines do not all end with CRLF" in problems(site.validate())


def test_a_leftover_listing_page_and_vcard(site):
    """The page and vCard of a listing the exports do not hold (left by an earlier build)
    fail; a hidden listing's page (noindex) and a draft's do not."""
    assert (site.path / "directory/listing/secret-shop/index.html").is_file()
    assert (site.path / "drafts/listing/future-bakery/index.html").is_file()
    shutil.copytree(site.path / "directory/listing/zaytouna", site.path / "directory/listing/gone")
    report = site.validate()
    assert sorted(relpath for relpath, _ in report.problems) == [
        "directory/listing/gone/contact.vcf", "directory/listing/gone/index.html"]
    assert "the page of listing 'gone', which the exports do not hold" in problems(report)
    assert "the vCard of listing 'gone', which the exports do not hold" in problems(report)


def test_a_hidden_listing_page_without_noindex_is_a_leftover(site):
    site.edit("directory/listing/secret-shop/index.html",
              lambda text: text.replace('<meta name="robots" content="noindex">', ""))
    report = site.validate()
    assert [relpath for relpath, _ in report.problems] == ["directory/listing/secret-shop/index.html"]


def test_output_of_a_plugin_in_plugins_must_exist(site):
    (site.path / "feed.json").unlink()
    (site.path / "build-info.json").unlink()
    text = problems(site.validate())
    assert "FAIL feed.json: is missing, but its plugin is in PLUGINS" in text
    assert "FAIL build-info.json: is missing" in text


def test_output_turned_off_or_plugin_removed_is_skipped(site, built):
    (site.path / "build-info.json").unlink()
    (site.path / ".well-known/security.txt").unlink()
    (site.path / "search-index.json").unlink()
    settings = read_settings(str(built.root / "pelicanconf.py"))
    plugins = [plugin for plugin in settings["PLUGINS"] if plugin != "dalil.sitefiles"]
    report = site.validate(PLUGINS=plugins, DALIL_SEARCH_INDEX_SAVE_AS="")
    assert report.ok, problems(report)


def test_site_built_for_another_siteurl(site):
    text = problems(site.validate(SITEURL="https://other.example"))
    assert "build-info.json: the site was built for 'https://dalil.test'" in text


def test_missing_output_folder(tmp_path):
    report = validate_site(tmp_path / "nothing", {"SITEURL": ""})
    assert not report.ok and "build the site first" in problems(report)


@pytest.mark.parametrize("siteurl, url, expected", [
    ("https://e.example/sub", "https://e.example/sub/a/", (True, "a/index.html")),
    ("https://e.example/sub", "/sub/a", (True, "a/index.html")),
    ("https://e.example/sub", "../b.css", (True, "b.css")),
    ("https://e.example/sub", "/a/", (True, None)),  # outside the site's folder
    ("https://e.example/sub", "https://other.example/sub/a/", (False, None)),
    ("", "/sub/a/%D8%A8.txt", (True, "sub/a/ب.txt")),
    ("", "mailto:a@b.example", (False, None)),
])
def test_urls_resolve_to_files_under_siteurl(tmp_path, siteurl, url, expected):
    for relpath in ("a/index.html", "b.css", "sub/a/ب.txt"):
        (tmp_path / relpath).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relpath).write_text("x", encoding="utf-8")
    assert Site(tmp_path, {"SITEURL": siteurl}).resolve(url, "a/index.html") == expected


def test_a_site_without_news_or_blog_yet_has_no_broken_link(tmp_path):
    files = sb.base_files()
    for slug in ("contact", "terms"):
        files[f"pages/{slug}.md"] = sb.metadata_file("نص.", Title="صفحة", Slug=slug)
    files.update(sb.listing("only", "مطعم"))
    result = sb.build_site(tmp_path / "site", files)
    assert result.returncode == 0, result.log
    report = validate_site(result.output, read_settings(str(result.root / "pelicanconf.py")),
                           now=NOW)
    assert report.ok, problems(report)
    for folder in ("news", "blog"):
        assert "لا توجد منشورات بعد" in result.read(f"{folder}/index.html")


def test_a_broken_index_in_parts(site):
    head_path = "search/index/head.json"
    head = json.loads((site.path / head_path).read_text(encoding="utf-8"))
    first, second = (f"search/index/{name}.json" for name in head["parts"][:2])
    site.edit(head_path, lambda text: json.dumps({**json.loads(text), "token_part": "]#"},
                                                 ensure_ascii=False))
    site.edit(first, lambda text: json.dumps({**json.loads(text), "version": "0" * 16},
                                             ensure_ascii=False))
    (site.path / second).unlink()
    text = problems(site.validate())
    assert (f"FAIL {head_path}: does not match schemas/search-index-head.schema.json at "
            "token_part") in text, text
    assert f"FAIL {first}: of version {'0' * 16}, not the head's {head['version']}" in text, text
    assert f"FAIL {head_path}: its part {second} is missing" in text, text
    # (Its entries are in other parts too.)
    assert "its head and parts hold" not in text, text
    entries = len(json.loads((site.path / "search-index.json").read_text(encoding="utf-8")))
    site.edit(head_path, lambda text: json.dumps({**json.loads(text), "parts": []},
                                                 ensure_ascii=False))
    terms = len(head["terms"]["slug"].split(" "))
    text = problems(site.validate())
    assert (f"FAIL {head_path}: its head and parts hold {terms} of the {entries} entries of "
            "search-index.json") in text, text
    assert (f"FAIL {head_path}: its display parts hold 0 of the {entries} entries of "
            "search-index.json") in text, text
