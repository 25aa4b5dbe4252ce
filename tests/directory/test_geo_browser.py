"""Opening hours and "near me" in real headless Chromium, under a strict CSP, with a fixed
clock and a visitor's time zone other than the site's (Africa/Casablanca, the sample's).

Chromium's own zone data put Casablanca at UTC+0 from late November 2026, where tzdata
(and Python) say UTC+1: the page follows the build's offsets, and the first test below,
at 01:30 on 29 November 2026, would fail on Chromium's."""

import datetime as dt
import re
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests import sitebuilder as sb
from tests.browser import COLLECT_CSP_PROBLEMS, STRICT_CSP, serve

from .fixtures_geo import CAFES, files

pytestmark = pytest.mark.browser

SITE_TIMEZONE = "Africa/Casablanca"
SITE_ZONE = ZoneInfo(SITE_TIMEZONE)
VISITOR_ZONE = "Pacific/Honolulu"  # 11 hours behind the site in November, no daylight saving


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("geo-browser"), files(),
                           TIMEZONE=SITE_TIMEZONE)
    assert result.returncode == 0, result.log
    return result


@pytest.fixture(scope="module")
def local(site):
    with serve(site.output) as base:
        yield base


@pytest.fixture
def open_page(chromium_browser, local):
    """``open_page(path, at=None, **context_options)``: the page at https://dalil.test/<path>,
    answered by the local server with a strict CSP; ``at`` (a site-local datetime) fixes the
    clock. Any request to another host, script error or CSP violation fails the test."""
    problems, contexts = [], []

    def handle(route):
        path = urlsplit(route.request.url)
        response = route.fetch(url=local + path.path + ("?" + path.query if path.query else ""))
        headers = dict(response.headers)
        if headers.get("content-type", "").startswith("text/html"):
            headers["content-security-policy"] = STRICT_CSP
        route.fulfill(response=response, headers=headers)

    def open_(path, at=None, **options):
        context = chromium_browser.new_context(service_workers="block", locale="ar",
                                               timezone_id=VISITOR_ZONE, **options)
        contexts.append(context)
        context.route("https://dalil.test/**", handle)
        context.route(lambda url: not url.startswith("https://dalil.test/"),
                      lambda route: (problems.append("off-site " + route.request.url),
                                     route.abort()))
        context.add_init_script(COLLECT_CSP_PROBLEMS)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(f"error {error}"))
        if at is not None:
            page.clock.install(time=at.replace(tzinfo=SITE_ZONE))
        page.goto("https://dalil.test" + path)
        return page

    yield open_
    for context in contexts:
        for page in context.pages:
            problems.extend(page.evaluate("window.__problems"))
        context.unroute_all(behavior="ignoreErrors")
        context.close()
    assert not problems, problems


def status(page):
    line = page.locator(".open-status")
    expect(line).to_be_visible()
    return line


def today_row(page):
    return page.locator('.opening-hours tr[aria-current="date"] th')


def test_open_across_midnight_then_closed_without_a_reload(open_page):
    # Saturday's 18:00-03:00 runs into Sunday; in Honolulu it is Saturday 14:30 (closed).
    page = open_page("/directory/listing/night-grill/", at=dt.datetime(2026, 11, 29, 1, 30))
    expect(status(page)).to_have_text("مفتوح الآن، يغلق اليوم الساعة 03:00")
    expect(today_row(page)).to_have_text("الأحد")
    page.clock.run_for("02:00:00")  # 03:30: closed until Sunday's 12:00
    expect(status(page)).to_have_text("مغلق الآن، يفتح اليوم الساعة 12:00")


def test_closed_all_day_opens_tomorrow(open_page):
    # Monday noon at the site (Monday 01:00 in Honolulu): no range on Monday.
    page = open_page("/directory/listing/night-grill/", at=dt.datetime(2026, 11, 23, 12, 0))
    expect(status(page)).to_have_text("مغلق الآن، يفتح غدًا الساعة 18:00")
    expect(today_row(page)).to_have_text("الاثنين")
    expect(page.locator('.opening-hours tr[data-day="0"] td')).to_have_text("مغلق")


