"""A deterministic synthetic directory for benchmarks: same N, same bytes, every time.

``generate_files(n)`` yields ``(relpath, text)`` pairs relative to a content folder;
``write_content(folder, n)`` writes them. Listings carry every metadata field, with
Arabic names and English and French variants; news and blog come in proportion.
``generate_files(n, languages)`` adds, for a site in several languages, a French
translation of every third news item (Pelican's way: the same ``Slug``, ``Lang: fr``).
"""

import datetime as dt
import random
import shutil
from pathlib import Path

SEED = 20261121
# News sit in the days before this instant, a few of them inside the 48-hour window.
ANCHOR = dt.datetime(2026, 11, 21, 12, 0)
NEWS_PER_LISTINGS = 50  # one news item per 50 listings
BLOG_PER_LISTINGS = 100
BODY_WORDS = 150

# slug, Arabic, English, French, Arabic trade word, English trade word, French trade word
CATEGORIES = [
    ("restaurants", "مطاعم", "Restaurants", "Restaurants", "مطعم", "Restaurant", "Restaurant"),
    ("cafes", "مقاه", "Cafés", "Cafés", "مقهى", "Café", "Café"),
    ("pharmacies", "صيدليات", "Pharmacies", "Pharmacies", "صيدلية", "Pharmacy", "Pharmacie"),
    ("hotels", "فنادق", "Hotels", "Hôtels", "فندق", "Hotel", "Hôtel"),
    ("bakeries", "مخابز", "Bakeries", "Boulangeries", "مخبزة", "Bakery", "Boulangerie"),
    ("clinics", "عيادات", "Clinics", "Cliniques", "عيادة", "Clinic", "Clinique"),
    ("dentists", "أطباء الأسنان", "Dentists", "Dentistes", "عيادة أسنان", "Dental Clinic", "Cabinet dentaire"),
    ("garages", "مرائب", "Garages", "Garages", "مرأب", "Garage", "Garage"),
    ("bookshops", "مكتبات", "Bookshops", "Librairies", "مكتبة", "Bookshop", "Librairie"),
    ("schools", "مدارس", "Schools", "Écoles", "مدرسة", "School", "École"),
    ("gyms", "قاعات رياضة", "Gyms", "Salles de sport", "نادي", "Gym", "Salle de sport"),
    ("hammams", "حمامات", "Hammams", "Hammams", "حمام", "Hammam", "Hammam"),
    ("butchers", "جزارات", "Butchers", "Boucheries", "جزارة", "Butcher", "Boucherie"),
    ("grocers", "بقالات", "Grocers", "Épiceries", "بقالة", "Grocery", "Épicerie"),
    ("tailors", "خياطون", "Tailors", "Tailleurs", "خياطة", "Tailor", "Atelier de couture"),
    ("barbers", "حلاقون", "Barbers", "Coiffeurs", "صالون حلاقة", "Barber", "Salon de coiffure"),
    ("lawyers", "محامون", "Lawyers", "Avocats", "مكتب محاماة", "Law Office", "Cabinet d'avocats"),
    ("notaries", "موثقون", "Notaries", "Notaires", "مكتب توثيق", "Notary", "Étude notariale"),
    ("banks", "بنوك", "Banks", "Banques", "وكالة بنكية", "Bank Branch", "Agence bancaire"),
    ("opticians", "نظاراتيون", "Opticians", "Opticiens", "محل نظارات", "Optician", "Opticien"),
    ("florists", "بائعو الزهور", "Florists", "Fleuristes", "محل زهور", "Florist", "Fleuriste"),
    ("electricians", "كهربائيون", "Electricians", "Électriciens", "ورشة كهرباء", "Electrician", "Électricien"),
    ("plumbers", "سباكون", "Plumbers", "Plombiers", "ورشة سباكة", "Plumber", "Plombier"),
    ("carpenters", "نجارون", "Carpenters", "Menuisiers", "نجارة", "Carpentry", "Menuiserie"),
    ("travel-agencies", "وكالات أسفار", "Travel Agencies", "Agences de voyage", "وكالة أسفار", "Travel Agency", "Agence de voyage"),
    ("car-rental", "كراء السيارات", "Car Rental", "Location de voitures", "وكالة كراء", "Car Rental", "Location de voitures"),
    ("pastry-shops", "محلات الحلويات", "Pastry Shops", "Pâtisseries", "حلويات", "Pastry Shop", "Pâtisserie"),
    ("veterinarians", "أطباء بيطريون", "Veterinarians", "Vétérinaires", "عيادة بيطرية", "Veterinary Clinic", "Clinique vétérinaire"),
    ("printers", "مطابع", "Printers", "Imprimeries", "مطبعة", "Print Shop", "Imprimerie"),
    ("laundries", "مصابن", "Laundries", "Blanchisseries", "مصبنة", "Laundry", "Blanchisserie"),
]

