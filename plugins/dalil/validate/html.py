"""HTML pages: every internal link and image resolves, and nothing a strict CSP blocks."""

import json
import re

import lxml.html

# Attributes that hold one URL, on any element.
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "poster", "data", "cite")
# Script types a strict Content-Security-Policy leaves alone: data, not code.
DATA_SCRIPT_TYPES = ("application/ld+json", "application/json")
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
# Browsers drop ASCII tab and newlines from URLs and trim controls and spaces.
_URL_NOISE = re.compile(r"[\t\n\r]|^[\x00-\x20]+")
_FORBIDDEN_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def url_scheme(url):
    match = _SCHEME.match(_URL_NOISE.sub("", url))
    return match.group(1).lower() if match else ""


def srcset_urls(value):
    return [candidate.split()[0] for candidate in value.split(",") if candidate.strip()]


def page_urls(element):
    """``(attribute, url)`` pairs of one element."""
    for attribute in URL_ATTRIBUTES:
        value = element.get(attribute)
        if value is not None:
            yield attribute, value
    for attribute in ("srcset", "imagesrcset"):
        if element.get(attribute):
            for url in srcset_urls(element.get(attribute)):
                yield attribute, url


def check_csp(relpath, element, report):
    """What a policy without 'unsafe-inline' would block."""
    tag = element.tag if isinstance(element.tag, str) else ""
    if tag == "script" and not element.get("src"):
        script_type = (element.get("type") or "").strip().lower()
        if script_type not in DATA_SCRIPT_TYPES:
            report.problem(relpath, "inline <script> (a strict Content-Security-Policy blocks it)")
        elif script_type == "application/ld+json":
            try:
                json.loads(element.text or "")
            except ValueError as error:
                report.problem(relpath, "JSON-LD block is not JSON: %s", error)
    if tag == "style":
        report.problem(relpath, "<style> element (a strict Content-Security-Policy blocks it)")
    for attribute in element.attrib:
        name = attribute.lower()
        if name == "style":
            report.problem(relpath, "style attribute on <%s> (a strict Content-Security-Policy "
                           "blocks it)", tag)
        elif name.startswith("on"):
            report.problem(relpath, "event handler attribute %s on <%s> (a strict "
                           "Content-Security-Policy blocks it)", name, tag)


def check_page(site, relpath, report):
    data = site.read_bytes(relpath)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        report.problem(relpath, "not UTF-8: %s", error)
        return
    if _FORBIDDEN_CHARS.search(text):
        report.problem(relpath, "holds a control character")
    if not text.strip():
        report.problem(relpath, "is empty")
        return
    document = lxml.html.document_fromstring(text)
    ids = {element.get("id") for element in document.iter() if element.get("id")}
    for element in document.iter():
        if not isinstance(element.tag, str):
            continue
        check_csp(relpath, element, report)
        for attribute, url in page_urls(element):
            check_url(site, relpath, element.tag, attribute, url, ids, report)


def check_url(site, relpath, tag, attribute, url, ids, report):
    scheme = url_scheme(url)
    if scheme in ("javascript", "vbscript"):
        report.problem(relpath, "%s URL in <%s %s>", scheme, tag, attribute)
        return
    if scheme in ("mailto", "tel", "data") or not url.strip():
        return
    if url.startswith("#"):
        if len(url) > 1 and url[1:] not in ids:
            report.problem(relpath, "link to #%s, which is not on the page", url[1:])
        return
    internal, target = site.resolve(url, relpath)
    if internal and target is None:
        what = "image" if tag == "img" else f"<{tag} {attribute}>"
        report.problem(relpath, "%s %s does not resolve to a file of the site", what, url)


class _PageProblems:
    """Collects page problems; one line per problem however many pages share it
    (a broken link in a template would otherwise fill the report)."""

    def __init__(self):
        self.pages = {}

    def problem(self, relpath, message, *args):
        pages = self.pages.setdefault(message % args if args else message, [])
        if relpath not in pages[-1:]:  # pages are checked one after the other
            pages.append(relpath)

    def report_to(self, report):
        for message, pages in self.pages.items():
            others = len(pages) - 1
            suffix = f" (and on {others} other page{'s' if others > 1 else ''})" if others else ""
            report.problem(pages[0], "%s%s", message, suffix)


def check_pages(site, report):
    pages = sorted(relpath for relpath in site.files if relpath.endswith((".html", ".htm")))
    problems = _PageProblems()
    for relpath in pages:
        check_page(site, relpath, problems)
    problems.report_to(report)
    report.count("HTML pages", len(pages))