def test_open_in_the_evening_closes_today(open_page):
    # Tuesday 22:00 at the site is Tuesday 11:00 in Honolulu (closed then).
    page = open_page("/directory/listing/night-grill/", at=dt.datetime(2026, 11, 24, 22, 0))
    expect(status(page)).to_have_text("مفتوح الآن، يغلق اليوم الساعة 23:30")
    expect(today_row(page)).to_have_text("الثلاثاء")


def test_always_open(open_page):
    page = open_page("/directory/listing/always-open/", at=dt.datetime(2026, 11, 25, 3, 17))
    expect(status(page)).to_have_text("مفتوح الآن، على مدار الساعة")
    rows = page.locator(".opening-hours tbody tr td")
    expect(rows).to_have_count(7)
    expect(rows.first).to_have_text("على مدار الساعة")


def test_directions_are_plain_links(open_page):
    page = open_page("/directory/listing/night-grill/", at=dt.datetime(2026, 11, 24, 12, 0))
    links = page.locator(".directions a")
    expect(links).to_have_count(2)
    expect(links.nth(0)).to_have_attribute("href", "geo:33.5731,-7.5898")
    expect(links.nth(1)).to_have_attribute(
        "href", "https://www.openstreetmap.org/directions?route=%3B33.5731%2C-7.5898")


def test_listing_without_hours_or_coordinates_has_neither(open_page):
    page = open_page("/directory/listing/no-where-cafe/")
    expect(page.locator(".opening-hours")).to_have_count(0)
    expect(page.locator(".directions")).to_have_count(0)


