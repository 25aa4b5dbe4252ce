"""The directory model and every page type, on a tiny fixture site."""

import pytest
from bs4 import BeautifulSoup

from tests import sitebuilder as sb

TRICKY_NAME = 'مقهى "الأصدقاء" & شركاؤهم; فرع <الميناء>, طنجة'


def fixture_files():
    files = sb.base_files()
    files.update(sb.category("pharmacies", "صيدليات", "Pharmacies", "Pharmacies"))
    files.update(sb.city("rabat", "الرباط", "RAB", "Rabat", "Rabat"))
    files.update(sb.listing(
        "zaytouna", "مطعم الزيتونة", Name_en="Zaytouna", Name_fr="La Zaytouna",
        Street="12 شارع محمد الخامس", Postal_code="20000", Country="المغرب",
        Phone="+212 522 123 456", Email="contact@zaytouna.example",
        Website="https://zaytouna.example/", Image="/images/z.svg",
        Date="2026-01-01 10:00", Modified="2026-10-02 16:30", Summary="مطعم مغربي."))
    files.update(sb.listing("friends-cafe", TRICKY_NAME, city="rabat"))
    files.update(sb.listing("atlas-pharmacy", "صيدلية الأطلس", category="pharmacies",
                            Date="2026-02-01"))
    files.update(sb.listing("secret-shop", "متجر مخفي", Status="hidden"))
    files.update(sb.listing("future-bakery", "مخبزة قادمة", Status="draft"))
    files.update(sb.news("market-opens", "افتتاح السوق", "2026-11-20 10:00"))
    files["blog/tips.md"] = sb.metadata_file("نصائح.", Title="نصائح", Slug="tips",
                                             Date="2026-11-01")
    files["images/z.svg"] = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'
    return files


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("pages"), fixture_files(),
                           DALIL_DIRECTORY_PER_PAGE=1)
    assert result.returncode == 0, result.log
    return result


def soup(site, relpath):
    return BeautifulSoup(site.read(relpath), "html.parser")


def test_every_page_type_exists(site):
    for relpath in [
        "index.html", "directory/index.html",
        "directory/listing/zaytouna/index.html",
        "directory/category/restaurants/index.html",
        "directory/category/restaurants/page/2/index.html",
        "directory/city/casablanca/index.html", "directory/city/rabat/index.html",
        "news/market-opens/index.html", "blog/tips/index.html", "about/index.html",
        "404/index.html", "404.html", "images/z.svg",
    ]:
        assert site.path(relpath).is_file(), relpath


def test_every_page_is_arabic_rtl_with_landmarks(site):
    for relpath in site.files():
        if not relpath.endswith(".html"):
            continue
        page = soup(site, relpath)
        assert page.html["lang"] == "ar" and page.html["dir"] == "rtl", relpath
        assert page.find("main") and page.find("header") and page.find("footer"), relpath
        assert page.find("label", attrs={"for": "site-search"}), relpath
        for img in page.find_all("img"):
            assert img.has_attr("alt"), relpath
        for tag in page.find_all(src=True) + page.find_all("link", href=True):
            url = tag.get("src") or tag["href"]
            third_party = url.startswith(("http://", "https://", "//")) and not url.startswith(sb.SITEURL)
            assert not third_party, (relpath, url)


def test_listing_page_shows_every_field(site):
    page = soup(site, "directory/listing/zaytouna/index.html")
    assert page.h1.get_text() == "مطعم الزيتونة"
    text = page.get_text(" ")
    for value in ("Zaytouna", "La Zaytouna", "12 شارع محمد الخامس", "20000", "الدار البيضاء",
                  "مطاعم", "contact@zaytouna.example", "مطعم مغربي."):
        assert value in text
    assert page.find("a", href="tel:+212522123456")
    assert page.find("a", href="mailto:contact@zaytouna.example")
    assert page.find("a", href="https://zaytouna.example/")
    assert page.find("a", href=sb.SITEURL + "/directory/listing/zaytouna/contact.vcf")
    assert page.find("img", src=sb.SITEURL + "/images/z.svg")


def test_listing_json_ld_is_local_business(site):
    import json

    page = soup(site, "directory/listing/friends-cafe/index.html")
    data = json.loads(page.find("script", type="application/ld+json").string)
    assert data["@type"] == "LocalBusiness"
    assert data["name"] == TRICKY_NAME
    assert data["url"] == sb.SITEURL + "/directory/listing/friends-cafe/"


def test_listing_description_is_its_summary_as_text_in_meta_and_json_ld(site):
    import json

    page = soup(site, "directory/listing/zaytouna/index.html")
    data = json.loads(page.find("script", type="application/ld+json").string)
    assert page.find("meta", attrs={"name": "description"})["content"] == "مطعم مغربي."
    assert data["description"] == "مطعم مغربي."
    page = soup(site, "directory/listing/atlas-pharmacy/index.html")  # no summary
    data = json.loads(page.find("script", type="application/ld+json").string)
    assert "description" not in data
    assert page.find("meta", attrs={"name": "description"})["content"].startswith("صيدلية الأطلس — ")


