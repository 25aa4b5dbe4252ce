"""Every output file read back with a tool that is not the one that wrote it.

``read_site(result)`` opens each file of a build with its independent reader (json and
the published JSON Schemas, lxml and the sitemap XSDs, feedparser, vobject, csv,
sectxt, urllib.robotparser, BeautifulSoup) and fails on the first file that does not
parse or breaks a rule every page and file must keep. It returns what it read, for
value checks. A file that a capability does not write yet is simply not there.
"""

import csv
import gzip
import io
import json
import re
import urllib.robotparser
from pathlib import Path

import brotli
import feedparser
import jsonschema
import vobject
from bs4 import BeautifulSoup
from lxml import etree

from tests.schemas import json_schema, news_sitemap_schema, xml_schema

# XML 1.0 forbids these; Dalil also strips C1 controls and bidi overrides from text.
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")
UNSAFE_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
DATA_SCRIPT_TYPES = {"application/ld+json", "application/json"}
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "poster", "srcset", "data", "cite")
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
TEXT_SUFFIXES = (".html", ".json", ".geojson", ".xml", ".txt", ".csv", ".vcf", ".js", ".css",
                 ".webmanifest", ".svg", ".snippet")
TEXT_NAMES = ("_headers", ".htaccess")


def assert_json_schema(document, schema, what):
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    errors = list(validator_class(schema).iter_errors(document))
    assert not errors, f"{what}: {errors[0].message} at {list(errors[0].absolute_path)}"


def strict_json(data, relpath):
    assert not data.startswith(b"\xef\xbb\xbf"), f"{relpath}: byte-order mark"

    def refuse(name):
        raise AssertionError(f"{relpath}: {name} in JSON")

    return json.loads(data.decode("utf-8"), parse_constant=refuse)


def javascript_url(value):
    cleaned = re.sub(r"[\x00-\x20]", "", value).lower()
    return cleaned.startswith(("javascript:", "vbscript:"))


def read_page(relpath, text):
    """An HTML page: parses; nothing a strict CSP blocks; JSON-LD blocks are JSON."""
    soup = BeautifulSoup(text, "html.parser")
    for script in soup.find_all("script"):
        if not script.get("src"):
            kind = (script.get("type") or "").strip().lower()
            assert kind in DATA_SCRIPT_TYPES, f"{relpath}: inline <script> {str(script)[:80]}"
            json.loads(script.string or "")
    assert not soup.find_all("style"), f"{relpath}: <style> element"
    for element in soup.find_all(True):
        for attribute, value in element.attrs.items():
            name = attribute.lower()
            assert name != "style", f"{relpath}: style= on <{element.name}>"
            assert not name.startswith("on"), f"{relpath}: {name}= on <{element.name}>"
            if name in URL_ATTRIBUTES:
                values = value if isinstance(value, list) else [value]
                for url in values:
                    assert not javascript_url(url), f"{relpath}: {url!r} in {name}"
    return soup


def read_vcard(relpath, text):
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", ""), f"{relpath}: CRLF"
    for line in text.split("\r\n"):
        assert len(line.encode("utf-8")) <= 75, f"{relpath}: line over 75 octets"
    cards = list(vobject.readComponents(text))
    assert len(cards) == 1 and cards[0].version.value == "3.0", relpath
    return cards[0]


def read_csv(relpath, data):
    assert data.startswith(b"\xef\xbb\xbf"), f"{relpath}: no byte-order mark"
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), strict=True))
    header = rows[0]
    for row in rows[1:]:
        assert len(row) == len(header), f"{relpath}: ragged row {row}"
        for cell in row:
            formula = cell[:1] in ("=", "@", "\t", "\r") or (
                cell[:1] in ("+", "-") and not re.fullmatch(r"\+[0-9][0-9 ()./-]*", cell))
            assert not formula, f"{relpath}: cell {cell!r} runs as a formula"
    return [dict(zip(header, row)) for row in rows[1:]]