# slug, Arabic, English, French, province code, postal code prefix
CITIES = [
    ("casablanca", "الدار البيضاء", "Casablanca", "Casablanca", "CAS", "20"),
    ("rabat", "الرباط", "Rabat", "Rabat", "RAB", "10"),
    ("marrakech", "مراكش", "Marrakesh", "Marrakech", "MAR", "40"),
    ("fes", "فاس", "Fez", "Fès", "FES", "30"),
    ("tangier", "طنجة", "Tangier", "Tanger", "TNG", "90"),
    ("agadir", "أكادير", "Agadir", "Agadir", "AGD", "80"),
    ("meknes", "مكناس", "Meknes", "Meknès", "MEK", "50"),
    ("oujda", "وجدة", "Oujda", "Oujda", "OUJ", "60"),
    ("kenitra", "القنيطرة", "Kenitra", "Kénitra", "KEN", "14"),
    ("tetouan", "تطوان", "Tetouan", "Tétouan", "TET", "93"),
    ("safi", "آسفي", "Safi", "Safi", "SAF", "46"),
    ("el-jadida", "الجديدة", "El Jadida", "El Jadida", "JDI", "24"),
    ("nador", "الناظور", "Nador", "Nador", "NAD", "62"),
    ("beni-mellal", "بني ملال", "Beni Mellal", "Béni Mellal", "BEM", "23"),
    ("khouribga", "خريبكة", "Khouribga", "Khouribga", "KHO", "25"),
    ("taza", "تازة", "Taza", "Taza", "TAZ", "35"),
    ("settat", "سطات", "Settat", "Settat", "SET", "26"),
    ("larache", "العرائش", "Larache", "Larache", "LAR", "92"),
    ("essaouira", "الصويرة", "Essaouira", "Essaouira", "ESS", "44"),
    ("ouarzazate", "ورزازات", "Ouarzazate", "Ouarzazate", "OUA", "45"),
    ("errachidia", "الرشيدية", "Errachidia", "Errachidia", "ERR", "52"),
    ("laayoune", "العيون", "Laayoune", "Laâyoune", "LAA", "70"),
    ("dakhla", "الداخلة", "Dakhla", "Dakhla", "DAK", "73"),
    ("chefchaouen", "شفشاون", "Chefchaouen", "Chefchaouen", "CHE", "91"),
    ("ifrane", "إفران", "Ifrane", "Ifrane", "IFR", "53"),
    ("taroudant", "تارودانت", "Taroudant", "Taroudant", "TAR", "83"),
    ("tiznit", "تيزنيت", "Tiznit", "Tiznit", "TIZ", "85"),
    ("guelmim", "كلميم", "Guelmim", "Guelmim", "GUE", "81"),
    ("al-hoceima", "الحسيمة", "Al Hoceima", "Al Hoceïma", "HOC", "32"),
    ("mohammedia", "المحمدية", "Mohammedia", "Mohammédia", "MOH", "28"),
    ("sale", "سلا", "Sale", "Salé", "SAL", "11"),
    ("temara", "تمارة", "Temara", "Témara", "TEM", "12"),
    ("berkane", "بركان", "Berkane", "Berkane", "BER", "63"),
    ("khemisset", "الخميسات", "Khemisset", "Khémisset", "KHE", "15"),
    ("azrou", "أزرو", "Azrou", "Azrou", "AZR", "53"),
    ("zagora", "زاكورة", "Zagora", "Zagora", "ZAG", "47"),
]

