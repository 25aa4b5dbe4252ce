"""The relevance suite's queries on the sample site (content/), and its two figures.

Each query comes with the published listings it must return in its top 10, and a class
(what kind of searching it stands for)."""

RESTAURANTS = ("al-bahhar-fish", "andalusian-garden", "dar-tajine", "fes-el-bali-restaurant",
               "riad-grill", "zaytouna-restaurant")
HOTELS = ("bab-mansour-hotel", "medina-riad-fes", "oasis-business-hotel", "ocean-hotel",
          "riad-yasmine", "strait-hotel")
PHARMACIES = ("atlas-pharmacy", "boughaz-pharmacy", "chifa-pharmacy", "menara-pharmacy",
              "nour-pharmacy")
BOOKSHOPS = ("al-fikr-bookshop", "andalus-bookshop", "ibn-khaldoun-bookshop",
             "school-corner-bookshop", "warraq-bookshop")
CAFES = ("bab-ftouh-cafe", "friends-and-partners-cafe", "palm-cafe", "riverbank-cafe",
         "roasted-bean-cafe", "wave-cafe")
BAKERIES = ("argan-sweets", "farah-pastry", "hamra-bakery", "ismailia-bakery", "sunbula-bakery",
            "traditional-oven-bakery")
TAILORS = ("authentic-djellaba-tailor", "caftan-house", "lalla-aicha-sewing", "marsa-tailor",
           "modern-suits-tailor")
HAIRDRESSERS = ("elegance-barber", "leila-beauty-salon", "neighbourhood-barber",
                "sawsan-ladies-salon", "star-salon")
CLINICS = ("amal-dental-clinic", "childhood-pediatric-clinic", "hayat-physiotherapy",
           "salam-clinic", "souss-eye-clinic")
CAR_REPAIR = ("fath-auto-electric", "north-mechanics", "speed-garage", "trust-garage",
              "two-brothers-auto")
ELECTRONICS = ("fes-computers", "future-electronics", "med-electronics", "smartphone-center",
               "south-tech")
GROCERY = ("baraka-grocery", "fresh-greens-market", "khair-grocery", "souk-dakhel-grocery",
           "spice-shop")
AGADIR = ("al-bahhar-fish", "argan-sweets", "fresh-greens-market", "ocean-hotel",
          "sawsan-ladies-salon", "souss-eye-clinic", "south-tech", "trust-garage", "wave-cafe")
TANGIER = ("andalus-bookshop", "boughaz-pharmacy", "friends-and-partners-cafe", "marsa-tailor",
           "med-electronics", "neighbourhood-barber", "north-mechanics", "souk-dakhel-grocery",
           "strait-hotel")

MEKNES = ("bab-mansour-hotel", "baraka-grocery", "hayat-physiotherapy", "ismailia-bakery",
          "lalla-aicha-sewing", "nour-pharmacy", "riad-grill", "school-corner-bookshop",
          "two-brothers-auto")
MARRAKECH = ("dar-tajine", "fath-auto-electric", "hamra-bakery", "menara-pharmacy", "palm-cafe",
             "riad-yasmine", "spice-shop", "star-salon", "warraq-bookshop")
FES = ("authentic-djellaba-tailor", "bab-ftouh-cafe", "fes-computers", "fes-el-bali-restaurant",
       "ibn-khaldoun-bookshop", "khair-grocery", "medina-riad-fes", "salam-clinic",
       "traditional-oven-bakery")

# The 14 classes of queries a visitor types; at least 8 queries each.
CLASSES = ("exact-name", "name-without-al", "broken-plural", "clitic", "spelling-variant",
           "diacritics-tatweel", "typo", "french", "english", "latin-transliteration",
           "category-and-city", "city-only", "phone", "word-order")

