"""Data files, feeds, sitemaps and operational files: parse, match schema, respect limits."""

import csv
import datetime as dt
import email.utils
import io
import json
import re
import struct
from urllib.parse import urlsplit

import jsonschema
import lxml.html
import vobject
from lxml import etree

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9"
OPENSEARCH_NS = "http://a9.com/-/spec/opensearch/1.1/"
# Protocol limits: sitemaps.org, Google News, Google's robots.txt, OpenSearch 1.1, RFC 2425.
SITEMAP_MAX_URLS = 50_000
SITEMAP_MAX_BYTES = 50 * 1024 * 1024
NEWS_SITEMAP_MAX_URLS = 1_000
URL_MAX_LENGTH = 2_048
ROBOTS_MAX_BYTES = 500 * 1024
OPENSEARCH_LIMITS = {"ShortName": 16, "LongName": 48, "Description": 1024, "Tags": 256}
VCARD_LINE_OCTETS = 75
MANIFEST_SHORTCUTS = 4
SECURITY_TXT_MAX_AHEAD = dt.timedelta(days=366)

_W3C_DATETIME = re.compile(
    r"\d{4}(-\d\d(-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d))?)?)?")
_BUILT_AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
_PHONE = re.compile(r"\+[0-9][0-9 ()./-]*")
_TEXT_SUFFIXES = (".html", ".json", ".xml", ".txt", ".csv", ".vcf", ".js", ".css",
                  ".webmanifest", ".svg")

# JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/): the parts a reader relies on.
JSON_FEED_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "required": ["version", "title", "items"],
    "properties": {
        "version": {"const": "https://jsonfeed.org/version/1.1"},
        "title": {"type": "string"},
        "home_page_url": {"type": "string"},
        "feed_url": {"type": "string"},
        "language": {"type": "string"},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id"],
                "anyOf": [{"required": ["content_html"]}, {"required": ["content_text"]}],
                "properties": {
                    "id": {"type": "string", "minLength": 1},
                    "url": {"type": "string"},
                    "title": {"type": "string"},
                    "content_html": {"type": "string"},
                    "content_text": {"type": "string"},
                    "summary": {"type": "string"},
                    "image": {"type": "string"},
                    "date_published": {"type": "string"},
                    "date_modified": {"type": "string"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
    },
}


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def load_json(site, relpath, report):
    """The parsed document, or None after reporting (once) why it cannot be read."""
    if relpath not in site.parsed:
        site.parsed[relpath] = _parse_json(site, relpath, report)
    return site.parsed[relpath]


def _parse_json(site, relpath, report):
    data = site.read_bytes(relpath)
    if data.startswith(b"\xef\xbb\xbf"):
        report.problem(relpath, "starts with a byte-order mark (JSON must not)")
        return None
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_reject_constant)
    except UnicodeDecodeError as error:
        if error.reason == "unexpected end of data":
            report.problem(relpath, "not valid JSON (truncated?): ends inside a character")
        else:
            report.problem(relpath, "not UTF-8: %s", error)
    except ValueError as error:
        report.problem(relpath, "not valid JSON (truncated?): %s", error)
    return None


def load_xml(site, relpath, report):
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
    try:
        return etree.fromstring(site.read_bytes(relpath), parser)
    except etree.XMLSyntaxError as error:
        report.problem(relpath, "not well-formed XML: %s", error)
        return None


def schema_errors(schema, document):
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
    return sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))


def check_against_schema(site, relpath, document, schema, schema_name, report, limit=5):
    try:
        errors = schema_errors(schema, document)
    except jsonschema.SchemaError as error:
        report.problem(schema_name, "not a valid JSON Schema: %s", error.message)
        return
    for error in errors[:limit]:
        where = "/".join(str(part) for part in error.absolute_path) or "(root)"
        report.problem(relpath, "does not match %s at %s: %s", schema_name, where, error.message)
    if len(errors) > limit:
        report.problem(relpath, "%d more schema errors", len(errors) - limit)


def check_internal(site, relpath, url, what, report, from_relpath=""):
    """``url`` must be a URL of this site that serves a file."""
    internal, target = site.resolve(url, from_relpath)
    if not internal:
        report.problem(relpath, "%s %s is not a URL of the site (SITEURL %r)", what, url,
                       site.siteurl)
    elif target is None:
        report.problem(relpath, "%s %s does not resolve to a file of the site", what, url)


