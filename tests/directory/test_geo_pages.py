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
