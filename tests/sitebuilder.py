"""Build tiny Dalil sites from a dict of files, in a subprocess, as an operator would."""

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from dalil import theme_path

REPO = Path(__file__).resolve().parent.parent
# Builds import the package's source, not an installed copy.
PACKAGE_SOURCE = REPO / "plugins"
THEME = Path(theme_path())
SITEURL = "https://dalil.test"
# 2026-11-21T12:00:00Z: fixed so builds (and news windows) are reproducible.
DEFAULT_EPOCH = "1795262400"


@dataclass
class BuildResult:
    root: Path
    output: Path
    returncode: int
    stdout: str
    stderr: str

    @property
    def log(self):
        return self.stdout + self.stderr

    def path(self, relpath):
        return self.output / relpath.lstrip("/")

    def read(self, relpath, mode="r"):
        path = self.path(relpath)
        return path.read_bytes() if "b" in mode else path.read_text(encoding="utf-8")

    def files(self):
        """Every output file, as paths relative to the output folder."""
        return sorted(p.relative_to(self.output).as_posix() for p in self.output.rglob("*") if p.is_file())


def metadata_file(body="", **fields):
    """A Markdown source: ``Key: value`` lines, a blank line, the body."""
    lines = [f"{key}: {value}" for key, value in fields.items() if value is not None]
    return "\n".join(lines) + "\n\n" + textwrap.dedent(body).strip() + "\n"


def settings_module(root, output, overrides):
    lines = [
        "import importlib.util, sys",
        f"_spec = importlib.util.spec_from_file_location('dalil_base_conf', {str(REPO / 'pelicanconf.py')!r})",
        "_base = importlib.util.module_from_spec(_spec)",
        "_spec.loader.exec_module(_base)",
        "globals().update({k: v for k, v in vars(_base).items() if k.isupper()})",
        # A tiny site has one language (DALIL_INTERFACE_LANG's) unless its test sets more.
        "del DALIL_LANGUAGES, DALIL_LANGUAGE_SETTINGS",
        f"PATH = {str(root / 'content')!r}",
        f"OUTPUT_PATH = {str(output)!r}",
        f"SITEURL = {SITEURL!r}",
        f"CACHE_PATH = {str(root / 'cache')!r}",
    ]
    lines += [f"{key} = {value!r}" for key, value in overrides.items()]
    return "\n".join(lines) + "\n"


def run_pelican(root, *, fatal="errors", env=None, output=None):
    output = output or root / "output"
    command = [sys.executable, "-m", "pelican", str(root / "content"), "-o", str(output),
               "-s", str(root / "pelicanconf.py")]
    if fatal:
        command += ["--fatal", fatal]
    environment = {**os.environ, "SOURCE_DATE_EPOCH": DEFAULT_EPOCH, "COLUMNS": "200",
                   "PYTHONPATH": str(PACKAGE_SOURCE)}
    environment.update(env or {})
    completed = subprocess.run(command, cwd=root, env=environment, capture_output=True,
                               text=True, timeout=600)
    return BuildResult(root, output, completed.returncode, completed.stdout, completed.stderr)


def build_sample_site(output, fatal="warnings", **settings):
    """The sample site in content/, built as README's first command builds it; ``settings``
    are given to Pelican's ``-e`` (``DALIL_LANGUAGES=["ar"]``)."""
    extra = [f"{key}={json.dumps(value)}" for key, value in settings.items()]
    completed = subprocess.run(
        [sys.executable, "-m", "pelican", "content", "-o", str(output), "-s", "pelicanconf.py",
         "--fatal", fatal, *(["-e", *extra] if extra else [])],
        cwd=REPO, capture_output=True, text=True, timeout=600,
        env={**os.environ, "SOURCE_DATE_EPOCH": DEFAULT_EPOCH, "PYTHONPATH": str(PACKAGE_SOURCE)},
    )
    return BuildResult(REPO, output, completed.returncode, completed.stdout, completed.stderr)


def sample_files():
    """``{relpath: bytes}`` of the sample site's content (content/), to build a copy."""
    content = REPO / "content"
    return {path.relative_to(content).as_posix(): path.read_bytes()
            for path in sorted(content.rglob("*")) if path.is_file()}


def write_site(root, files, **settings):
    root.mkdir(parents=True, exist_ok=True)
    (root / "content").mkdir(exist_ok=True)
    for relpath, text in files.items():
        path = root / "content" / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
    (root / "pelicanconf.py").write_text(settings_module(root, root / "output", settings),
                                         encoding="utf-8")


def build_site(root, files, *, fatal="errors", env=None, **settings):
    write_site(root, files, **settings)
    return run_pelican(root, fatal=fatal, env=env)


def category(slug, title, name_en=None, name_fr=None):
    return {f"categories/{slug}.md": metadata_file("وصف.", Title=title, Slug=slug,
                                                     Name_en=name_en, Name_fr=name_fr)}


def city(slug, title, province=None, name_en=None, name_fr=None):
    return {f"cities/{slug}.md": metadata_file("وصف.", Title=title, Slug=slug, Name_en=name_en,
                                                 Name_fr=name_fr, Province=province)}


def listing(slug, title, category="restaurants", city="casablanca", body="وصف النشاط.",
            filename=None, **fields):
    return {f"listings/{filename or slug}.md": metadata_file(
        body, Title=title, Slug=slug, Category=category, City=city, **fields)}


def news(slug, title, date, category_folder="news", **fields):
    return {f"{category_folder}/{slug}.md": metadata_file("نص الخبر.", Title=title, Slug=slug,
                                                         Date=date, **fields)}


def base_files():
    """The smallest valid site: one category, one city, a page."""
    files = {}
    files.update(category("restaurants", "مطاعم", "Restaurants", "Restaurants"))
    files.update(city("casablanca", "الدار البيضاء", "CAS", "Casablanca", "Casablanca"))
    files["pages/about.md"] = metadata_file("عن الموقع.", Title="من نحن", Slug="about")
    return files
