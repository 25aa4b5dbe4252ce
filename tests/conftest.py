import pytest

from tests import sitebuilder


@pytest.fixture
def build_site(tmp_path):
    """``build_site(files, **settings)``: build a tiny site in ``tmp_path``."""
    counter = iter(range(1000))

    def build(files, *, fatal="errors", env=None, **settings):
        return sitebuilder.build_site(tmp_path / f"site{next(counter)}", files,
                                      fatal=fatal, env=env, **settings)

    return build


@pytest.fixture(scope="session")
def chromium_browser():
    """One real headless Chromium per test session (per xdist worker)."""
    from tests.browser import chromium

    with chromium() as browser:
        yield browser
