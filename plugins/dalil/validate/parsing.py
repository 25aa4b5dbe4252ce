"""Reading a published file for the checks: JSON and XML parsed strictly, schema errors,
internal links, dates."""

import datetime as dt
import json

import jsonschema
from lxml import etree


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
