"""The installable, offline-capable site in real headless Chromium on a loopback port.

Service workers need a secure context: http://127.0.0.1 is one. The fixture sites
are built with ``SITEURL = ""`` so their links point at the loopback server.
"""

from urllib.parse import quote, urljoin

import pytest
from playwright.sync_api import expect

from tests import sitebuilder as sb
from tests.browser import _Handler, serve

from .fixtures import fixture_files, page_file, worker_build

pytestmark = pytest.mark.browser

# What the pages promise to work under: no inline script or style, nothing off-site.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; "
       "base-uri 'none'")
COLLECT_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
"""
# Resolves once the worker controls the page and has finished activating. (A promise,
# not wait_for_function: Playwright's polling evaluates strings, which the CSP forbids.)
ACTIVATED = """async () => {
  const worker = (await navigator.serviceWorker.ready).active;
  if (worker.state !== 'activated') {
    await new Promise(resolve => worker.addEventListener('statechange',
      () => worker.state === 'activated' && resolve()));
  }
  if (!navigator.serviceWorker.controller) {
    await new Promise(resolve => navigator.serviceWorker.addEventListener('controllerchange', resolve));
  }
  return navigator.serviceWorker.controller.state;
}"""
CACHE_NAMES = "caches.keys()"
CACHED_URLS = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
  }
  return urls;
}"""


class _CspHandler(_Handler):
    def end_headers(self):
        self.send_header("Content-Security-Policy", CSP)
        if self.path.split("?")[0].endswith("/sw.js"):
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()


def serve_with_csp(directory):
    """tests.browser.serve, with a strict Content-Security-Policy on every response."""
    return serve(directory, _CspHandler)


def build(root):
    result = sb.build_site(root, fixture_files(), SITEURL="")
    assert result.returncode == 0, result.log
    return result


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build(tmp_path_factory.mktemp("pwa-browser"))


@pytest.fixture(scope="module")
def base(site):
    with serve_with_csp(site.output) as url:
        yield url


@pytest.fixture
def context(chromium_browser):
    context = chromium_browser.new_context(locale="ar")
    context.add_init_script(COLLECT_VIOLATIONS)
    errors = []
    context.on("weberror", lambda error: errors.append(str(error.error)))
    yield context
    context.close()
    assert not errors


def open_page(context, url):
    page = context.new_page()
    page.goto(url)
    return page


def assert_no_violations(page):
    assert page.evaluate("window.__violations") == []


def test_chromium_reads_the_manifest_without_errors(context, base, site):
    page = open_page(context, base + "/")
    session = context.new_cdp_session(page)
    manifest = session.send("Page.getAppManifest")
    assert manifest["url"] == base + "/manifest.webmanifest"
    assert manifest["errors"] == []
    data = page.evaluate("url => fetch(url).then(r => r.json())", manifest["url"])
    assert len(data["shortcuts"]) == 4
    # Chromium decodes every icon at its declared size.
    icons = data["icons"] + [icon for shortcut in data["shortcuts"] for icon in shortcut["icons"]]
    for icon in icons:
        url = urljoin(manifest["url"], icon["src"])
        size = page.evaluate("""url => new Promise((resolve, reject) => {
            const image = new Image();
            image.onload = () => resolve(image.naturalWidth + 'x' + image.naturalHeight);
            image.onerror = reject;
            image.src = url;
        })""", url)
        assert size == icon["sizes"], url
    for shortcut in data["shortcuts"]:
        url = urljoin(manifest["url"], shortcut["url"])
        assert page.request.get(url).status == 200, url
    assert_no_violations(page)


def test_worker_installs_activates_and_precaches_the_build(context, base, site):
    page = open_page(context, base + "/directory/")
    assert page.evaluate(ACTIVATED) == "activated"
    version = worker_build(site)["version"]
    assert sorted(page.evaluate(CACHE_NAMES)) == ["dalil:/:pages", f"dalil:/:static:{version}"]
    cached = set(page.evaluate(CACHED_URLS))
    for path in worker_build(site)["precache"]:
        assert base + "/" + path in cached, path
    # The visit that installed the worker is kept for offline use too.
    assert base + "/directory/" in cached
    assert_no_violations(page)


