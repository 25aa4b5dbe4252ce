"""``invoke bench`` as a smoke test (no timing assertion) and its JSON report."""

import json
import re
import subprocess
import sys

import pytest

from tests.sitebuilder import REPO


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("bench")
    report_path = workdir / "report.json"
    completed = subprocess.run(
        [sys.executable, "-m", "invoke", "-r", str(REPO), "bench", "--listings", "1000",
         "--report", str(report_path), "--workdir", str(workdir)],
        cwd=workdir, capture_output=True, text=True, timeout=900)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return json.loads(report_path.read_text(encoding="utf-8")), workdir, completed.stdout


def test_both_builds_ran_on_the_same_content(report):
    data, workdir, _ = report
    (entry,) = data["sizes"]
    assert entry["listings"] == 1000
    assert entry["content_files"]["listings"] == 1000
    assert entry["plain_pelican"]["returncode"] == 0
    assert entry["dalil"]["returncode"] == 0
    for build in ("plain_pelican", "dalil", "warm_rebuild"):
        assert entry[build]["seconds"] > 0 and entry[build]["peak_rss_mib"] > 10
    assert entry["time_ratio"] == pytest.approx(entry["dalil"]["seconds"]
                                                / entry["plain_pelican"]["seconds"], rel=0.01)
    # Plain Pelican wrote the listings as articles; Dalil as listing pages.
    output = workdir / "n1000" / "dalil-output"
    listing_pages = [*output.glob("directory/listing/*/index.html"),
                     *output.glob("drafts/listing/*/index.html")]
    assert len(listing_pages) == entry["dalil_output_files"]["listing pages"] == 1000
    plain_output = workdir / "n1000" / "plain-output"
    assert len(list(plain_output.glob("*.html"))) > 1000  # every listing an ordinary article
    assert data["plugins"][0] == "dalil.directory"


def test_each_output_is_timed(report):
    (entry,) = report[0]["sizes"]
    outputs = entry["dalil_outputs_seconds"]
    for kind in ("listing pages", "category and city pages", "directory index"):
        assert outputs[kind] >= 0
    assert all(seconds >= 0 for seconds in outputs.values())
    assert "DirectoryGenerator.generate_output" in entry["dalil_generators_seconds"]


def test_warm_rebuild_rewrites_only_what_changed(report):
    data, workdir, _ = report
    warm = data["sizes"][0]["warm_rebuild"]
    assert warm["returncode"] == 0
    slug = warm["edited"].rsplit("/", 1)[-1][:-3]
    assert f"directory/listing/{slug}/index.html" in warm["rewritten"]
    assert warm["rewritten_files"] == len(warm["rewritten"]) < 40
    # Unchanged theme files and other listings keep their mtimes.
    assert not [path for path in warm["rewritten"] if path.startswith(("theme/", "images/"))]
    assert not [path for path in warm["rewritten"]
                if path.startswith("directory/listing/") and f"/{slug}/" not in path]
    log = (workdir / "n1000" / "dalil-warm.log").read_text(encoding="utf-8")
    rendered = int(re.search(r"directory pages (\d+) rendered", " ".join(log.split()))[1])
    assert 1 <= rendered <= 3  # the listing's page, its category's and its city's


def test_the_table_is_printed(report):
    stdout = report[2]
    assert "plain Pelican" in stdout and "listing pages" in stdout
