"""Bad content fails the build with a message naming the file, never a traceback."""

import pytest

from tests import sitebuilder as sb


def build_with(build_site, extra):
    files = sb.base_files()
    files.update(extra)
    return build_site(files)


def assert_fails_naming(result, *names):
    assert result.returncode != 0, result.log
    assert "Traceback" not in result.log
    for name in names:
        assert name in result.log, result.log


@pytest.mark.parametrize("extra, message", [
    (sb.listing("no-title", ""), "has no Title"),
    (sb.listing("no-category", "اسم", category=None), "has no Category"),
    (sb.listing("no-city", "اسم", city=None), "has no City"),
    (sb.listing("lost", "اسم", category="unknown-category"), "unknown category 'unknown-category'"),
    (sb.listing("lost", "اسم", city="atlantis"), "unknown city 'atlantis'"),
    (sb.listing("Bad_Slug", "اسم", filename="bad"), "is not of the form"),
    (sb.listing("a--b", "اسم", filename="bad"), "is not of the form"),
    (sb.listing("ok", "اسم", filename="bad", Website="javascript:alert(1)"), "not an http(s) URL"),
    (sb.listing("ok", "اسم", filename="bad", Website='https://x.example/"onmouseover="alert(1)'),
     "Website 'https://x.example/\"onmouseover=\"alert(1)' is not an http(s) URL"),
    (sb.listing("ok", "اسم", filename="bad", Website="https://x.example/it's"), "not an http(s) URL"),
    (sb.listing("ok", "اسم", filename="bad", Website="https://x.example/?a=1&lt;2"), "not an http(s) URL"),
    (sb.listing("ok", "اسم", filename="bad", Website="https://x.example/a>b"), "not an http(s) URL"),
    (sb.listing("ok", "اسم", filename="bad", Website="https://x.example\\a"), "not an http(s) URL"),
    (sb.listing("ok", "اسم", filename="bad", Website="https://x.example/a b"), "not an http(s) URL"),
    (sb.listing("ok", "اسم", filename="bad", Website="https:///no-host"), "not an http(s) URL"),
    (sb.listing("ok", "اسم", filename="bad", Website="https://[::1/"), "not an http(s) URL"),
    (sb.listing("ok", "اسم", filename="bad", Image='https://x.example/"a.jpg'),
     "Image 'https://x.example/\"a.jpg' is not an http(s) URL"),
    (sb.listing("ok", "اسم", filename="bad", Phone="=1+2"), "not a phone number"),
    (sb.listing("ok", "اسم", filename="bad", Image="../../etc/passwd"), "not a path inside the site"),
    (sb.listing("ok", "اسم", filename="bad", Status="secret"), "Status 'secret'"),
])
def test_bad_listing_fails_naming_its_file(build_site, extra, message):
    (source,) = extra
    result = build_with(build_site, extra)
    assert_fails_naming(result, f"content/{source}", message)


def test_duplicate_listing_slug_names_both_files(build_site):
    extra = {}
    extra.update(sb.listing("same", "الأول", filename="first"))
    extra.update(sb.listing("same", "الثاني", filename="second"))
    result = build_with(build_site, extra)
    assert_fails_naming(result, "content/listings/first.md", "content/listings/second.md",
                        "duplicate listing slug")


def test_duplicate_category_slug_names_both_files(build_site):
    extra = {"categories/other.md": sb.metadata_file("", Title="أخرى", Slug="restaurants")}
    result = build_with(build_site, extra)
    assert_fails_naming(result, "content/categories/other.md",
                        "content/categories/restaurants.md", "duplicate category slug")


def test_duplicate_news_slug_and_bad_blog_slug(build_site):
    extra = {}
    extra.update(sb.news("same", "خبر", "2026-11-01"))
    extra["news/copy.md"] = sb.metadata_file("", Title="نسخة", Slug="same", Date="2026-11-02")
    extra["blog/bad.md"] = sb.metadata_file("", Title="مقال", Slug="Not Valid", Date="2026-11-02")
    result = build_with(build_site, extra)
    assert_fails_naming(result, "content/news/copy.md", "content/news/same.md",
                        "content/blog/bad.md")


