"""The exports' fixture site: a listing with every field, one with the minimum, tricky
names, formula-looking values, a long name, a hidden and a draft listing."""

import datetime as dt
import unicodedata
from zoneinfo import ZoneInfo

from tests import sitebuilder as sb

FIELDS = ["name", "category", "phone", "email", "website", "address", "image", "url",
          "dateModified"]
# The source holds a newline (the entity); plain_text makes it one space.
TRICKY_SOURCE = 'مقهى "الأصدقاء" & شركاؤهم; فرع <الميناء>, طنجة \\ الجديدة&#10;الفرع الثاني'
TRICKY_NAME = 'مقهى "الأصدقاء" & شركاؤهم; فرع <الميناء>, طنجة \\ الجديدة الفرع الثاني'
# Harakat (combining marks), a 4-byte emoji and escapes: folding must keep them whole.
LONG_NAME = unicodedata.normalize("NFC", "مَطْعَمُ الزَّيْتُونَةِ الذَّهَبِيَّةِ 🍽️ لِلْمَأْكُولَاتِ الْمَغْرِبِيَّةِ الْأَصِيلَةِ، "
             "فَرْعُ الدَّارِ الْبَيْضَاءِ; شَارِعُ الْحَسَنِ الثَّانِي, بِجِوَارِ الْمَسْجِدِ \\ الْكَبِيرِ")
FULL_WEBSITE = "https://zaytouna.example/menu?a=1,2;b=3"


def utc(*local):
    """A Casablanca wall-clock time (the sample TIMEZONE) as the export writes it."""
    when = dt.datetime(*local, tzinfo=ZoneInfo("Africa/Casablanca"))
    return when.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def files():
    files = sb.base_files()
    files.update(sb.category("pharmacies", "صيدليات", "Pharmacies", "Pharmacies"))
    files.update(sb.city("rabat", "الرباط", "RAB", "Rabat", "Rabat"))
    files.update(sb.listing(
        "zaytouna", "مطعم الزيتونة", Name_en="Zaytouna", Name_fr="La Zaytouna",
        Street="12 شارع محمد الخامس، الطابق 2", Postal_code="20000", Country="المغرب",
        Phone="+212 522 123 456", Email="contact@zaytouna.example", Website=FULL_WEBSITE,
        Image="/images/z.svg", Date="2026-01-01 10:00", Modified="2026-10-02 16:30",
        Summary="مطعم مغربي.", Latitude="33.5731", Longitude="-7.5898",
        Hours="Mo-Th 12:00-23:00; Fr,Sa 12:00-01:00"))
    files.update(sb.listing("atlas-pharmacy", "صيدلية الأطلس", category="pharmacies"))
    files.update(sb.listing("friends-cafe", TRICKY_SOURCE, city="rabat", Date="2026-05-04"))
    # Degrees Python would print in exponent form (1e-05).
    files.update(sb.listing("long-name", LONG_NAME, Phone="0522 98 76 54",
                            Website="https://long.example/", Latitude="0.00001",
                            Longitude="-0.0000004"))
    files.update(sb.listing("formula", "=1+2", Street="@SUM(1;2)", Phone="+212 661-234567",
                            Email="-x@formula.example",
                            Image="https://cdn.example/a,b.png"))
    files.update(sb.listing("secret-shop", "متجر مخفي", Phone="+212 500 000 001",
                            Status="hidden"))
    files.update(sb.listing("future-bakery", "مخبزة قادمة", Phone="+212 500 000 002",
                            Email="draft@bakery.example", Status="draft"))
    files["images/z.svg"] = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'
    return files


def expected_records():
    """The export records the fixture must give, ordered by slug."""
    base = sb.SITEURL + "/directory/listing/"
    return [
        {"name": "صيدلية الأطلس", "category": "صيدليات", "phone": "", "email": "",
         "website": "", "address": "الدار البيضاء، المغرب", "image": "",
         "url": base + "atlas-pharmacy/", "dateModified": ""},
        {"name": "=1+2", "category": "مطاعم", "phone": "+212 661-234567",
         "email": "-x@formula.example", "website": "",
         "address": "@SUM(1;2)، الدار البيضاء، المغرب",
         "image": "https://cdn.example/a,b.png", "url": base + "formula/", "dateModified": ""},
        {"name": TRICKY_NAME, "category": "مطاعم", "phone": "", "email": "", "website": "",
         "address": "الرباط، المغرب", "image": "", "url": base + "friends-cafe/",
         "dateModified": utc(2026, 5, 4)},
        {"name": LONG_NAME, "category": "مطاعم", "phone": "0522 98 76 54", "email": "",
         "website": "https://long.example/", "address": "الدار البيضاء، المغرب", "image": "",
         "url": base + "long-name/", "dateModified": ""},
        {"name": "مطعم الزيتونة", "category": "مطاعم", "phone": "+212 522 123 456",
         "email": "contact@zaytouna.example", "website": FULL_WEBSITE,
         "address": "12 شارع محمد الخامس، الطابق 2، 20000 الدار البيضاء، المغرب",
         "image": sb.SITEURL + "/images/z.svg", "url": base + "zaytouna/",
         "dateModified": utc(2026, 10, 2, 16, 30)},
    ]
