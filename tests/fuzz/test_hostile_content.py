"""Hostile content through real builds (hypothesis, bounded and deterministic).

Every generated site is built by Pelican in a subprocess, as an operator builds it.
The build either succeeds or fails with a message naming the file, never with a
traceback; nothing lands outside the output folder; and every file of a successful
build reads back with an independent reader.
"""

import itertools
import json
import os
import re

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests import sitebuilder as sb
from tests.fuzz import readers
from tests.fuzz import strategies as fuzz

# Bounded and deterministic in CI; no shrinking (each example is a build of about a
# second): a failure is reported with the example as generated. A deeper campaign:
# DALIL_FUZZ_EXAMPLES=200 pytest tests/fuzz --hypothesis-seed=N (random unless seeded).
CAMPAIGN = os.environ.get("DALIL_FUZZ_EXAMPLES")
FUZZ = settings(max_examples=int(CAMPAIGN or 20), deadline=None, derandomize=not CAMPAIGN,
                database=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
NAMED_FILE = re.compile(r"(?:content/)?(?:listings|categories|cities|news|blog|pages)/\w+\.md")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    counter = itertools.count()
    return lambda: root / f"site{next(counter)}"


def tree(folder, skip):
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*")
            if skip not in path.parents and path != skip and "__pycache__" not in path.parts}


def build(root, files):
    """Build ``files``; check the process and the file system whatever the outcome."""
    sb.write_site(root, files)
    parent_before = tree(root.parent, root)
    before = tree(root, root / "output")
    result = sb.run_pelican(root)
    assert "Traceback" not in result.log, result.log
    assert tree(root, root / "output") == before, "a file was written outside the output"
    assert tree(root.parent, root) == parent_before, "a file was written beside the site"
    if result.returncode != 0:
        assert NAMED_FILE.search(result.log), f"no file named in:\n{result.log}"
    return result


@FUZZ
@given(files=fuzz.hostile_site())
def test_hostile_site_builds_or_is_refused_naming_the_file(workspace, files):
    result = build(workspace(), files)
    if result.returncode == 0:
        read = readers.read_site(result)
        readers.clean_text_everywhere(read)


@FUZZ
@given(site=fuzz.hostile_text_site())
def test_hostile_text_in_valid_content_builds_and_every_file_reads(workspace, site):
    files, listings, news = site
    result = build(workspace(), files)
    assert result.returncode == 0, result.log
    read = readers.read_site(result)
    readers.clean_text_everywhere(read)
    index = {(entry["t"], entry["s"]) for entry in read["search-index.json"]}
    for slug in listings:
        page = read[f"directory/listing/{slug}/index.html"]
        assert page.h1.get_text().startswith("مطعم"), slug
        assert ("listing", slug) in index
        assert f"directory/listing/{slug}/contact.vcf" in read
    for slug in news:
        assert ("news", slug) in index
        assert f"news/{slug}/index.html" in read
    assert len(read["directory/export.json"]) == len(listings)
    assert len(read["feed.json"]["items"]) == len(news)


def unguard(cell):
    """A CSV cell's value: the leading apostrophe guards a formula start."""
    if cell.startswith("'") and cell[1:].lstrip("'")[:1] in ("=", "+", "-", "@"):
        return cell[1:]
    return cell


@st.composite
def clean_site(draw):
    """One listing, its category and city, and a news item, named with awkward valid text."""
    names = {key: draw(fuzz.clean_text()) for key in ("listing", "category", "city", "news",
                                                      "street")}
    files = fuzz.base_files()
    files.update(sb.category("awkward", names["category"][0]))
    files.update(sb.city("awkward-city", names["city"][0], province="P1"))
    files.update(sb.listing("awkward-listing", names["listing"][0], category="awkward",
                            city="awkward-city", Street=names["street"][0],
                            Phone=draw(st.sampled_from(fuzz.VALID_PHONES)),
                            Website=draw(st.sampled_from(fuzz.VALID_WEBSITES)),
                            Date="2026-11-20 10:00"))
    files.update(sb.news("awkward-news", names["news"][0], "2026-11-21 08:00"))
    return files, {key: expected for key, (_, expected) in names.items()}


