import pytest

from tests import sitebuilder as sb

from . import fixtures


@pytest.fixture(scope="package")
def hostile(tmp_path_factory):
    """The fixture site of fixtures.py, interface in Arabic (the default)."""
    result = sb.build_site(tmp_path_factory.mktemp("hostile"), fixtures.files())
    assert result.returncode == 0, result.log
    return result
