"""The fixture site of the sitefiles tests, INTERFACE.md's table, and small HTTP helpers."""

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import time

from tests import sitebuilder as sb

# INTERFACE.md's paths and types, written out here so the tests do not take them
# from the module under test.
INTERFACE_FILES = {
    "/search-index.json": "application/json; charset=utf-8",
    "/search/index/head.json": "application/json; charset=utf-8",
    "/opensearch.xml": "application/opensearchdescription+xml; charset=utf-8",
    "/rss.xml": "application/rss+xml; charset=utf-8",
    "/feed.json": "application/feed+json; charset=utf-8",
    "/sitemap-index.xml": "application/xml; charset=utf-8",
    "/sitemap-0.xml": "application/xml; charset=utf-8",
    "/news-sitemap.xml": "application/xml; charset=utf-8",
    "/robots.txt": "text/plain; charset=utf-8",
    "/build-info.json": "application/json; charset=utf-8",
    "/.well-known/security.txt": "text/plain; charset=utf-8",
    "/directory/export.json": "application/json; charset=utf-8",
    "/directory/export.csv": "text/csv; charset=utf-8",
    "/directory/export.geojson": "application/geo+json",
    "/directory/datapackage.json": "application/json; charset=utf-8",
    "/directory/listing/zaytouna/contact.vcf": "text/vcard; charset=utf-8",
    "/manifest.webmanifest": "application/manifest+json",
    "/sw.js": "text/javascript; charset=utf-8",
    "/schemas/search-index.schema.json": "application/schema+json",
    "/schemas/search-index-head.schema.json": "application/schema+json",
    "/schemas/search-index-part.schema.json": "application/schema+json",
    "/schemas/directory-export.schema.json": "application/schema+json",
    "/schemas/directory-geojson.schema.json": "application/schema+json",
    "/schemas/datapackage.schema.json": "application/schema+json",
}
INTERFACE_PAGES = (
    "/", "/directory/listing/zaytouna/", "/directory/category/restaurants/",
    "/directory/city/casablanca/", "/directory/", "/news/market-opens/", "/blog/tips/",
    "/about/", "/search/", "/search/?q=%D9%85%D8%B7%D8%B9%D9%85", "/random/", "/saved/",
    "/compare/", "/404/", "/404.html", "/offline/", "/open-data/", "/sitemap/",
)
HOST_FILES = ("nginx.conf.snippet", "_headers", ".htaccess")
FINGERPRINTED_IMAGE = "images/logo.0123abcd.svg"
SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'


def fixture_files():
    """A site with every kind of content, the repository's open-data page, and a
    fingerprinted image."""
    files = sb.base_files()
    files.update(sb.category("pharmacies", "صيدليات", "Pharmacies", "Pharmacies"))
    files.update(sb.listing(
        "zaytouna", "مطعم الزيتونة", Name_en="Zaytouna", Name_fr="La Zaytouna",
        Street="12 شارع محمد الخامس", Postal_code="20000", Country="المغرب",
        Phone="+212 522 123 456", Email="contact@zaytouna.example",
        Website="https://zaytouna.example/", Image="/images/z.svg",
        Date="2026-01-01 10:00", Modified="2026-10-02 16:30", Summary="مطعم مغربي."))
    files.update(sb.listing("atlas-pharmacy", "صيدلية الأطلس", category="pharmacies",
                            Date="2026-02-01"))
    files.update(sb.listing("future-bakery", "مخبزة قادمة", Status="draft"))
    files.update(sb.news("market-opens", "افتتاح السوق", "2026-11-20 10:00"))
    files["blog/tips.md"] = sb.metadata_file("نصائح.", Title="نصائح", Slug="tips",
                                             Date="2026-11-01")
    files["pages/open-data.md"] = (sb.REPO / "content" / "pages" / "open-data.md").read_text(
        encoding="utf-8")
    files["images/z.svg"] = SVG
    files[FINGERPRINTED_IMAGE] = SVG
    return files


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port, process=None, deadline=60):
    """Block until something listens on ``port`` (a readiness wait, not a timed check)."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port}")


def fetch(port, path, method="GET", headers=None):
    """``(status, headers, body)`` of one request; redirects are not followed, the body
    is the bytes on the wire (never decoded)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def single(headers, name):
    """The one value of header ``name``; a header sent twice (or never) fails."""
    values = headers.get_all(name) or []
    assert len(values) == 1, (name, values)
    return values[0]


@contextlib.contextmanager
def process(command, **kwargs):
    """A subprocess in its own session, ended (with its children) on exit."""
    proc = subprocess.Popen(command, start_new_session=True, **kwargs)
    try:
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
