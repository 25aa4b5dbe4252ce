"""Two builds with one SOURCE_DATE_EPOCH are identical byte for byte; security.txt validates.

The epoch is the current time (whole seconds), so sectxt, which compares Expires
with the real clock, sees a file that has just been built.
"""

import datetime as dt
import json
import time

import pytest
from sectxt import Parser

from tests import sitebuilder as sb

from .fixture import fixture_files

EPOCH = int(time.time())
BUILD_TIME = dt.datetime.fromtimestamp(EPOCH, dt.timezone.utc)


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    results = []
    for name in ("first", "second"):
        result = sb.build_site(tmp_path_factory.mktemp(name), fixture_files(),
                               env={"SOURCE_DATE_EPOCH": str(EPOCH)})
        assert result.returncode == 0, result.log
        results.append(result)
    return results


def test_two_builds_are_identical_byte_for_byte(builds):
    first, second = builds
    assert first.output != second.output
    files = first.files()
    assert files == second.files()
    assert len(files) > 50
    different = [relpath for relpath in files
                 if first.read(relpath, "rb") != second.read(relpath, "rb")]
    assert different == []


def test_build_info_time_is_the_epoch(builds):
    info = json.loads(builds[0].read("build-info.json"))
    assert info["builtAt"] == BUILD_TIME.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def test_security_txt_validates_with_sectxt(builds):
    url = f"{sb.SITEURL}/.well-known/security.txt"
    parser = Parser(builds[0].read(".well-known/security.txt", "rb"), urls=url)
    assert parser.errors == []
    assert parser.is_valid()
    assert parser.contact_email == "security@dalil.example"
    assert parser.preferred_languages == ["ar", "en", "fr"]
    assert not any(item["code"] == "long_expiry" for item in parser.recommendations)
    value = next(line["value"] for line in parser.lines if line.get("field_name") == "expires")
    expires = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    assert BUILD_TIME < expires < BUILD_TIME + dt.timedelta(days=365)