def read_xml(relpath, data):
    root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    if root.tag == f"{SITEMAP_NS}sitemapindex":
        xml_schema("siteindex.xsd").assertValid(root)
    elif root.tag == f"{SITEMAP_NS}urlset":
        news = "sitemap-news" in data.decode("utf-8")
        urls = root.findall(f"{SITEMAP_NS}url")
        if news and urls:
            news_sitemap_schema().assertValid(root)
        elif not news:
            xml_schema("sitemap.xsd").assertValid(root)
    elif root.tag == "rss":
        feed = feedparser.parse(data)
        assert not feed.bozo, f"{relpath}: {feed.get('bozo_exception')}"
        return feed
    return root


def read_site(result):
    """Read every output file; returns ``{relpath: what its reader gave}``."""
    output = result.output
    read = {}
    for relpath in result.files():
        path = output / relpath
        data = path.read_bytes()
        if relpath.endswith((".br", ".gz")):  # a precompressed copy: its file, exactly
            decompress = brotli.decompress if relpath.endswith(".br") else gzip.decompress
            assert decompress(data) == (output / relpath[:-3]).read_bytes(), relpath
            continue
        is_text = relpath.endswith(TEXT_SUFFIXES) or Path(relpath).name in TEXT_NAMES
        if not is_text:
            continue
        text = data.decode("utf-8-sig" if relpath.endswith(".csv") else "utf-8")
        assert not FORBIDDEN.search(text), f"{relpath}: forbidden control character"
        if relpath.endswith(".html"):
            read[relpath] = read_page(relpath, text)
        elif relpath.endswith((".json", ".geojson", ".webmanifest")):
            read[relpath] = strict_json(data, relpath)
        elif relpath.endswith(".xml"):
            read[relpath] = read_xml(relpath, data)
        elif relpath.endswith(".vcf"):
            read[relpath] = read_vcard(relpath, text)
        elif relpath.endswith(".csv"):
            read[relpath] = read_csv(relpath, data)
        elif relpath == "robots.txt":
            parser = urllib.robotparser.RobotFileParser()
            parser.parse(text.splitlines())
            read[relpath] = parser
        elif relpath.endswith("security.txt"):
            read[relpath] = read_security_txt(relpath, data)
    check_published_schemas(read)
    return read


def read_security_txt(relpath, data):
    from sectxt import Parser

    parsed = Parser(data)
    # Expiry is judged against the build's fixed clock by sitefiles' own tests.
    errors = [error for error in parsed.errors if error["code"] not in ("expired",)]
    assert not errors, f"{relpath}: {errors}"
    return parsed


def check_published_schemas(read):
    """Data files match the schemas the build publishes, and the JSON Feed its own."""
    pairs = {"search-index.json": "schemas/search-index.schema.json",
             "directory/export.json": "schemas/directory-export.schema.json",
             "directory/export.geojson": "schemas/directory-geojson.schema.json",
             "directory/datapackage.json": "schemas/datapackage.schema.json"}
    for data_path, schema_path in pairs.items():
        if data_path in read:
            assert schema_path in read, f"{data_path} published without {schema_path}"
            assert_json_schema(read[data_path], read[schema_path], data_path)
    if "feed.json" in read:
        assert_json_schema(read["feed.json"], json_schema("jsonfeed-1.1.schema.json"), "feed.json")
    if "directory/export.json" in read and "directory/export.csv" in read:
        assert len(read["directory/export.csv"]) == len(read["directory/export.json"])


def clean_text_everywhere(read):
    """No control or bidi-override character in any data file's values."""
    for relpath, value in read.items():
        is_data = relpath.endswith((".json", ".geojson", ".webmanifest"))
        if is_data and not relpath.startswith("schemas/"):
            for text in json_strings(value):
                assert not UNSAFE_TEXT.search(text), f"{relpath}: {text!r}"


def json_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from json_strings(item)