def test_tricky_name_is_escaped_and_shown_exactly(site):
    raw = site.read("directory/listing/friends-cafe/index.html")
    assert "<الميناء>" not in raw  # escaped, not a tag
    page = soup(site, "directory/listing/friends-cafe/index.html")
    assert page.h1.get_text() == TRICKY_NAME
    assert TRICKY_NAME in page.title.get_text()


def test_optional_fields_absent(site):
    page = soup(site, "directory/listing/atlas-pharmacy/index.html")
    assert not page.find("a", href=lambda h: h and h.startswith(("tel:", "mailto:")))
    assert not page.find("p", class_="alt-name")


def test_categories_and_cities_list_published_listings_paginated(site):
    first = soup(site, "directory/category/restaurants/index.html")
    second = soup(site, "directory/category/restaurants/page/2/index.html")
    names = [a.get_text() for page in (first, second) for a in page.select(".card h2 a")]
    assert sorted(names) == sorted(["مطعم الزيتونة", TRICKY_NAME])
    assert first.find("a", rel="next")["href"] == sb.SITEURL + "/directory/category/restaurants/page/2/"
    assert second.find("a", rel="prev")["href"] == sb.SITEURL + "/directory/category/restaurants/"
    rabat = soup(site, "directory/city/rabat/index.html")
    assert [a.get_text() for a in rabat.select(".card h2 a")] == [TRICKY_NAME]


def test_hidden_listing_has_page_but_no_list_entry(site):
    assert site.path("directory/listing/secret-shop/index.html").is_file()
    for relpath in site.files():
        if relpath.endswith(".html") and "secret-shop" not in relpath:
            assert "secret-shop" not in site.read(relpath), relpath


def test_draft_listing_is_only_a_noindex_draft(site):
    assert not site.path("directory/listing/future-bakery/index.html").exists()
    draft = soup(site, "drafts/listing/future-bakery/index.html")
    assert draft.find("meta", attrs={"name": "robots", "content": "noindex"})
    for relpath in site.files():
        if relpath.endswith(".html") and not relpath.startswith("drafts/"):
            assert "future-bakery" not in site.read(relpath), relpath


def test_home_page_shows_search_categories_cities_news_recent(site):
    home = soup(site, "index.html")
    links = {a["href"] for a in home.find_all("a", href=True)}
    assert sb.SITEURL + "/directory/category/pharmacies/" in links
    assert sb.SITEURL + "/directory/city/rabat/" in links
    assert sb.SITEURL + "/news/market-opens/" in links
    assert sb.SITEURL + "/directory/listing/zaytouna/" in links
    assert home.find("form", attrs={"role": "search"})["action"] == sb.SITEURL + "/search/"


def test_directory_index_lists_every_term(site):
    page = soup(site, "directory/index.html")
    links = {a["href"] for a in page.find_all("a", href=True)}
    for path in ("category/restaurants/", "category/pharmacies/", "city/casablanca/", "city/rabat/"):
        assert f"{sb.SITEURL}/directory/{path}" in links


def test_not_found_pages_are_noindex_with_search(site):
    for relpath in ("404.html", "404/index.html"):
        page = soup(site, relpath)
        assert page.find("meta", attrs={"name": "robots", "content": "noindex"})
        assert page.find("input", attrs={"name": "q"})
        assert page.find("a", href=sb.SITEURL + "/directory/category/restaurants/")


def test_theme_overrides_plugin_template(tmp_path):
    files = fixture_files()
    theme = tmp_path / "theme"
    import shutil

    shutil.copytree(sb.THEME, theme)
    (theme / "templates" / "directory").mkdir()
    (theme / "templates" / "directory" / "listing.html").write_text(
        "OVERRIDDEN {{ listing.slug }}", encoding="utf-8")
    result = sb.build_site(tmp_path / "site", files, THEME=str(theme))
    assert result.returncode == 0, result.log
    assert result.read("directory/listing/zaytouna/index.html") == "OVERRIDDEN zaytouna"


def test_recent_listings_are_the_newest_by_last_modification_then_slug():
    """``Directory.recent`` gives what a full sort gives, whether the listings kept with the
    model suffice or not; undated listings never come."""
    import dataclasses
    import datetime as dt

    from benchmarks.exports import synthetic_directory
    from dalil.directory.assembly import NEWEST_KNOWN

    directory = synthetic_directory(300)
    base = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    listings = []
    for number, listing in enumerate(directory.listings):
        # Ties of dates (number // 3) leave the order to the slug; some only dated, some undated.
        when = base + dt.timedelta(hours=number // 3)
        listings.append(dataclasses.replace(
            listing, date=None if number % 11 == 0 else when - dt.timedelta(days=9),
            modified=when if number % 2 else None))
    directory.listings = listings
    dated = [listing for listing in listings if listing.last_modified]
    expected = sorted(dated, key=lambda listing: (listing.last_modified, listing.slug), reverse=True)
    assert directory.recent(8) == expected[:8]  # nothing kept: made as asked
    directory.newest_known = directory.newest(NEWEST_KNOWN)
    for count in (1, 8, NEWEST_KNOWN, NEWEST_KNOWN + 1, len(listings)):
        assert directory.recent(count) == expected[:count], count
