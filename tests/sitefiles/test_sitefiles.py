"""build-info.json, security.txt, the content types, the host header files and /open-data/."""

import datetime as dt
import importlib.metadata
import json
import platform
import re

import pytest
from bs4 import BeautifulSoup

from dalil.sitefiles.content_types import content_type
from dalil.sitefiles.headers import HeaderPolicy, header_policy, is_hidden, response_headers
from tests import sitebuilder as sb

from .fixture import FINGERPRINTED_IMAGE, HOST_FILES, INTERFACE_FILES, fixture_files

BUILD_TIME = dt.datetime.fromtimestamp(int(sb.DEFAULT_EPOCH), dt.timezone.utc)
HOST_DEFAULT_CACHE = "public, max-age=0, must-revalidate"  # Cloudflare Pages' and Netlify's


def fields(text):
    """security.txt as ``[(name, value)]``, parsed by hand (sectxt checks it elsewhere)."""
    pairs = []
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.partition(": ")
            pairs.append((name, value))
    return pairs


def test_build_is_clean(site):
    assert "dalil.sitefiles" not in site.log, site.log
    for name in HOST_FILES + ("build-info.json", ".well-known/security.txt"):
        assert site.path(name).is_file(), name


def test_build_info(site):
    info = json.loads(site.read("build-info.json"))
    assert list(info)[:4] == ["builtAt", "nodeVersion", "site", "name"]
    assert info["builtAt"] == "2026-11-21T12:00:00.000Z"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", info["builtAt"])
    assert info["nodeVersion"] == f"python-{platform.python_version()}"
    assert info["site"] == sb.SITEURL
    assert info["name"] == "دليل"
    assert info["pelicanVersion"] == importlib.metadata.version("pelican")
    assert "commit" not in info  # the fixture's content is not in git
    assert info["counts"] == {"listings": 2, "categories": 2, "cities": 1, "news": 1,
                              "blog": 1, "pages": 2}


def test_security_txt(site):
    pairs = fields(site.read(".well-known/security.txt"))
    assert pairs == [
        ("Contact", "mailto:security@dalil.example"),
        ("Expires", "2027-05-20T12:00:00Z"),
        ("Preferred-Languages", "ar, en, fr"),
        ("Canonical", "https://dalil.test/.well-known/security.txt"),
    ]
    expires = dt.datetime.fromisoformat(dict(pairs)["Expires"].replace("Z", "+00:00"))
    assert BUILD_TIME < expires < BUILD_TIME + dt.timedelta(days=365)


def test_content_types_are_interface_types():
    for path, media_type in INTERFACE_FILES.items():
        assert content_type(path) == media_type, path
    for path in ("index.html", "directory/listing/x/index.html", "404.html"):
        assert content_type(path) == "text/html; charset=utf-8"
    assert content_type("directory/listing/x/contact.VCF") == "text/vcard; charset=utf-8"
    assert content_type("no-extension") == "application/octet-stream"


def test_a_csp_a_header_file_cannot_carry_is_refused():
    for value in ('default-src "self"', "default-src 'self'\nX-Evil: 1", "script-src $x"):
        with pytest.raises(ValueError):
            HeaderPolicy(content_security_policy=value)


def test_hidden_files():
    policy = HeaderPolicy(hidden=HOST_FILES)
    for relpath in (*HOST_FILES, "theme/.dalil-x.tmp", ".git/config", "./.env", "./_headers"):
        assert is_hidden(relpath, policy), relpath
    # "." is the output folder itself, which the servers ask about for "/".
    for relpath in (".well-known/security.txt", "index.html", "_headers/x.html", ".", "./",
                    "./index.html", "directory/."):
        assert not is_hidden(relpath, policy), relpath


def headers_file_rules(text):
    """``_headers`` parsed as its hosts read it: ``[(pattern, [(name, value)])]``."""
    rules = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith((" ", "\t")):
            name, _, value = line.strip().partition(": ")
            rules[-1][1].append((name, value))
        else:
            rules.append((line, []))
    return rules


