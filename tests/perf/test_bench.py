"""``invoke bench`` as a smoke test (no timing assertion), its JSON report and its Hugo site."""

import json
import re
import shutil
import subprocess
import sys

import pytest
from lxml import etree, html

from benchmarks import build, hugo
from benchmarks.synthetic import generate_files
from tests.sitebuilder import REPO

pytestmark = pytest.mark.skipif(shutil.which("hugo") is None, reason="Debian's hugo is needed")

ROUNDS = 2


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("bench")
    report_path = workdir / "report.json"
    completed = subprocess.run(
        [sys.executable, "-m", "invoke", "-r", str(REPO), "bench", "--listings", "1000",
         "--rounds", str(ROUNDS), "--edits", "1", "--report", str(report_path),
         "--workdir", str(workdir)],
        cwd=workdir, capture_output=True, text=True, timeout=1200)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return json.loads(report_path.read_text(encoding="utf-8")), workdir, completed.stdout


def test_the_three_tools_built_the_same_content_in_interleaved_rounds(report):
    data, workdir, _ = report
    (entry,) = data["sizes"]
    assert entry["listings"] == 1000 and entry["content_files"]["listings"] == 1000
    assert len(entry["rounds"]) == ROUNDS
    for builds in entry["rounds"]:
        assert list(builds) == ["dalil", "hugo", "pelican"]
        for build_ in builds.values():
            assert build_["returncode"] == 0
            assert build_["seconds"] > 0 and build_["cpu_seconds"] > 0
            assert build_["peak_rss_mib"] > 10
    # Interleaved: each round's logs were written in order, before the next round's.
    site = workdir / "n1000"
    logs = [site / f"{name}-{number}.log" for number in range(1, ROUNDS + 1)
            for name in ("dalil-cold", "hugo", "plain")]
    stamps = [path.stat().st_mtime_ns for path in logs]
    assert stamps == sorted(stamps)
    assert "hugo" in data["machine"]["hugo"].lower()

    output = site / "dalil-output"
    dalil_pages = {path.parent.name for path in output.glob("directory/listing/*/index.html")}
    assert len(dalil_pages) + len(list(output.glob("drafts/listing/*/index.html"))) == 1000
    assert entry["dalil_output_files"]["listing pages"] == 1000
    # Hugo publishes the same listings at the same URLs (hidden ones too, in no list); no drafts.
    hugo_pages = {path.parent.name
                  for path in (site / "hugo-output").glob("directory/listing/*/index.html")}
    assert hugo_pages == dalil_pages
    assert len(list((site / "plain-output").glob("*.html"))) > 1000


def test_hugo_wrote_term_pages_a_sitemap_and_rss(report):
    _, workdir, _ = report
    output = workdir / "n1000" / "hugo-output"
    sitemap = etree.parse(str(output / "sitemap.xml"))
    locations = sitemap.findall(".//{http://www.sitemaps.org/schemas/sitemap/0.9}loc")
    assert len(locations) > 1000
    assert "https://dalil.example/categories/restaurants/" in {loc.text for loc in locations}
    channel = etree.parse(str(output / "index.xml")).find("channel")
    assert len(channel.findall("item")) == hugo.RSS_LIMIT
    term = html.parse(str(output / "categories" / "restaurants" / "index.html"))
    assert term.findtext(".//h1") == "مطاعم"
    assert len(term.findall(".//main/ul/li")) == hugo.PER_PAGE
    listing = next((output / "directory" / "listing").glob("*/index.html"))
    page = html.parse(str(listing))
    assert page.find(".//address") is not None
    links = [link.get("href") for link in page.iter("a")]
    assert [href for href in links if href.startswith("/categories/")]
    assert [href for href in links if href.startswith("/cities/")]


def test_ratios_are_the_median_of_each_rounds_ratio(report):
    (entry,) = report[0]["sizes"]
    for other in ("hugo", "pelican"):
        for metric in build.METRICS:
            ratios = sorted(builds["dalil"][metric] / builds[other][metric]
                            for builds in entry["rounds"])
            spread = entry["ratios"][f"dalil/{other}"][metric]
            assert spread["min"] == pytest.approx(ratios[0], abs=1e-3)
            assert spread["max"] == pytest.approx(ratios[-1], abs=1e-3)
            assert spread["n"] == ROUNDS
    seconds = sorted(builds["dalil"]["seconds"] for builds in entry["rounds"])
    assert entry["summary"]["dalil"]["seconds"]["median"] == pytest.approx(sum(seconds) / 2,
                                                                           abs=1e-3)


