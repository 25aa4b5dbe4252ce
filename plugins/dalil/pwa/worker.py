"""The service worker: its precache list (the theme's real static files) and its script."""

import fnmatch
import hashlib
import json
import os
import posixpath
from pathlib import Path

WORKER_SOURCE = Path(__file__).parent / "sw.js"


def relative_url(url, base_dir):
    """``url`` (relative to SITEURL) as seen from the folder ``base_dir`` of a file."""
    relative = posixpath.relpath(url or ".", base_dir or ".")
    if relative == ".":
        return "./"
    return relative + "/" if url.endswith("/") else relative


def theme_static_files(settings):
    """``(output path, source path)`` of every file Pelican copies from the theme.

    The same walk as Pelican's ``StaticGenerator._copy_paths``, which runs after
    every other generator: the files are not in the output folder yet.
    """
    theme = Path(settings["THEME"])
    destination = settings.get("THEME_STATIC_DIR", "theme")
    ignores = settings.get("IGNORE_FILES") or []

    def ignored(name):
        return any(fnmatch.fnmatch(name, pattern) for pattern in ignores)

    files = {}
    for path in settings.get("THEME_STATIC_PATHS", ["static"]):
        source = theme / path
        if ignored(os.path.basename(path)):
            continue
        if source.is_file():
            files[posixpath.join(destination, source.name)] = source
            continue
        for folder, subfolders, names in os.walk(source, followlinks=True):
            subfolders[:] = sorted(name for name in subfolders if not ignored(name))
            for name in names:
                if not ignored(name):
                    relpath = Path(folder, name).relative_to(source).as_posix()
                    files[posixpath.join(destination, relpath)] = Path(folder, name)
    return sorted(files.items())


def worker_script(cfg, built_at, precache, data_urls):
    """``sw.js``: the build's settings as JSON, then the worker's code.

    The cache version hashes the build time and every precached file, so a new
    build (or a changed file under a pinned ``SOURCE_DATE_EPOCH``) makes a new
    worker, whose activation deletes the older build's cache.
    """
    base_dir = posixpath.dirname(cfg.sw_save_as)
    digest = hashlib.sha256(built_at.encode())
    for url, source in precache:
        digest.update(b"\0" + url.encode() + b"\0" + hashlib.sha256(source.read_bytes()).digest())
    build = {
        "builtAt": built_at,
        "version": digest.hexdigest()[:16],
        "precache": [relative_url(url, base_dir) for url, _ in precache],
        "offline": relative_url(cfg.offline_url, base_dir) if cfg.offline_save_as else "",
        # Files that scripts read (the search indexes): kept for offline use.
        "data": [relative_url(url, base_dir) for url in data_urls],
        "neverCache": [relative_url(url, base_dir) for url in (*cfg.never_cache, cfg.sw_save_as)],
        "maxPages": int(cfg.max_pages),
    }
    settings = json.dumps(build, ensure_ascii=False, allow_nan=False, sort_keys=True, indent=1)
    header = ("// Dalil's service worker, written by the build (plugins/dalil/pwa).\n"
              f"'use strict';\nconst BUILD = {settings};\n")
    return header + WORKER_SOURCE.read_text(encoding="utf-8")
