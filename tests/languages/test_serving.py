"""Each language's feeds, OpenSearch description and manifest served with their types,
as the root's are: by real nginx with the build's snippet, by the ``_headers`` rules of
Cloudflare Pages and Netlify, by ``.htaccess`` and the development servers."""

import re

import pytest

from dalil.sitefiles.content_types import content_type
from tests.sitefiles.fixture import fetch, single
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
