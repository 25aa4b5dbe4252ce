"""Where and when: JSON-LD (read with extruct), the week table and directions links."""

import extruct
import pytest
from bs4 import BeautifulSoup

from tests import sitebuilder as sb

from .fixtures_geo import files

SCHEMA = "https://schema.org/"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("geo-pages"), files())
    assert result.returncode == 0, result.log
    return result


def json_ld(site, slug):
    html = site.read(f"directory/listing/{slug}/index.html")
    (data,) = extruct.extract(html, base_url=sb.SITEURL + f"/directory/listing/{slug}/",
                              syntaxes=["json-ld"], uniform=True)["json-ld"]
    return data


def test_json_ld_type_geo_description_and_hours(site):
    data = json_ld(site, "night-grill")
    assert data["@type"] == "LocalBusiness"
    assert data["description"] == "مشويات حتى الفجر."
    assert data["geo"] == {"@type": "GeoCoordinates", "latitude": 33.5731, "longitude": -7.5898}
    specs = [(tuple(day.removeprefix(SCHEMA) for day in spec["dayOfWeek"]),
              spec["opens"], spec["closes"]) for spec in data["openingHoursSpecification"]]
    assert all(spec["@type"] == "OpeningHoursSpecification"
               for spec in data["openingHoursSpecification"])
    assert specs == [
        (("Tuesday", "Wednesday", "Thursday"), "18:00", "23:30"),
        (("Friday", "Saturday"), "18:00", "03:00"),  # closes before it opens: the next day
        (("Sunday",), "12:00", "15:00"),
        (("Sunday",), "18:00", "23:00"),
    ]


def test_json_ld_type_comes_from_the_category(site):
    assert json_ld(site, "near-cafe")["@type"] == "CafeOrCoffeeShop"
    # The base site's restaurants category names no Schema_type.
    assert json_ld(site, "always-open")["@type"] == "LocalBusiness"


def test_always_open_is_whole_days(site):
    data = json_ld(site, "always-open")
    (spec,) = data["openingHoursSpecification"]
    assert [day.removeprefix(SCHEMA) for day in spec["dayOfWeek"]] == [
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    assert (spec["opens"], spec["closes"]) == ("00:00", "23:59")
    assert "geo" not in data and "description" not in data


def test_listing_without_hours_or_coordinates_has_neither(site):
    data = json_ld(site, "no-where-cafe")
    assert "geo" not in data and "openingHoursSpecification" not in data


def test_search_index_carries_coordinates_latitude_first(site):
    import json

    import jsonschema

    entries = json.loads(site.read("search-index.json"))
    schema = json.loads(site.read("schemas/search-index.schema.json"))
    jsonschema.validate(entries, schema, cls=jsonschema.Draft202012Validator)
    listings = {entry["s"]: entry for entry in entries if entry["t"] == "listing"}
    assert listings["near-cafe"]["ll"] == [33.578, -7.587]
    assert listings["far-cafe"]["ll"] == [33.6, -7.68]
    assert "ll" not in listings["no-where-cafe"] and "ll" not in listings["always-open"]
    assert not any("ll" in entry for entry in entries if entry["t"] != "listing")
    swapped = [dict(listings["far-cafe"], ll=[133.6, -7.68])]  # latitude past 90
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(swapped, schema, cls=jsonschema.Draft202012Validator)


def test_near_me_hooks_on_search_category_and_city_pages(site):
    for relpath, category, city in (("search/index.html", "", ""),
                                    ("directory/category/cafes/index.html", "cafes", ""),
                                    ("directory/city/casablanca/index.html", "", "casablanca")):
        section = BeautifulSoup(site.read(relpath), "html.parser").find("section", class_="near-me")
        assert section is not None, relpath
        assert section["data-index"] == sb.SITEURL + "/search-index.json"
        assert (section["data-category"], section["data-city"]) == (category, city), relpath
        assert section.find("button", class_="near-me-button")
        assert section.find("script", src=sb.SITEURL + "/theme/js/near-me.js")


def test_hours_directions_and_near_me_markup_is_valid_html(site):
    """The Nu Html Checker (vnu) finds no error on the pages that carry the new markup."""
    import shutil
    import subprocess
    from pathlib import Path

    vnu = Path(__file__).resolve().parents[1] / "node_modules/vnu-jar/build/dist/vnu.jar"
    assert vnu.is_file() and shutil.which("java"), "npm ci --prefix tests; Debian's java"
    pages = [site.path(relpath) for relpath in ("directory/listing/night-grill/index.html",
                                                "directory/listing/always-open/index.html",
                                                "search/index.html")]
    completed = subprocess.run(["java", "-jar", str(vnu), "--errors-only", *map(str, pages)],
                               capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, completed.stderr + completed.stdout