# Arabic proper noun, its Latin form (English and French names use it).
NOUNS = [
    ("الزيتونة", "Zaytouna"), ("الأطلس", "Atlas"), ("النخيل", "Nakhil"), ("الياسمين", "Yasmine"),
    ("الأندلس", "Andalous"), ("السلام", "Salam"), ("الأمل", "Amal"), ("النور", "Nour"),
    ("الريف", "Rif"), ("الواحة", "Waha"), ("المنار", "Manar"), ("البحر", "Bahr"),
    ("الفردوس", "Firdaws"), ("القصبة", "Kasbah"), ("المدينة", "Medina"), ("الرياض", "Riad"),
    ("الصفاء", "Safaa"), ("الهدى", "Houda"), ("الوفاء", "Wafaa"), ("الربيع", "Rabii"),
    ("الفجر", "Fajr"), ("الشروق", "Chourouk"), ("الغروب", "Ghouroub"), ("الكرم", "Karam"),
    ("الرحمة", "Rahma"), ("البركة", "Baraka"), ("الخير", "Khair"), ("السعادة", "Saada"),
    ("الزهراء", "Zahra"), ("الياقوت", "Yakout"), ("المرجان", "Morjane"), ("اللؤلؤة", "Loulou"),
    ("الأصدقاء", "Asdikaa"), ("العائلة", "Aila"), ("الجبل", "Jabal"), ("الوادي", "Wadi"),
    ("سيدي بليوط", "Sidi Belyout"), ("باب الأحد", "Bab Lhad"), ("أنفا", "Anfa"), ("أكدال", "Agdal"),
    ("المعاريف", "Maarif"), ("الحبوس", "Habous"), ("تيليلا", "Tilila"), ("أمازيغ", "Amazigh"),
    ("توبقال", "Toubkal"), ("سوس", "Souss"), ("درعة", "Draa"), ("ملوية", "Moulouya"),
]

STREETS = ["شارع محمد الخامس", "شارع الحسن الثاني", "زنقة الأمل", "شارع الزرقطوني", "زنقة ابن بطوطة",
           "شارع الجيش الملكي", "زنقة فاس", "شارع المقاومة", "ساحة الاستقلال", "درب السلطان",
           "شارع عبد المومن", "زنقة المتنبي", "شارع أنفا", "زنقة طارق بن زياد", "شارع الأمير مولاي عبد الله"]

WORDS = ("نقدم خدمات عالية الجودة لجميع الزبناء في المدينة منذ سنوات طويلة ونحرص على راحة "
         "العملاء وسرعة الخدمة بأسعار مناسبة فريق العمل لدينا يتمتع بخبرة واسعة في المجال "
         "ويسعد باستقبالكم طيلة أيام الأسبوع من الصباح حتى المساء كما نوفر خدمة التوصيل "
         "والحجز المسبق عبر الهاتف والبريد الإلكتروني يقع المحل في موقع مميز قريب من وسائل "
         "النقل العمومي ومواقف السيارات نلتزم بمعايير النظافة والسلامة ونستعمل منتجات محلية "
         "طازجة ومختارة بعناية زورونا واكتشفوا عروضنا الخاصة للعائلات والطلبة والمؤسسات").split()

