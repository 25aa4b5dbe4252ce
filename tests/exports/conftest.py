import pytest

from tests import sitebuilder as sb

from .fixtures import files


@pytest.fixture(scope="session")
def exports_site(tmp_path_factory):
    """The fixture site, built once per test session (per xdist worker)."""
    result = sb.build_site(tmp_path_factory.mktemp("exports"), files())
    assert result.returncode == 0, result.log
    return result
