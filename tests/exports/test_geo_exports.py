"""export.geojson (read with the geojson library and checked against its published schema)
and datapackage.json (checked by ``frictionless validate`` over all three resources)."""

import datetime as dt
import json
import shutil
import subprocess

import geojson
import jsonschema
import pytest

from tests import sitebuilder as sb

from .fixtures import expected_records

GEO_FIELDS = ["name", "category", "phone", "email", "website", "address", "image", "url",
              "dateModified", "slug", "city", "hours"]


@pytest.fixture(scope="module")
def collection(exports_site):
    return geojson.loads(exports_site.read("directory/export.geojson"))


def test_geojson_is_a_valid_feature_collection_of_points(collection):
    assert isinstance(collection, geojson.FeatureCollection)
    assert collection.is_valid, collection.errors()
    for feature in collection["features"]:
        assert isinstance(feature, geojson.Feature) and feature.is_valid
        assert isinstance(feature["geometry"], geojson.Point)


def test_geojson_has_listings_with_coordinates_in_slug_order(collection):
    # Only two of the five published listings have coordinates; none is a draft or hidden.
    assert [feature["id"] for feature in collection["features"]] == ["long-name", "zaytouna"]


def test_geojson_coordinates_are_longitude_then_latitude(collection):
    by_slug = {feature["id"]: feature for feature in collection["features"]}
    # Casablanca is at 33.57 N, 7.59 W: longitude first (RFC 7946 section 3.1.1).
    assert by_slug["zaytouna"]["geometry"]["coordinates"] == [-7.5898, 33.5731]
    assert by_slug["long-name"]["geometry"]["coordinates"] == [0, 0.00001]


def test_geojson_properties_are_the_export_record_plus_slug_city_hours(collection):
    records = {record["url"]: record for record in expected_records()}
    for feature in collection["features"]:
        properties = feature["properties"]
        assert list(properties) == GEO_FIELDS
        record = records[properties["url"]]
        assert {name: properties[name] for name in record} == record
        assert properties["slug"] == feature["id"]
        assert properties["city"] == "الدار البيضاء"
    hours = {feature["id"]: feature["properties"]["hours"] for feature in collection["features"]}
    assert hours == {"zaytouna": "Mo-Th 12:00-23:00; Fr,Sa 12:00-01:00", "long-name": ""}


def test_geojson_matches_its_published_schema(exports_site):
    schema = json.loads(exports_site.read("schemas/directory-geojson.schema.json"))
    jsonschema.Draft202012Validator.check_schema(schema)
    document = json.loads(exports_site.read("directory/export.geojson"))
    jsonschema.validate(document, schema, cls=jsonschema.Draft202012Validator)
    swapped = json.loads(json.dumps(document))
    swapped["features"][0]["geometry"]["coordinates"] = [10.0, 120.0]  # latitude past 90
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(swapped, schema, cls=jsonschema.Draft202012Validator)
    bad_hours = json.loads(json.dumps(document))
    bad_hours["features"][1]["properties"]["hours"] = "Mo-Fr 9-18"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad_hours, schema, cls=jsonschema.Draft202012Validator)


@pytest.fixture(scope="module")
def package(exports_site):
    return json.loads(exports_site.read("directory/datapackage.json"))


def test_frictionless_validates_all_three_resources(exports_site):
    frictionless = shutil.which("frictionless")
    assert frictionless, "pip install 'frictionless[json]'"
    completed = subprocess.run([frictionless, "validate", "--json", "datapackage.json"],
                               cwd=exports_site.path("directory"), capture_output=True,
                               text=True, timeout=300)
    report = json.loads(completed.stdout)
    assert report["valid"] and completed.returncode == 0, completed.stdout
    tasks = {task["name"]: task for task in report["tasks"]}
    assert sorted(tasks) == ["directory-csv", "directory-geojson", "directory-json"]
    assert all(task["valid"] for task in tasks.values())
    assert tasks["directory-csv"]["stats"]["rows"] == len(expected_records())
    assert tasks["directory-json"]["stats"]["rows"] == len(expected_records())


def test_datapackage_describes_the_exports_licence_and_build_time(package, exports_site):
    schema = json.loads(exports_site.read("schemas/datapackage.schema.json"))
    jsonschema.validate(package, schema, cls=jsonschema.Draft202012Validator)
    resources = {resource["name"]: resource for resource in package["resources"]}
    assert {name: (r["path"], r["format"], r["mediatype"]) for name, r in resources.items()} == {
        "directory-csv": ("export.csv", "csv", "text/csv"),
        "directory-json": ("export.json", "json", "application/json"),
        "directory-geojson": ("export.geojson", "geojson", "application/geo+json"),
    }
    for name in ("directory-csv", "directory-json"):
        fields = resources[name]["schema"]["fields"]
        assert [field["name"] for field in fields] == GEO_FIELDS[:9]
        assert all(field["description"] for field in fields)
        types = {field["name"]: (field["type"], field["format"]) for field in fields}
        assert types["dateModified"] == ("datetime", "default")
        assert types["email"] == ("string", "email") and types["url"] == ("string", "uri")
    (licence,) = package["licenses"]
    assert licence["path"] == sb.SITEURL + "/open-data/"
    assert "Non-commercial" in licence["title"] and "attribution" in licence["title"]
    built = dt.datetime.fromtimestamp(int(sb.DEFAULT_EPOCH), dt.timezone.utc)
    assert package["created"] == built.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert package["id"] == sb.SITEURL + "/directory/datapackage.json"


def test_frictionless_rejects_an_export_that_breaks_the_table_schema(exports_site, tmp_path):
    """The package's Table Schema really constrains the data: a bad date fails validation."""
    folder = tmp_path / "directory"
    shutil.copytree(exports_site.path("directory"), folder,
                    ignore=shutil.ignore_patterns("listing", "category", "city", "*.html"))
    records = json.loads((folder / "export.json").read_text(encoding="utf-8"))
    records[0]["dateModified"] = "yesterday"
    (folder / "export.json").write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    completed = subprocess.run([shutil.which("frictionless"), "validate", "--json",
                                "datapackage.json"], cwd=folder, capture_output=True, text=True,
                               timeout=300)
    report = json.loads(completed.stdout)
    tasks = {task["name"]: task for task in report["tasks"]}
    assert not tasks["directory-json"]["valid"] and tasks["directory-csv"]["valid"]
