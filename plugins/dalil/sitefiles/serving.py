"""Development servers that send each file with the headers a real host sends.

``invoke serve`` uses ``make_server``; ``invoke livereload`` uses
``LiveReloadHandler`` (livereload's tornado handler). Both take types and
headers from ``headers.response_headers``; a missing page gets ``/404.html``
with status 404, as on a host configured by the header files.
"""

import fnmatch
import functools
import http.server
import os
import threading
from pathlib import Path

import watchfiles
from livereload.handlers import StaticFileHandler
from livereload.watcher import Watcher
from tornado.ioloop import IOLoop
from tornado.web import HTTPError

from .content_types import content_type
from .headers import HeaderPolicy, is_hidden, response_headers

NOT_FOUND_PAGE = "404.html"


def _relpath(path, root):
    return Path(os.path.relpath(path, root)).as_posix()


class SiteRequestHandler(http.server.SimpleHTTPRequestHandler):
    """Python's static handler with Dalil's types and headers."""

    def __init__(self, *args, policy=HeaderPolicy(), **kwargs):
        self.policy = policy
        self.served = None  # the file being sent, relative to the site folder
        super().__init__(*args, **kwargs)

    def send_head(self):
        if is_hidden(_relpath(self.translate_path(self.path), self.directory), self.policy):
            self.send_error(404)
            return None
        return super().send_head()

    def list_directory(self, path):
        self.send_error(404)  # a host shows no folder listings
        return None

    def guess_type(self, path):
        self.served = _relpath(path, self.directory)
        return content_type(self.served)

    def end_headers(self):
        if self.served is not None:
            for name, value in response_headers(self.served, self.policy).items():
                if name != "Content-Type":
                    self.send_header(name, value)
            self.served = None
        super().end_headers()

    def send_error(self, code, message=None, explain=None):
        page = Path(self.directory, NOT_FOUND_PAGE)
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", content_type(NOT_FOUND_PAGE))
        self.send_header("Content-Length", str(len(body)))
        self.served = NOT_FOUND_PAGE
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


class SiteServer(http.server.ThreadingHTTPServer):
    allow_reuse_address = True
    daemon_threads = True


def make_server(directory, host, port, policy=HeaderPolicy()):
    """A threading HTTP server for ``directory``; port 0 picks a free one."""
    handler = functools.partial(SiteRequestHandler, directory=str(directory), policy=policy)
    return SiteServer((host, port), handler)


class LiveReloadHandler(StaticFileHandler):
    """livereload's handler with Dalil's types and headers, except the CSP:
    livereload injects an inline script into every page, which it would block."""

    policy = HeaderPolicy()

    def validate_absolute_path(self, root, absolute_path):
        if is_hidden(_relpath(absolute_path, root), self.policy):
            raise HTTPError(404)
        return super().validate_absolute_path(root, absolute_path)

    def get_content_type(self):
        return content_type(_relpath(self.absolute_path, self.root))

    def set_extra_headers(self, path):
        relpath = _relpath(self.absolute_path, self.root)
        for name, value in response_headers(relpath, self.policy, csp=False).items():
            if name != "Content-Type":
                self.set_header(name, value)

    def write_error(self, status_code, **kwargs):
        page = Path(self.root, NOT_FOUND_PAGE)
        if status_code != 404 or not page.is_file():
            super().write_error(status_code, **kwargs)
            return
        self.set_header("Content-Type", content_type(NOT_FOUND_PAGE))
        for name, value in response_headers(NOT_FOUND_PAGE, self.policy, csp=False).items():
            if name != "Content-Type":
                self.set_header(name, value)
        self.finish(page.read_bytes())


def live_reload_handler(policy):
    """A handler class bound to ``policy`` (livereload takes a class, not an instance)."""
    return type("SiteLiveReloadHandler", (LiveReloadHandler,), {"policy": policy})


class ChangeWatcher(Watcher):
    """livereload's watcher, told of changes by the operating system (watchfiles, which
    Pelican's own ``-r`` uses) instead of scanning every watched file every 800 ms: a
    save starts its rebuild at once, and an idle server reads no folder.

    Patterns are a file, or a folder followed by ``/**/`` and a file-name pattern.
    """

    def __init__(self):
        super().__init__()
        self._changed = set()

    @staticmethod
    def _split(pattern):
        """``(folder, name pattern)``; name pattern None for a single file."""
        if "/**/" in pattern:
            folder, name = pattern.split("/**/", 1)
            return os.path.abspath(folder), name
        return os.path.abspath(pattern), None

    def _matches(self, pattern, path):
        folder, name = self._split(pattern)
        if name is None:
            return path == folder
        return path.startswith(folder + os.sep) and fnmatch.fnmatch(os.path.basename(path), name)

    def start(self, callback):
        loop = IOLoop.current()
        folders = {self._split(pattern) for pattern in self._tasks}
        # A single file is watched through its folder, without that folder's subfolders
        # (the site's folder holds the output).
        recursive = sorted({folder for folder, name in folders if name is not None})
        flat = sorted({os.path.dirname(path) for path, name in folders if name is None})

        def changed(paths):
            self._changed |= paths
            callback()

        def watch(paths, recursive):
            for changes in watchfiles.watch(*paths, recursive=recursive, step=20,
                                            raise_interrupt=False):
                loop.add_callback(changed, {path for _, path in changes})

        for paths, deep in ((recursive, True), (flat, False)):
            if paths:
                threading.Thread(target=watch, args=(paths, deep), daemon=True).start()
        return True

    def examine(self):
        """Run the task of every pattern a changed file matches; ``(a changed path, None)``."""
        changed, self._changed = self._changed, set()
        self.filepath = None
        for pattern, task in self._tasks.items():
            ignore = task["ignore"]
            hits = [path for path in changed if self._matches(pattern, path)
                    and not self.ignore(path) and not (ignore and ignore(path))]
            if hits:
                self.filepath = hits[0]
                if task["func"]:
                    task["func"]()
        return self.filepath, None
