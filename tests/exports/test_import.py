"""``invoke import-listings``: export -> import -> build gives the same records; bad rows
are reported with their row numbers and skipped; nothing is overwritten unless asked."""

import csv
import json
import os
import subprocess
import sys

import pytest
from pelican.settings import read_settings

from dalil.exports.importer import ImportFailed, import_listings, split_address
from tests import sitebuilder as sb

from .fixtures import FIELDS


SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'


def new_site(root, files=None):
    """A site with the image the exports' fixture listing shows (``/images/z.svg``)."""
    files = files or {"pages/about.md": sb.metadata_file("عن.", Title="عن", Slug="about")}
    sb.write_site(root, {**files, "images/z.svg": SVG})
    return read_settings(str(root / "pelicanconf.py"))


def run_task(root, path, *options):
    """``invoke import-listings`` as an operator runs it (outside the repository)."""
    return subprocess.run(
        [sys.executable, "-m", "invoke", "--search-root", str(sb.REPO), "import-listings",
         str(path), "--settings", str(root / "pelicanconf.py"), *options],
        cwd=root, capture_output=True, text=True, timeout=300)


def content_files(root):
    content = root / "content"
    return {path.relative_to(content).as_posix(): path.read_bytes()
            for path in sorted(content.rglob("*")) if path.is_file()}


def write_csv(path, rows):
    with open(path, "w", encoding="utf-8-sig", newline="") as handle:
        csv.writer(handle, lineterminator="\r\n").writerows(rows)


# -- round trip ---------------------------------------------------------------

@pytest.fixture(scope="module")
def from_csv(exports_site, tmp_path_factory):
    """A new, empty site filled from export.csv by the invoke task, then built."""
    root = tmp_path_factory.mktemp("from-csv")
    new_site(root)
    source = root / "export.csv"
    source.write_bytes(exports_site.read("directory/export.csv", "rb"))
    task = run_task(root, source)
    assert task.returncode == 0, task.stdout + task.stderr
    built = sb.run_pelican(root)
    assert built.returncode == 0, built.log
    return task, built


@pytest.fixture(scope="module")
def from_json(exports_site, tmp_path_factory):
    """A site that already has the restaurants category and Casablanca, filled from JSON."""
    root = tmp_path_factory.mktemp("from-json")
    settings = new_site(root, sb.base_files())
    source = root / "export.json"
    source.write_bytes(exports_site.read("directory/export.json", "rb"))
    report = import_listings(source, settings)
    built = sb.run_pelican(root)
    assert built.returncode == 0, built.log
    return report, built


@pytest.mark.parametrize("relpath", ["directory/export.json", "directory/export.csv"])
def test_csv_round_trip_gives_the_same_export(exports_site, from_csv, relpath):
    _, built = from_csv
    assert built.read(relpath, "rb") == exports_site.read(relpath, "rb")


def test_json_round_trip_gives_the_same_records(exports_site, from_json):
    _, built = from_json
    assert json.loads(built.read("directory/export.json")) == json.loads(
        exports_site.read("directory/export.json"))
    assert built.read("directory/export.csv", "rb") == exports_site.read("directory/export.csv", "rb")


def test_task_reports_what_it_wrote(from_csv):
    task, built = from_csv
    assert "import-listings: 9 file(s) written, 0 row(s) skipped" in task.stdout
    listings = sorted(path.name for path in (built.root / "content" / "listings").iterdir())
    assert listings == ["atlas-pharmacy.md", "formula.md", "friends-cafe.md", "long-name.md",
                        "zaytouna.md"]
    assert not list((built.root / "content").rglob(".dalil-*"))


def test_import_reuses_known_terms_and_adds_missing_ones(from_json):
    report, built = from_json
    content = built.root / "content"
    new_terms = sorted(path.relative_to(content).parent.as_posix() for path in report.written
                       if "listings" not in path.parts)
    assert new_terms == ["categories", "cities"]  # pharmacies and Rabat; the rest exist
    zaytouna = (content / "listings" / "zaytouna.md").read_text(encoding="utf-8")
    assert "Category: restaurants\nCity: casablanca\n" in zaytouna
    assert "Street: 12 شارع محمد الخامس، الطابق 2\nPostal_code: 20000\nCountry: المغرب\n" in zaytouna
    assert "Image: /images/z.svg\n" in zaytouna  # this site's image is root-relative again
    cities = {path.name: path.read_text(encoding="utf-8") for path in (content / "cities").iterdir()}
    rabat = [text for name, text in cities.items() if name != "casablanca.md"]
    assert len(rabat) == 1 and "Title: الرباط\n" in rabat[0]


def test_existing_listings_are_kept_unless_forced(from_csv, tmp_path):
    _, built = from_csv
    root = built.root
    settings = read_settings(str(root / "pelicanconf.py"))
    before = content_files(root)
    source = root / "export.csv"
    report = import_listings(source, settings)
    assert [number for number, _ in report.skipped] == [2, 3, 4, 5, 6]
    assert all("already holds listing" in message and "--force" in message
               for _, message in report.skipped)
    assert report.written == [] and content_files(root) == before
    task = run_task(root, source, "--force")
    assert task.returncode == 0, task.stdout + task.stderr
    assert "5 file(s) written, 0 row(s) skipped" in task.stdout
    assert content_files(root) == before  # the same export gives the same files


