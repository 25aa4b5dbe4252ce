"""Each language's feeds, OpenSearch description and manifest served with their types,
as the root's are: by real nginx with the build's snippet, by the ``_headers`` rules of
Cloudflare Pages and Netlify, by ``.htaccess`` and the development servers."""

import difflib
import re

import pytest

from dalil.sitefiles.content_types import content_type
from tests.sitefiles.fixture import HOST_FILES, fetch, single
from tests.sitefiles.test_nginx import nginx  # noqa: F401 - the fixture, on this site
from tests.sitefiles.test_sitefiles import headers_file_rules, host_headers

TYPES = {
    "rss.xml": "application/rss+xml; charset=utf-8",
    "feed.json": "application/feed+json; charset=utf-8",
    "opensearch.xml": "application/opensearchdescription+xml; charset=utf-8",
    "manifest.webmanifest": "application/manifest+json",
}
PATHS = [folder + name for folder in ("", "fr/", "en/") for name in TYPES]


@pytest.mark.parametrize("relpath", PATHS)
def test_the_development_servers_type(relpath):
    assert content_type(relpath) == TYPES[relpath.rsplit("/", 1)[-1]]


def test_nginx_serves_each_language_s_files_with_their_types(site, nginx):  # noqa: F811
    for relpath in PATHS:
        status, headers, body = fetch(nginx, "/" + relpath)
        assert status == 200, relpath
        assert single(headers, "Content-Type") == TYPES[relpath.rsplit("/", 1)[-1]], relpath
        assert body == site.read(relpath, "b"), relpath


def test_the_headers_file_types_each_language_s_files(site):
    rules = headers_file_rules(site.read("_headers"))
    for relpath in PATHS:
        assert host_headers(rules, "/" + relpath)["Content-Type"] == \
            [TYPES[relpath.rsplit("/", 1)[-1]]], relpath


def test_htaccess_types_each_language_s_files(site):
    text = site.read(".htaccess")
    for relpath in PATHS:
        if relpath.endswith(".webmanifest"):
            continue  # by its extension, below any folder
        section = re.search(rf"<If \"%{{REQUEST_URI}} == '/{re.escape(relpath)}'\">\n"
                            rf"  ForceType \"([^\"]+)\"", text)
        assert section and section[1] == TYPES[relpath.rsplit("/", 1)[-1]], relpath


def rules(text):
    """A host file's rules: a line and the lines inside it (to its closing line)."""
    return re.split(r"\n(?=(?!</)[^\s}])", text)


@pytest.mark.parametrize("relpath", HOST_FILES)
def test_the_host_files_are_the_one_language_site_s_and_each_language_s_rules(
        site, one_language, relpath):
    """Each language adds the rules of its own files, and changes none of the others."""
    ours, alone = rules(site.read(relpath)), rules(one_language.read(relpath))
    changes = difflib.SequenceMatcher(None, alone, ours, autojunk=False).get_opcodes()
    assert {change[0] for change in changes} == {"equal", "insert"}
    added = [rule for kind, _, _, start, end in changes if kind == "insert"
             for rule in ours[start:end]]
    assert len(added) == 2 * 3
    assert all(re.search(r"/(fr|en)/(rss\.xml|feed\.json|opensearch\.xml)\b", rule)
               for rule in added), added
