"""HTML from content, made safe to publish under a strict Content-Security-Policy.

Markdown lets an operator write raw HTML. A page must still run no script of the
content's own (on GitHub Pages no header policy protects it) and use nothing that a
policy without 'unsafe-inline' blocks. So scripts, styles and the elements that load
or redirect other documents are removed, and so are event-handler and ``style``
attributes and ``javascript:``-like URLs. Everything else is kept as written.
"""

import html
import re


REMOVED_ELEMENTS = ("script", "style", "base", "meta", "link", "object", "embed", "applet",
                    "frame", "frameset")
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "poster", "data", "cite", "background",
                  "xlink:href", "ping", "lowsrc", "dynsrc", "srcset", "imagesrcset",
                  "to", "from", "values")  # the last three: SVG animation can set an href
UNSAFE_SCHEMES = ("javascript", "vbscript", "data")
# Markdown's usual output: tags without attributes that cannot load or run anything.
# HTML made only of these is returned untouched without parsing it (the common case).
_PLAIN_TAG = re.compile(
    r"</?(?:p|em|strong|b|i|u|s|ul|ol|li|h[1-6]|blockquote|br|hr|code|pre|table|thead|tbody"
    r"|tr|th|td|dl|dt|dd|sup|sub|small|mark|abbr|span|div|figure|figcaption)\s*/?>")
ANY_TAG = re.compile(r"<[^>]*>?")
# Browsers ignore ASCII tab and line breaks anywhere in a URL and leading controls/space.
_URL_NOISE = re.compile(r"[\t\n\r]|^[\x00-\x20]+|&(?:tab|newline);", re.IGNORECASE)
_SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*):", re.IGNORECASE)


def needs_parsing(value):
    return any(not _PLAIN_TAG.fullmatch(tag) for tag in ANY_TAG.findall(value))


def _scheme(url):
    # BeautifulSoup has already decoded character references in attribute values.
    match = _SCHEME.match(_URL_NOISE.sub("", url))
    return match.group(1).lower() if match else ""


def _unsafe_url(name, value):
    values = value if isinstance(value, list) else [value]
    if name in ("srcset", "imagesrcset", "values"):
        values = [part for value in values for part in re.split(r"[,;]", value)]
    return next((_scheme(url) for url in values if _scheme(url) in UNSAFE_SCHEMES), "")


def sanitize_html(value):
    """``(html, removed)``: ``value`` without what a strict CSP blocks; ``removed``
    describes each thing taken out (empty when nothing was)."""
    if not value or "<" not in value or not needs_parsing(value):
        return value, []
    # Imported here: most content never needs it, and it costs a tenth of a rebuild's start.
    from bs4 import BeautifulSoup
    from bs4.element import PreformattedString
    from bs4.exceptions import ParserRejectedMarkup

    try:
        soup = BeautifulSoup(value, "html.parser")
    except ParserRejectedMarkup:  # html.parser gives up ("<![" before more text): shown as text
        return html.escape(value, quote=False), ["markup the HTML parser cannot read (shown as text)"]
    removed = []
    # A comment, declaration or processing instruction may end differently in a browser
    # than in html.parser ("--!>"): none of them is needed on a page.
    for node in soup.find_all(string=lambda text: isinstance(text, PreformattedString)):
        node.extract()
    for element in soup.find_all(REMOVED_ELEMENTS):
        if element.parent is not None or element is soup:
            removed.append(f"<{element.name}> element")
            element.decompose()
    for element in soup.find_all(True):
        for attribute in list(element.attrs):
            name = attribute.lower()
            if name.startswith("on") or name in ("style", "srcdoc"):
                removed.append(f"{name} attribute on <{element.name}>")
                del element[attribute]
            elif name in URL_ATTRIBUTES and _unsafe_url(name, element[attribute]):
                scheme = _unsafe_url(name, element[attribute])
                removed.append(f"{scheme} URL in <{element.name} {name}>")
                del element[attribute]
    # Serialised again even when nothing was removed: text and attribute values come
    # out escaped, so a browser cannot read them differently from html.parser.
    return str(soup), removed
