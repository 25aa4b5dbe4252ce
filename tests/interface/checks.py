"""Standing checks of built pages as people meet them: the Nu Html Checker, axe-core in
Chromium, and page width on a 390 px phone."""

import contextlib
import json
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

from tests import sitebuilder as sb
from tests.browser import serve

NODE_MODULES = sb.REPO / "tests" / "node_modules"
VNU = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
AXE = NODE_MODULES / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SAVED_KEY = "dalil:saved"


def vnu_errors(folder):
    """Every error the Nu Html Checker finds in the HTML files under ``folder`` (one JVM)."""
    completed = subprocess.run(["java", "-jar", str(VNU), "--format", "json", "--skip-non-html",
                                str(folder)], capture_output=True, text=True, timeout=600)
    messages = json.loads(completed.stderr)["messages"]
    return [f"{Path(urlsplit(m.get('url', '')).path).relative_to(folder)}:"
            f"{m.get('lastLine')}: {m['message']}" for m in messages
            if m["type"] == "error" or m.get("subType") == "fatal"]


@contextlib.contextmanager
def browsing(browser, output, viewport=PHONE, saved=(), init_script=None):
    """A Chromium context where https://dalil.test/ is ``output``; ``saved``: slugs in the
    saved list; ``init_script`` runs in each page before its own scripts. Yields
    ``open_page(path)``; requests off the site are refused."""
    with serve(output) as local:
        context = browser.new_context(viewport=viewport, service_workers="block")

        def handle(route):
            url = urlsplit(route.request.url)
            route.fulfill(response=route.fetch(
                url=local + url.path + ("?" + url.query if url.query else "")))

        context.route("https://dalil.test/**", handle)
        context.route(lambda url: not url.startswith("https://dalil.test/"),
                      lambda route: route.abort())
        if init_script:
            context.add_init_script(init_script)
        if saved:
            context.add_init_script(f"localStorage.setItem({SAVED_KEY!r}, "
                                    f"{json.dumps(json.dumps(list(saved)))})")

        def open_page(path):
            page = context.new_page()
            page.goto(sb.SITEURL + path)
            page.wait_for_load_state("networkidle")
            return page

        try:
            yield open_page
        finally:
            context.unroute_all(behavior="ignoreErrors")
            context.close()


def axe_violations(page):
    """axe-core's violations on ``page`` (WCAG 2.x A and AA and best practices)."""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    results = page.evaluate("axe.run(document).then(r => r.violations.map(v => "
                            "({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))})))")
    return results


def page_width(page):
    """How wide the page's content is, in CSS pixels (the viewport's width when nothing overflows)."""
    return page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")


def first(output, folder):
    """The URL path of the first page in ``folder`` (a listing, a category, ...)."""
    page = sorted((output / folder).glob("*/index.html"))[0]
    return "/" + page.parent.relative_to(output).as_posix() + "/"


def page_types(output):
    """The URL path of one page of each type in the site at ``output``."""
    paths = [
        "/", "/directory/", first(output, "directory/listing"),
        first(output, "directory/category"), first(output, "directory/city"),
        "/news/", first(output, "news"), first(output, "blog"), "/about/",
        "/search/?q=%D9%85", "/random/", "/saved/", "/compare/", "/404/", "/offline/",
        "/sitemap/",
    ]
    if (output / "open-data" / "index.html").is_file():
        paths.append("/open-data/")
    return paths
