"""Building again into the same output folder: a one-listing edit rewrites that listing's
pages in each language and the pages that list it, no other page; a language taken off
``DALIL_LANGUAGES`` takes its pages and its record away, the others staying; back to one
language, the folder holds what a one-language build writes."""

import re
import runpy
from dataclasses import dataclass

import pytest
from lxml import html

from tests import sitebuilder as sb

from .pages import FOLDERS, LANGUAGES, language_of, versions

# The sample's languages, with the content cache.
SAMPLE = runpy.run_path(str(sb.REPO / "pelicanconf.py"))
SETTINGS = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True,
            "DALIL_LANGUAGES": SAMPLE["DALIL_LANGUAGES"],
            "DALIL_LANGUAGE_SETTINGS": SAMPLE["DALIL_LANGUAGE_SETTINGS"]}
EDITED = "listings/zaytouna-restaurant.md"
SLUG = "zaytouna-restaurant"
ADDED = "فتحنا قاعة جديدة للعائلات."
NAME_FR, RENAMED_FR = "Restaurant Zaytouna", "Restaurant La Zaytouna"


@dataclass
class Step:
    """The output folder as one build left it: each file's bytes and mtime, the log."""

    log: str
    data: dict
    mtimes: dict

    @classmethod
    def of(cls, result):
        assert result.returncode == 0, result.log
        files = [path for path in sorted(result.output.rglob("*")) if path.is_file()]
        relpaths = [path.relative_to(result.output).as_posix() for path in files]
        return cls(result.log,
                   {relpath: path.read_bytes() for relpath, path in zip(relpaths, files)},
                   {relpath: path.stat().st_mtime_ns for relpath, path in zip(relpaths, files)})

    def pages(self):
        return [relpath for relpath in self.data if relpath.endswith(".html")]

    def text(self, relpath):
        return self.data[relpath].decode("utf-8")

    def parse(self, relpath):
        return html.fromstring(self.data[relpath])


@pytest.fixture(scope="module")
def rebuilds(tmp_path_factory):
    """A copy of the sample site built in its three languages (with the content cache),
    then again after an edit of one listing's text, then of its French name, then without
    English, then in Arabic alone;
    and that content built in Arabic alone into a new folder: each a ``Step``."""
    root = tmp_path_factory.mktemp("rebuilds")
    files = sb.sample_files()
    steps = {"first": Step.of(sb.build_site(root, files, **SETTINGS))}
    text = files[EDITED].decode("utf-8")
    sb.write_site(root, {EDITED: text.rstrip("\n") + "\n\n" + ADDED + "\n"}, **SETTINGS)
    steps["edited"] = Step.of(sb.run_pelican(root))
    text = (root / "content" / EDITED).read_text(encoding="utf-8")
    sb.write_site(root, {EDITED: text.replace(f"Name_fr: {NAME_FR}\n",
                                              f"Name_fr: {RENAMED_FR}\n")}, **SETTINGS)
    steps["renamed"] = Step.of(sb.run_pelican(root))
    sb.write_site(root, {}, **{**SETTINGS, "DALIL_LANGUAGES": ["ar", "fr"]})
    steps["without_english"] = Step.of(sb.run_pelican(root))
    sb.write_site(root, {}, **{**SETTINGS, "DALIL_LANGUAGES": ["ar"]})
    steps["arabic_alone"] = Step.of(sb.run_pelican(root))
    content = root / "content"
    edited = {path.relative_to(content).as_posix(): path.read_bytes()
              for path in content.rglob("*") if path.is_file()}
    steps["fresh"] = Step.of(sb.build_site(tmp_path_factory.mktemp("fresh"), edited,
                                           DALIL_LANGUAGES=["ar"]))
    return steps


def listing_pages():
    return {FOLDERS[lang] + f"directory/listing/{SLUG}/index.html" for lang in LANGUAGES}


def changed(before, after):
    return {relpath for relpath in after.mtimes
            if before.mtimes.get(relpath) != after.mtimes[relpath]}


def test_an_edit_rewrites_the_listing_s_pages_in_each_language(rebuilds):
    edited = rebuilds["edited"]
    assert listing_pages() <= changed(rebuilds["first"], edited)
    for relpath in listing_pages():
        assert ADDED in edited.text(relpath), relpath
        assert ADDED not in rebuilds["first"].text(relpath), relpath


