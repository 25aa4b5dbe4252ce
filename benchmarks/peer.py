"""Dalil's search page and Pagefind on one built site: per query, the time from navigation
to the first results, the bytes fetched until then and the top 10, in headless Chromium.

``python3 -m benchmarks.peer OUTPUT [--throttle 4]``: OUTPUT is a built site (run
``pagefind --site OUTPUT`` first). ``invoke bench-search`` runs the same on its synthetic
10,000 and 100,000 listing sites, with recall@10. A file with a ``.gz`` copy beside it
(Dalil's indexes) is sent as the copy with ``Content-Encoding: gzip`` to a client that
takes gzip, as nginx's gzip_static does; Pagefind's own files are compressed already.
Each query opens a fresh page (empty cache). With ``--throttle``, the CPU of the page's
renderer, its worker included, is slowed that many times (a phone's proxy).
"""

import argparse
import json
import shutil
import statistics
import urllib.parse
import urllib.request
from pathlib import Path

from tests.browser import _Handler as SiteHandler
from tests.browser import serve

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
  if (e.detail.query && !window.__first) window.__first = { at: performance.now(),
    urls: Array.from(document.querySelectorAll('#search-results a.result-link'))
      .slice(0, 10).map(a => new URL(a.href).pathname) };
}, true);
"""

BYTES_PATH = "/__bytes"


class Handler(SiteHandler):
    """The site's files with their types; ``pages`` maps extra paths to (bytes, type).
    ``/__bytes`` answers how many body bytes the server sent since the last time it
    was asked, images left out: what a page and its workers fetched, whatever the
    browser reports."""

    pages = {"/__pagefind.html": (PAGEFIND_PAGE, "text/html; charset=utf-8")}

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if path == BYTES_PATH:
            total = sum(getattr(self.server, "sent_bodies", []))
            self.send_bytes(str(total).encode(), "text/plain")
            self.server.sent_bodies = []  # this answer too
            return
        if path in self.pages:
            self.send_bytes(*self.pages[path])
            return
        copy = Path(self.translate_path(path) + ".gz")
        if copy.is_file() and "gzip" in self.headers.get("Accept-Encoding", ""):
            self.send_bytes(copy.read_bytes(), self.guess_type(self.translate_path(path)), "gzip")
            return
        super().do_GET()

    def send_header(self, keyword, value):
        if keyword == "Content-Type":
            self.sent_type = value
        elif keyword == "Content-Length" and not getattr(self, "sent_type", "").startswith("image/"):
            self.server.__dict__.setdefault("sent_bodies", []).append(int(value))
        super().send_header(keyword, value)

    def send_bytes(self, body, content_type, encoding=None):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)



def throttle(page, rate):
    """Slows the page's renderer ``rate`` times (its workers run in it too); returns the
    CDP session, which also reaches the page's workers (``worker_heap``)."""
    cdp = page.context.new_cdp_session(page)
    cdp.workers = []
    cdp.replies = {}
    cdp.on("Target.attachedToTarget", lambda event: cdp.workers.append(event["sessionId"])
           if event["targetInfo"]["type"] == "worker" else None)  # not the service worker
    cdp.on("Target.detachedFromTarget", lambda event: event["sessionId"] in cdp.workers
           and cdp.workers.remove(event["sessionId"]))  # an ended worker
    cdp.on("Target.receivedMessageFromTarget", lambda event: _reply(cdp, event))
    cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False,
                                      "flatten": False})
    if rate > 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return cdp


def _reply(cdp, event):
    message = json.loads(event["message"])
    if "id" in message:
        cdp.replies[message["id"]] = message


def page_heap(cdp):
    """The page's used JS heap and its ArrayBuffers' storage (typed arrays, outside the
    heap), in bytes, after a garbage collection."""
    cdp.send("HeapProfiler.collectGarbage")
    usage = cdp.send("Runtime.getHeapUsage")
    return {"used": usage["usedSize"], "array_buffers": usage.get("backingStorageSize", 0)}


