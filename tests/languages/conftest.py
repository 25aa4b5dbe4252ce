import pytest

from tests import sitebuilder as sb


@pytest.fixture(scope="package")
def site(tmp_path_factory):
    """The sample site in its three languages (ar at the root, /fr/, /en/), built as
    README's first command builds it, at an address (absolute URLs, as published)."""
    result = sb.build_sample_site(tmp_path_factory.mktemp("languages") / "output",
                                  SITEURL=sb.SITEURL)
    assert result.returncode == 0, result.log
    return result


@pytest.fixture(scope="package")
def one_language(tmp_path_factory):
    """The same content built in Arabic alone."""
    result = sb.build_sample_site(tmp_path_factory.mktemp("arabic") / "output",
                                  SITEURL=sb.SITEURL, DALIL_LANGUAGES=["ar"])
    assert result.returncode == 0, result.log
    return result