# A French news item's words (its translation is a text of the same length, not a word-for-word one).
WORDS_FR = ("nous proposons des services de qualité à tous les clients de la ville depuis de "
            "longues années avec une équipe expérimentée un accueil chaleureux toute la semaine "
            "du matin au soir la livraison et la réservation par téléphone ou par courriel "
            "près des transports publics et des parkings dans le respect des normes d'hygiène "
            "venez découvrir nos offres spéciales pour les familles les étudiants et les "
            "entreprises").split()
NEWS_TOPICS_FR = ["Ouverture", "Rénovation", "Festival", "Salon", "Soldes", "Atelier", "Rencontre",
                  "Prix", "Campagne", "Marché"]
TRANSLATED_NEWS_EVERY = 3

NEWS_TOPICS = ["افتتاح", "تجديد", "مهرجان", "معرض", "تخفيضات", "ورشة", "لقاء", "جائزة", "حملة", "سوق"]
BLOG_TOPICS = ["دليل", "نصائح", "أفضل", "كيف تختار", "جولة في", "تعرف على"]


def _metadata_file(body, fields):
    lines = [f"{key}: {value}" for key, value in fields if value not in (None, "")]
    return "\n".join(lines) + "\n\n" + body.strip() + "\n"


def _paragraphs(rng, words, per_paragraph=50, vocabulary=WORDS):
    chosen = [rng.choice(vocabulary) for _ in range(words)]
    paragraphs = [" ".join(chosen[i:i + per_paragraph]) + "." for i in range(0, words, per_paragraph)]
    return "\n\n".join(paragraphs)


def _when(rng, days_back):
    moment = ANCHOR - dt.timedelta(minutes=rng.randrange(days_back * 24 * 60))
    return moment.strftime("%Y-%m-%d %H:%M")


