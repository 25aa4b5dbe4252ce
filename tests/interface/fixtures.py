"""A site as a visitor meets it: terms of every plural count, names in Arabic order
unlike their slugs' order, hostile long names that would widen a phone's page, and a
listing with coordinates and opening hours."""

from tests import sitebuilder as sb

LONG_TOKEN = "مطعمالزيتونةالكبيرللمأكولاتالبحرية" * 4
LONG_LATIN = "Restaurant_" + "x" * 120
AMPERSAND_WEBSITE = "https://long.example/menu?lang=ar&table=12"
# slug: (Arabic name, published listings). Slug order and Arabic order differ.
CATEGORIES = {
    "banks": ("بنوك", 2),
    "cafes": ("مقاهي", 11),
    "doctors": ("أطباء", 1),
    "hotels": ("فنادق", 10),
    "pharmacies": ("صيدليات", 3),
    "restaurants": ("مطاعم", 0),
}
CITIES = {"casablanca": "الدار البيضاء", "agadir": "أكادير", "rabat": "الرباط"}


def files():
    files = sb.base_files()
    for slug, (name, _) in CATEGORIES.items():
        files.update(sb.category(slug, name, slug.title(), slug.title()))
    for slug, name in CITIES.items():
        files.update(sb.city(slug, name, "CAS", slug.title(), slug.title()))
    for slug, (_, count) in CATEGORIES.items():
        for number in range(count):
            files.update(sb.listing(f"{slug}-{number}", f"{CATEGORIES[slug][0]} {number}",
                                    category=slug, city="rabat", Date="2026-03-01"))
    files.update(sb.listing(
        "long-name", LONG_TOKEN, category="doctors", city="agadir",
        Name_en=LONG_LATIN, Name_fr="Le " + LONG_LATIN, Website=AMPERSAND_WEBSITE,
        Street="شارع " + LONG_TOKEN, Phone="+212 522 123 456", Email="a@long.example",
        Summary=LONG_TOKEN, Date="2026-11-01", Modified="2026-11-20 09:00"))
    # Published (so counted): the hostile one above is the doctors' only listing.
    del files["listings/doctors-0.md"]
    files.update(sb.listing("zaytouna", "مطعم الزيتونة", category="cafes", city="agadir",
                            Name_en="Zaytouna", Name_fr="La Zaytouna",
                            Website="https://zaytouna.example", Date="2026-10-01",
                            Latitude="30.4278", Longitude="-9.5981",
                            Hours="Mo-Fr 09:00-12:00,14:00-18:00; Sa 20:00-02:00"))
    del files["listings/cafes-10.md"]
    files.update(sb.news("market-opens", "افتتاح السوق " + LONG_TOKEN, "2026-11-20 10:00"))
    files.update(sb.news("older", "خبر أقدم", "2026-11-02 10:00"))
    files["blog/tips.md"] = sb.metadata_file("نصائح.", Title="نصائح", Slug="tips",
                                             Date="2026-11-01")
    files["pages/code.md"] = sb.metadata_file(
        "```\ncurl https://dalil.test/directory/export.json?" + "a=1&" * 60 + "\n```\n\n"
        "| الملف | المسار (Path) |\n|---|---|\n| فهرس البحث | `/search-index.json` |\n\n"
        "اطلب `/directory/export.csv` بـ `Accept-Encoding: br`.",
        Title="صفحة فيها شيفرة", Slug="code")
    return files
