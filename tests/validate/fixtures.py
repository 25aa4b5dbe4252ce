"""A small but complete site: every page type, every data file, every link resolving."""

import datetime as dt

from tests import sitebuilder as sb

# The fixed SOURCE_DATE_EPOCH of sitebuilder's builds.
BUILD_TIME = dt.datetime(2026, 11, 21, 12, 0, tzinfo=dt.timezone.utc)
SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 3"><rect width="4" height="3"/></svg>'


def site_files():
    files = sb.base_files()
    files.update(sb.category("pharmacies", "صيدليات", "Pharmacies", "Pharmacies"))
    files.update(sb.city("rabat", "الرباط", "RAB", "Rabat", "Rabat"))
    files.update(sb.listing(
        "zaytouna", "مطعم الزيتونة", Name_en="Zaytouna", Name_fr="La Zaytouna",
        Street="12 شارع محمد الخامس", Postal_code="20000", Phone="+212 522 123 456",
        Email="contact@zaytouna.example", Website="https://zaytouna.example/",
        Image="/images/zaytouna.svg", Date="2026-01-01 10:00", Modified="2026-10-02 16:30",
        Summary="مطعم مغربي."))
    files.update(sb.listing("friends-cafe", 'مقهى "الأصدقاء" & شركاؤهم; فرع <الميناء>',
                            city="rabat", Phone="0537-11-22-33"))
    files.update(sb.listing("atlas-pharmacy", "صيدلية الأطلس", category="pharmacies",
                            Image="/images/atlas.svg", Date="2026-02-01"))
    files.update(sb.listing("secret-shop", "متجر مخفي", Status="hidden"))
    files.update(sb.listing("future-bakery", "مخبزة قادمة", Status="draft"))
    files.update(sb.news("market-opens", "افتتاح السوق", "2026-11-21 08:00"))
    files.update(sb.news("old-news", "خبر قديم", "2026-10-01 08:00"))
    files["blog/tips.md"] = sb.metadata_file("نصائح.", Title="نصائح", Slug="tips",
                                             Date="2026-11-01")
    for slug, title in (("contact", "اتصل بنا"), ("terms", "شروط الاستخدام"),
                        ("open-data", "البيانات المفتوحة")):
        files[f"pages/{slug}.md"] = sb.metadata_file("نص الصفحة.", Title=title, Slug=slug)
    files["images/zaytouna.svg"] = SVG
    files["images/atlas.svg"] = SVG
    return files