QUERIES = [  # (class, query, listings that must be in the top 10)
    ("exact-name", "مطعم الزيتونة", ("zaytouna-restaurant",)),
    ("exact-name", "صيدلية الأطلس", ("atlas-pharmacy",)),
    ("exact-name", "مكتبة ابن خلدون", ("ibn-khaldoun-bookshop",)),
    ("exact-name", "فندق المحيط", ("ocean-hotel",)),
    ("exact-name", "دار القفطان", ("caftan-house",)),
    ("exact-name", "مقهى النخلة", ("palm-cafe",)),
    ("exact-name", "حلاق الحومة", ("neighbourhood-barber",)),
    ("exact-name", "مرآب الثقة", ("trust-garage",)),
    ("exact-name", "دار الطاجين", ("dar-tajine",)),
    ("name-without-al", "مكتبة فكر", ("al-fikr-bookshop",)),
    ("name-without-al", "صيدلية شفاء", ("chifa-pharmacy",)),
    ("name-without-al", "فندق محيط", ("ocean-hotel",)),
    ("name-without-al", "مخبزة حمراء", ("hamra-bakery",)),
    ("name-without-al", "صيدلية منارة", ("menara-pharmacy",)),
    ("name-without-al", "مقهى ضفة", ("riverbank-cafe",)),
    ("name-without-al", "رياض ياسمين", ("riad-yasmine",)),
    ("name-without-al", "مرآب سرعة", ("speed-garage",)),
    ("broken-plural", "مطاعم", RESTAURANTS),
    ("broken-plural", "فنادق", HOTELS),
    ("broken-plural", "مقاهي", CAFES),
    ("broken-plural", "مخابز", BAKERIES),
    ("broken-plural", "خياطين", TAILORS),
    ("broken-plural", "حواسيب", ELECTRONICS),
    ("broken-plural", "صيدليات", PHARMACIES),
    ("broken-plural", "مكتبات", BOOKSHOPS),
    ("broken-plural", "سيارات", CAR_REPAIR),
    # Not in Arramooz: from plugins/dalil/search/plurals.toml.
    ("broken-plural", "قفاطين", ("caftan-house",)),
    ("clitic", "والمطاعم", RESTAURANTS),
    ("clitic", "بالصيدلية", PHARMACIES),
    ("clitic", "للمكتبات", BOOKSHOPS),
    ("clitic", "مطعم بمراكش", ("dar-tajine",)),
    ("clitic", "وفندق", HOTELS),
    ("clitic", "كالمقهى", CAFES),
    ("clitic", "فالخياطة", TAILORS),
    ("clitic", "للحلاقة", HAIRDRESSERS),
    ("spelling-variant", "مراب", CAR_REPAIR),
    ("spelling-variant", "الكترونيات", ELECTRONICS),
    ("spelling-variant", "صيدلية الاطلس", ("atlas-pharmacy",)),
    ("spelling-variant", "اكادير", AGADIR),
    ("spelling-variant", "مقهي النخله", ("palm-cafe",)),
    ("spelling-variant", "مخبزه السنبله", ("sunbula-bakery",)),
    ("spelling-variant", "عياده الامل", ("amal-dental-clinic",)),
    ("spelling-variant", "الاسماعيليه", ("ismailia-bakery",)),
    ("diacritics-tatweel", "مَطْعَم", RESTAURANTS),
    ("diacritics-tatweel", "فُنْدُق", HOTELS),
    ("diacritics-tatweel", "صَيْدَلِيَّة", PHARMACIES),
    ("diacritics-tatweel", "مـقـهـى", CAFES),
    ("diacritics-tatweel", "مكتبـــة الفكر", ("al-fikr-bookshop",)),
    ("diacritics-tatweel", "خَيَّاطَة المَرْسَى", ("marsa-tailor",)),
    ("diacritics-tatweel", "حَلَوِيَّات أَرْكَان", ("argan-sweets",)),
    ("diacritics-tatweel", "مـخـبـزة", BAKERIES),
    ("typo", "resturant", RESTAURANTS),
    ("typo", "restaurnat", RESTAURANTS),
    ("typo", "librarie", BOOKSHOPS),
    ("typo", "pharmacei", PHARMACIES),
    ("typo", "صيدلبة", PHARMACIES),
    ("typo", "مطعن", RESTAURANTS),
    ("typo", "فندك", HOTELS),
    ("typo", "hotle", HOTELS),
    ("french", "hôtel", HOTELS),
    ("french", "pharmacie", PHARMACIES),
    ("french", "librairies", BOOKSHOPS),
    ("french", "pâtisserie", BAKERIES),
    ("french", "épicerie", GROCERY),
    ("french", "resto", RESTAURANTS),
    ("french", "Maison du Caftan", ("caftan-house",)),
    ("french", "Hôtel du Détroit", ("strait-hotel",)),
    ("french", "electronique", ELECTRONICS),
    ("english", "restaurant", RESTAURANTS),
    ("english", "bookshop", BOOKSHOPS),
    ("english", "barber", HAIRDRESSERS),
    ("english", "clinic", CLINICS),
    ("english", "car repair", CAR_REPAIR),
    ("english", "coffee", CAFES),
    ("english", "Strait Hotel", ("strait-hotel",)),
    ("english", "Roasted Bean Coffee", ("roasted-bean-cafe",)),
    ("english", "Electronics", ELECTRONICS),
    ("latin-transliteration", "mat3am", RESTAURANTS),
    ("latin-transliteration", "saydaliya", PHARMACIES),
    ("latin-transliteration", "9ahwa", CAFES),
    ("latin-transliteration", "7alaq", HAIRDRESSERS),
    ("latin-transliteration", "khayat", TAILORS),
    ("latin-transliteration", "funduq", HOTELS),
    ("latin-transliteration", "maktaba", BOOKSHOPS),
    ("latin-transliteration", "makhbaza", BAKERIES),
    ("latin-transliteration", "mat3am zitouna", ("zaytouna-restaurant",)),
    ("category-and-city", "مطعم الرباط", ("andalusian-garden",)),
    ("category-and-city", "hotel marrakech", ("riad-yasmine",)),
    ("category-and-city", "pharmacie tanger", ("boughaz-pharmacy",)),
    ("category-and-city", "مخبزة فاس", ("traditional-oven-bakery",)),
    ("category-and-city", "café casablanca", ("roasted-bean-cafe",)),
    ("category-and-city", "خياطة مكناس", ("lalla-aicha-sewing",)),
    ("category-and-city", "صيدلية مراكش", ("menara-pharmacy",)),
    ("category-and-city", "مكتبة طنجة", ("andalus-bookshop",)),
    ("category-and-city", "حلاق الرباط", ("elegance-barber",)),
    ("city-only", "أكادير", AGADIR),
    ("city-only", "طنجة", TANGIER),
    ("city-only", "Tanger", TANGIER),
    ("city-only", "مكناس", MEKNES),
    ("city-only", "Meknès", MEKNES),
    ("city-only", "مراكش", MARRAKECH),
    ("city-only", "marrakech", MARRAKECH),
    ("city-only", "فاس", FES),
    ("phone", "0522-998713", ("amal-dental-clinic",)),
    ("phone", "522 998", ("amal-dental-clinic",)),
    ("phone", "+212 528 841 207", ("al-bahhar-fish",)),
    ("phone", "0528 841 207", ("al-bahhar-fish",)),
    ("phone", "+212 535 530", ("bab-mansour-hotel",)),
    ("phone", "0539-372054", ("boughaz-pharmacy",)),
    ("phone", "372 054", ("boughaz-pharmacy",)),
    ("phone", "05 24 38 90 12", ("dar-tajine",)),
    ("phone", "+212524389012", ("dar-tajine",)),
    ("word-order", "الزيتونة مطعم", ("zaytouna-restaurant",)),
    ("word-order", "الأطلس صيدلية", ("atlas-pharmacy",)),
    ("word-order", "خلدون ابن مكتبة", ("ibn-khaldoun-bookshop",)),
    ("word-order", "المحيط فندق", ("ocean-hotel",)),
    ("word-order", "hotel ocean", ("ocean-hotel",)),
    ("word-order", "bookshop fikr al", ("al-fikr-bookshop",)),
    ("word-order", "الرباط مطعم", ("andalusian-garden",)),
    ("word-order", "tanger pharmacie", ("boughaz-pharmacy",)),
    ("word-order", "الحومة حلاق", ("neighbourhood-barber",)),
]


def recall_and_reciprocal_rank(expected, found):
    """recall@10 and the reciprocal rank of the first expected listing (0 when none)."""
    top = list(found)[:10]
    recall = len(set(expected) & set(top)) / len(expected)
    first = next((rank for rank, slug in enumerate(top, 1) if slug in expected), None)
    return recall, 1 / first if first else 0.0


def figures(results):
    """{class: (recall@10, MRR)} and the whole suite's under "all", from
    {query: (class, expected, found)}."""
    by_class = {}
    for kind, expected, found in results.values():
        by_class.setdefault(kind, []).append(recall_and_reciprocal_rank(expected, found))
    by_class["all"] = [pair for pairs in list(by_class.values()) for pair in pairs]
    return {kind: (sum(r for r, _ in pairs) / len(pairs), sum(m for _, m in pairs) / len(pairs))
            for kind, pairs in by_class.items()}