def test_unreadable_date_names_the_file(build_site):
    result = build_with(build_site, sb.listing("dated", "اسم", Date="not a date"))
    assert_fails_naming(result, "content/listings/dated.md", "cannot be read")


def test_missing_slug_is_derived(build_site):
    files = sb.base_files()
    files["listings/a.md"] = sb.metadata_file("", Title="مطعم", Name_fr="Café Étoile",
                                              Category="restaurants", City="casablanca")
    files["listings/b.md"] = sb.metadata_file("", Title="مطعم البحر", Category="restaurants",
                                              City="casablanca")
    result = build_site(files)
    assert result.returncode == 0, result.log
    assert result.path("directory/listing/cafe-etoile/index.html").is_file()
    derived = [p for p in result.files()
               if p.startswith("directory/listing/") and p.endswith("/index.html")]
    assert len(derived) == 2
    assert all(p.split("/")[2].isascii() for p in derived)


def test_html_in_title_is_stripped(build_site):
    files = sb.base_files()
    files.update(sb.listing("tagged", "<b>مطعم</b> &amp; <i>مقهى</i>"))
    result = build_site(files)
    assert result.returncode == 0, result.log
    from bs4 import BeautifulSoup

    page = BeautifulSoup(result.read("directory/listing/tagged/index.html"), "html.parser")
    assert page.h1.get_text() == "مطعم & مقهى"


def test_without_fatal_errors_a_bad_listing_is_skipped(build_site):
    files = sb.base_files()
    files.update(sb.listing("good", "جيد"))
    files.update(sb.listing("bad", "سيئ", city="atlantis"))
    result = build_site(files, fatal="")
    assert result.returncode == 0, result.log
    assert "content/listings/bad.md" in result.log
    assert result.path("directory/listing/good/index.html").is_file()
    assert not result.path("directory/listing/bad/index.html").exists()


def test_nothing_is_written_outside_the_output_folder(tmp_path):
    files = sb.base_files()
    files.update(sb.listing("ok", "اسم"))
    root = tmp_path / "site"
    sb.write_site(root, files)
    before = {p for p in tmp_path.rglob("*")}
    result = sb.run_pelican(root)
    assert result.returncode == 0, result.log
    after = {p for p in tmp_path.rglob("*")}
    new = {p for p in after - before if root / "output" not in p.parents and p != root / "output"}
    assert new == set(), sorted(map(str, new))


def test_bad_coordinates_hours_and_schema_type_fail_naming_file_and_value(build_site):
    bad = {
        "lat-only": ({"Latitude": "33.5"}, "Latitude is given without Longitude"),
        "lon-only": ({"Longitude": "-7.6"}, "Longitude is given without Latitude"),
        "lat-range": ({"Latitude": "91", "Longitude": "-7.6"}, "Latitude '91'"),
        "lon-range": ({"Latitude": "33.5", "Longitude": "-180.5"}, "Longitude '-180.5'"),
        "lat-text": ({"Latitude": "north", "Longitude": "-7.6"}, "Latitude 'north'"),
        "lat-nan": ({"Latitude": "nan", "Longitude": "-7.6"}, "Latitude 'nan'"),
        "hours-short": ({"Hours": "Mo-Fr 9-18"}, "Hours 'Mo-Fr 9-18'"),
        "hours-day": ({"Hours": "Xx 09:00-10:00"}, "Hours 'Xx 09:00-10:00'"),
        "hours-time": ({"Hours": "25:00"}, "Hours '25:00'"),
        "hours-hour": ({"Hours": "Mo 25:00-26:00"}, "'25:00' is not a time of day"),
    }
    files = sb.base_files()
    for slug, (fields, _) in bad.items():
        files.update(sb.listing(slug, "اسم", **fields))
    files["categories/odd.md"] = sb.metadata_file("", Title="فئة", Slug="odd",
                                                  Schema_type="local business")
    result = build_site(files)
    assert result.returncode != 0 and "Traceback" not in result.log
    lines = result.log.splitlines()
    for slug, (_, message) in bad.items():
        assert any(f"content/listings/{slug}.md" in line and message in line for line in lines), \
            (slug, result.log)
    assert any("content/categories/odd.md" in line and "Schema_type 'local business'" in line
               for line in lines), result.log


