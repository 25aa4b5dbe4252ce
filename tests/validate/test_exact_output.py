"""The output folder holds exactly what the last build produced.

A site loses a listing, a category with its listings and a news item, a listing changes
its slug and another turns bad (an unknown city, so the build skips it); rebuilt into the
same output folder, with or without the content cache, the output is the output of a clean
build of the same content into a fresh folder, file for file and byte for byte. A file
put there by hand survives. An error never drops a valid term or listing: two categories
(or cities) with one name are an error naming both files, and both keep their listings.
"""

import json
import shutil

import pytest

from tests import sitebuilder as sb
from tests.validate import fixtures

RECORD = ".dalil-output-files.json"
CACHE = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True}
# Put there by the operator: at the root, and in the folder of a listing that goes away.
HAND_FILES = {"operator-notes.txt": b"kept by hand\n",
              "directory/listing/friends-cafe/notes.txt": b"mine\n"}


def tree(folder):
    """``{relpath: bytes}`` of every file under ``folder``."""
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def folders(folder):
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_dir()}


def before_files():
    files = fixtures.site_files()
    files.update(sb.listing("corner-shop", "دكان الحي", city="rabat"))
    return files


def after_files():
    """``before_files`` with a listing, a category and its listing, and a news item gone
    (and so pages of the category and city they were in), a slug renamed and a listing
    that names an unknown city."""
    files = before_files()
    for relpath in ("listings/friends-cafe.md", "categories/pharmacies.md",
                    "listings/atlas-pharmacy.md", "news/old-news.md"):
        del files[relpath]
    files["listings/zaytouna.md"] = files["listings/zaytouna.md"].replace(
        "Slug: zaytouna\n", "Slug: zaytouna-house\n")
    files.update(sb.listing("corner-shop", "دكان الحي", city="nowhere"))
    return files


