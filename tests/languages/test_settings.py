"""DALIL_LANGUAGES and DALIL_LANGUAGE_SETTINGS on tiny sites: a bad setting stops the build
with a message naming it, each language takes its own settings, and ``invoke livereload``'s
in-process rebuilds keep each language's pages apart. Pages are read with BeautifulSoup."""

import os
import subprocess
import sys
import textwrap

import pytest
from bs4 import BeautifulSoup

from tests import sitebuilder as sb

ZAYTOUNA = "مطعم الزيتونة"


def files():
    files = sb.base_files()
    files.update(sb.listing("zaytouna", ZAYTOUNA, Name_fr="La Zaytouna", Date="2026-10-01"))
    return files


def page(result, relpath):
    return BeautifulSoup(result.read(relpath), "html.parser")


@pytest.mark.parametrize("languages, message", [
    (["ar", "de"], "DALIL_LANGUAGES holds 'de'"),
    (["ar", "fr", "ar"], "DALIL_LANGUAGES names a language twice"),
    ("ar,fr", "DALIL_LANGUAGES must be a list of languages"),
    ([], "DALIL_LANGUAGES must be a list of languages"),
])
def test_a_bad_languages_setting_stops_the_build_naming_it(build_site, languages, message):
    result = build_site(files(), DALIL_LANGUAGES=languages)
    assert result.returncode != 0
    assert message in result.log
    assert "Traceback" not in result.log
    assert not result.path("index.html").exists()


def test_each_language_takes_its_own_settings(build_site):
    result = build_site(files(), DALIL_LANGUAGES=["ar", "fr"], SITENAME="دليل",
                        DALIL_LANGUAGE_SETTINGS={"fr": {"SITENAME": "Dalil Maroc"}})
    assert result.returncode == 0, result.log
    assert page(result, "index.html").find("a", class_="brand").get_text() == "دليل"
    french = page(result, "fr/index.html")
    assert french.find("a", class_="brand").get_text() == "Dalil Maroc"
    assert french.html["lang"] == "fr" and french.html["dir"] == "ltr"


def test_a_language_first_that_is_not_the_contents_is_at_the_root(build_site):
    result = build_site(files(), DALIL_LANGUAGES=["fr", "ar"])
    assert result.returncode == 0, result.log
    root = page(result, "directory/listing/zaytouna/index.html")
    assert root.html["lang"] == "fr"
    assert root.h1.get_text(strip=True) == "La Zaytouna"
    arabic = page(result, "ar/directory/listing/zaytouna/index.html")
    assert arabic.html["lang"] == "ar" and arabic.h1.get_text(strip=True) == ZAYTOUNA
    links = {link["hreflang"]: link["href"] for link in root.find_all("link", rel="alternate")
             if link.get("hreflang")}
    assert links["x-default"] == links["fr"] == f"{sb.SITEURL}/directory/listing/zaytouna/"
    assert links["ar"] == f"{sb.SITEURL}/ar/directory/listing/zaytouna/"


LIVERELOAD = textwrap.dedent("""
    import pathlib, sys
    from dalil.tasks import CachedBuilds
    builds = CachedBuilds(None, "pelicanconf.py")
    builds.build()
    listing = pathlib.Path("content/listings/zaytouna.md")
    listing.write_text(listing.read_text(encoding="utf-8") + "\\nسطر جديد.\\n", encoding="utf-8")
    builds.build()
""")


def test_livereload_rebuilds_keep_each_language_at_its_own_pages(tmp_path):
    """``invoke livereload`` rebuilds in one process, keeping the source records in memory:
    each language's records hold its own URLs, so a rebuild writes the French page at
    /fr/ and leaves the Arabic one Arabic."""
    root = tmp_path / "site"
    sb.write_site(root, files(), DALIL_LANGUAGES=["ar", "fr"])
    completed = subprocess.run(
        [sys.executable, "-c", LIVERELOAD], cwd=root, capture_output=True, text=True, timeout=600,
        env={**os.environ, "SOURCE_DATE_EPOCH": sb.DEFAULT_EPOCH,
             "PYTHONPATH": str(sb.PACKAGE_SOURCE)})
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "the build failed" not in completed.stderr
    result = sb.BuildResult(root, root / "output", 0, completed.stdout, completed.stderr)
    arabic = page(result, "directory/listing/zaytouna/index.html")
    french = page(result, "fr/directory/listing/zaytouna/index.html")
    assert arabic.html["lang"] == "ar" and arabic.h1.get_text(strip=True) == ZAYTOUNA
    assert french.html["lang"] == "fr" and french.h1.get_text(strip=True) == "La Zaytouna"
    assert "سطر جديد" in arabic.get_text() and "سطر جديد" in french.get_text()


def test_the_other_languages_take_the_first_s_records_and_read_no_file(build_site):
    """Each listing, category and city file is read once a run: the French build's
    records are the Arabic build's, its pages' URLs below /fr/."""
    result = build_site(files(), DALIL_LANGUAGES=["ar", "fr"])
    assert result.returncode == 0, result.log
    summaries = [line for line in result.stdout.replace("\n", " ").split("dalil")
                 if "sources read" in line]
    assert len(summaries) == 2
    assert summaries[0].startswith(":") and ": 0 sources read" not in summaries[0]
    assert summaries[1].startswith(" (fr):") and "; 0 sources read;" in summaries[1]
    assert page(result, "fr/directory/listing/zaytouna/index.html").html["lang"] == "fr"
