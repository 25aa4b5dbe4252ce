"""Manifest, service worker, icons and the web-app pages, read as files."""

import json
import struct
import zlib
from urllib.parse import urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup

from tests import sitebuilder as sb
from tests.validate.test_csp import DATA_TYPES

from .fixtures import css_variable, fixture_files, page_file, worker_build

MANIFEST_URL = sb.SITEURL + "/manifest.webmanifest"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("pwa-files"), fixture_files())
    assert result.returncode == 0, result.log
    assert "WARNING" not in result.log, result.log
    return result


@pytest.fixture(scope="module")
def manifest(site):
    return json.loads(site.read("manifest.webmanifest"))


def soup(site, relpath):
    return BeautifulSoup(site.read(relpath), "html.parser")


def output_path(site, url):
    """The output file behind an absolute URL of the site."""
    assert url.startswith(sb.SITEURL + "/"), url
    return page_file(site.output, urlsplit(url).path)


def png_size(path):
    """Width and height of a PNG, after checking its signature and every chunk's CRC."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    position, kinds = 8, []
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        crc, = struct.unpack(">I", data[position + 8 + length:position + 12 + length])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, (path, kind)
        kinds.append(kind)
        position += 12 + length
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND", path
    return struct.unpack(">II", data[16:24])


def test_manifest_fields(manifest):
    assert manifest["name"] == manifest["short_name"] == "دليل"
    assert manifest["lang"] == "ar" and manifest["dir"] == "rtl"
    assert manifest["display"] == "standalone"
    assert urljoin(MANIFEST_URL, manifest["start_url"]) == sb.SITEURL + "/"
    assert urljoin(MANIFEST_URL, manifest["scope"]) == sb.SITEURL + "/"
    assert manifest["theme_color"] == css_variable("--brand") == "#0b5d3b"
    assert manifest["background_color"] == css_variable("--paper")


def test_manifest_icons_exist_with_their_sizes(site, manifest):
    icons = manifest["icons"]
    assert {icon["sizes"] for icon in icons} >= {"192x192", "512x512"}
    maskable = [icon for icon in icons if "maskable" in icon.get("purpose", "").split()]
    assert len(maskable) == 1
    for icon in icons + [icon for shortcut in manifest["shortcuts"] for icon in shortcut["icons"]]:
        assert icon["type"] == "image/png"
        width, height = png_size(output_path(site, urljoin(MANIFEST_URL, icon["src"])))
        assert f"{width}x{height}" == icon["sizes"], icon


def test_exactly_four_shortcuts_to_pages_that_exist(site, manifest):
    shortcuts = manifest["shortcuts"]
    assert len(shortcuts) == 4
    urls = [urljoin(MANIFEST_URL, shortcut["url"]) for shortcut in shortcuts]
    assert urls == [sb.SITEURL + path for path in ("/search/", "/directory/", "/news/", "/saved/")]
    for shortcut, url in zip(shortcuts, urls):
        assert shortcut["name"] and shortcut["icons"], shortcut
        assert output_path(site, url).is_file(), url


def test_a_site_without_news_builds_without_warning_and_its_shortcuts_exist(tmp_path):
    files = {relpath: text for relpath, text in fixture_files().items()
             if not relpath.startswith("news/")}
    result = sb.build_site(tmp_path / "site", files, fatal="warnings")
    assert result.returncode == 0, result.log
    assert "WARNING" not in result.log, result.log
    manifest = json.loads(result.read("manifest.webmanifest"))
    assert len(manifest["shortcuts"]) == 4
    for shortcut in manifest["shortcuts"]:
        assert output_path(result, urljoin(MANIFEST_URL, shortcut["url"])).is_file(), shortcut
    news = soup(result, "news/index.html")
    assert news.find("main") and not news.select("main article")


def test_every_page_links_manifest_theme_colour_icon_and_scripts(site):
    pages = [relpath for relpath in site.files() if relpath.endswith(".html")]
    assert len(pages) > 10
    for relpath in pages:
        head = soup(site, relpath).head
        assert head.find("link", rel="manifest")["href"] == MANIFEST_URL, relpath
        assert head.find("meta", attrs={"name": "theme-color"})["content"] == "#0b5d3b", relpath
        touch_icon = head.find("link", rel="apple-touch-icon")["href"]
        assert png_size(output_path(site, touch_icon)) == (180, 180), relpath
        register = head.find("script", src=sb.SITEURL + "/theme/js/pwa.js")
        assert register.has_attr("defer") and register["data-sw"] == sb.SITEURL + "/sw.js"
        assert register["data-scope"] == sb.SITEURL + "/"
        assert head.find("script", src=sb.SITEURL + "/theme/js/saved.js").has_attr("defer")


def test_pwa_pages_have_no_inline_script_handler_or_style(site):
    for relpath in ("saved/index.html", "compare/index.html", "offline/index.html",
                    "404.html", "directory/listing/zaytouna/index.html"):
        page = soup(site, relpath)
        for script in page.find_all("script"):
            # JSON data blocks (JSON-LD, the scripts' messages) run nothing.
            assert script.has_attr("src") or script.get("type") in DATA_TYPES, relpath
        for tag in page.find_all(True):
            assert not tag.has_attr("style"), relpath
            assert not [name for name in tag.attrs if name.startswith("on")], (relpath, tag.name)


def test_worker_precaches_the_real_theme_files_and_the_offline_page(site):
    build = worker_build(site)
    theme_files = sorted(relpath for relpath in site.files() if relpath.startswith("theme/"))
    assert "theme/css/dalil.css" in theme_files and "theme/js/pwa.js" in theme_files
    assert sorted(build["precache"]) == sorted(theme_files + ["offline/"])
    assert build["offline"] == "offline/"
    assert build["builtAt"] == "2026-11-21T12:00:00.000Z"
    assert "build-info.json" in build["neverCache"]
    assert build["data"] == ["search-index.json", "search/index/head.json", "search/index/"]
    assert all(site.path(relpath).is_file() for relpath in build["data"][:2])
    assert site.path("search/index").is_dir()


def test_worker_version_follows_the_build_time_and_is_reproducible(tmp_path):
    first = sb.build_site(tmp_path / "site", fixture_files())
    assert first.returncode == 0, first.log
    version = worker_build(first)["version"]
    same = sb.run_pelican(tmp_path / "site")
    assert worker_build(same)["version"] == version
    later = sb.run_pelican(tmp_path / "site", env={"SOURCE_DATE_EPOCH": "1795266000"})
    assert worker_build(later)["builtAt"] == "2026-11-21T13:00:00.000Z"
    assert worker_build(later)["version"] != version


@pytest.mark.parametrize("relpath", ["saved/index.html", "compare/index.html", "offline/index.html"])
def test_web_app_pages_are_noindex(site, relpath):
    page = soup(site, relpath)
    assert page.find("meta", attrs={"name": "robots"})["content"] == "noindex"
    assert page.html["lang"] == "ar" and page.html["dir"] == "rtl"


def test_saved_and_compare_pages_point_at_the_search_index(site):
    for relpath, view in (("saved/index.html", "saved"), ("compare/index.html", "compare")):
        app = soup(site, relpath).find(id="saved-app")
        assert app["data-view"] == view
        assert app["data-index"] == sb.SITEURL + "/search-index.json"
        assert soup(site, relpath).find("script", src=sb.SITEURL + "/theme/js/saved-list.js")


def test_web_app_pages_stay_out_of_sitemaps(site):
    listed = site.read("sitemap-0.xml")
    assert sb.SITEURL + "/directory/" in listed
    for path in ("/saved/", "/compare/", "/offline/", "/404/"):
        assert sb.SITEURL + path + "<" not in listed


def test_save_buttons_on_published_cards_and_listing_pages(site):
    category = soup(site, "directory/category/restaurants/index.html")
    cards = category.select("article.card")
    assert len(cards) == 2
    for card in cards:
        button = card.find("button", class_="save-button")
        slug = card.h2.a["href"].rstrip("/").rsplit("/", 1)[1]
        assert button["data-save"] == slug and button.has_attr("hidden")
        assert button["aria-pressed"] == "false" and button["type"] == "button"
        assert card.h2.get_text() in button.get_text()  # a name that says which listing
    listing = soup(site, "directory/listing/zaytouna/index.html")
    assert listing.find("button", attrs={"data-save": "zaytouna"}).has_attr("hidden")
    hidden = soup(site, "directory/listing/secret-shop/index.html")
    assert not hidden.find("button", attrs={"data-save": True})
    draft = soup(site, "drafts/listing/future-bakery/index.html")
    assert not draft.find("button", attrs={"data-save": True})


@pytest.mark.parametrize("relpath", ["404/index.html", "404.html"])
def test_not_found_pages_help(site, relpath):
    page = soup(site, relpath)
    assert page.find("meta", attrs={"name": "robots"})["content"] == "noindex"
    form = page.find("main").find("form", role="search")
    assert form["action"] == sb.SITEURL + "/search/" and form.find("input", attrs={"name": "q"})
    categories = [a.get_text(" ", strip=True) for a in page.select("main .term-list a")]
    assert categories == ["مطاعم (2)", "صيدليات (1)"]
    assert page.find("main").find("a", href=sb.SITEURL + "/saved/")


def test_turned_off_outputs_are_not_written_nor_linked(tmp_path):
    result = sb.build_site(tmp_path / "site", fixture_files(), DALIL_PWA_SW_SAVE_AS="",
                           DALIL_PWA_MANIFEST_SAVE_AS="", DALIL_PWA_COMPARE_SAVE_AS="")
    assert result.returncode == 0, result.log
    assert not result.path("sw.js").exists() and not result.path("manifest.webmanifest").exists()
    assert not result.path("compare/index.html").exists()
    head = soup(result, "index.html").head
    assert not head.find("link", rel="manifest")
    assert not head.find("script", src=sb.SITEURL + "/theme/js/pwa.js")
    assert head.find("meta", attrs={"name": "theme-color"})  # still the browser's colour
    assert not soup(result, "saved/index.html").find(id="saved-compare")


def test_a_shortcut_to_a_page_the_build_does_not_write_is_warned_about(tmp_path):
    # No article is in "events", nor is it a content folder: no page is written for it.
    result = sb.build_site(tmp_path / "site", fixture_files(), fatal=None,
                           DALIL_PWA_NEWS_CATEGORY="events")
    assert result.returncode == 0, result.log
    assert not result.path("events/index.html").exists()
    assert "dalil.pwa: the manifest's shortcut الأخبار points to /events/" in result.log
    assert result.log.count("dalil.pwa:") == 1, result.log


def test_icons_are_what_the_generator_draws(tmp_path):
    """The committed PNGs come from theme/icons.py, byte for byte."""
    import runpy

    icons = runpy.run_path(str(sb.THEME / "icons.py"))
    icons["main"](tmp_path)
    committed = sb.THEME / "static" / "icons"
    for name, (size, *_) in icons["ICONS"].items():
        assert (tmp_path / name).read_bytes() == (committed / name).read_bytes(), name
        assert png_size(committed / name) == (size, size)
        assert (committed / name).stat().st_size < 8000, name
