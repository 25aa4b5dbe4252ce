"""/search/ does not move as its results arrive: the cumulative layout shift that Chromium
reports (layout-shift entries without recent input, summed) on the sample site, on a
desktop and on a phone."""

from urllib.parse import quote

import pytest

from tests import sitebuilder as sb
from tests.interface.checks import browsing

pytestmark = pytest.mark.browser

# Collects every layout shift from the page's first frame on.
OBSERVE_SHIFTS = """
window.__shifts = [];
new PerformanceObserver(list => {
  for (const entry of list.getEntries())
    if (!entry.hadRecentInput) window.__shifts.push(entry.value);
}).observe({type: 'layout-shift', buffered: true});
"""
# Two frames after the results: any shift they caused has been reported.
SHIFTS_AFTER_TWO_FRAMES = """() => new Promise(done => requestAnimationFrame(() =>
    requestAnimationFrame(() => setTimeout(() => done(window.__shifts), 300))))"""
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    result = sb.build_sample_site(tmp_path_factory.mktemp("layout-shift") / "output")
    assert result.returncode == 0, result.log
    return result


@pytest.mark.parametrize("viewport", sorted(VIEWPORTS))
@pytest.mark.parametrize("path", ["/search/?q=" + quote("مطعم"), "/search/?q=" + quote("فاس"),
                                  "/search/?category=restaurants"])
def test_results_arrive_without_moving_the_page(chromium_browser, sample, viewport, path):
    with browsing(chromium_browser, sample.output, VIEWPORTS[viewport],
                  init_script=OBSERVE_SHIFTS) as open_page:
        page = open_page(path)
        page.locator("#search-results li").first.wait_for()
        shifts = page.evaluate(SHIFTS_AFTER_TWO_FRAMES)
        assert sum(shifts) <= 0.02, shifts
        page.close()
