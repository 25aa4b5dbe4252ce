"""Dalil's search page and Pagefind on one built site: bytes fetched until the first
results, and the time from navigation to them, per query, in headless Chromium.

``python3 -m benchmarks.peer OUTPUT [--throttle 4]``: OUTPUT is a built site (run
``pagefind --site OUTPUT`` first). Files with a ``.gz`` copy beside them (Dalil's search
index) are sent as the copy with ``Content-Encoding: gzip``, as nginx's gzip_static does;
Pagefind's own files are compressed already. Each query opens a fresh page (empty cache).
"""

import argparse
import functools
import http.server
import shutil
import statistics
import threading
import urllib.parse
from pathlib import Path

QUERIES = ["مطعم", "صيدلية", "فندق", "restaurant", "pharmacie", "hotel"]

PAGEFIND_PAGE = b"""<!DOCTYPE html><html lang="ar"><meta charset="utf-8"><title>pagefind</title>
<script type="module">
const q = new URLSearchParams(location.search).get('q');
const pagefind = await import('/pagefind/pagefind.js');
await pagefind.init();
const found = await pagefind.search(q);
const top = await Promise.all(found.results.slice(0, 10).map(r => r.data()));
window.__first = { at: performance.now(), urls: top.map(d => d.url) };
</script></html>"""

DALIL_PROBE = """
window.__first = null;
document.addEventListener('dalil:results', e => {
  if (e.detail.query && !window.__first) window.__first = { at: performance.now(), total: e.detail.total };
}, true);
"""



class _Handler(http.server.SimpleHTTPRequestHandler):
    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if path == "/__pagefind.html":
            self._send(PAGEFIND_PAGE, "text/html; charset=utf-8")
            return
        copy = Path(self.translate_path(path) + ".gz")
        if copy.is_file():
            self._send(copy.read_bytes(), "application/json; charset=utf-8", "gzip")
            return
        super().do_GET()

    def _send(self, body, content_type, encoding=None):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def measure(browser, url, probe, throttle):
    page = browser.new_page()
    if throttle > 1:
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    if probe:
        page.add_init_script(probe)
    finished = []  # the worker's requests too, which the page's resource timing leaves out
    page.on("requestfinished", lambda request: finished.append(request))
    page.goto(url)
    page.wait_for_function("window.__first", timeout=600_000)
    figures = {"ms": page.evaluate("window.__first.at"),
               "bytes": sum(request.sizes()["responseBodySize"] for request in list(finished))}
    page.close()
    return figures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--throttle", type=int, default=1)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_Handler, directory=str(Path(args.output).resolve()))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    rows = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, headless=True,
                                                 args=["--no-sandbox", "--disable-gpu"])
            for query in QUERIES:
                quoted = urllib.parse.quote(query)
                rows[query] = {
                    "dalil": measure(browser, f"{base}/search/?q={quoted}", DALIL_PROBE,
                                     args.throttle),
                    "pagefind": measure(browser, f"{base}/__pagefind.html?q={quoted}", None,
                                        args.throttle)}
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(f"First results after navigation, CPU throttling {args.throttle}x "
          f"(bytes: bodies on the wire of the requests finished by then, the page included)")
    print(f"{'query':<12} {'Dalil ms':>9} {'Dalil bytes':>12} {'Pagefind ms':>12} "
          f"{'Pagefind bytes':>15}")
    for query, row in rows.items():
        print(f"{query:<12} {row['dalil']['ms']:>9.0f} {row['dalil']['bytes']:>12,} "
              f"{row['pagefind']['ms']:>12.0f} {row['pagefind']['bytes']:>15,}")
    for engine in ("dalil", "pagefind"):
        print(f"median {engine}: {statistics.median(r[engine]['ms'] for r in rows.values()):.0f} ms")
    return rows


if __name__ == "__main__":
    main()