# -- bad rows -------------------------------------------------------------------

def test_bad_csv_rows_are_reported_by_row_number_and_skipped(tmp_path):
    settings = new_site(tmp_path, sb.base_files())
    good_url = sb.SITEURL + "/directory/listing/new-one/"
    rows = [
        FIELDS,
        ["مطعم جديد", "مطاعم", "+212 522 000 000", "", "", "الدار البيضاء، المغرب", "", good_url, ""],
        ["", "مطاعم", "", "", "", "الدار البيضاء، المغرب", "", "", ""],
        ["موقع سيئ", "مطاعم", "", "", "javascript:alert(1)", "الدار البيضاء", "", "", ""],
        ["رابط سيئ", "مطاعم", "", "", "", "الدار البيضاء", "", "ftp://x.example/a/b/", ""],
        ["مكرر", "مطاعم", "", "", "", "الدار البيضاء", "", good_url, ""],
        ["زائد", "مطاعم", "", "", "", "الدار البيضاء", "", "", "", "fax"],
        ["بريد", "مطاعم", "", "not-an-email", "", "الدار البيضاء", "", "", ""],
        ["تاريخ", "مطاعم", "", "", "", "الدار البيضاء", "", "", "yesterday"],
        [],
        ["Cafe Central", "مقاهي", "'-", "", "", "'=1، فاس", "", "", "2026-11-01T08:00:00Z"],
    ]
    source = tmp_path / "bad.csv"
    write_csv(source, rows)
    task = run_task(tmp_path, source)
    assert task.returncode == 1
    lines = task.stdout.splitlines()
    for number, words in [(3, "no name"), (4, "Website 'javascript:alert(1)'"),
                          (5, "url 'ftp://x.example/a/b/'"), (6, "duplicate of row 2"),
                          (7, "unknown fields"), (8, "Email 'not-an-email'"),
                          (9, "dateModified 'yesterday'"), (11, "Phone '-'")]:
        assert any(line.startswith(f"import-listings: row {number}: ") and words in line
                   and line.endswith("; skipped") for line in lines), (number, lines)
    assert "import-listings: 1 file(s) written, 8 row(s) skipped" in lines
    assert not any("row 10" in line for line in lines)  # the blank line
    built = sb.run_pelican(tmp_path)
    records = json.loads(built.read("directory/export.json"))
    assert [record["url"] for record in records] == [good_url]
    assert sorted(path.name for path in (tmp_path / "content" / "listings").iterdir()) == [
        "new-one.md"]
    assert settings["PATH"] == str(tmp_path / "content")


def test_rows_the_build_would_refuse_for_their_website_name_or_image_are_skipped(tmp_path):
    new_site(tmp_path, sb.base_files())
    long_name = " ".join(["مطعم"] * 50)  # 249 characters
    rows = [
        FIELDS,
        ["مطعم جيد", "مطاعم", "", "", "https://good.example/a?b=1", "الدار البيضاء", "", "", ""],
        ["اقتباس", "مطاعم", "", "", 'https://x.example/"onmouseover=', "الدار البيضاء", "", "", ""],
        ["مسافة", "مطاعم", "", "", "https://x.example/a b", "الدار البيضاء", "", "", ""],
        [long_name, "مطاعم", "", "", "", "الدار البيضاء", "", "", ""],
        ["فئة طويلة", long_name, "", "", "", "الدار البيضاء", "", "", ""],
        ["مدينة طويلة", "مطاعم", "", "", "", long_name, "", "", ""],
        ["صورة", "مطاعم", "", "", "", "الدار البيضاء", sb.SITEURL + "/images/gone.svg", "", ""],
    ]
    source = tmp_path / "bad.csv"
    write_csv(source, rows)
    task = run_task(tmp_path, source)
    assert task.returncode == 1, task.stdout + task.stderr
    lines = task.stdout.splitlines()
    for number, words in [(3, """Website 'https://x.example/"onmouseover='"""),
                          (4, "Website 'https://x.example/a b'"),
                          (5, "name '" + long_name[:39] + "…' has 249 characters"),
                          (6, "category '" + long_name[:39] + "…' has 249 characters"),
                          (7, "city '" + long_name[:39] + "…' has 249 characters"),
                          (8, "image '/images/gone.svg' is not a file of the content's images")]:
        assert any(line.startswith(f"import-listings: row {number}: ") and words in line
                   for line in lines), (number, lines)
    assert "import-listings: 1 file(s) written, 6 row(s) skipped" in lines
    built = sb.run_pelican(tmp_path)
    assert built.returncode == 0, built.log
    (record,) = json.loads(built.read("directory/export.json"))
    assert record["website"] == "https://good.example/a?b=1"


