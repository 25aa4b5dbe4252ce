"""The built site as validation sees it: its files, its base URL, and every check."""

import datetime as dt
import os
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from dalil.core.record import is_record

from . import checks, html
from .features import OUTPUTS, enabled_outputs, language_outputs
from .report import Report

# Resolves links of a site built with SITEURL = "" (root-relative links).
_PLACEHOLDER_BASE = "https://site.invalid"


class Site:
    def __init__(self, output, settings):
        self.root = Path(output).resolve()
        self.settings = settings
        self.siteurl = (settings.get("SITEURL") or "").rstrip("/")
        parts = urlsplit((self.siteurl or _PLACEHOLDER_BASE) + "/")
        self.origin = (parts.scheme.lower(), parts.netloc.lower())
        self.prefix = parts.path  # "/" or "/sub/folder/"
        self.base = f"{parts.scheme}://{parts.netloc}{parts.path}"
        self.parsed = {}  # relpath -> parsed JSON document, parsed once
        self.files = set()
        for folder, _, names in os.walk(self.root):
            relfolder = Path(folder).relative_to(self.root).as_posix()
            for name in names:
                self.files.add(name if relfolder == "." else f"{relfolder}/{name}")
        # The builds' lists of their files: never published.
        self.files = {relpath for relpath in self.files if not is_record(relpath)}

    def exists(self, relpath):
        return relpath in self.files

    def path(self, relpath):
        return self.root / relpath

    def read_bytes(self, relpath):
        return self.path(relpath).read_bytes()

    def url_of(self, relpath):
        return self.base + relpath

    def resolve(self, url, from_relpath=""):
        """``(internal, relpath)``: ``relpath`` is the file an internal URL serves, or None."""
        absolute = urljoin(self.url_of(from_relpath), url.strip())
        parts = urlsplit(absolute)
        if (parts.scheme.lower(), parts.netloc.lower()) != self.origin:
            return False, None
        path = unquote(parts.path or "/")
        if not path.startswith(self.prefix):
            return True, None
        path = path[len(self.prefix):]
        if path == "" or path.endswith("/"):
            candidates = [path + "index.html"]
        else:  # a folder without its slash: servers redirect to it
            candidates = [path, path + "/index.html"]
        for candidate in candidates:
            if candidate in self.files:
                return True, candidate
        return True, None


def validate_site(output, settings, now=None):
    """Check the site built in ``output`` with Pelican ``settings``; returns a ``Report``."""
    report = Report()
    site = Site(output, settings)
    if not site.root.is_dir():
        report.problem(str(output), "the output folder does not exist: build the site first")
        return report
    now = now or dt.datetime.now(dt.timezone.utc)
    enabled = enabled_outputs(settings)
    defaults = {name: output.default for name, output in OUTPUTS.items()}
    html.check_pages(site, report)
    checks.check_all(site, enabled, defaults, report, now, language_outputs(settings))
    return report
