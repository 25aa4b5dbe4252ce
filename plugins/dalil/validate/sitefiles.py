"""Checks of the site's operational files: robots.txt, security.txt, build-info.json, the
web app manifest and its icons, the OpenSearch description."""

import datetime as dt
import re
import struct

from .parsing import check_internal, load_json, load_xml, parse_datetime


OPENSEARCH_NS = "http://a9.com/-/spec/opensearch/1.1/"
# Protocol limits: Google's robots.txt, OpenSearch 1.1.
ROBOTS_MAX_BYTES = 500 * 1024
OPENSEARCH_LIMITS = {"ShortName": 16, "LongName": 48, "Description": 1024, "Tags": 256}
MANIFEST_SHORTCUTS = 4
SECURITY_TXT_MAX_AHEAD = dt.timedelta(days=366)
_BUILT_AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


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