def test_each_output_is_timed(report):
    (entry,) = report[0]["sizes"]
    outputs = entry["dalil_outputs_seconds"]
    for kind in ("listing pages", "category and city pages", "directory index"):
        assert outputs[kind] >= 0
    assert all(seconds >= 0 for seconds in outputs.values())
    assert "DirectoryGenerator.generate_output" in entry["dalil_generators_seconds"]


def test_warm_rebuild_rewrites_only_what_changed(report):
    data, workdir, _ = report
    (warm,) = data["sizes"][0]["warm_edit"]["rounds"]
    assert warm["returncode"] == 0
    slug = warm["edited"].rsplit("/", 1)[-1][:-3]
    assert f"directory/listing/{slug}/index.html" in warm["rewritten"]
    assert warm["rewritten_files"] == len(warm["rewritten"]) < 40
    # Unchanged theme files and other listings keep their mtimes.
    assert not [path for path in warm["rewritten"] if path.startswith(("theme/", "images/"))]
    assert not [path for path in warm["rewritten"]
                if path.startswith("directory/listing/") and f"/{slug}/" not in path]
    log = (workdir / "n1000" / "dalil-warm-1.log").read_text(encoding="utf-8")
    rendered = int(re.search(r"directory pages ([\d,]+) rendered", " ".join(log.split()))[1]
                   .replace(",", ""))
    assert 1 <= rendered <= 3  # the listing's page, its category's and its city's


def test_livereload_rewrote_the_edited_page(report):
    data, workdir, _ = report
    live = data["sizes"][0]["livereload_edit"]
    assert live["failures"] == 0 and len(live["rounds"]) == 1, live
    assert live["rounds"][0] > 0
    log = (workdir / "n1000" / "livereload.log").read_text(encoding="utf-8")
    assert log.count("Done: Processed") >= 2  # the first build and the edit's


def test_the_tables_are_printed(report):
    stdout = " ".join(report[2].split())
    assert "Dalil / other" in stdout and "dalil/hugo" in stdout and "listing pages" in stdout


def test_hugo_front_matter_follows_the_listing():
    files = dict(generate_files(100))
    hidden = next(text for path, text in files.items() if "Status: hidden" in text)
    draft = next(text for path, text in files.items() if "Status: draft" in text)
    published = files[next(path for path in sorted(files) if path.startswith("listings/"))]
    fields, body = hugo.split_metadata(published)
    matter = hugo.front_matter("listings", fields)
    assert matter["categories"] == [fields["category"]] and matter["cities"] == [fields["city"]]
    assert matter["date"] == fields["date"].replace(" ", "T") + ":00"
    assert matter["phone"] == fields["phone"] and "draft" not in matter
    assert body.strip() and "Title:" not in body
    assert hugo.front_matter("listings", hugo.split_metadata(draft)[0])["draft"] is True
    assert hugo.front_matter("listings", hugo.split_metadata(hidden)[0])["_build"] == {
        "list": "never"}


def test_summarise_takes_ratios_within_rounds():
    rounds = [{"dalil": {"seconds": 2, "cpu_seconds": 4, "peak_rss_mib": 50},
               "hugo": {"seconds": 1, "cpu_seconds": 2, "peak_rss_mib": 100}},
              {"dalil": {"seconds": 6, "cpu_seconds": 8, "peak_rss_mib": 60},
               "hugo": {"seconds": 4, "cpu_seconds": 2, "peak_rss_mib": 120}},
              {"dalil": {"seconds": 3, "cpu_seconds": 3, "peak_rss_mib": 55},
               "hugo": {"seconds": 3, "cpu_seconds": 1, "peak_rss_mib": 110}}]
    summary, ratios = build.summarise(rounds)
    assert summary["dalil"]["seconds"] == {"median": 3, "min": 2, "max": 6, "n": 3}
    assert ratios["dalil/hugo"]["seconds"] == {"median": 1.5, "min": 1.0, "max": 2.0, "n": 3}
    assert ratios["dalil/hugo"]["peak_rss_mib"]["median"] == 0.5
    assert "dalil/pelican" not in ratios