def parse_datetime(value):
    try:
        parsed = dt.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return None
    return parsed if parsed.tzinfo else None


# -- individual files ---------------------------------------------------------

def check_text_files(site, report):
    """Every text file is UTF-8; every JSON and XML file parses; every vCard reads."""
    checked = {"json": 0, "xml": 0}
    for relpath in sorted(site.files):
        if not relpath.endswith(_TEXT_SUFFIXES) or relpath.endswith((".html", ".htm")):
            continue
        if relpath.endswith((".json", ".webmanifest")):
            load_json(site, relpath, report)
            checked["json"] += 1
        elif relpath.endswith(".xml"):
            load_xml(site, relpath, report)
            checked["xml"] += 1
        elif relpath.endswith(".vcf"):
            check_vcard(site, relpath, report)
        else:
            try:
                site.read_bytes(relpath).decode("utf-8")
            except UnicodeDecodeError as error:
                report.problem(relpath, "not UTF-8: %s", error)
    report.count("JSON files", checked["json"])
    report.count("XML files", checked["xml"])


def check_vcard(site, relpath, report):
    data = site.read_bytes(relpath)
    report.count("vCards")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        report.problem(relpath, "not UTF-8: %s", error)
        return
    lines = text.split("\r\n")
    if lines[-1] != "" or any("\n" in line or "\r" in line for line in lines):
        report.problem(relpath, "lines do not all end with CRLF")
    for number, line in enumerate(lines, start=1):
        if len(line.encode("utf-8")) > VCARD_LINE_OCTETS:
            report.problem(relpath, "line %d is longer than %d octets", number, VCARD_LINE_OCTETS)
            break
    try:
        cards = list(vobject.readComponents(text))
    except Exception as error:  # vobject raises several unrelated types
        report.problem(relpath, "not a vCard: %s", error)
        return
    if len(cards) != 1 or cards[0].name != "VCARD":
        report.problem(relpath, "holds %d vCards, not one", len(cards))
        return
    card = cards[0]
    if getattr(card, "version", None) is None or card.version.value != "3.0":
        report.problem(relpath, "is not vCard 3.0")
    if not getattr(card, "fn", None) or not card.fn.value.strip():
        report.problem(relpath, "has no FN")


def load_checked(site, outputs, name, schema_name, report):
    """The parsed output ``name``, checked against its schema ``schema_name`` when both
    are there; None when it is off, missing or does not parse."""
    path, schema_path = outputs.get(name), outputs.get(schema_name)
    if not path or not site.exists(path):
        return None
    document = load_json(site, path, report)
    if document is not None and schema_path and site.exists(schema_path):
        schema = load_json(site, schema_path, report)
        if schema is not None:
            check_against_schema(site, path, document, schema, schema_path, report)
    return document


def check_search_index(site, outputs, report):
    index_path = outputs.get("search_index")
    entries = load_checked(site, outputs, "search_index", "search_schema", report)
    if not isinstance(entries, list):
        return
    report.count("search index entries", len(entries))
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        for key, what in (("url", "url"), ("img", "image")):
            value = entry.get(key)
            if isinstance(value, str) and value.startswith("/"):
                check_internal(site, index_path, value, what, report)


# The prepared index's integer columns: a number ends at each character U+0023-U+0042
# (its schema's description), so counting them counts the numbers.
PREPARED_COLUMNS = {"type": 1, "category": 1, "city": 1, "img": 1, "text_lengths": 4}