def host_headers(rules, url):
    """What Cloudflare Pages and Netlify send: every matching rule applies, and the values
    of a header set by several rules are joined, so each must be set once at most."""
    sent = {}
    for pattern, headers in rules:
        parts = re.split(r"(\*)", pattern)
        regex = "".join(".*" if part == "*" else re.escape(part) for part in parts)
        if re.fullmatch(regex, url):
            for name, value in headers:
                sent.setdefault(name, []).append(value)
    return sent


def urls_of(relpath):
    if relpath == "index.html":
        return ["/", "/index.html"]
    if relpath.endswith("/index.html"):
        return ["/" + relpath[: -len("index.html")], "/" + relpath]
    return ["/" + relpath]


def test_headers_file_gives_every_file_its_headers(site):
    rules = headers_file_rules(site.read("_headers"))
    policy = header_policy({"SITEURL": sb.SITEURL})
    checked = 0
    for relpath in site.files():
        if is_hidden(relpath, policy):
            continue
        expected = response_headers(relpath, policy)
        for url in urls_of(relpath):
            sent = host_headers(rules, url)
            assert all(len(values) == 1 for values in sent.values()), (url, sent)
            sent = {name: values[0] for name, values in sent.items()}
            sent.setdefault("Cache-Control", HOST_DEFAULT_CACHE)
            assert sent == expected, url
            checked += 1
    assert checked > 50
    assert host_headers(rules, "/" + FINGERPRINTED_IMAGE)["Cache-Control"] == [
        "public, max-age=31536000, immutable"]
    assert host_headers(rules, "/feed.json")["Content-Type"] == [
        "application/feed+json; charset=utf-8"]


def test_htaccess(site):
    text = site.read(".htaccess")
    assert "ErrorDocument 404 /404.html" in text.splitlines()
    for name in ("X-Content-Type-Options", "Content-Security-Policy"):
        assert re.search(rf'^  Header always set {name} "', text, re.M), name
    assert 'RedirectMatch 404 "^/(nginx\\.conf\\.snippet|_headers)$"' in text
    # Dot files (the build's record of its files) but /.well-known/.
    assert 'RedirectMatch 404 "/\\.(?!well-known/)"' in text
    sections = re.findall(r'<(FilesMatch|If) "([^"]+)">\n(.*?)</\1>', text, re.S)
    types = {match: re.findall(r'ForceType "([^"]+)"', body) for _, match, body in sections}
    assert types["(?i)\\.vcf$"] == ["text/vcard; charset=utf-8"]
    assert types["(?i)\\.schema\\.json$"] == ["application/schema+json"]
    assert types["%{REQUEST_URI} == '/feed.json'"] == ["application/feed+json; charset=utf-8"]
    assert types["%{REQUEST_URI} == '/rss.xml'"] == ["application/rss+xml; charset=utf-8"]
    assert types["(?i)\\.json\\.(br|gz)$"] == ["application/json; charset=utf-8"]
    assert types["(?i)\\.csv\\.(br|gz)$"] == ["text/csv; charset=utf-8"]
    assert types["(?i)\\.geojson\\.(br|gz)$"] == ["application/geo+json"]
    # A precompressed copy for a client that takes it; the rest compressed by mod_deflate.
    rewrites = re.findall(r'^  RewriteCond "%\{HTTP:Accept-Encoding\}" "\(\^\|\[ ,\]\)(\w+)\(.*\n'
                          r'  RewriteCond "%\{REQUEST_FILENAME\}(\.\w+)" -f\n'
                          r'  RewriteRule "\^\(\.\+\\\.\(json\|csv\|geojson\)\)\$" "\$1(\.\w+)"', text, re.M)
    assert rewrites == [("br", ".br", ".br"), ("gzip", ".gz", ".gz")]
    assert "  AddEncoding br .br" in text.splitlines()
    assert re.search(r"^  AddOutputFilterByType DEFLATE text/html .*application/json", text, re.M)
    cache = {match: re.findall(r'Cache-Control "([^"]+)"', body) for _, match, body in sections}
    assert cache["(?i)\\.html$"] == ["no-cache"]
    assert cache["%{REQUEST_URI} == '/sw.js'"] == ["no-cache"]


def test_nginx_snippet_refuses_to_serve_itself(site):
    text = site.read("nginx.conf.snippet")
    assert "location = /nginx.conf.snippet { return 404; }" in text
    assert str(site.root) not in text  # no machine path: the build is reproducible


