"""The web-app tests' fixture site and helpers shared by the file and browser tests."""

import json
import re
from pathlib import Path

from tests import sitebuilder as sb

CSS = sb.THEME / "static" / "css" / "dalil.css"


def fixture_files():
    files = sb.base_files()  # restaurants, casablanca, the "about" page
    files.update(sb.category("pharmacies", "صيدليات", "Pharmacies"))
    files.update(sb.city("rabat", "الرباط", "RAB", "Rabat"))
    files.update(sb.listing(
        "zaytouna", "مطعم الزيتونة", Name_en="Zaytouna", Street="12 شارع محمد الخامس",
        Postal_code="20000", Country="المغرب", Phone="+212 522 123 456",
        Website="https://zaytouna.example/", Image="/images/z.svg"))
    files.update(sb.listing("atlas-pharmacy", "صيدلية الأطلس", category="pharmacies",
                            city="rabat", Phone="0537 11 22 33", Street="زنقة الأطلس"))
    files.update(sb.listing("friends-cafe", 'مقهى "الأصدقاء" & <شركاؤهم>'))
    files.update(sb.listing("secret-shop", "متجر مخفي", Status="hidden"))
    files.update(sb.listing("future-bakery", "مخبزة قادمة", Status="draft"))
    files.update(sb.news("market-opens", "افتتاح السوق", "2026-11-20 10:00"))
    files["images/z.svg"] = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'
    return files


def css_variable(name):
    """The value of a custom property in the theme's stylesheet, e.g. ``--brand``."""
    match = re.search(rf"{re.escape(name)}:\s*([^;]+);", CSS.read_text(encoding="utf-8"))
    return match.group(1).strip()


def worker_build(site):
    """The JSON object that sw.js starts with (``const BUILD = {...};``)."""
    text = site.read("sw.js")
    start = text.index("const BUILD = ") + len("const BUILD = ")
    build, _ = json.JSONDecoder().raw_decode(text, start)
    return build


def page_file(output, url_path):
    """The output file that a static host serves for ``url_path``."""
    path = Path(output) / url_path.lstrip("/")
    return path / "index.html" if url_path.endswith("/") else path