def test_offline_a_visited_page_comes_from_the_cache_and_others_get_the_offline_page(context, base):
    page = open_page(context, base + "/directory/listing/zaytouna/")
    assert page.evaluate(ACTIVATED) == "activated"
    # Fetched (online, through the worker) but never cached: it tells what is deployed.
    assert page.evaluate("fetch('/build-info.json').then(r => r.ok)") is True
    context.set_offline(True)
    try:
        page.reload()
        expect(page.locator("h1")).to_have_text("مطعم الزيتونة")
        # The stylesheet came from the cache too.
        header = page.evaluate("getComputedStyle(document.querySelector('.site-header')).backgroundColor")
        assert header == "rgb(11, 93, 59)"
        page.goto(base + "/directory/listing/atlas-pharmacy/")
        expect(page.locator("h1")).to_have_text("أنت غير متصل بالإنترنت")
        assert page.url == base + "/directory/listing/atlas-pharmacy/"
        # The offline page lists what this device keeps.
        expect(page.locator("#offline-pages a")).to_have_text(["مطعم الزيتونة · مطاعم في الدار البيضاء"])
        assert_no_violations(page)
    finally:
        context.set_offline(False)
    cached = page.evaluate(CACHED_URLS)
    assert not [url for url in cached if "build-info" in url]
    assert not [url for url in cached if "atlas-pharmacy" in url]


def test_a_new_build_deletes_the_old_cache_and_offers_a_reload(chromium_browser, tmp_path):
    site = build(tmp_path / "site")
    old_version = worker_build(site)["version"]
    with serve_with_csp(site.output) as base:
        context = chromium_browser.new_context(locale="ar")
        try:
            page = open_page(context, base + "/directory/")
            assert page.evaluate(ACTIVATED) == "activated"
            assert f"dalil:/:static:{old_version}" in page.evaluate(CACHE_NAMES)
            expect(page.locator(".update-banner")).to_be_empty()
            # Same content, built an hour later, into the folder the server serves.
            rebuilt = sb.run_pelican(site.root, env={"SOURCE_DATE_EPOCH": "1795266000"})
            assert rebuilt.returncode == 0, rebuilt.log
            new_version = worker_build(rebuilt)["version"]
            assert new_version != old_version
            page.reload()
            # The browser checks sw.js for an update some time after a navigation; ask now,
            # as it would, so that the test does not hang on the browser's schedule.
            page.evaluate("navigator.serviceWorker.ready.then(r => r.update()).then(() => true)")
            banner = page.locator(".update-banner[role=status]")
            expect(banner).to_contain_text("تتوفّر نسخة أحدث من الموقع", timeout=30_000)
            # The page hears of the new worker as it takes control, before it has finished
            # activating (deleting the older caches).
            assert page.evaluate(ACTIVATED) == "activated"
            names = page.evaluate(CACHE_NAMES)
            assert f"dalil:/:static:{new_version}" in names
            assert f"dalil:/:static:{old_version}" not in names
            banner.get_by_role("button", name="حدّث الصفحة").click()
            page.wait_for_load_state()
            expect(page.locator("h1")).to_be_visible()
            expect(page.locator(".update-banner")).to_be_empty()
        finally:
            context.close()


def test_save_two_listings_reload_and_compare_them_side_by_side(context, base):
    page = open_page(context, base + "/directory/category/restaurants/")
    buttons = page.locator("button[data-save]")
    expect(buttons).to_have_count(2)
    page.get_by_role("button", name="حفظ مطعم الزيتونة").click()
    page.goto(base + "/directory/listing/atlas-pharmacy/")
    save = page.get_by_role("button", name="حفظ في المحفوظات")
    expect(save).to_have_attribute("aria-pressed", "false")
    save.click()
    expect(save).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.get_by_role("button", name="حفظ في المحفوظات")).to_have_attribute("aria-pressed", "true")

    page.goto(base + "/saved/")
    items = page.locator(".saved-item h2 a")
    expect(items).to_have_text(["مطعم الزيتونة", "صيدلية الأطلس"])
    share = page.locator("#saved-share-link")
    expect(share).to_have_value(base + "/saved/?ids=zaytouna,atlas-pharmacy")

    page.goto(base + "/compare/")
    table = page.locator("#compare-table")
    expect(table.locator("thead th[scope=col]")).to_have_text(["مطعم الزيتونة", "صيدلية الأطلس"])
    rows = {
        "الفئة": ["مطاعم", "صيدليات"],
        "المدينة": ["الدار البيضاء", "الرباط"],
        "الهاتف": ["+212 522 123 456", "0537 11 22 33"],
        "الموقع الإلكتروني": ["https://zaytouna.example/", "—"],
        "العنوان": ["12 شارع محمد الخامس، 20000 الدار البيضاء، المغرب", "زنقة الأطلس، الرباط، المغرب"],
    }
    for label, values in rows.items():
        row = table.locator("tbody tr").filter(has=page.locator(f"th:text-is('{label}')"))
        expect(row.locator("td")).to_have_text(values)
    expect(table.locator("a[href='tel:+212522123456']")).to_have_count(1)
    assert_no_violations(page)