def test_hours_and_directions_fit_a_phone(open_page):
    page = open_page("/directory/listing/night-grill/", at=dt.datetime(2026, 11, 24, 12, 0),
                     viewport={"width": 390, "height": 844})
    expect(status(page)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for selector in (".opening-hours", ".directions"):
        box = page.locator(selector).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (selector, box)


# -- near me -------------------------------------------------------------------

HERE = {"latitude": 33.5731, "longitude": -7.5898}


def haversine_km(a, b):
    """Great-circle distance on a sphere of the mean Earth radius."""
    import math

    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = (math.sin((lat2 - lat1) / 2) ** 2
         + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2)
    return 2 * 6371.0088 * math.asin(math.sqrt(h))


def near_me(page):
    button = page.locator(".near-me-button")
    expect(button).to_be_visible()
    button.click()
    results = page.locator(".near-me-results > li")
    expect(page.locator(".near-me-status")).to_contain_text("الأقرب إليك")
    return results


def distance_km(text):
    number, unit = text.strip(" ·").split()
    return float(number) / (1000 if unit == "م" else 1)


def test_near_me_orders_a_category_by_distance(open_page):
    page = open_page("/directory/category/cafes/", geolocation=HERE,
                     permissions=["geolocation"])
    results = near_me(page)
    expect(results).to_have_count(4)
    names = results.locator("a").all_inner_texts()
    assert names == ["مقهى قريب", "مقهى متوسط", "مقهى بعيد", "مقهى بلا موقع"]
    shown = [distance_km(text) for text in results.locator(".distance").all_inner_texts()]
    assert len(shown) == 3  # the listing without coordinates has no distance
    for (name, latitude, longitude), km in zip(CAFES.values(), shown):
        expected = haversine_km((HERE["latitude"], HERE["longitude"]),
                                (float(latitude), float(longitude)))
        assert abs(km - expected) <= max(0.06, expected * 0.05), (name, km, expected)
    expect(results.first.locator("a")).to_have_attribute(
        "href", "https://dalil.test/directory/listing/near-cafe/")


def test_near_me_on_the_search_page_orders_every_listing(open_page):
    page = open_page("/search/", geolocation={"latitude": 33.6, "longitude": -7.68},
                     permissions=["geolocation"])
    results = near_me(page)
    expect(results).to_have_count(7)
    names = results.locator("a").all_inner_texts()
    # From far-cafe's own spot: mid-cafe 7.0 km, night-grill 8.87 km, near-cafe 8.96 km.
    assert names[:4] == ["مقهى بعيد", "مقهى متوسط", "مشواة الليل", "مقهى قريب"]
    assert sorted(names[4:]) == sorted(["مقهى بلا موقع", "مطعم دائم", "مشواة الحي"])


def test_near_me_on_a_city_page_keeps_that_citys_listings_by_slug(open_page):
    # The district's listing has an address ending with "، الدار البيضاء": still not
    # Casablanca's.
    page = open_page("/directory/city/casablanca/", geolocation=HERE,
                     permissions=["geolocation"])
    results = near_me(page)
    expect(results).to_have_count(6)
    assert "مشواة الحي" not in results.locator("a").all_inner_texts()
    page = open_page("/directory/city/sidi-maarouf/", geolocation=HERE,
                     permissions=["geolocation"])
    results = near_me(page)
    expect(results).to_have_count(1)
    expect(results.locator(".meta")).to_have_text("شارع النخيل، سيدي معروف، الدار البيضاء")


def test_near_me_refused_shows_the_message(open_page):
    page = open_page("/directory/city/casablanca/")
    page.context.clear_permissions()
    page.locator(".near-me-button").click()
    expect(page.locator(".near-me-status")).to_contain_text("لم يُسمح بمعرفة موقعك")
    expect(page.locator(".near-me-results")).to_be_hidden()


def test_near_me_asks_only_on_click(open_page):
    page = open_page("/search/", geolocation=HERE, permissions=["geolocation"])
    expect(page.locator(".near-me-button")).to_be_visible()
    assert page.locator(".near-me-results > li").count() == 0
    expect(page.locator(".near-me-status")).to_have_text("")
    # The page's search worker has its index before the page closes: no request cut off.
    expect(page.locator("#live-search")).to_have_attribute("data-ready", re.compile(r"^\d+$"))


def axe_violations(page, selector):
    """axe-core's WCAG 2 A/AA violations inside ``selector`` (evaluated over CDP, which a
    page's CSP does not govern)."""
    from pathlib import Path

    axe = Path(__file__).resolve().parents[1] / "node_modules/axe-core/axe.min.js"
    page.evaluate(axe.read_text(encoding="utf-8") + ";0")
    result = page.evaluate("""selector => axe.run(document.querySelector(selector),
        {runOnly: ['wcag2a', 'wcag2aa']}).then(r => ({passes: r.passes.length,
        violations: r.violations.map(v => v.id + ': ' +
        v.nodes.map(n => n.target.join(' ')).join(', '))}))""", selector)
    assert result["passes"] > 0  # the rules did run on something
    return result["violations"]


def test_hours_and_near_me_pass_axe_on_a_phone(open_page):
    phone = {"width": 390, "height": 844}
    page = open_page("/directory/listing/night-grill/", at=dt.datetime(2026, 11, 24, 12, 0),
                     viewport=phone)
    expect(status(page)).to_be_visible()
    assert axe_violations(page, "article.listing") == []
    page = open_page("/directory/category/cafes/", viewport=phone, geolocation=HERE,
                     permissions=["geolocation"])
    expect(near_me(page)).to_have_count(4)
    assert axe_violations(page, ".near-me") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("at, status_text, today", [
    # Tuesday 18:30 in Casablanca (UTC+1 by tzdata; 17:30, closed, by Chromium's data).
    (dt.datetime(2031, 11, 25, 18, 30), "مفتوح الآن، يغلق اليوم الساعة 23:30", "الثلاثاء"),
    # Monday 00:30 (still Sunday 23:30 by Chromium's data).
    (dt.datetime(2031, 12, 1, 0, 30), "مغلق الآن، يفتح غدًا الساعة 18:00", "الاثنين"),
])
def test_open_now_five_years_after_the_build_follows_the_builds_tzdata(open_page, at,
                                                                       status_text, today):
    assert at.replace(tzinfo=SITE_ZONE).utcoffset() == dt.timedelta(hours=1)
    page = open_page("/directory/listing/night-grill/", at=at)
    expect(status(page)).to_have_text(status_text)
    expect(today_row(page)).to_have_text(today)