def test_open_data_page_documents_every_file(site):
    page = BeautifulSoup(site.read("open-data/index.html"), "html.parser")
    main = page.find("main")
    text = main.get_text(" ")
    documented = {path.replace("zaytouna", "{slug}") for path in INTERFACE_FILES}
    for path in documented:
        assert path in text, path
    for path, media_type in INTERFACE_FILES.items():
        assert media_type in text, media_type
    hrefs = {link["href"] for link in main.find_all("a", href=True)}
    assert {"/schemas/search-index.schema.json", "/schemas/directory-export.schema.json"} <= hrefs
    assert "للاستخدام غير التجاري بشرط نسبتها" in text
    assert "الاستخدام التجاري أو إعادة النشر يتطلبان التواصل مع مشغّل الموقع" in text
    assert "طلب نقطة بيانات جديدة" in text
    assert "+212 522 123 456" in text and "`'`" not in text and "'" in text
    for name in ("name", "category", "phone", "email", "website", "address", "image", "url",
                 "dateModified", "builtAt", "nodeVersion"):
        assert main.find("code", string=name), name
    blocks = [code.get_text() for code in main.select("pre code")]
    assert any(line.startswith("curl ") for block in blocks for line in block.splitlines())
    python = [block for block in blocks if "import json" in block]
    assert python
    compile(python[0], "open-data example", "exec")
    entries = json.loads(site.read("search-index.json"))
    assert {"t": "page", "s": "open-data"}.items() <= next(
        entry for entry in entries if entry["s"] == "open-data").items()


# -- settings ------------------------------------------------------------------

@pytest.fixture(scope="module")
def variant(tmp_path_factory):
    """Another period, a Policy, two contacts, a site under a path, outputs turned off."""
    return sb.build_site(
        tmp_path_factory.mktemp("variant"), fixture_files(),
        SITEURL="https://dalil.test/sub",
        DALIL_SITEFILES_SECURITY_EXPIRES_DAYS=400,
        DALIL_SITEFILES_SECURITY_POLICY="security-policy/",
        DALIL_SITEFILES_SECURITY_CONTACT=("security@dalil.test", "https://dalil.test/report"),
        DALIL_SITEFILES_NGINX_SAVE_AS="", DALIL_SITEFILES_BUILD_INFO_SAVE_AS="",
    )


def test_a_period_of_a_year_or_more_is_warned_about(variant):
    assert variant.returncode == 0, variant.log
    assert re.search(r"WARNING .*DALIL_SITEFILES_SECURITY_EXPIRES_DAYS is 400", variant.log)
    pairs = fields(variant.read(".well-known/security.txt"))
    assert dict(pairs)["Expires"] == "2027-12-26T12:00:00Z"
    assert [value for name, value in pairs if name == "Contact"] == [
        "mailto:security@dalil.test", "https://dalil.test/report"]
    assert dict(pairs)["Policy"] == "https://dalil.test/sub/security-policy/"
    assert dict(pairs)["Canonical"] == "https://dalil.test/sub/.well-known/security.txt"


def test_outputs_turn_off_and_rules_follow_the_site_path(variant):
    assert not variant.path("nginx.conf.snippet").exists()
    assert not variant.path("build-info.json").exists()
    rules = headers_file_rules(variant.read("_headers"))
    assert all(pattern.startswith("/sub/") for pattern, _ in rules)
    assert "ErrorDocument 404 /sub/404.html" in variant.read(".htaccess").splitlines()


def test_a_bad_contact_stops_the_build_with_a_message(tmp_path):
    result = sb.build_site(tmp_path, fixture_files(),
                           DALIL_SITEFILES_SECURITY_CONTACT="not an address")
    assert result.returncode != 0
    assert "security.txt: 'not an address' is neither an e-mail address" in result.log
    assert "Traceback" not in result.log


def test_no_contact_no_security_txt(tmp_path):
    result = sb.build_site(tmp_path, sb.base_files(), DALIL_SITEFILES_SECURITY_CONTACT="")
    assert result.returncode == 0, result.log
    assert "DALIL_SITEFILES_SECURITY_CONTACT is not set" in result.log
    assert not result.path(".well-known/security.txt").exists()