def test_saved_list_remove_share_link_and_offline(context, base):
    page = open_page(context, base + "/directory/listing/zaytouna/")
    assert page.evaluate(ACTIVATED) == "activated"
    page.evaluate("slugs => localStorage.setItem('dalil:saved', JSON.stringify(slugs))",
                  ["zaytouna", "friends-cafe", "gone-shop"])
    page.goto(base + "/saved/")
    expect(page.locator(".saved-item h2")).to_have_text(
        ["مطعم الزيتونة", 'مقهى "الأصدقاء" & <شركاؤهم>', "قائمة لم تعد في الدليل"])
    page.get_by_role("button", name="إزالة gone-shop").click()
    page.get_by_role("button", name='إزالة مقهى "الأصدقاء" & <شركاؤهم>').click()
    expect(page.locator(".saved-item h2")).to_have_text(["مطعم الزيتونة"])
    assert page.evaluate("localStorage.getItem('dalil:saved')") == '["zaytouna"]'
    expect(page.locator("#saved-compare")).to_be_hidden()  # one listing cannot be compared

    # Both pages work offline once visited (the search index is kept as well).
    page.goto(base + "/compare/")
    expect(page.locator("#saved-status")).to_have_text("احفظ قائمتين على الأقل لتقارن بينهما.")
    context.set_offline(True)
    try:
        page.goto(base + "/saved/")
        expect(page.locator(".saved-item h2")).to_have_text(["مطعم الزيتونة"])
    finally:
        context.set_offline(False)

    # A shared link shows its listings in another browser, which may keep them.
    other = context.browser.new_context(locale="ar")
    try:
        shared = open_page(other, base + "/saved/?ids=friends-cafe,zaytouna,not%20a%20slug")
        expect(shared.locator(".saved-item h2")).to_have_text(
            ['مقهى "الأصدقاء" & <شركاؤهم>', "مطعم الزيتونة"])
        expect(shared.locator("button[data-remove]")).to_have_count(0)
        shared.get_by_role("button", name="أضفها إلى محفوظاتي").click()
        assert shared.url == base + "/saved/"
        assert shared.evaluate("localStorage.getItem('dalil:saved')") == '["friends-cafe","zaytouna"]'
        expect(shared.locator("button[data-remove]")).to_have_count(2)
    finally:
        other.close()


def test_unknown_paths_get_the_not_found_page(context, base, site):
    response = context.new_page().goto(base + "/no/such/page/")
    assert response.status == 404
    assert page_file(site.output, "/404/").is_file()
    assert "الصفحة غير موجودة" in response.text()


def test_the_search_answers_offline_what_its_fetched_parts_hold(context, base):
    page = open_page(context, base + "/search/")
    assert page.evaluate(ACTIVATED) == "activated"
    page.goto(base + "/search/?q=" + quote("الزيتونة"))
    expect(page.locator("#search-results a.result-link")).to_have_count(1)
    context.set_offline(True)
    try:
        # The page, the head and the query's part from the worker's cache ...
        page.goto(base + "/search/?q=" + quote("الزيتونة"))
        expect(page.locator("#search-results a.result-link")).to_have_count(1)
        # ... but a part never fetched (a city's listings) cannot come: it says so.
        page.select_option("#facet-city", "rabat")
        page.locator("#site-search").fill("")
        expect(page.locator("#search-status")).to_contain_text("تعذّر تحميل فهرس البحث")
    finally:
        context.set_offline(False)
    assert_no_violations(page)
