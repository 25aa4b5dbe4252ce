"""Real nginx, configured by the build's snippet, serving the fixture site; pages in Chromium."""

import gzip
import os
import shutil
import subprocess
import textwrap

import brotli
import pytest

from dalil.sitefiles.headers import header_policy, is_hidden, response_headers
from tests import sitebuilder as sb

from .fixture import (
    FINGERPRINTED_IMAGE, HOST_FILES, INTERFACE_FILES, INTERFACE_PAGES, fetch, free_port, single,
    wait_for_port,
)

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
HTML = "text/html; charset=utf-8"


def nginx_conf(prefix, root, port):
    temp = {name: prefix / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    return textwrap.dedent(f"""\
        daemon off;
        master_process off;
        worker_processes 1;
        pid {prefix / "nginx.pid"};
        error_log {prefix / "error.log"};
        events {{ worker_connections 64; }}
        http {{
            access_log off;
            client_body_temp_path {temp["body"]};
            proxy_temp_path {temp["proxy"]};
            fastcgi_temp_path {temp["fastcgi"]};
            uwsgi_temp_path {temp["uwsgi"]};
            scgi_temp_path {temp["scgi"]};
            server {{
                listen 127.0.0.1:{port};
                server_name localhost;
                root {root};
                include {root / "nginx.conf.snippet"};
            }}
        }}
        """)


def nginx_test(prefix, conf):
    """``nginx -t`` on ``conf``: its return code and every line it printed."""
    test = subprocess.run([NGINX, "-t", "-p", str(prefix), "-c", str(conf), "-e",
                           str(prefix / "error.log")], capture_output=True, text=True)
    return test.returncode, (test.stdout + test.stderr).splitlines()


@pytest.fixture(scope="module")
def nginx(site, tmp_path_factory):
    """nginx in the foreground, one process, on a free loopback port; yields the port."""
    prefix = tmp_path_factory.mktemp("nginx")
    port = free_port()
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_conf(prefix, site.output, port), encoding="utf-8")
    returncode, output = nginx_test(prefix, conf)
    assert returncode == 0, output
    process = subprocess.Popen([NGINX, "-p", str(prefix), "-c", str(conf), "-e",
                                str(prefix / "error.log")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, process)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture(scope="module")
def policy():
    return header_policy({"SITEURL": sb.SITEURL})


def test_nginx_takes_the_snippet_without_a_warning(site, tmp_path):
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_conf(tmp_path, site.output, free_port()), encoding="utf-8")
    returncode, output = nginx_test(tmp_path, conf)
    assert returncode == 0
    assert output == [f"nginx: the configuration file {conf} syntax is ok",
                      f"nginx: configuration file {conf} test is successful"]


def test_interface_files(nginx, site):
    for path, media_type in INTERFACE_FILES.items():
        status, headers, body = fetch(nginx, path)
        assert status == 200, path
        assert single(headers, "Content-Type") == media_type, path
        assert single(headers, "X-Content-Type-Options") == "nosniff", path
        assert single(headers, "Content-Security-Policy").startswith("default-src 'self'"), path
        if path != "/sw.js":
            assert single(headers, "Access-Control-Allow-Origin") == "*", path
        assert body == site.read(path, "rb"), path
    for path in ("/sw.js", "/build-info.json"):
        assert single(fetch(nginx, path)[1], "Cache-Control") == "no-cache", path
    assert "Access-Control-Allow-Origin" not in fetch(nginx, "/sw.js")[1]


def test_interface_pages(nginx):
    for path in INTERFACE_PAGES:
        status, headers, body = fetch(nginx, path)
        assert status == 200, path
        assert single(headers, "Content-Type") == HTML, path
        assert single(headers, "Cache-Control") == "no-cache", path
        assert single(headers, "X-Content-Type-Options") == "nosniff", path
        assert b"<html" in body, path


def test_saved_and_compare_pages_serve_and_are_noindex(nginx, site):
    for path in ("/saved/", "/compare/"):
        status, _, body = fetch(nginx, path)
        assert status == 200 and body == site.read(path + "index.html", "rb"), path
        assert b'<meta name="robots" content="noindex">' in body, path


def test_unknown_listing_gets_the_sites_404_page(nginx, site):
    for path in ("/directory/listing/no-such-listing/",
                 "/directory/listing/no-such-listing/contact.vcf"):
        status, headers, body = fetch(nginx, path)
        assert status == 404, path
        assert body == site.read("404.html", "rb"), path
        assert single(headers, "Content-Type") == HTML, path
        assert single(headers, "Content-Security-Policy").startswith("default-src 'self'")


def test_host_files_and_dot_files_are_not_served(nginx, site):
    for name in (*HOST_FILES, ".dalil-output-files.json"):  # the last, the build's record
        assert site.path(name).is_file()
        status, _, body = fetch(nginx, "/" + name)
        assert status == 404 and body == site.read("404.html", "rb"), name


def test_a_folder_without_its_slash_is_redirected(nginx):
    status, headers, _ = fetch(nginx, "/directory")
    assert status == 301
    assert headers["Location"].endswith("/directory/")