def worker_heap(page, cdp):
    """The used JS heap, in bytes, of the page's first dedicated worker, after a garbage
    collection (None when it has none, or it has ended)."""
    from playwright.sync_api import Error

    try:
        for number, method in enumerate(("HeapProfiler.collectGarbage", "Runtime.getHeapUsage")):
            cdp.send("Target.sendMessageToTarget", {"sessionId": cdp.workers[0], "message":
                     json.dumps({"id": number + 1, "method": method, "params": {}})})
    except (Error, IndexError):  # no worker, or it has just ended
        return None
    for _ in range(40):
        if 2 in cdp.replies:
            return cdp.replies.pop(2).get("result", {}).get("usedSize")
        page.wait_for_timeout(25)
    return None


def sent_bytes(url):
    """The body bytes the benchmark's server sent since it was last asked."""
    base = urllib.parse.urlsplit(url)
    with urllib.request.urlopen(f"{base.scheme}://{base.netloc}{BYTES_PATH}") as response:
        return int(response.read())


def measure(browser, url, probe, rate):
    """Time to the first results after navigation, body bytes the server sent until
    then (the worker's requests too; not the results' images), the top 10 URLs. The
    site's service worker is blocked: its precaching of the theme is not the search's."""
    page = browser.new_page(service_workers="block")
    throttle(page, rate)
    if probe:
        page.add_init_script(probe)
    sent_bytes(url)
    page.goto(url)
    page.wait_for_function("window.__first", timeout=600_000)
    figures = {"bytes": sent_bytes(url), **page.evaluate("window.__first")}
    figures["ms"] = figures.pop("at")
    page.close()
    return figures


def compare(browser, base, queries, rate):
    """Per query: Dalil's /search/?q= and Pagefind's API, each on a fresh page."""
    rows = {}
    for query in queries:
        quoted = urllib.parse.quote(query)
        rows[query] = {
            "dalil": measure(browser, f"{base}/search/?q={quoted}", DALIL_PROBE, rate),
            "pagefind": measure(browser, f"{base}/__pagefind.html?q={quoted}", None, rate)}
    return rows


def print_rows(rows, rate, recall=None):
    """The table of ``compare``; ``recall(query, urls)`` adds recall@10 columns."""
    print(f"\nFirst results after navigation, CPU throttling {rate}x (bytes: bodies on the "
          f"wire of the requests made until then, the page included, the results' images not)")
    header = f"{'query':<16} {'Dalil ms':>9} {'bytes':>11} {'Pagefind ms':>12} {'bytes':>11} {'ratio':>6}"
    print(header + ("  recall@10 Dalil / Pagefind" if recall else ""))
    for query, row in rows.items():
        dalil, pagefind = row["dalil"], row["pagefind"]
        line = (f"{query:<16} {dalil['ms']:>9.0f} {dalil['bytes']:>11,} {pagefind['ms']:>12.0f} "
                f"{pagefind['bytes']:>11,} {dalil['ms'] / pagefind['ms']:>6.2f}")
        if recall:
            line += f"  {recall(query, dalil['urls']):.2f} / {recall(query, pagefind['urls']):.2f}"
        print(line)
    medians = {engine: statistics.median(r[engine]["ms"] for r in rows.values())
               for engine in ("dalil", "pagefind")}
    print(f"median: Dalil {medians['dalil']:.0f} ms, Pagefind {medians['pagefind']:.0f} ms, "
          f"ratio {medians['dalil'] / medians['pagefind']:.2f}")
    return medians


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--throttle", type=int, default=1)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with serve(Path(args.output).resolve(), Handler) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        rows = compare(browser, base, QUERIES, args.throttle)
        browser.close()
    print_rows(rows, args.throttle)
    return rows


if __name__ == "__main__":
    main()