def check_prepared_index(site, outputs, report):
    """Parses, matches its schema, and has one value per entry of the search index."""
    path, index_path = outputs.get("search_prepared"), outputs.get("search_index")
    prepared = load_checked(site, outputs, "search_prepared", "search_prepared_schema", report)
    entries = load_json(site, index_path, report) if index_path and site.exists(index_path) else None
    if not isinstance(prepared, dict) or not isinstance(entries, list):
        return
    slugs = prepared.get("slug")
    columns = {"slug": (len(slugs.split(" ")) if slugs else 0, 1)} if isinstance(slugs, str) else {}
    for name, per_entry in PREPARED_COLUMNS.items():
        if isinstance(prepared.get(name), str):
            ends = sum(0x23 <= ord(character) <= 0x42 for character in prepared[name])
            columns[name] = (ends, per_entry)
    for name, (values, per_entry) in columns.items():
        if values != per_entry * len(entries):
            report.problem(path, "%s holds %d values, not %d for the %d entries of %s",
                           name, values, per_entry * len(entries), len(entries), index_path)
    report.count("prepared search index entries", len(entries))
    phones = load_checked(site, outputs, "search_phones", "search_phones_schema", report)
    if isinstance(phones, dict) and isinstance(phones.get("phone"), str):
        values = len(phones["phone"].split(" "))
        if values != len(entries):
            report.problem(outputs.get("search_phones"), "phone holds %d values, not %d for the "
                           "%d entries of %s", values, len(entries), len(entries), index_path)


def check_exports(site, outputs, report, languages=()):
    json_path, csv_path = outputs.get("export_json"), outputs.get("export_csv")
    schema_path = outputs.get("export_schema")
    records = None
    if json_path and site.exists(json_path):
        records = load_json(site, json_path, report)
        if records is not None and schema_path and site.exists(schema_path):
            schema = load_json(site, schema_path, report)
            if schema is not None:
                check_against_schema(site, json_path, records, schema, schema_path, report)
        if isinstance(records, list):
            report.count("exported listings", len(records))
            for record in records:
                if isinstance(record, dict) and record.get("url"):
                    check_internal(site, json_path, record["url"], "url", report)
                if isinstance(record, dict) and record.get("image", "").startswith(site.base):
                    check_internal(site, json_path, record["image"], "image", report)
        else:
            records = None
    if csv_path and site.exists(csv_path):
        check_csv(site, csv_path, records, report)
    check_unexported_listings(site, outputs, records, report, languages)
    for data_key, schema_key in (("export_geojson", "export_geojson_schema"),
                                 ("datapackage", "datapackage_schema")):
        load_checked(site, outputs, data_key, schema_key, report)


def _slug_pattern(save_as):
    """A regular expression of the paths ``save_as`` (with one ``{slug}``) gives, the slug
    its one group; None for another form."""
    if save_as.count("{slug}") != 1 or save_as.count("{") != 1:
        return None
    head, _, tail = save_as.partition("{slug}")
    return re.compile(re.escape(head) + r"([^/]+)" + re.escape(tail))


def _is_noindex(site, relpath):
    """True if the page asks crawlers not to index it (a hidden listing's page)."""
    try:
        document = lxml.html.document_fromstring(site.read_bytes(relpath))
    except (etree.ParserError, ValueError):
        return False
    return any("noindex" in (meta.get("content") or "").lower()
               for meta in document.xpath("//meta[@name='robots']"))


def check_unexported_listings(site, outputs, records, report, languages=()):
    """Every listing page (in each language: ``languages``' outputs) and vCard belongs to a
    listing of the JSON export, but the page of a hidden listing (``noindex``, never
    exported): any other is a leftover of a listing that is gone (removed, renamed, or
    skipped for an error) and must not be published."""
    page_pattern = _slug_pattern(outputs.get("listing_page") or "")
    language_patterns = [pattern for language in languages
                         if (pattern := _slug_pattern(language.get("listing_page") or ""))]
    card_pattern = _slug_pattern(outputs.get("vcard") or "")
    if page_pattern is None or not isinstance(records, list):
        return
    exported = set()
    for record in records:
        url = record.get("url") if isinstance(record, dict) else None
        path = urlsplit(url).path if isinstance(url, str) else ""
        relpath = path[len(site.prefix):] if path.startswith(site.prefix) else ""
        match = page_pattern.fullmatch(relpath + "index.html" if relpath.endswith("/") else relpath)
        if match:
            exported.add(match.group(1))
    for relpath in sorted(site.files):
        page = next(filter(None, (pattern.fullmatch(relpath)
                                  for pattern in (page_pattern, *language_patterns))), None)
        card = card_pattern and card_pattern.fullmatch(relpath)
        if page and page.group(1) not in exported and not _is_noindex(site, relpath):
            report.problem(relpath, "the page of listing %r, which the exports do not hold: left "
                           "by an earlier build? (rebuild, or remove it)", page.group(1))
        elif card and card.group(1) not in exported:
            report.problem(relpath, "the vCard of listing %r, which the exports do not hold: "
                           "left by an earlier build? (rebuild, or remove it)", card.group(1))


