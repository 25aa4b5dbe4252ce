"""Third-party schemas the tests validate against, each installed from a package registry.

The npm packages are pinned in tests/package.json, the Python ones are in pyproject.toml's
``test`` extra. No schema is kept in the repository and none is fetched at test time.
"""

import copy
import functools
import json
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest
from lxml import etree

NODE_MODULES = Path(__file__).resolve().parent / "node_modules"
INSTALL_COMMANDS = {"npm": "npm ci --prefix tests", "PyPI": 'python3 -m pip install ".[test]"'}
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9"


@dataclass(frozen=True)
class Shipped:
    """A file inside a package of a registry."""

    registry: str
    package: str
    inside: str

    def installed_path(self):
        if self.registry == "npm":
            return NODE_MODULES / self.package / self.inside
        try:
            return Path(metadata.distribution(self.package).locate_file(self.inside))
        except metadata.PackageNotFoundError:
            return None


SCHEMAS = {
    # sitemaps.org's urlset schema (2008-03-26), as sitemap.js ships it.
    "sitemap.xsd": Shipped("npm", "sitemap", "schema/sitemap.xsd"),
    # No registry package ships sitemaps.org's own siteindex.xsd. This one holds the same
    # elements in the same order but takes any text as <lastmod>: the sitemap tests check
    # the index's dates themselves.
    "siteindex.xsd": Shipped("PyPI", "sitemap-verify", "sitemap_verify/schemas/siteindex.xsd"),
    "jsonfeed-1.1.schema.json": Shipped("npm", "jsonfeed-schema", "schema-v1.1.json"),
    # W3C's XHTML 1.0 Strict schema, for a sitemap's <xhtml:link> alternates, and the XML
    # namespace's schema it imports (xml:lang), as xmlschema ships them.
    "xhtml1-strict.xsd": Shipped("PyPI", "xmlschema", "xmlschema/schemas/XHTML/xhtml1-strict.xsd"),
    "xml.xsd": Shipped("PyPI", "xmlschema", "xmlschema/schemas/XML/xml.xsd"),
}
XHTML_NS = "http://www.w3.org/1999/xhtml"
XML_SCHEMA_URL = "http://www.w3.org/2001/xml.xsd"


def schema_path(name):
    shipped = SCHEMAS[name]
    path = shipped.installed_path()
    if path is None or not path.is_file():
        pytest.fail(f"schema {name} is not installed (the {shipped.registry} package "
                    f"{shipped.package}, file {shipped.inside}): run "
                    f"`{INSTALL_COMMANDS[shipped.registry]}` in the repository root", pytrace=False)
    return path


@functools.cache
def xml_schema(name):
    return etree.XMLSchema(etree.parse(str(schema_path(name)), etree.XMLParser(no_network=True)))


class _LocalXmlSchema(etree.Resolver):
    """The XML namespace's schema, which XHTML's imports from w3.org, from its local copy."""

    def resolve(self, url, pubid, context):
        if url == XML_SCHEMA_URL:
            return self.resolve_filename(str(schema_path("xml.xsd")), context)
        return None


@functools.cache
def sitemap_with_alternates_schema():
    """sitemap.xsd with XHTML's schema for the <xhtml:link> alternates of a page's other
    languages, composed as sitemap.js's all.xsd composes them, offline."""
    parser = etree.XMLParser(no_network=True)
    parser.resolvers.add(_LocalXmlSchema())
    sitemap, xhtml = schema_path("sitemap.xsd"), schema_path("xhtml1-strict.xsd")
    composed = (
        '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">'
        f'<xs:import namespace="{SITEMAP_NS}" schemaLocation="{sitemap.as_uri()}"/>'
        f'<xs:import namespace="{XHTML_NS}" schemaLocation="{xhtml.as_uri()}"/></xs:schema>')
    return etree.XMLSchema(etree.fromstring(composed.encode("utf-8"), parser))


def json_schema(name):
    return json.loads(schema_path(name).read_text(encoding="utf-8"))


class WithoutExtension:
    """A sitemap schema applied to a copy of the document without one extension's elements.

    The urlset XSD admits other namespaces' elements only with their own schema loaded
    (processContents="strict"), and no registry package ships Google's sitemap-news.xsd:
    a news sitemap is checked here without its <news:news> elements, whose values the news
    tests read back, with ultimate-sitemap-parser among others. That they stand last in each
    <url>, the only place the XSD allows them, is still checked.
    """

    def __init__(self, schema, namespace):
        self.schema = schema
        self.namespace = namespace
        self.misplaced = []

    def is_extension(self, element):
        return element.tag.startswith(f"{{{self.namespace}}}")

    def child_elements(self, url):
        return [child for child in url if isinstance(child.tag, str)]  # not comments

    def without_extension(self, root):
        root = copy.deepcopy(root)
        for url in root.iterfind(f"{{{SITEMAP_NS}}}url"):
            for element in filter(self.is_extension, self.child_elements(url)):
                url.remove(element)
        return etree.ElementTree(root)

    def misplaced_urls(self, root):
        """<url>s with a sitemaps.org element after an extension's: the XSD's wildcard ends tUrl."""
        misplaced = []
        for url in root.iterfind(f"{{{SITEMAP_NS}}}url"):
            kinds = [self.is_extension(child) for child in self.child_elements(url)]
            if kinds != sorted(kinds):
                misplaced.append(url.findtext(f"{{{SITEMAP_NS}}}loc"))
        return misplaced

    def validate(self, document):
        root = document.getroot() if hasattr(document, "getroot") else document
        self.misplaced = self.misplaced_urls(root)
        return not self.misplaced and self.schema.validate(self.without_extension(root))

    def assertValid(self, document):  # noqa: N802 - lxml's name, so both kinds are used alike
        assert self.validate(document), self.error_log

    @property
    def error_log(self):
        if self.misplaced:
            return f"{self.namespace} elements before sitemap elements in <url> of {self.misplaced}"
        return self.schema.error_log


def news_sitemap_schema():
    return WithoutExtension(xml_schema("sitemap.xsd"), NEWS_NS)
