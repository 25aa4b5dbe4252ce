"""The search tests' fixture site: every entry type, translated and untranslated names,
diacritics, hamza forms, a draft and a hidden item of each kind."""

from tests import sitebuilder as sb

TRICKY_NAME = "مقهى «النجوم» & شركاؤهم <فرع 2>"


def fixture_files():
    files = sb.base_files()  # restaurants, casablanca, the "about" page
    files.update(sb.category("pharmacies", "صيدليات"))  # no English or French name
    # Keywords: Latin and Arabic commas, a repeated word, markup; a repeated line adds.
    files["categories/cafes.md"] = sb.metadata_file(
        "وصف.", Title="مقاهٍ", Slug="cafes", Name_en="Cafes", Name_fr="Cafés",
        Keywords="مقهى، قهوة, coffee,, قهوة , <b>espresso</b>")
    files.update(sb.city("rabat", "الرباط", "RAB", "Rabat", "Rabat"))
    files.update(sb.listing(
        "zaytouna", "مطعم الزيتونة", Name_en="Zaytouna Restaurant",
        Name_fr="Restaurant La Zaytouna", Street="12 شارع محمد الخامس", Image="/images/z.svg",
        Phone="+212 522-26 45 19"))
    files.update(sb.listing("amal-pharmacy", "صيدلية الأمل", category="pharmacies", city="rabat",
                            Phone="0537-778452"))
    files.update(sb.listing("brothers-cafe", "مَقْهَى الإِخْوَة", category="cafes",
                            Name_fr="Café des Frères", Street="زنقة إدريس الأول",
                            Image="https://cdn.example.com/cafe.jpg", Phone="00212 537 40 10 10"))
    files.update(sb.listing("stars-cafe", TRICKY_NAME, category="cafes", city="rabat"))
    files.update(sb.listing("secret-shop", "متجر مخفي", Status="hidden"))
    files.update(sb.listing("future-bakery", "مخبزة قادمة", Status="draft"))
    files.update(sb.news("market-opens", "افتتاح <em>السوق</em> &amp; المعرض", "2026-11-20 10:00"))
    files.update(sb.news("secret-news", "خبر مسودة", "2026-11-19 10:00", Status="draft"))
    files.update(sb.news("travel-tips", "نصائح للسفر", "2026-11-01", category_folder="blog"))
    files["pages/open-data.md"] = sb.metadata_file("البيانات.", Title="البيانات المفتوحة",
                                                   Slug="open-data")
    files["pages/old.md"] = sb.metadata_file("قديم.", Title="صفحة مخفية", Slug="old",
                                             Status="hidden")
    files["images/z.svg"] = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'
    return files


PUBLISHED_LISTINGS = {"zaytouna", "amal-pharmacy", "brothers-cafe", "stars-cafe"}
