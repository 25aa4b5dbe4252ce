"""Build timings per generator and per output (listing pages, exports, vCards, …).

Enabled by adding ``benchmarks.timings`` to ``PLUGINS`` (``invoke bench`` does). Every
generator's ``generate_context`` and ``generate_output`` are wrapped when it is
created, and every output file is reported by Dalil's writer and ``output_files``,
so no generator needs code of its own: the time between two outputs of one
generator is charged to the kind of the second.
"""

import json
import logging
import re
import time
from dataclasses import dataclass

from pelican import signals

from dalil.core.output import OBSERVER_KEY
from dalil.core.settings import read_settings

logger = logging.getLogger(__name__)

KINDS = [
    (re.compile(r"^directory/listing/.+\.vcf$"), "vcards"),
    (re.compile(r"^(directory|drafts)/listing/"), "listing pages"),
    (re.compile(r"^directory/(category|city)/"), "category and city pages"),
    (re.compile(r"^directory/index\.html$"), "directory index"),
    (re.compile(r"^directory/export\."), "exports"),
    (re.compile(r"search-index\.json$|^opensearch\.xml$|^search/|^random/"), "search index"),
    (re.compile(r"sitemap"), "sitemaps"),
    (re.compile(r"^(rss\.xml|feed\.json)$"), "feeds"),
    (re.compile(r"manifest\.webmanifest$|^sw\.js$|^offline/"), "pwa"),
    (re.compile(r"^(robots\.txt|\.well-known/|build-info\.json|schemas/|_headers|_redirects)"),
     "site files"),
    (re.compile(r"^(news|blog)/"), "news and blog pages"),
]


@dataclass(frozen=True)
class PerfSettings:
    timings_path: str = ""  # a JSON file to write the timings to; "" writes none


def kind_of(relpath):
    relpath = str(relpath).lstrip("/")
    for pattern, kind in KINDS:
        if pattern.search(relpath):
            return kind
    return None


class Timings:
    def __init__(self, path):
        self.path = path
        self.generators = {}  # "Name.generate_context" -> seconds
        self.outputs = {}  # kind -> seconds
        self.files = {}  # kind -> count
        self.current = None
        self.last = time.perf_counter()

    def _charge(self, kind, now):
        self.outputs[kind] = self.outputs.get(kind, 0.0) + (now - self.last)
        self.last = now

    def mark(self, relpath, count=1):
        """``count`` files like ``relpath`` were written since the previous mark."""
        now = time.perf_counter()
        kind = kind_of(relpath) or f"other ({self.current})"
        self._charge(kind, now)
        self.files[kind] = self.files.get(kind, 0) + count

    def run(self, name, phase, function, *args):
        started = self.last = time.perf_counter()
        self.current = name
        try:
            return function(*args)
        finally:
            now = time.perf_counter()
            if phase == "generate_output" and now > self.last:
                self._charge(f"other ({name})", now)
            key = f"{name}.{phase}"
            self.generators[key] = self.generators.get(key, 0.0) + now - started
            self.current = None
            self.save()

    def as_dict(self):
        return {
            "generators": {k: round(v, 4) for k, v in self.generators.items()},
            "outputs": {k: round(v, 4) for k, v in sorted(self.outputs.items())},
            "files": dict(sorted(self.files.items())),
        }

    def save(self):
        if self.path:
            with open(self.path, "w", encoding="utf-8") as handle:
                json.dump(self.as_dict(), handle, ensure_ascii=False, indent=1, sort_keys=True)


def _wrap(timings, generator, phase):
    original = getattr(generator, phase, None)
    if original is None:
        return
    name = type(generator).__name__

    def timed(*args):
        return timings.run(name, phase, original, *args)

    setattr(generator, phase, timed)


def instrument_generator(generator):
    context = generator.context
    timings = context.get(OBSERVER_KEY)
    if timings is None:
        config = read_settings(PerfSettings, generator.settings, "DALIL_PERF_")
        timings = context[OBSERVER_KEY] = Timings(config.timings_path)
    _wrap(timings, generator, "generate_context")
    _wrap(timings, generator, "generate_output")


def register():
    signals.generator_init.connect(instrument_generator)