def test_every_file_with_its_headers(nginx, site, policy):
    served = 0
    for relpath in site.files():
        status, headers, body = fetch(nginx, "/" + relpath)
        if is_hidden(relpath, policy) or relpath.endswith((".br", ".gz")):
            # Precompressed copies are sent for their file's URL only.
            assert status == 404 and body == site.read("404.html", "rb"), relpath
            continue
        assert status == 200 and body == site.read(relpath, "rb"), relpath
        for name, value in response_headers(relpath, policy).items():
            assert single(headers, name) == value, (relpath, name)
        if not relpath.endswith((".json", ".xml", ".csv", ".vcf", ".geojson", ".txt",
                                 ".webmanifest")):
            assert "Access-Control-Allow-Origin" not in headers, relpath
        served += 1
    assert served > 50
    assert single(fetch(nginx, "/" + FINGERPRINTED_IMAGE)[1], "Cache-Control") == (
        "public, max-age=31536000, immutable")
    assert single(fetch(nginx, "/theme/css/dalil.css")[1], "Cache-Control") == (
        "public, max-age=0, must-revalidate")


def csp_violations(browser, port, paths):
    """``{path: [CSP violations reported while it loads and its scripts start]}``.

    Each page is opened at its real address (SITEURL) and every request to it is
    answered by nginx, so 'self' is the origin the site's links point to.
    """
    context = browser.new_context(service_workers="block")
    base = f"http://127.0.0.1:{port}"

    def from_nginx(route):
        route.fulfill(response=route.fetch(url=route.request.url.replace(sb.SITEURL, base, 1)))

    found = {}
    try:
        context.route(sb.SITEURL + "/**", from_nginx)
        context.add_init_script(
            "window.__violations = [];"
            "document.addEventListener('securitypolicyviolation', e =>"
            " window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));")
        page = context.new_page()
        console = []
        page.on("console", lambda message: console.append(message.text)
                if "Content Security Policy" in message.text else None)
        for path in paths:
            console.clear()
            page.goto(sb.SITEURL + path, wait_until="load")
            page.wait_for_timeout(100)  # lets deferred scripts run; not an assertion
            found[path] = page.evaluate("window.__violations") + console
        return found
    finally:
        context.unroute_all(behavior="ignoreErrors")  # requests the pages still make
        context.close()


@pytest.mark.browser
def test_the_sites_pages_satisfy_the_csp(nginx, site, chromium_browser):
    pages = [relpath for relpath in site.files() if relpath.endswith(".html")]
    assert len(pages) > 15
    paths = ["/" + relpath.removesuffix("index.html") for relpath in pages]
    found = csp_violations(chromium_browser, nginx, paths)
    assert found == {path: [] for path in paths}


@pytest.mark.browser
def test_the_csp_check_sees_inline_code(nginx, site, chromium_browser):
    probe = site.path("csp-probe.html")
    probe.write_text('<!DOCTYPE html><p style="color: red">x</p><script>document.title = 1'
                     '</script><script type="application/ld+json">{"@context": "x"}</script>',
                     encoding="utf-8")
    try:
        violations = csp_violations(chromium_browser, nginx, ["/csp-probe.html"])["/csp-probe.html"]
    finally:
        os.unlink(probe)
    assert any(v.startswith("script-src") and "inline" in v for v in violations), violations
    assert any(v.startswith("style-src") for v in violations), violations


PRECOMPRESSED = {"/search-index.json": "application/json; charset=utf-8",
                 "/search/index/head.json": "application/json; charset=utf-8",
                 "/directory/export.json": "application/json; charset=utf-8",
                 "/directory/export.csv": "text/csv; charset=utf-8"}


@pytest.mark.parametrize("path", sorted(PRECOMPRESSED))
def test_precompressed_copies_are_sent_for_the_files_url(nginx, site, path):
    original = site.read(path[1:], "rb")
    for accept, encoding, decode in (("gzip, deflate, br, zstd", "br", brotli.decompress),
                                     ("gzip", "gzip", gzip.decompress)):
        status, headers, body = fetch(nginx, path, headers={"Accept-Encoding": accept})
        assert status == 200
        assert single(headers, "Content-Encoding") == encoding, accept
        assert single(headers, "Content-Type") == PRECOMPRESSED[path]
        assert single(headers, "Access-Control-Allow-Origin") == "*"
        assert "Accept-Encoding" in single(headers, "Vary")
        # The build's copy, byte for byte, is what goes on the wire.
        assert body == site.read(f"{path[1:]}.{'gz' if encoding == 'gzip' else 'br'}", "rb")
        assert decode(body) == original
        assert len(body) < len(original)
    status, headers, body = fetch(nginx, path)  # no Accept-Encoding: the file as it is
    assert "Content-Encoding" not in headers and body == original


@pytest.mark.parametrize("path", ["/sitemap-0.xml", "/theme/css/dalil.css", "/rss.xml"])
def test_other_text_files_are_compressed_on_the_fly(nginx, site, path):
    status, headers, body = fetch(nginx, path, headers={"Accept-Encoding": "gzip"})
    assert status == 200 and single(headers, "Content-Encoding") == "gzip", path
    assert gzip.decompress(body) == site.read(path[1:], "rb")
    status, headers, _ = fetch(nginx, path, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in headers