def test_cafe_row_with_guarded_cells_is_imported(tmp_path):
    settings = new_site(tmp_path, sb.base_files())
    source = tmp_path / "cafe.csv"
    write_csv(source, [FIELDS, ["'@Cafe Central", "مقاهي", "+1 2", "", "", "'=1، فاس، المغرب",
                                "", "", "2026-11-01T08:00:00Z"]])
    report = import_listings(source, settings)
    assert report.skipped == []
    built = sb.run_pelican(tmp_path)
    assert built.returncode == 0, built.log
    [record] = json.loads(built.read("directory/export.json"))
    assert record == {"name": "@Cafe Central", "category": "مقاهي", "phone": "+1 2", "email": "",
                      "website": "", "address": "=1، فاس، المغرب", "image": "",
                      "url": sb.SITEURL + "/directory/listing/cafe-central/",
                      "dateModified": "2026-11-01T08:00:00Z"}


def test_bad_json_records_are_reported_and_skipped(tmp_path):
    settings = new_site(tmp_path, sb.base_files())
    source = tmp_path / "bad.json"
    source.write_text(json.dumps([
        {"name": "فاكس", "category": "مطاعم", "address": "الدار البيضاء", "fax": "1"},
        {"name": "رقم", "category": "مطاعم", "address": "الدار البيضاء", "phone": 5},
        ["not", "an", "object"],
        {"name": "صورة", "category": "مطاعم", "address": "الدار البيضاء", "image": "../x.png"},
        {"name": "Good One", "category": "مطاعم", "address": "الدار البيضاء"},
    ], ensure_ascii=False), encoding="utf-8")
    report = import_listings(source, settings)
    assert [(number, message.split()[0]) for number, message in report.skipped] == [
        (1, "unknown"), (2, "field"), (3, "is"), (4, "Image")]
    assert [path.name for path in report.written] == ["good-one.md"]


def test_unknown_csv_column_stops_the_import_before_writing(tmp_path):
    settings = new_site(tmp_path, sb.base_files())
    before = content_files(tmp_path)
    source = tmp_path / "other.csv"
    write_csv(source, [["name", "category", "address", "fax"], ["أ", "مطاعم", "فاس", "1"]])
    with pytest.raises(ImportFailed, match="fax"):
        import_listings(source, settings)
    task = run_task(tmp_path, source)
    assert task.returncode == 2 and "fax" in task.stderr
    assert content_files(tmp_path) == before


def test_a_failed_write_leaves_nothing_half_written(tmp_path, monkeypatch):
    settings = new_site(tmp_path, sb.base_files())
    source = tmp_path / "one.json"
    source.write_text(json.dumps([{"name": "مطعم", "category": "مطاعم",
                                   "address": "الدار البيضاء"}]), encoding="utf-8")
    before = content_files(tmp_path)

    def failing_replace(source, target):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        import_listings(source, settings)
    assert content_files(tmp_path) == before
    assert not [name for _, _, names in os.walk(tmp_path / "content") for name in names
                if name.startswith(".dalil-")]


# -- addresses ------------------------------------------------------------------

@pytest.mark.parametrize("address, cities, expected", [
    ("12 شارع، 20000 الدار البيضاء، المغرب", {"الدار البيضاء"},
     ("12 شارع", "20000", "الدار البيضاء", "المغرب")),
    ("12 شارع، الطابق 2، 20000 الدار البيضاء، المغرب", set(),
     ("12 شارع، الطابق 2", "20000", "الدار البيضاء", "المغرب")),
    ("الرباط، المغرب", set(), ("", "", "الرباط", "المغرب")),
    ("شارع النصر، الرباط", set(), ("شارع النصر", "", "الرباط", "")),
    ("فاس", set(), ("", "", "فاس", "")),
    ("6 أكتوبر، مصر", {"6 أكتوبر"}, ("", "", "6 أكتوبر", "مصر")),
    ("", set(), ("", "", "", "")),
])
def test_split_address(address, cities, expected):
    assert split_address(address, cities, "المغرب") == expected


def test_a_listings_translation_is_not_taken_for_the_listing(tmp_path):
    """``dar-tajine.fr.md`` sorts before ``dar-tajine.md``: the import still replaces the
    listing's own file, and leaves the translation of its description as it is."""
    files = {**sb.base_files(), **sb.listing("dar-tajine", "دار الطاجين")}
    files["listings/dar-tajine.fr.md"] = sb.metadata_file("Des tajines.", Slug="dar-tajine",
                                                          Lang="fr")
    settings = new_site(tmp_path, files)
    translation = content_files(tmp_path)["listings/dar-tajine.fr.md"]
    source = tmp_path / "one.csv"
    write_csv(source, [FIELDS, ["دار الطاجين الجديدة", "مطاعم", "", "", "", "الدار البيضاء", "",
                                sb.SITEURL + "/directory/listing/dar-tajine/", ""]])
    report = import_listings(source, settings)
    assert [message.split(" already holds")[0] for _, message in report.skipped] == [
        str(tmp_path / "content/listings/dar-tajine.md")]
    report = import_listings(source, settings, force=True)
    assert report.skipped == []
    written = content_files(tmp_path)
    assert "Title: دار الطاجين الجديدة" in written["listings/dar-tajine.md"].decode("utf-8")
    assert written["listings/dar-tajine.fr.md"] == translation