def check_csv(site, relpath, records, report):
    data = site.read_bytes(relpath)
    if not data.startswith(b"\xef\xbb\xbf"):
        report.problem(relpath, "has no UTF-8 byte-order mark (spreadsheets then garble Arabic)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        report.problem(relpath, "not UTF-8: %s", error)
        return
    if re.search(r"(?<!\r)\n", text):
        report.problem(relpath, "has a line not ended by CRLF (RFC 4180)")
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error as error:
        report.problem(relpath, "not valid CSV: %s", error)
        return
    if not rows:
        report.problem(relpath, "has no header row")
        return
    header, body = rows[0], rows[1:]
    for number, row in enumerate(body, start=2):
        if len(row) != len(header):
            report.problem(relpath, "row %d has %d cells, the header %d", number, len(row),
                           len(header))
        for cell in row:
            starts_formula = cell.startswith(("=", "@", "\t", "\r")) or (
                cell.startswith(("+", "-")) and not _PHONE.fullmatch(cell))
            if starts_formula:
                report.problem(relpath, "row %d: cell %r would run as a spreadsheet formula",
                               number, cell[:40])
    if records is not None:
        if len(body) != len(records):
            report.problem(relpath, "has %d rows, the JSON export %d records", len(body),
                           len(records))
        if records and isinstance(records[0], dict) and header != list(records[0]):
            report.problem(relpath, "columns %s differ from the JSON export's fields %s",
                           header, list(records[0]))


def check_rss(site, relpath, report):
    root = load_xml(site, relpath, report)
    if root is None:
        return
    if root.tag != "rss" or root.get("version") != "2.0":
        report.problem(relpath, "is not RSS 2.0 (root <%s version=%r>)", root.tag,
                       root.get("version"))
        return
    channel = root.find("channel")
    if channel is None:
        report.problem(relpath, "has no <channel>")
        return
    for name in ("title", "link", "description"):
        if channel.find(name) is None:
            report.problem(relpath, "channel has no <%s>", name)
    items = channel.findall("item")
    report.count("feed items", len(items))
    limit = site.settings.get("FEED_MAX_ITEMS")
    if limit and len(items) > int(limit):
        report.problem(relpath, "has %d items, more than FEED_MAX_ITEMS (%s)", len(items), limit)
    for number, item in enumerate(items, start=1):
        if item.find("title") is None and item.find("description") is None:
            report.problem(relpath, "item %d has neither title nor description", number)
        link = item.findtext("link")
        if link:
            check_internal(site, relpath, link, f"item {number} link", report)
        date = item.findtext("pubDate")
        if date is not None:
            try:
                email.utils.parsedate_to_datetime(date)
            except (TypeError, ValueError):
                report.problem(relpath, "item %d pubDate %r is not an RFC 822 date", number, date)


def check_json_feed(site, relpath, report):
    feed = load_json(site, relpath, report)
    if feed is None:
        return
    check_against_schema(site, relpath, feed, JSON_FEED_SCHEMA, "JSON Feed 1.1", report)
    if not isinstance(feed, dict) or not isinstance(feed.get("items"), list):
        return
    report.count("feed items", len(feed["items"]))
    limit = site.settings.get("FEED_MAX_ITEMS")
    if limit and len(feed["items"]) > int(limit):
        report.problem(relpath, "has %d items, more than FEED_MAX_ITEMS (%s)",
                       len(feed["items"]), limit)
    if isinstance(feed.get("feed_url"), str) and site.siteurl:
        check_internal(site, relpath, feed["feed_url"], "feed_url", report)
    ids = set()
    for number, item in enumerate(feed["items"], start=1):
        if not isinstance(item, dict):
            continue
        if item.get("id") in ids:
            report.problem(relpath, "item %d repeats id %r", number, item.get("id"))
        ids.add(item.get("id"))
        for key in ("date_published", "date_modified"):
            if key in item and parse_datetime(item[key]) is None:
                report.problem(relpath, "item %d %s %r is not RFC 3339", number, key, item[key])
        if isinstance(item.get("url"), str):
            check_internal(site, relpath, item["url"], f"item {number} url", report)


def _sitemap_size(site, relpath, report):
    size = site.path(relpath).stat().st_size
    if size > SITEMAP_MAX_BYTES:
        report.problem(relpath, "is %d bytes, over the sitemap limit of %d", size,
                       SITEMAP_MAX_BYTES)


def _check_loc(site, relpath, loc, report):
    if not loc:
        report.problem(relpath, "has an empty <loc>")
    elif len(loc) >= URL_MAX_LENGTH:
        report.problem(relpath, "URL of %d characters (the limit is %d): %s", len(loc),
                       URL_MAX_LENGTH, loc[:80])
    elif site.siteurl and not loc.startswith(("http://", "https://")):
        report.problem(relpath, "<loc> %s is not an absolute URL", loc)
    else:
        check_internal(site, relpath, loc, "<loc>", report)


def check_urlset(site, relpath, report, news=False):
    root = load_xml(site, relpath, report)
    if root is None:
        return
    _sitemap_size(site, relpath, report)
    if root.tag != f"{{{SITEMAP_NS}}}urlset":
        report.problem(relpath, "root element is %s, not a sitemap <urlset>", root.tag)
        return
    urls = root.findall(f"{{{SITEMAP_NS}}}url")
    report.count("sitemap URLs", len(urls))
    limit = NEWS_SITEMAP_MAX_URLS if news else SITEMAP_MAX_URLS
    if len(urls) > limit:
        report.problem(relpath, "lists %d URLs, over the limit of %d", len(urls), limit)
    for url in urls:
        _check_loc(site, relpath, (url.findtext(f"{{{SITEMAP_NS}}}loc") or "").strip(), report)
        lastmod = url.findtext(f"{{{SITEMAP_NS}}}lastmod")
        if lastmod is not None and not _W3C_DATETIME.fullmatch(lastmod.strip()):
            report.problem(relpath, "<lastmod> %r is not a W3C datetime", lastmod)
        if news:
            article = url.find(f"{{{NEWS_NS}}}news")
            if article is None:
                report.problem(relpath, "a <url> has no <news:news>")
                continue
            for name in ("publication", "publication_date", "title"):
                if article.find(f"{{{NEWS_NS}}}{name}") is None:
                    report.problem(relpath, "a <news:news> has no <news:%s>", name)
            date = article.findtext(f"{{{NEWS_NS}}}publication_date")
            if date is not None and not _W3C_DATETIME.fullmatch(date.strip()):
                report.problem(relpath, "<news:publication_date> %r is not a W3C datetime", date)


def check_sitemaps(site, outputs, report):
    index_path = outputs.get("sitemap_index")
    if index_path and site.exists(index_path):
        root = load_xml(site, index_path, report)
        if root is not None:
            _sitemap_size(site, index_path, report)
            if root.tag != f"{{{SITEMAP_NS}}}sitemapindex":
                report.problem(index_path, "root element is %s, not <sitemapindex>", root.tag)
            else:
                entries = root.findall(f"{{{SITEMAP_NS}}}sitemap")
                if not entries:
                    report.problem(index_path, "lists no sitemap")
                if len(entries) > SITEMAP_MAX_URLS:
                    report.problem(index_path, "lists %d sitemaps, over the limit of %d",
                                   len(entries), SITEMAP_MAX_URLS)
                for entry in entries:
                    loc = (entry.findtext(f"{{{SITEMAP_NS}}}loc") or "").strip()
                    internal, target = site.resolve(loc)
                    if not internal or target is None:
                        report.problem(index_path, "lists %s, which is not a file of the site",
                                       loc)
                    elif target != outputs.get("news_sitemap"):
                        check_urlset(site, target, report)
    news_path = outputs.get("news_sitemap")
    if news_path and site.exists(news_path):
        check_urlset(site, news_path, report, news=True)


def check_robots(site, relpath, report):
    data = site.read_bytes(relpath)
    if len(data) > ROBOTS_MAX_BYTES:
        report.problem(relpath, "is %d bytes; crawlers read only the first %d", len(data),
                       ROBOTS_MAX_BYTES)
    for line in data.decode("utf-8", "replace").splitlines():
        field, _, value = line.partition(":")
        if field.strip().lower() == "sitemap":
            value = value.strip()
            # Crawlers need an absolute URL; a local build (SITEURL "") cannot give one.
            if site.siteurl and not value.startswith(("http://", "https://")):
                report.problem(relpath, "Sitemap %s is not an absolute URL", value)
            else:
                check_internal(site, relpath, value, "Sitemap", report)


def check_security_txt(site, relpath, report, now):
    """RFC 9116: Contact and one Expires, not in the past, less than a year ahead."""
    try:
        text = site.read_bytes(relpath).decode("utf-8")
    except UnicodeDecodeError as error:
        report.problem(relpath, "not UTF-8: %s", error)
        return
    fields = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        name, separator, value = line.partition(":")
        if not separator or not name.strip() or " " in name.strip():
            report.problem(relpath, "line %d is not a 'Field: value' line", number)
            continue
        fields.setdefault(name.strip().lower(), []).append(value.strip())
    if not fields.get("contact"):
        report.problem(relpath, "has no Contact")
    expires = fields.get("expires", [])
    if len(expires) != 1:
        report.problem(relpath, "has %d Expires fields, not exactly one", len(expires))
    else:
        when = parse_datetime(expires[0].replace("z", "Z"))
        if when is None:
            report.problem(relpath, "Expires %r is not an RFC 3339 date-time", expires[0])
        elif when <= now:
            report.problem(relpath, "expired on %s: rebuild the site to renew it", expires[0])
        elif when - now > SECURITY_TXT_MAX_AHEAD:
            report.problem(relpath, "Expires %s is more than a year ahead (RFC 9116)", expires[0])
    if len(fields.get("preferred-languages", [])) > 1:
        report.problem(relpath, "has more than one Preferred-Languages")
    canonical = fields.get("canonical", [])
    if site.siteurl and canonical and site.url_of(relpath) not in canonical:
        report.problem(relpath, "Canonical %s does not name %s", ", ".join(canonical),
                       site.url_of(relpath))


def check_build_info(site, relpath, report):
    info = load_json(site, relpath, report)
    if info is None:
        return
    if not isinstance(info, dict):
        report.problem(relpath, "is not a JSON object")
        return
    for key in ("builtAt", "nodeVersion", "site", "name"):
        if not isinstance(info.get(key), str):
            report.problem(relpath, "has no string %s", key)
    if isinstance(info.get("builtAt"), str) and not _BUILT_AT.fullmatch(info["builtAt"]):
        report.problem(relpath, "builtAt %r is not UTC with milliseconds", info["builtAt"])
    if isinstance(info.get("site"), str) and info["site"].rstrip("/") != site.siteurl:
        report.problem(relpath, "the site was built for %r, these settings say SITEURL %r: "
                       "validate with the settings file that built it", info["site"],
                       site.siteurl)


def png_size(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


def _check_icon(site, relpath, icon, what, report):
    src = icon.get("src") if isinstance(icon, dict) else None
    if not isinstance(src, str) or not src:
        report.problem(relpath, "%s has no src", what)
        return None
    internal, target = site.resolve(src, relpath)
    if internal and target is None:
        report.problem(relpath, "%s %s does not resolve to a file of the site", what, src)
        return None
    if not target:
        return None
    size = png_size(site.read_bytes(target))
    declared = str(icon.get("sizes") or "")
    if size and declared and declared != "any" and f"{size[0]}x{size[1]}" not in declared.split():
        report.problem(relpath, "%s %s is %dx%d, declared %s", what, src, size[0], size[1],
                       declared)
    return declared


def check_manifest(site, relpath, report):
    manifest = load_json(site, relpath, report)
    if manifest is None:
        return
    if not isinstance(manifest, dict):
        report.problem(relpath, "is not a JSON object")
        return
    if not (manifest.get("name") or manifest.get("short_name")):
        report.problem(relpath, "has neither name nor short_name")
    for key in ("start_url", "scope"):
        value = manifest.get(key)
        if not isinstance(value, str):
            report.problem(relpath, "has no %s", key)
        else:
            check_internal(site, relpath, value.split("?")[0], key, report, from_relpath=relpath)
    icons = manifest.get("icons") if isinstance(manifest.get("icons"), list) else []
    sizes, purposes = set(), set()
    for number, icon in enumerate(icons, start=1):
        declared = _check_icon(site, relpath, icon, f"icon {number}", report)
        sizes.update((declared or "").split())
        purposes.update(str(icon.get("purpose", "any")).split() if isinstance(icon, dict) else ())
    for needed in ("192x192", "512x512"):
        if needed not in sizes:
            report.problem(relpath, "has no %s icon", needed)
    if "maskable" not in purposes:
        report.problem(relpath, "has no maskable icon")
    shortcuts = manifest.get("shortcuts") if isinstance(manifest.get("shortcuts"), list) else []
    if len(shortcuts) != MANIFEST_SHORTCUTS:
        report.problem(relpath, "has %d shortcuts, the interface promises %d", len(shortcuts),
                       MANIFEST_SHORTCUTS)
    for number, shortcut in enumerate(shortcuts, start=1):
        if not isinstance(shortcut, dict) or not shortcut.get("name"):
            report.problem(relpath, "shortcut %d has no name", number)
            continue
        if not isinstance(shortcut.get("url"), str):
            report.problem(relpath, "shortcut %d has no url", number)
        else:
            check_internal(site, relpath, shortcut["url"].split("?")[0],
                           f"shortcut {number} url", report, from_relpath=relpath)
        for icon_number, icon in enumerate(shortcut.get("icons") or [], start=1):
            _check_icon(site, relpath, icon, f"shortcut {number} icon {icon_number}", report)


def check_opensearch(site, relpath, report):
    root = load_xml(site, relpath, report)
    if root is None:
        return
    if root.tag != f"{{{OPENSEARCH_NS}}}OpenSearchDescription":
        report.problem(relpath, "root element is %s, not an OpenSearch description", root.tag)
        return
    for name, limit in OPENSEARCH_LIMITS.items():
        value = root.findtext(f"{{{OPENSEARCH_NS}}}{name}")
        if value is not None and len(value) > limit:
            report.problem(relpath, "%s has %d characters, more than %d", name, len(value), limit)
    if not root.findtext(f"{{{OPENSEARCH_NS}}}ShortName"):
        report.problem(relpath, "has no ShortName")
    templates = [url.get("template", "") for url in root.findall(f"{{{OPENSEARCH_NS}}}Url")
                 if url.get("type") == "text/html"]
    if not templates:
        report.problem(relpath, "has no text/html Url")
    for template in templates:
        if "{searchTerms}" not in template:
            report.problem(relpath, "Url template %s has no {searchTerms}", template)
        check_internal(site, relpath, template.split("?")[0], "search page", report)
    for image in root.findall(f"{{{OPENSEARCH_NS}}}Image"):
        check_internal(site, relpath, (image.text or "").strip(), "Image", report)


def check_all(site, enabled, defaults, report, now, languages=()):
    """Every output the settings turn on must exist; every output present must be sound.
    ``languages``: the outputs of each language after the first, checked the same way.

    An output whose plugin is off is still checked at its interface path if it is there.
    """
    every = sorted(item for outputs in (enabled, *languages) for item in outputs.items())
    for name, relpath in every:
        if "{" not in relpath and not site.exists(relpath):
            report.problem(relpath, "is missing, but its plugin is in PLUGINS and %s is on "
                           "(rebuild, or set its *_SAVE_AS to \"\")", name)
    outputs = {**defaults, **enabled}
    check_text_files(site, report)
    check_search_index(site, outputs, report)
    check_prepared_index(site, outputs, report)
    check_exports(site, outputs, report, languages)
    check_sitemaps(site, outputs, report)
    single = {
        "rss": check_rss, "json_feed": check_json_feed, "robots": check_robots,
        "build_info": check_build_info, "manifest": check_manifest,
        "opensearch": check_opensearch,
        "security_txt": lambda site, relpath, report: check_security_txt(site, relpath, report,
                                                                         now),
    }
    for name, check in single.items():
        for relpath in (outputs.get(name), *(language.get(name) for language in languages)):
            if relpath and site.exists(relpath):
                check(site, relpath, report)
                report.count("feeds, manifest and site files")