def counts(listings):
    """How many news items and blog articles go with ``listings`` listings."""
    return max(3, listings // NEWS_PER_LISTINGS), max(2, listings // BLOG_PER_LISTINGS)


def generate_files(listings, languages=("ar",)):
    """Yield ``(relpath, text)`` for a whole synthetic site of ``listings`` listings.

    With French among ``languages``, every third news item also has a French translation,
    yielded last and from its own random numbers: the other files keep their bytes."""
    rng = random.Random(SEED)
    for slug, name, name_en, name_fr, *_ in CATEGORIES:
        yield f"categories/{slug}.md", _metadata_file(
            f"دليل {name} في مدن المغرب.",
            [("Title", name), ("Slug", slug), ("Name_en", name_en), ("Name_fr", name_fr)])
    for slug, name, name_en, name_fr, province, _ in CITIES:
        yield f"cities/{slug}.md", _metadata_file(
            f"الأنشطة التجارية والخدمات في {name}.",
            [("Title", name), ("Slug", slug), ("Name_en", name_en), ("Name_fr", name_fr),
             ("Province", province)])
    for number in range(1, 6):
        yield f"images/listing-{number}.svg", (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 20">'
            f'<rect width="32" height="20" fill="#{number * 3:x}{number * 2:x}a"/></svg>\n')

    width = len(str(listings))
    for index in range(1, listings + 1):
        category = rng.choice(CATEGORIES)
        city = rng.choice(CITIES)
        noun_ar, noun_latin = rng.choice(NOUNS)
        branch = rng.randrange(1, 40)
        name = f"{category[4]} {noun_ar} {branch}"
        name_en = f"{noun_latin} {category[5]} {branch}"
        name_fr = f"{category[6]} {noun_latin} {branch}"
        slug = f"{noun_latin}-{category[0]}-{city[0]}-{index:0{width}d}".lower().replace(" ", "-")
        host = f"{noun_latin.lower().replace(' ', '')}{index}.example"
        status = "hidden" if index % 97 == 0 else "draft" if index % 89 == 0 else None
        date = _when(rng, 900)
        fields = [
            ("Title", name), ("Slug", slug), ("Name_en", name_en), ("Name_fr", name_fr),
            ("Category", category[0]), ("City", city[0]),
            ("Street", f"{rng.randrange(1, 300)} {rng.choice(STREETS)}"),
            ("Postal_code", f"{city[5]}{rng.randrange(0, 1000):03d}"),
            ("Country", "المغرب"),
            ("Phone", f"+212 5{rng.randrange(20, 40)} {rng.randrange(100, 1000)} {rng.randrange(100, 1000)}"),
            ("Email", f"contact@{host}"),
            ("Website", f"https://{host}/"),
            ("Image", f"/images/listing-{index % 5 + 1}.svg"),
            ("Date", date),
            ("Modified", date if rng.random() < 0.5 else _when(rng, 30)),
            ("Summary", f"{name} في {city[1]}: {' '.join(rng.choice(WORDS) for _ in range(12))}."),
            ("Status", status),
        ]
        yield f"listings/{slug}.md", _metadata_file(_paragraphs(rng, BODY_WORDS), fields)

    news_count, blog_count = counts(listings)
    news = []  # (city, date) of each news item, for its translation
    for index in range(1, news_count + 1):
        city = rng.choice(CITIES)
        # The first two are inside the news sitemap's 48-hour window.
        days = 2 if index <= 2 else 700
        # In this order: the random numbers of every file stay those of the first version.
        body = _paragraphs(rng, 120)
        title = f"{rng.choice(NEWS_TOPICS)} في {city[1]} رقم {index}"
        date = _when(rng, days)
        news.append((city, date))
        yield f"news/news-{index:05d}.md", _metadata_file(
            body, [("Title", title), ("Slug", f"news-{index:05d}"), ("Date", date),
                   ("Summary", " ".join(rng.choice(WORDS) for _ in range(15)))])
    for index in range(1, blog_count + 1):
        category = rng.choice(CATEGORIES)
        yield f"blog/blog-{index:05d}.md", _metadata_file(
            _paragraphs(rng, 300),
            [("Title", f"{rng.choice(BLOG_TOPICS)} {category[1]} ({index})"),
             ("Slug", f"blog-{index:05d}"), ("Date", _when(rng, 700))])
    for slug, title in (("about", "من نحن"), ("contact", "اتصل بنا"), ("terms", "شروط الاستخدام")):
        yield f"pages/{slug}.md", _metadata_file(_paragraphs(rng, 80),
                                                 [("Title", title), ("Slug", slug)])
    if "fr" in languages:
        yield from _french_news(news)


def _french_news(news):
    """The French translations of every ``TRANSLATED_NEWS_EVERY``-th news item."""
    rng = random.Random(SEED + 1)
    for index, (city, date) in enumerate(news, 1):
        if index % TRANSLATED_NEWS_EVERY:
            continue
        body = _paragraphs(rng, 120, vocabulary=WORDS_FR)
        yield f"news/news-{index:05d}-fr.md", _metadata_file(
            body, [("Title", f"{rng.choice(NEWS_TOPICS_FR)} à {city[3]} n° {index}"),
                   ("Slug", f"news-{index:05d}"), ("Lang", "fr"), ("Date", date),
                   ("Summary", " ".join(rng.choice(WORDS_FR) for _ in range(15)))])


def written(folder, files, totals):
    """Write each of ``files`` (``(relpath, text)``) under ``folder`` (emptied first) and yield
    it on, counting files per top folder in ``totals``: one pass of ``generate_files`` feeds
    another writer (the Hugo site's) without holding the site."""
    folder = Path(folder)
    if folder.exists():
        shutil.rmtree(folder)
    for relpath, text in files:
        path = folder / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        kind = relpath.split("/", 1)[0]
        totals[kind] = totals.get(kind, 0) + 1
        yield relpath, text


def write_content(folder, listings, languages=("ar",)):
    """Write the synthetic site under ``folder`` (emptied first); returns file counts."""
    totals = {}
    for _ in written(folder, generate_files(listings, languages), totals):
        pass
    return totals
