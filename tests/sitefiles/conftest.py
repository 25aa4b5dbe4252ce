import pytest

from tests import sitebuilder as sb

from .fixture import fixture_files


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The fixture site, built once per test session (per xdist worker)."""
    result = sb.build_site(tmp_path_factory.mktemp("sitefiles"), fixture_files())
    assert result.returncode == 0, result.log
    return result
