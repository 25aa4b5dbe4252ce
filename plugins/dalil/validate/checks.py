"""Every output a build should have, checked (``check_all``): each text file, then the data
files, feeds and sitemaps, and site files (``data``, ``syndication``, ``sitefiles``)."""

import vobject

from .data import check_chunked_index, check_exports, check_search_index
from .parsing import load_json, load_xml
from .sitefiles import (check_build_info, check_manifest, check_opensearch, check_robots,
                        check_security_txt)
from .syndication import check_json_feed, check_rss, check_sitemaps


# RFC 2425's limit of a line.
VCARD_LINE_OCTETS = 75
_TEXT_SUFFIXES = (".html", ".json", ".xml", ".txt", ".csv", ".vcf", ".js", ".css",
                  ".webmanifest", ".svg")


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
    check_chunked_index(site, outputs, report)
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