def test_an_edit_rewrites_no_page_but_the_listing_s_and_those_that_list_it(rebuilds):
    edited = rebuilds["edited"]
    pages = {relpath for relpath in changed(rebuilds["first"], edited)
             if relpath.endswith(".html")}
    listing_it = {relpath for relpath in edited.pages()
                  if f"/directory/listing/{SLUG}/\"" in edited.text(relpath)}
    assert pages - listing_pages() <= listing_it
    # Each language's build renders the listing's page and the category's and city's
    # pages it is on again, no other directory page.
    rendered = [int(count) for count in re.findall(r"directory pages (\d+) rendered",
                                                   " ".join(edited.log.split()))]
    assert len(rendered) == len(LANGUAGES) and all(1 <= count <= 3 for count in rendered), \
        rendered


def test_a_new_french_name_is_on_every_page_that_shows_the_listing_and_only_there(rebuilds):
    """Its French pages that list it show the new name (their caches see it), its Arabic
    and English pages show it among its other names; no page that does not show the listing
    is rewritten."""
    before, after = rebuilds["edited"], rebuilds["renamed"]
    pages = {relpath for relpath in changed(before, after) if relpath.endswith(".html")}
    listing_it = {relpath for relpath in after.pages()
                  if f"/directory/listing/{SLUG}/\"" in after.text(relpath)}
    french = {relpath for relpath in listing_it if language_of(relpath) == "fr"}
    assert len(french) >= 3  # its page, its category's, its city's
    assert french | listing_pages() <= pages <= listing_it | listing_pages()
    for relpath in french | listing_pages():
        assert RENAMED_FR in after.text(relpath) and NAME_FR not in after.text(relpath), relpath


def test_an_edit_of_a_listing_s_text_changes_no_feed_or_sitemap(rebuilds):
    """The cached rebuild writes the root's XML files as the clean build did: the news
    sitemap lists each news item's translations in one order, read from the cache or not."""
    first, rebuilt = rebuilds["first"].data, rebuilds["edited"].data
    assert [relpath for relpath in first if "/" not in relpath and relpath.endswith(".xml")
            and first[relpath] != rebuilt[relpath]] == []


def test_a_language_taken_off_takes_its_pages_and_record_away(rebuilds):
    files = rebuilds["without_english"].data
    assert not [relpath for relpath in files if relpath.startswith("en/")]
    assert ".dalil-output-files.en.json" not in files
    assert "theme/js/messages.en.js" not in files
    assert ".dalil-output-files.fr.json" in files


def test_a_language_taken_off_leaves_the_others_files(rebuilds):
    before, after = rebuilds["renamed"].data, rebuilds["without_english"].data
    kept = [relpath for relpath in before if language_of(relpath) != "en"
            and relpath not in (".dalil-output-files.en.json", "theme/js/messages.en.js")]
    assert sorted(after) == sorted(kept)


def test_a_language_taken_off_is_no_page_s_version_any_more(rebuilds):
    step = rebuilds["without_english"]
    problems = []
    for relpath in step.pages():
        hreflangs = sorted(hreflang for hreflang, _ in versions(step.parse(relpath)))
        if hreflangs != ["ar", "fr", "x-default"] or "/en/" in step.text(relpath):
            problems.append(relpath)
    assert problems == []


def test_alternates_are_absolute_urls_below_siteurl(rebuilds):
    page = rebuilds["first"].parse("fr/directory/index.html")
    assert versions(page) == [
        ("ar", f"{sb.SITEURL}/directory/"), ("fr", f"{sb.SITEURL}/fr/directory/"),
        ("en", f"{sb.SITEURL}/en/directory/"), ("x-default", f"{sb.SITEURL}/directory/")]


def test_back_to_one_language_the_output_is_a_one_language_build_s(rebuilds):
    """The other languages' pages, records and scripts' messages gone, what stays is what a
    build in that one language writes into an empty folder, byte for byte."""
    after, fresh = rebuilds["arabic_alone"].data, rebuilds["fresh"].data
    assert not [relpath for relpath in after if relpath.startswith(("fr/", "en/"))]
    assert sorted(after) == sorted(fresh)
    assert [relpath for relpath in after if after[relpath] != fresh[relpath]] == []