def test_good_coordinates_and_hours_build(build_site):
    files = sb.base_files()
    files.update(sb.listing("ok", "اسم", Latitude="33.5731", Longitude="-7.5898",
                            Hours="Mo-Fr 09:00-12:00,14:00-18:00; Sa 20:00-02:00"))
    files.update(sb.listing("always", "دائم", Hours="Mo-Su 00:00-24:00"))
    result = build_site(files)
    assert result.returncode == 0, result.log



LONG_NAME = " ".join(["مطعم"] * 68)  # 339 characters
LONG_LATIN = " ".join(["Restaurant"] * 20)


@pytest.mark.parametrize("extra, label, value", [
    (sb.listing("long", LONG_NAME), "Title", LONG_NAME),
    (sb.listing("long", "اسم", Name_en=LONG_LATIN), "Name_en", LONG_LATIN),
    (sb.listing("long", "اسم", Name_fr=LONG_LATIN), "Name_fr", LONG_LATIN),
    (sb.category("long", LONG_NAME), "Title", LONG_NAME),
    (sb.city("long", "مدينة", name_fr=LONG_LATIN), "Name_fr", LONG_LATIN),
], ids=["listing-title", "listing-name-en", "listing-name-fr", "category-title", "city-name-fr"])
def test_a_name_longer_than_the_limit_fails_naming_file_and_value(build_site, extra, label,
                                                                  value):
    (source,) = extra
    result = build_with(build_site, extra)
    shortened = repr(value[:39] + "…")
    assert_fails_naming(result, f"content/{source}", f"{label} {shortened} has {len(value)} "
                        "characters (DALIL_DIRECTORY_MAX_NAME_LENGTH: 200)")
    assert value[:100] not in result.log


def test_the_name_limit_is_a_setting(build_site):
    files = sb.base_files()
    files.update(sb.listing("long", LONG_NAME))
    files.update(sb.listing("at-limit", "م" * 200))
    assert build_site(files).returncode != 0
    files.pop("listings/long.md")
    assert build_site(files).returncode == 0
    files.update(sb.listing("long", LONG_NAME))
    result = build_site(files, DALIL_DIRECTORY_MAX_NAME_LENGTH=400)
    assert result.returncode == 0, result.log
    assert result.path("directory/listing/long/index.html").is_file()


def test_an_image_the_site_does_not_have_fails_naming_the_listing(build_site):
    files = sb.base_files()
    files["images/listings/here.svg"] = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'
    files.update(sb.listing("here", "موجود", Image="/images/listings/here.svg"))
    files.update(sb.listing("remote", "بعيد", Image="https://cdn.example/x.png"))
    files.update(sb.listing("missing", "مفقود", Image="/images/listings/missing.svg"))
    files.update(sb.listing("draft", "مسودة", Image="images/listings/gone.svg", Status="draft"))
    result = build_site(files)
    assert_fails_naming(result, "content/listings/missing.md: Image '/images/listings/missing.svg'",
                        "content/listings/draft.md: Image '/images/listings/gone.svg'",
                        "is not a file of the site")
    assert "here.md" not in result.log and "remote.md" not in result.log
    assert not result.path("directory/listing/here/index.html").exists()  # stopped before writing
    files.pop("listings/missing.md")
    files.pop("listings/draft.md")
    result = build_site(files)
    assert result.returncode == 0, result.log


def test_an_image_removed_since_the_last_build_fails_a_cached_rebuild(build_site):
    files = sb.base_files()
    files["images/here.svg"] = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'
    files.update(sb.listing("here", "موجود", Image="/images/here.svg"))
    result = build_site(files, CACHE_CONTENT=True, LOAD_CONTENT_CACHE=True)
    assert result.returncode == 0, result.log
    (result.root / "content/images/here.svg").unlink()  # the listing's file is unchanged
    rebuilt = sb.run_pelican(result.root)
    assert_fails_naming(rebuilt, "content/listings/here.md: Image '/images/here.svg'")
