"""Reading the pages of a site built in several languages: their versions (hreflang),
their language menu, and the output file a link leads to."""

from pathlib import Path
from urllib.parse import unquote, urlsplit

from lxml import html

from tests import sitebuilder as sb

LANGUAGES = ("ar", "fr", "en")
DIRECTIONS = {"ar": "rtl", "fr": "ltr", "en": "ltr"}
# Where each language's pages are, below the output folder.
FOLDERS = {"ar": "", "fr": "fr/", "en": "en/"}


def parse(output, relpath):
    return html.parse(str(Path(output) / relpath)).getroot()


def target(href):
    """The output file (relative path) an href of the site (below sitebuilder's SITEURL, or
    root-relative) leads to, or None off the site."""
    if href.startswith(sb.SITEURL + "/"):
        href = href[len(sb.SITEURL):]
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return None
    path = unquote(parts.path).lstrip("/")
    return path + "index.html" if path == "" or path.endswith("/") else path


def versions(page):
    """``[(hreflang, href)]`` of the page's alternates, in the page's order."""
    return [(link.get("hreflang"), link.get("href"))
            for link in page.xpath("/html/head/link[@rel='alternate'][@hreflang]")]


def menu(page):
    """``[(hreflang, lang, href, text)]`` of the links of the page's language menu."""
    return [(link.get("hreflang"), link.get("lang"), link.get("href"), link.text_content())
            for link in page.xpath("//nav[@class='languages']//a")]


def html_files(output):
    return sorted(path.relative_to(output).as_posix() for path in Path(output).rglob("*.html"))


def language_of(relpath):
    """The language of the page at ``relpath``, from its folder."""
    head = relpath.split("/", 1)[0]
    return head if head in FOLDERS and FOLDERS[head] == head + "/" else LANGUAGES[0]
