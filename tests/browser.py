"""Real headless Chromium (Debian's) driven by Playwright, and a loopback static server."""

import contextlib
import functools
import http.server
import os
import shutil
import sys
import threading
from pathlib import Path

from dalil.sitefiles.content_types import content_type

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Off the network: this machine has none, and Chromium's background fetches only fail.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


class _Handler(http.server.SimpleHTTPRequestHandler):
    def guess_type(self, path):
        """INTERFACE.md's type, from the one table the site's servers use."""
        return content_type(Path(os.path.relpath(path, self.directory)).as_posix())

    def log_message(self, *args):
        pass

    def send_error(self, code, message=None, explain=None):
        """A 404 gets the site's own 404.html, as on a real host."""
        page = Path(self.directory) / "404.html"
        if code == 404 and page.is_file():
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return
        super().send_error(code, message, explain)


# What the pages promise to work under: no inline script or style, nothing off-site.
STRICT_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
              "connect-src 'self'; object-src 'none'; base-uri 'none'")
# An init script: the page's CSP violations, read back from window.__problems.
COLLECT_CSP_PROBLEMS = """
window.__problems = [];
document.addEventListener('securitypolicyviolation',
  e => window.__problems.push('CSP ' + e.violatedDirective + ' ' + e.blockedURI));
"""

class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a page closed mid-response
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(directory, handler_class=_Handler):
    """Serve ``directory`` on a free loopback port; yields the base URL."""
    handler = functools.partial(handler_class, directory=str(directory))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def chromium():
    """A headless Chromium browser (Playwright's sync API)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