@FUZZ
@given(site=clean_site())
def test_awkward_valid_text_reaches_every_output_intact(workspace, site):
    files, expected = site
    result = build(workspace(), files)
    assert result.returncode == 0, result.log
    read = readers.read_site(result)
    name, category, city = expected["listing"], expected["category"], expected["city"]

    page = read["directory/listing/awkward-listing/index.html"]
    assert page.h1.get_text() == name
    json_ld = json.loads(page.find("script", type="application/ld+json").string)
    assert json_ld["name"] == name and json_ld["address"]["streetAddress"] == expected["street"]

    (record,) = read["directory/export.json"]
    assert (record["name"], record["category"]) == (name, category)
    assert record["address"].startswith(expected["street"]) and city in record["address"]
    (row,) = read["directory/export.csv"]
    assert {key: unguard(value) for key, value in row.items()} == record

    card = read["directory/listing/awkward-listing/contact.vcf"]
    assert card.fn.value == name and card.org.value == [category]
    assert (card.adr.value.street, card.adr.value.city) == (expected["street"], city)
    assert card.url.value == record["website"]

    index = {(entry["t"], entry["s"]): entry for entry in read["search-index.json"]}
    listing_entry = index[("listing", "awkward-listing")]
    assert (listing_entry["n"], listing_entry["c"]) == (name, category)
    assert index[("category", "awkward")]["n"] == category
    assert index[("location", "awkward-city")]["n"] == city
    assert index[("news", "awkward-news")]["n"] == expected["news"]

    (item,) = read["feed.json"]["items"]
    assert item["title"] == expected["news"]
    (entry,) = read["rss.xml"].entries
    assert entry.title == expected["news"]


def test_javascript_and_other_non_http_websites_are_refused_with_a_message(tmp_path):
    files = fuzz.base_files()
    for number, website in enumerate(fuzz.HOSTILE_WEBSITES):
        files.update(sb.listing(f"site-{number}", "مطعم", filename=f"w{number}", Website=website))
    result = build(tmp_path / "site", files)
    assert result.returncode != 0
    for number in range(len(fuzz.HOSTILE_WEBSITES)):
        line = next(line for line in result.log.splitlines() if f"listings/w{number}.md" in line)
        assert "is not an http(s) URL" in line, line
    assert not (result.output / "directory/listing").exists()


@pytest.mark.parametrize("folder", ["listings", "news"])
def test_hostile_slugs_are_refused_naming_each_file(tmp_path, folder):
    files = fuzz.base_files()
    # An empty Slug is no Slug: one is derived (from the names, or the file name).
    slugs = [slug for slug in fuzz.HOSTILE_SLUGS if slug]
    for number, slug in enumerate(slugs):
        if folder == "listings":
            files.update(sb.listing(slug, "مطعم", filename=f"s{number}"))
        else:
            files[f"news/s{number}.md"] = sb.metadata_file("نص.", Title="خبر", Slug=slug,
                                                           Date="2026-11-20")
    result = build(tmp_path / "site", files)
    assert result.returncode != 0
    for number, slug in enumerate(slugs):
        assert f"content/{folder}/s{number}.md: Slug" in result.log, slug
    assert not (result.output / folder).exists() and not (result.output / "x").exists()


def test_a_long_arabic_name_derives_a_slug_the_file_system_accepts(tmp_path):
    files = fuzz.base_files()
    files["listings/long.md"] = sb.metadata_file("وصف.", Title=fuzz.LONG_ARABIC,
                                                 Category="restaurants", City="casablanca")
    result = build(tmp_path / "site", files)
    assert result.returncode == 0, result.log
    (record,) = readers.read_site(result)["directory/export.json"]
    assert record["name"] == fuzz.LONG_ARABIC.strip()
    slug = record["url"].removeprefix(sb.SITEURL + "/directory/listing/").rstrip("/")
    assert 0 < len(slug) <= 100 and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug)


def test_save_as_outside_the_output_is_refused_naming_the_file(tmp_path):
    files = fuzz.base_files()
    files["news/escape.md"] = sb.metadata_file("نص.", Title="خبر", Slug="escape",
                                               Date="2026-11-20", Save_as="../../escaped.html")
    result = build(tmp_path / "site", files)
    assert result.returncode != 0
    assert "news/escape.md" in result.log and "outside" in result.log
