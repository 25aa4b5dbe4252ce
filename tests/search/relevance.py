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

QUERIES = [  # (class, query, listings that must be in the top 10)
    ("arabic", "مطعم", RESTAURANTS),
    ("arabic", "فندق", HOTELS),
    ("arabic", "صيدلية", PHARMACIES),
    ("arabic", "مكتبة", BOOKSHOPS),
    ("arabic", "مقهى", CAFES),
    ("arabic", "مخبزة", BAKERIES),
    ("arabic", "خياط", TAILORS),
    ("arabic", "حلاق", HAIRDRESSERS),
    ("arabic", "عيادة", CLINICS),
    ("arabic", "بقالة", GROCERY),
    ("arabic", "دار الطاجين", ("dar-tajine",)),
    ("tashkeel", "مَطْعَم", RESTAURANTS),
    ("tashkeel", "فُنْدُق", HOTELS),
    ("tashkeel", "صَيْدَلِيَّة", PHARMACIES),
    ("hamza", "مراب", CAR_REPAIR),
    ("hamza", "الكترونيات", ELECTRONICS),
    ("hamza", "صيدلية الاطلس", ("atlas-pharmacy",)),
    ("hamza", "اكادير", AGADIR),
    ("clitics", "والمطاعم", RESTAURANTS),
    ("clitics", "بالصيدلية", PHARMACIES),
    ("clitics", "للمكتبات", BOOKSHOPS),
    ("clitics", "مطعم بمراكش", ("dar-tajine",)),
    ("plural", "مطاعم", RESTAURANTS),
    ("plural", "فنادق", HOTELS),
    ("plural", "صيدليات", PHARMACIES),
    ("plural", "مقاهي", CAFES),
    ("plural", "خياطين", TAILORS),
    ("plural", "سيارات", CAR_REPAIR),
    ("french", "hôtel", HOTELS),
    ("french", "pharmacie", PHARMACIES),
    ("french", "librairies", BOOKSHOPS),
    ("french", "pâtisserie", BAKERIES),
    ("french", "épicerie", GROCERY),
    ("french", "resto", RESTAURANTS),
    ("french-no-accents", "hotel", HOTELS),
    ("french-no-accents", "patisserie", BAKERIES),
    ("french-no-accents", "epicerie", GROCERY),
    ("french-no-accents", "electronique", ELECTRONICS),
    ("english", "restaurant", RESTAURANTS),
    ("english", "bookshop", BOOKSHOPS),
    ("english", "barber", HAIRDRESSERS),
    ("english", "clinic", CLINICS),
    ("english", "car repair", CAR_REPAIR),
    ("english", "coffee", CAFES),
    ("typo", "resturant", RESTAURANTS),
    ("typo", "restaurnat", RESTAURANTS),
    ("typo", "librarie", BOOKSHOPS),
    ("typo", "pharmacei", PHARMACIES),
    ("typo", "صيدلبة", PHARMACIES),
    ("two-word", "مطعم الرباط", ("andalusian-garden",)),
    ("two-word", "hotel marrakech", ("riad-yasmine",)),
    ("two-word", "pharmacie tanger", ("boughaz-pharmacy",)),
    ("two-word", "مخبزة فاس", ("traditional-oven-bakery",)),
    ("two-word", "café casablanca", ("roasted-bean-cafe",)),
    ("two-word", "خياطة مكناس", ("lalla-aicha-sewing",)),
    ("category-only", "مخابز وحلويات", BAKERIES),
    ("category-only", "إصلاح السيارات", CAR_REPAIR),
    ("category-only", "Electronics", ELECTRONICS),
    ("city-only", "أكادير", AGADIR),
    ("city-only", "طنجة", TANGIER),
    ("city-only", "Tanger", TANGIER),
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
