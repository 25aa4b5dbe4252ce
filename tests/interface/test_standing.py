"""Standing checks on the sample site and on the hostile fixture, with the interface in
Arabic and in French: the Nu Html Checker finds 0 errors on every HTML file; axe-core
finds 0 violations on every page type; no page is wider than a 390 px phone."""

import subprocess
import sys

import pytest

from tests import sitebuilder as sb

from . import fixtures
from .checks import PHONE, axe_violations, browsing, page_types, page_width, vnu_errors

SITES = [("sample", "ar"), ("sample", "fr"), ("hostile", "ar"), ("hostile", "fr")]


def build_sample(folder, lang):
    output = folder / "output"
    completed = subprocess.run(
        [sys.executable, "-m", "pelican", str(sb.REPO / "content"), "-o", str(output),
         "-s", str(sb.REPO / "pelicanconf.py"), "--fatal", "errors",
         "-e", f'DALIL_INTERFACE_LANG="{lang}"'],
        cwd=folder, capture_output=True, text=True, timeout=600,
        env={**sb.os.environ, "SOURCE_DATE_EPOCH": sb.DEFAULT_EPOCH,
             "PYTHONPATH": str(sb.PACKAGE_SOURCE)})
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return output


@pytest.fixture(scope="module", params=SITES, ids=lambda site: "-".join(site))
def built(request, tmp_path_factory):
    name, lang = request.param
    folder = tmp_path_factory.mktemp(f"{name}-{lang}")
    if name == "sample":
        return build_sample(folder, lang)
    result = sb.build_site(folder, fixtures.files(), DALIL_INTERFACE_LANG=lang)
    assert result.returncode == 0, result.log
    return result.output


def test_nu_html_checker_finds_no_error(built):
    assert vnu_errors(built) == []


@pytest.mark.browser
def test_axe_finds_no_violation_and_no_page_is_wider_than_a_phone(built, chromium_browser):
    saved = [path.name for path in sorted((built / "directory" / "listing").iterdir())][:2]
    problems = []
    with browsing(chromium_browser, built, PHONE, saved=saved) as open_page:
        for path in page_types(built):
            page = open_page(path)
            if path.startswith("/compare/"):
                page.locator("#compare-table thead th").nth(1).wait_for()
            if path.startswith("/search/"):
                page.locator(".search-results li").first.wait_for()
            problems += [(path, violation) for violation in axe_violations(page)]
            if page_width(page) > PHONE["width"]:
                problems.append((path, f"{page_width(page)} px wide"))
            page.close()
    assert problems == []