def rebuild(root, files, **settings):
    """Replace the site's content with ``files`` and build it, skipping bad files."""
    for path in sorted((root / "content").rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    return sb.build_site(root, files, fatal=None, **settings)


@pytest.fixture(scope="module", params=["plain", "cached"])
def builds(request, tmp_path_factory):
    """``(rebuilt, fresh)``: the site built from ``before_files``, given the hand files,
    then rebuilt from ``after_files``; and ``after_files`` built into a fresh folder."""
    # One listing a page: a category that loses listings loses pages.
    settings = {**(CACHE if request.param == "cached" else {}), "DALIL_DIRECTORY_PER_PAGE": 1}
    root = tmp_path_factory.mktemp(request.param)
    first = sb.build_site(root / "site", before_files(), **settings)
    assert first.returncode == 0, first.log
    assert {"directory/listing/friends-cafe/index.html", "directory/listing/zaytouna/contact.vcf",
            "directory/category/pharmacies/index.html", "news/old-news/index.html",
            "directory/listing/corner-shop/index.html",
            "directory/category/restaurants/page/3/index.html"} <= set(first.files())
    for relpath, data in HAND_FILES.items():
        (first.output / relpath).write_bytes(data)
    rebuilt = rebuild(root / "site", after_files(), **settings)
    fresh = sb.build_site(root / "fresh", after_files(), fatal=None, **settings)
    for result in (rebuilt, fresh):
        assert result.returncode == 0, result.log
        assert "content/listings/corner-shop.md: names unknown city 'nowhere'" in result.log
    return rebuilt, fresh


def test_the_rebuilt_output_is_the_fresh_output_byte_for_byte(builds):
    rebuilt, fresh = builds
    files = tree(rebuilt.output)
    for relpath in HAND_FILES:
        del files[relpath]
    expected = tree(fresh.output)
    assert sorted(files) == sorted(expected)
    assert [relpath for relpath in files if files[relpath] != expected[relpath]] == []


def test_what_is_gone_is_gone(builds):
    rebuilt, _ = builds
    files = set(tree(rebuilt.output))
    for gone in ("directory/listing/friends-cafe/index.html",
                 "directory/listing/friends-cafe/contact.vcf",
                 "directory/listing/atlas-pharmacy/index.html",
                 "directory/listing/zaytouna/index.html", "directory/listing/zaytouna/contact.vcf",
                 "directory/listing/corner-shop/index.html",
                 "directory/listing/corner-shop/contact.vcf",
                 "directory/category/pharmacies/index.html", "news/old-news/index.html",
                 "directory/category/restaurants/page/2/index.html",
                 "directory/city/rabat/page/2/index.html"):
        assert gone not in files, gone
    assert "directory/listing/zaytouna-house/contact.vcf" in files
    exported = json.loads(rebuilt.read("directory/export.json"))
    assert [record["url"] for record in exported] == [
        f"{sb.SITEURL}/directory/listing/zaytouna-house/"]


def test_the_folders_left_empty_are_gone_and_no_other(builds):
    rebuilt, fresh = builds
    # friends-cafe's folder stays for the file the operator put in it.
    assert folders(rebuilt.output) == folders(fresh.output) | {"directory/listing/friends-cafe"}


def test_a_file_put_by_hand_survives(builds):
    rebuilt, _ = builds
    for relpath, data in HAND_FILES.items():
        assert rebuilt.read(relpath, "b") == data


def test_the_record_lists_exactly_the_built_files(builds):
    _, fresh = builds
    record = json.loads(fresh.read(RECORD))
    assert record["files"] == sorted(set(tree(fresh.output)) - {RECORD})


def test_a_build_that_fails_removes_nothing(tmp_path):
    """A template that breaks while the directory's pages are written: the build has written
    other pages by then, but removes nothing and keeps the last record."""
    first = sb.build_site(tmp_path, before_files())
    assert first.returncode == 0, first.log
    before = tree(first.output)
    theme = tmp_path / "theme"
    shutil.copytree(sb.THEME, theme)
    (theme / "templates" / "directory").mkdir(exist_ok=True)
    (theme / "templates" / "directory" / "term.html").write_text(
        '{% extends "base.html" %}{% block content %}{{ term.missing.name }}{% endblock %}',
        encoding="utf-8")
    failed = rebuild(tmp_path, after_files(), THEME=str(theme))
    assert failed.returncode != 0
    after = tree(first.output)
    assert set(before) <= set(after)
    assert after[RECORD] == before[RECORD]


# -- an error never drops valid content ---------------------------------------------

def duplicate_name_files():
    """A new category and a new city, each with the name of an existing one, in files that
    sort before the existing ones, each with a listing of its own."""
    files = fixtures.site_files()
    files["categories/a-eateries.md"] = sb.metadata_file("", Title="مطاعم", Slug="eateries")
    files["cities/a-casa.md"] = sb.metadata_file("", Title="الرباط", Slug="casa-port")
    files.update(sb.listing("new-eatery", "مطعم جديد", category="eateries", city="casa-port"))
    return files


@pytest.fixture(scope="module")
def duplicate_names(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("duplicates"), duplicate_name_files(),
                           fatal=None)
    assert result.returncode == 0, result.log
    return result


def test_a_duplicate_name_is_an_error_naming_both_files(duplicate_names):
    log = " ".join(duplicate_names.log.split())
    assert ("content/categories/restaurants.md: duplicate category name 'مطاعم', also used by "
            "content/categories/a-eateries.md") in log
    assert ("content/cities/rabat.md: duplicate city name 'الرباط', also used by "
            "content/cities/a-casa.md") in log
    assert "names unknown" not in log


def test_a_duplicate_name_drops_no_listing(duplicate_names):
    exported = json.loads(duplicate_names.read("directory/export.json"))
    by_url = {record["url"]: record for record in exported}
    assert sorted(by_url) == [f"{sb.SITEURL}/directory/listing/{slug}/" for slug in
                              ("atlas-pharmacy", "friends-cafe", "new-eatery", "zaytouna")]
    assert by_url[f"{sb.SITEURL}/directory/listing/zaytouna/"]["category"] == "مطاعم"
    for slug in ("zaytouna", "friends-cafe", "new-eatery"):
        assert duplicate_names.path(f"directory/listing/{slug}/index.html").is_file(), slug
    for term in ("category/restaurants", "category/eateries", "city/rabat", "city/casa-port"):
        assert duplicate_names.path(f"directory/{term}/index.html").is_file(), term


def test_a_duplicate_name_fails_a_fatal_build(tmp_path):
    result = sb.build_site(tmp_path, duplicate_name_files())
    assert result.returncode != 0
    assert "duplicate category name 'مطاعم'" in result.log
