"""The project's promises: README's commands, CI, and the sample site."""

import os
import re
import runpy
import subprocess
import sys

import pytest
from bs4 import BeautifulSoup
from sectxt import Parser

from tests import sitebuilder as sb


def readme_commands():
    readme = (sb.REPO / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.+?)\n```", readme, flags=re.S)[:2]


def readme_paragraph(title):
    """README's bold-titled paragraph ``title``, up to the next such paragraph or heading."""
    readme = (sb.REPO / "README.md").read_text(encoding="utf-8")
    start = readme.index(f"**{title}**")
    end = re.compile(r"\n\n(\*\*|#)").search(readme, start + 1)
    return readme[start:end.start() if end else None]


def test_ci_runs_readme_test_command_word_for_word():
    _, test_command = readme_commands()
    ci_lines = (sb.REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command in ci_lines


def test_readme_build_command_builds_with_fatal_warnings():
    build_command, _ = readme_commands()
    assert build_command.endswith("pelican content --fatal warnings")


def test_an_existing_pelican_site_with_readme_settings_builds_without_warning(tmp_path):
    """A plain Pelican site (an article at the content root, a page, no news) given only
    the settings of README's "Adding Dalil to an existing Pelican site"."""
    (settings,) = re.findall(r"```python\n(.+?\n)```",
                             readme_paragraph("Adding Dalil to an existing Pelican site."),
                             flags=re.S)
    files = {**sb.base_files(),
             **sb.listing("atlas", "مطعم الأطلس", Phone="+212 522 000 000"),
             "first-post.md": sb.metadata_file("أول مقال.", Title="أول مقال", Date="2026-10-01",
                                               Tags="ترحيب", Author="الكاتب")}
    site = tmp_path / "pelican-site"
    for relpath, text in files.items():
        (site / "content" / relpath).parent.mkdir(parents=True, exist_ok=True)
        (site / "content" / relpath).write_text(text, encoding="utf-8")
    (site / "pelicanconf.py").write_text(settings, encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "pelican", "content", "--fatal", "warnings"], cwd=site,
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "SOURCE_DATE_EPOCH": sb.DEFAULT_EPOCH, "COLUMNS": "200",
             "PYTHONPATH": str(sb.PACKAGE_SOURCE)})
    log = completed.stdout + completed.stderr
    assert completed.returncode == 0 and "WARNING" not in log, log
    output = site / "output"
    assert (output / "directory/listing/atlas/index.html").is_file()
    contact = runpy.run_path(str(site / "pelicanconf.py"))["DALIL_SITEFILES_SECURITY_CONTACT"]
    security = Parser((output / ".well-known/security.txt").read_bytes())
    assert security.contact_email == contact.removeprefix("mailto:")


@pytest.fixture(scope="module")
def sample_site(tmp_path_factory):
    """The sample site in content/, built as README's first command builds it."""
    return sb.build_sample_site(tmp_path_factory.mktemp("sample") / "output")


def test_sample_site_builds_without_warning(sample_site):
    assert sample_site.returncode == 0, sample_site.log
    assert "WARNING" not in sample_site.log and "ERROR" not in sample_site.log, sample_site.log


def test_sample_site_is_a_real_directory(sample_site):
    listings = [p for p in sample_site.files() if re.fullmatch(r"directory/listing/[^/]+/index\.html", p)]
    categories = [p for p in sample_site.files() if re.fullmatch(r"directory/category/[^/]+/index\.html", p)]
    cities = [p for p in sample_site.files() if re.fullmatch(r"directory/city/[^/]+/index\.html", p)]
    news = [p for p in sample_site.files() if re.fullmatch(r"news/[^/]+/index\.html", p)]
    blog = [p for p in sample_site.files() if re.fullmatch(r"blog/[^/]+/index\.html", p)]
    assert len(listings) >= 60 and len(categories) >= 10 and len(cities) >= 6
    assert len(news) >= 12 and len(blog) >= 6
    for page in ("about", "contact", "terms", "open-data"):
        assert sample_site.path(f"{page}/index.html").is_file(), page


def test_sample_site_images_resolve(sample_site):
    for relpath in sample_site.files():
        if not relpath.endswith(".html"):
            continue
        page = BeautifulSoup(sample_site.read(relpath), "html.parser")
        for img in page.find_all("img"):
            src = img["src"].removeprefix(sb.SITEURL)
            assert src.startswith("/") and sample_site.path(src).is_file(), (relpath, src)


def test_nothing_in_the_repository_reads_the_folder_beside_it():
    """A fresh clone alone installs, builds and tests: no file reaches outside it."""
    tracked = subprocess.run(["git", "ls-files"], cwd=sb.REPO, capture_output=True, text=True,
                             check=True).stdout.split()
    # Written in pieces so that this file does not name them itself.
    beside = ["../" + "shared", ".".join(["parent"] * 4), "REPO.parent" + ' / "']
    offenders = []
    for relpath in tracked:
        path = sb.REPO / relpath
        if path.is_symlink() or path.suffix in (".png", ".svg") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        offenders += [f"{relpath}: {needle}" for needle in beside if needle in text]
    assert not offenders
