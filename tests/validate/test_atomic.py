"""A failed build leaves the previous output as it was (``invoke rebuild`` / ``preview``).

The failure comes late on purpose: a template that breaks while the directory's pages
are written, after Pelican has already written the news pages and copied the static
files. Built in place, such a build leaves a half-new site; staged, it changes nothing.
"""

import shutil

import pytest
from invoke import Config, Context
from invoke.exceptions import Exit

from dalil import tasks
from tests import sitebuilder as sb
from tests.validate import fixtures

BROKEN_TERM_TEMPLATE = ('{% extends "base.html" %}'
                        "{% block content %}{{ term.missing.name }}{% endblock %}")


def snapshot(folder):
    """Every file with its bytes and modification time."""
    return {path.relative_to(folder).as_posix(): (path.read_bytes(), path.stat().st_mtime_ns)
            for path in sorted(folder.rglob("*")) if path.is_file()}


def context():
    environment = {"SOURCE_DATE_EPOCH": sb.DEFAULT_EPOCH, "PYTHONPATH": str(sb.PACKAGE_SOURCE)}
    return Context(Config(overrides={"run": {"env": environment, "hide": True,
                                                "in_stream": False}}))


@pytest.fixture
def site(tmp_path):
    """A site built once with the staged build; then a news item and a broken template."""
    root = tmp_path / "site"
    sb.write_site(root, fixtures.site_files())
    tasks.staged_build(context(), str(root / "pelicanconf.py"))
    theme = tmp_path / "theme"
    shutil.copytree(sb.THEME, theme)
    (theme / "templates" / "directory").mkdir(exist_ok=True)
    (theme / "templates" / "directory" / "term.html").write_text(BROKEN_TERM_TEMPLATE,
                                                                 encoding="utf-8")
    files = {**fixtures.site_files(), **sb.news("late-news", "خبر جديد", "2026-11-21 10:00")}
    sb.write_site(root, files, THEME=str(theme))
    return root


def test_a_failed_staged_build_changes_nothing(site):
    output = site / "output"
    before = snapshot(output)
    assert "directory/listing/zaytouna/index.html" in before
    with pytest.raises(Exit, match="nothing is published"):
        tasks.staged_build(context(), str(site / "pelicanconf.py"))
    assert snapshot(output) == before
    assert not any(path.name.startswith(".output.") for path in site.iterdir())


def test_the_same_failure_in_place_leaves_half_a_new_site(site):
    """The control: without staging the failure is not harmless (so the test above can fail)."""
    before = snapshot(site / "output")
    result = sb.run_pelican(site)
    assert result.returncode != 0
    after = snapshot(site / "output")
    assert "news/late-news/index.html" in after and after != before


def test_a_successful_staged_build_replaces_the_output(site):
    sb.write_site(site, {**fixtures.site_files(),
                         **sb.news("late-news", "خبر جديد", "2026-11-21 10:00")})
    tasks.staged_build(context(), str(site / "pelicanconf.py"))
    assert (site / "output" / "news" / "late-news" / "index.html").is_file()
    assert not any(path.name.startswith(".output.") for path in site.iterdir())
