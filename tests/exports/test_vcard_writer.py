"""The build's vCard writer makes the bytes vobject makes: sample site, fixtures, fuzzed listings.

``listing_vcard`` writes the lines itself for speed; ``listing_vcard_vobject`` is the
reference. Each check compares the two for every listing of a real build (through
the ``vcard_reference`` test plugin) or for listings made of hostile text.
"""

import datetime as dt
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dalil.conf import PLUGINS
from dalil.exports.vcard import listing_vcard, listing_vcard_vobject
from tests import sitebuilder as sb
from tests.fuzz.strategies import HOSTILE_PIECES, hostile_text

from .fixtures import files as fixture_files
from .test_vcard import make_listing
from .vcard_reference import REPORT_NAME


def content_of(folder):
    """The files of a content folder as ``build_site`` takes them."""
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def compared(tmp_path, files):
    result = sb.build_site(tmp_path, files, PLUGIN_PATHS=[str(sb.PACKAGE_SOURCE), str(sb.REPO)],
                           PLUGINS=[*PLUGINS, "tests.exports.vcard_reference"])
    assert result.returncode == 0, result.log
    return json.loads((tmp_path / REPORT_NAME).read_text(encoding="utf-8"))


def test_the_sample_site_cards_are_vobjects(tmp_path):
    report = compared(tmp_path, content_of(sb.REPO / "content"))
    assert report["compared"] >= 5
    assert report["different"] == []


def test_the_fixture_cards_are_vobjects(tmp_path):
    report = compared(tmp_path, fixture_files())
    assert report["compared"] >= 5
    assert report["different"] == []


any_text = st.one_of(hostile_text, st.text(), st.sampled_from(HOSTILE_PIECES))
moments = st.one_of(st.none(), st.datetimes(timezones=st.just(dt.timezone.utc)))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=any_text, phone=any_text, street=any_text, postal_code=any_text, country=any_text,
       email=any_text, website=any_text, city=any_text, province=any_text, category=any_text,
       modified=moments)
def test_fuzzed_listings_make_the_same_bytes(name, phone, street, postal_code, country, email,
                                             website, city, province, category, modified):
    listing = make_listing(name, phone=phone, street=street, postal_code=postal_code,
                           country=country, email=email, website=website, modified=modified)
    listing.city.name, listing.city.province, listing.category.name = city, province, category
    assert listing_vcard(listing) == listing_vcard_vobject(listing)


@pytest.mark.parametrize("field", ["name", "phone", "street", "email", "website"])
def test_every_separator_is_escaped_alike(field):
    value = "a,b;c\\d\ne\r\nf\rg:h\"i"
    listing = make_listing(**{"name": "x", field: value})
    assert listing_vcard(listing) == listing_vcard_vobject(listing)
    assert "\\," in listing_vcard(listing) and "\\;" in listing_vcard(listing)


def test_coordinates_make_the_geo_line_vobject_writes():
    listing = make_listing("x", modified=dt.datetime(2026, 1, 2, tzinfo=dt.timezone.utc))
    assert "GEO" not in listing_vcard(listing)
    listing.latitude, listing.longitude = 33.5731, -7.5898
    lines = listing_vcard(listing).split("\r\n")
    assert lines[-4:] == ["GEO:33.5731;-7.5898", lines[-3], "END:VCARD", ""]
    assert lines[-3].startswith("REV:")
    assert listing_vcard(listing) == listing_vcard_vobject(listing)
