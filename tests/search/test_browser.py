"""Live search and random discovery in real headless Chromium, under a strict CSP."""

import json
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from playwright.sync_api import expect

from tests import sitebuilder as sb
from tests.browser import COLLECT_CSP_PROBLEMS, STRICT_CSP, serve

from .fixtures import PUBLISHED_LISTINGS, TRICKY_NAME, fixture_files

pytestmark = pytest.mark.browser



@pytest.fixture(scope="module")
def site(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("search-browser"), fixture_files(),
                           DALIL_SEARCH_RESULT_LIMIT=2)
    assert result.returncode == 0, result.log
    return result


@pytest.fixture(scope="module")
def local(site):
    with serve(site.output) as base:
        yield base


@pytest.fixture
def open_page(chromium_browser, local):
    """``open_page(path)``: a page at https://dalil.test/<path>, answered by the local server
    (the site's links are absolute), each HTML response with a strict CSP header."""
    context = chromium_browser.new_context(service_workers="block", locale="ar")
    problems = []
    blocked = set()

    def handle(route):
        path = urlsplit(route.request.url)
        if path.path in blocked:
            route.fulfill(status=503, body="unavailable")
            return
        response = route.fetch(url=local + path.path + ("?" + path.query if path.query else ""))
        headers = dict(response.headers)
        if headers.get("content-type", "").startswith("text/html"):
            headers["content-security-policy"] = STRICT_CSP
        route.fulfill(response=response, headers=headers)

    context.route("https://dalil.test/**", handle)
    context.route(lambda url: not url.startswith("https://dalil.test/"),
                  lambda route: (problems.append("off-site " + route.request.url), route.abort()))
    context.add_init_script(COLLECT_CSP_PROBLEMS)

    def open_(path, block=()):
        blocked.update(block)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(f"error {error}"))
        page.goto("https://dalil.test" + path)
        return page

    yield open_
    for page in context.pages:
        problems.extend(page.evaluate("window.__problems"))
    context.unroute_all(behavior="ignoreErrors")  # late requests (images) may still be in flight
    context.close()
    assert not problems, problems


def search(page, query):
    box = page.locator("#site-search")
    box.fill("")
    box.press_sequentially(query)
    expect(page.locator("#live-search")).to_have_attribute("data-query", normalized(page, query))
    return page


def url_state(page):
    """The page's path and query parameters."""
    parts = urlsplit(page.url)
    return parts.path, parse_qs(parts.query)


def normalized(page, text):
    return page.evaluate("text => DalilSearch.normalize(text)", text)


def result_slugs(page):
    hrefs = page.locator("#search-results a.result-link").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))")
    return [href.rstrip("/").rsplit("/", 1)[-1] for href in hrefs]


def ready_search_page(open_page, path="/search/"):
    page = open_page(path)
    expect(page.locator("#live-search")).to_have_attribute("data-ready", "13")
    return page


TYPED = [  # query, the listing it must put first
    ("مطعم الزيتونة", "zaytouna"),
    ("مَطْعَمُ الزَّيْتُونَةِ", "zaytouna"),       # tashkeel typed by the user
    ("الزيتونه", "zaytouna"),                    # ta marbuta typed as heh
    ("صيدلية الأمل", "amal-pharmacy"),
    ("صيدليه الامل", "amal-pharmacy"),           # bare alef for hamza, heh for ta marbuta
    ("مقهي الاخوه", "brothers-cafe"),            # source has tashkeel, hamza and alef maqsura
    ("مقهى الإخوة", "brothers-cafe"),
    ("مـقـهـى", "brothers-cafe"),                # tatweel
    ("إدريس", "brothers-cafe"),                  # address
    ("café des frères", "brothers-cafe"),         # French name
    ("CAFE DES FRERES", "brothers-cafe"),         # case and accents ignored
    ("zaytouna rest", "zaytouna"),                # English name, word prefix
    ("la zaytouna", "zaytouna"),                  # French name
    ("مطعم", "zaytouna"),
]


def test_broken_plurals_find_their_singulars_and_back(open_page):
    # From the Arramooz lexicon: فروع the plural of فرع (in «النجوم» <فرع 2>), نجوم of نجم.
    page = ready_search_page(open_page)
    found = {}
    for query in ("فروع", "الفروع", "نجم", "فروع النجوم"):
        search(page, query)
        found[query] = result_slugs(page)[:1]
    assert found == {"فروع": ["stars-cafe"], "الفروع": ["stars-cafe"], "نجم": ["stars-cafe"],
                     "فروع النجوم": ["stars-cafe"]}


def test_one_edit_is_forgiven_from_four_letters(open_page):
    page = ready_search_page(open_page)
    found = {}
    for query in ("مطعن", "مطعن الزيتونه", "صيدلبة", "مقهب", "مطن", "مطعمم", "مطنن"):
        search(page, query)
        found[query] = result_slugs(page)[:1]
    # Three letters: no misspelling is guessed; two edits are never forgiven.
    assert found == {"مطعن": ["zaytouna"], "مطعن الزيتونه": ["zaytouna"],
                     "صيدلبة": ["pharmacies"], "مقهب": ["brothers-cafe"], "مطن": [],
                     "مطعمم": ["zaytouna"], "مطنن": []}


def test_typing_finds_the_listing(open_page):
    page = ready_search_page(open_page)
    found = {}
    for query, slug in TYPED:
        search(page, query)
        found[query] = result_slugs(page)[:1]
        assert url_state(page) == ("/search/", {"q": [query]})
    assert found == {query: [slug] for query, slug in TYPED}
    # مطعم, one edit from مطاعم, finds the category too, after the listing.
    assert result_slugs(page) == ["zaytouna", "restaurants"]
    expect(page.locator("#search-status")).to_contain_text("عدد النتائج: 2.")


PHONES = [  # typed, the listings it must find: the fixture's +212 522-26 45 19 (zaytouna),
    # 0537-778452 (amal-pharmacy) and 00212 537 40 10 10 (brothers-cafe)
    ("0537-778452", ["amal-pharmacy"]),
    ("778 452", ["amal-pharmacy"]),
    ("+212 537 77", ["amal-pharmacy"]),             # a country code for the trunk 0
    ("0522 26", ["zaytouna"]),                       # and the other way round
    ("٥٢٢٢٦٤", ["zaytouna"]),  # Arabic-Indic digits
    ("+212 537", ["amal-pharmacy", "brothers-cafe"]),
    ("0537 40 10", ["brothers-cafe"]),
    ("40 10 10", ["brothers-cafe"]),
    ("(0537) 77-84.52", ["amal-pharmacy"]),
    ("537", []),                                     # fewer than four digits
    ("0537 99", []),
]


def test_phone_fragments_find_their_listings(open_page):
    page = ready_search_page(open_page)
    found = {}
    for query, _ in PHONES:
        search(page, query)
        found[query] = sorted(result_slugs(page))
    assert found == {query: slugs for query, slugs in PHONES}


def test_pages_run_under_the_strict_csp(open_page):
    page = ready_search_page(open_page)
    # The guard works: an inline style attribute is reported as a violation.
    page.evaluate("document.body.setAttribute('style', 'color: red')")
    page.wait_for_function("window.__problems.some(p => p.includes('style-src'))")
    page.evaluate("window.__problems = []")


def test_normalisation_rules(open_page):
    page = ready_search_page(open_page)
    cases = {
        "أحمد": "احمد", "إسلام": "اسلام", "آمال": "امال", "مدرسة": "مدرسه", "مستشفى": "مستشفي",
        "مَدْرَسَةٌ": "مدرسه", "مـــدرســة": "مدرسه", "Éléphant Œuvre": "elephant oeuvre",
        "Crème-Brûlée": "creme brulee", "هاتف ٠٥٢٢": "هاتف 0522", "  a,,b  ": "a b",
        "مؤسسة": "موسسه", "شاطئ": "شاطي", "ﻻ ﷲ": "لا الله", "ٱلْقُرْآن": "القران",
        "كافيه\u200cنت": "كافيهنت", "ⵜⴰⵎⴰⵣⵉⵖⵜ": "ⵜⴰⵎⴰⵣⵉⵖⵜ", "Straße Nº5 °C": "strasse no5 c",
        "«السلام»، الرباط؛ 2024؟": "السلام الرباط 2024",
    }
    assert {text: normalized(page, text) for text in cases} == cases


def test_results_show_type_category_address_and_image(open_page):
    page = search(ready_search_page(open_page), "الزيتونة")
    first = page.locator("#search-results li").first
    expect(first.locator(".result-name")).to_have_text("مطعم الزيتونة")
    expect(first.locator(".result-type")).to_have_text("نشاط")
    expect(first.locator(".result-category")).to_have_text("مطاعم")
    expect(first.locator(".result-address")).to_have_text("12 شارع محمد الخامس، الدار البيضاء")
    assert first.locator("img").get_attribute("src") == "https://dalil.test/images/z.svg"
    assert first.locator("a").get_attribute("href") == "https://dalil.test/directory/listing/zaytouna/"
    assert first.locator("[lang=en]").inner_text() == "Zaytouna Restaurant"


def test_exact_and_prefix_name_matches_rank_first(open_page):
    page = search(ready_search_page(open_page), "مقاه")
    # The category named مقاهٍ (prefix of its name) comes before the listings in it.
    assert result_slugs(page)[0] == "cafes"
    search(page, "الرباط")
    # Two results at a time (DALIL_SEARCH_RESULT_LIMIT=2); the button shows the rest.
    expect(page.locator("#search-status")).to_have_text("عدد النتائج: 3. تُعرض أول 2 نتيجة.")
    assert result_slugs(page)[0] == "rabat" and len(result_slugs(page)) == 2
    page.locator("#search-more").click()
    expect(page.locator("#search-results li")).to_have_count(3)
    expect(page.locator("#search-more")).to_be_hidden()
    slugs = result_slugs(page)
    assert slugs[0] == "rabat" and set(slugs[1:]) == {"amal-pharmacy", "stars-cafe"}
    assert page.evaluate("document.activeElement.getAttribute('href')").endswith(f"/{slugs[2]}/")
    types = page.locator("#search-results .result-type").all_inner_texts()
    assert types == ["مدينة", "نشاط", "نشاط"]


RANKING_ENTRIES = [
    {"t": "listing", "s": "ladies-salon", "n": "ازهار للسيدات", "c": "حلاقة وتجميل",
     "a": "شارع الرباط، الرباط", "cs": "hair", "ls": "rabat", "url": "/l/ladies-salon/"},
    {"t": "listing", "s": "barber", "n": "حلاق النخبة", "c": "حلاقة وتجميل",
     "a": "شارع النصر، الرباط", "cs": "hair", "ls": "rabat", "url": "/l/barber/"},
    {"t": "listing", "s": "latin", "n": "Atlas Coiffure", "c": "حلاقة وتجميل",
     "a": "شارع النصر، الرباط", "cs": "hair", "ls": "rabat", "url": "/l/latin/"},
    {"t": "listing", "s": "elsewhere", "n": "ابو بكر", "c": "حلاقة وتجميل",
     "a": "شارع الرباط، الدار البيضاء", "cs": "hair", "ls": "casablanca", "url": "/l/elsewhere/"},
    {"t": "listing", "s": "tanjia", "n": "مطعم الطنجية", "c": "مطاعم", "a": "مراكش",
     "cs": "restaurants", "ls": "marrakech", "url": "/l/tanjia/"},
    {"t": "listing", "s": "port", "n": "مطعم الميناء", "c": "مطاعم", "a": "شارع الميناء، طنجة",
     "cs": "restaurants", "ls": "tangier", "url": "/l/port/"},
    {"t": "category", "s": "hair", "n": "حلاقة وتجميل", "k": ["حلاق", "coiffure"],
     "url": "/c/hair/"},
    {"t": "listing", "s": "hanout-saada", "n": "حانوت السعادة", "c": "مطاعم", "a": "مراكش",
     "cs": "restaurants", "ls": "marrakech", "url": "/l/hanout-saada/"},
    {"t": "listing", "s": "hanout-market", "n": "Hanout Market", "c": "مطاعم", "a": "مراكش",
     "cs": "restaurants", "ls": "marrakech", "url": "/l/hanout-market/"},
    {"t": "category", "s": "restaurants", "n": "مطاعم", "k": ["مطعم"], "url": "/c/restaurants/"},
    {"t": "location", "s": "marrakech", "n": "مراكش", "n_fr": "Marrakech",
     "url": "/city/marrakech/"},
    {"t": "location", "s": "tangier", "n": "طنجة", "n_fr": "Tanger", "url": "/city/tangier/"},
    {"t": "location", "s": "casablanca", "n": "الدار البيضاء", "url": "/city/casablanca/"},
    {"t": "location", "s": "rabat", "n": "الرباط", "n_fr": "Rabat", "url": "/city/rabat/"},
]
RANKED = [  # query, the listings in the order found
    # Each word counts where it is found: حلاق in a name beats حلاق in the category.
    ("حلاق الرباط", ["barber", "ladies-salon", "latin", "elsewhere"]),
    # A listing of the city named before one whose street bears its name; then name
    # order, Arabic first, the Latin name in its place after them.
    ("الرباط", ["ladies-salon", "barber", "latin", "elsewhere"]),
    ("rabat", ["ladies-salon", "barber", "latin", "elsewhere"]),  # its street: الرباط
    ("coiffure", ["latin", "elsewhere", "ladies-salon", "barber"]),
    # A city's own name is a proper name: whole or by prefix, never by its stem (طنج).
    ("مطعم طنجة", ["port"]),
    ("بطنجة", ["port"]),
    ("طنجه", ["port"]),
    ("الطنجية", ["tanjia"]),
    # Latin typing of Arabic words (arabizi digits, kh, ch, ou ...), after exact matches.
    ("hanout", ["hanout-market", "hanout-saada"]),
    ("7anout sa3ada", ["hanout-saada"]),
    ("mat3am tanja", ["port"]),  # tanja names the city: not الطنجية
    ("marrakech hanout", ["hanout-market", "hanout-saada"]),
    ("7alla9", ["barber", "elsewhere", "ladies-salon", "latin"]),  # حلاق, then حلاقة
]


def test_ranking_counts_where_each_word_is_found_then_name_order(open_page):
    page = ready_search_page(open_page)
    found = page.evaluate("""([entries, queries]) => {
      const searcher = DalilSearch.createSearcher(entries);
      return queries.map(query => searcher.search(query, 10).items
        .filter(entry => entry.t === "listing").map(entry => entry.s));
    }""", [RANKING_ENTRIES, [query for query, _ in RANKED]])
    assert dict(zip([query for query, _ in RANKED], found)) == dict(RANKED)


def test_one_letter_matches_word_starts_of_names_only(open_page):
    page = search(ready_search_page(open_page), "ص")
    # Both names start with it: ties go by name (صيدليات before صيدلية الأمل).
    assert result_slugs(page) == ["pharmacies", "amal-pharmacy"]
    search(page, "ت")  # inside words only (الزيتونة, المفتوحة): no match
    assert result_slugs(page) == []
    search(page, "تو")  # two letters: the start of a word or of its stem, never inside it
    assert result_slugs(page) == []
    search(page, "زيت")  # الزيتونة without its article
    assert result_slugs(page) == ["zaytouna"]


def test_names_are_shown_as_text_never_markup(open_page):
    page = search(ready_search_page(open_page), "النجوم")
    expect(page.locator("#search-results .result-name")).to_have_text(TRICKY_NAME)
    assert page.locator("#search-results b, #search-results script").count() == 0


def test_drafts_and_hidden_listings_are_not_found(open_page):
    page = ready_search_page(open_page)
    for query in ("مخبزة قادمة", "متجر مخفي", "خبر مسودة"):
        search(page, query)
        assert result_slugs(page) == []
        expect(page.locator("#search-status")).to_contain_text("لا توجد نتائج")


def test_query_in_the_address_bar_is_searched_on_load(open_page):
    page = ready_search_page(open_page, "/search/?q=" + quote("صيدليه"))
    expect(page.locator("#site-search")).to_have_value("صيدليه")
    expect(page.locator("#live-search")).to_have_attribute("data-query", "صيدليه")
    assert result_slugs(page) == ["amal-pharmacy", "pharmacies"]  # صيدليات shares the stem


def test_header_box_on_another_page_submits_to_the_search_page(open_page):
    page = open_page("/directory/listing/zaytouna/")
    page.locator("#site-search").fill("Zaytouna")
    page.locator("#site-search").press("Enter")
    page.wait_for_url("https://dalil.test/search/?q=Zaytouna")
    expect(page.locator("#live-search")).to_have_attribute("data-query", "zaytouna")
    assert result_slugs(page)[0] == "zaytouna"


def test_no_match_says_so(open_page):
    page = search(ready_search_page(open_page), "qwxz")
    expect(page.locator("#search-status")).to_have_text(
        "لا توجد نتائج لـ «qwxz». تحقّق من الإملاء أو جرّب كلمة أخرى.")
    assert page.locator("#search-results li").count() == 0


def test_when_nothing_holds_every_word_the_closest_matches_are_shown_and_said(open_page):
    page = search(ready_search_page(open_page), "مطعم الزيتونة qwxz")
    expect(page.locator("#search-status")).to_have_text(
        "لا نتيجة فيها كل كلمات «مطعم الزيتونة qwxz». أقرب النتائج:")
    assert result_slugs(page)[:1] == ["zaytouna"]  # two words of three, in its name
    # One word of two: every entry holding it; the facets count them.
    page = search(page, "صيدلية qwxz")
    expect(page.locator("#search-status")).to_contain_text("أقرب النتائج")
    assert "amal-pharmacy" in result_slugs(page)
    expect(page.locator("#search-facets option[value=rabat]")).to_contain_text("(1)")
    page = search(page, "مطعم الزيتونة")  # every word found: no such message
    expect(page.locator("#search-status")).to_have_text("عدد النتائج: 1.")


def test_filters_alone_that_find_nothing_say_what_was_asked(open_page):
    # No pharmacy in Casablanca: the filters are named, set apart (FSI … PDI); no
    # spelling advice, as nothing was typed.
    page = ready_search_page(open_page, "/search/?category=pharmacies&city=casablanca")
    expect(page.locator("#search-status")).to_have_text(
        "لا توجد أنشطة من فئة «\u2068صيدليات\u2069» في مدينة «\u2068الدار البيضاء\u2069».")
    page.select_option("#facet-city", "")
    page.select_option("#facet-category", "restaurants")
    page.select_option("#facet-city", "rabat")
    expect(page.locator("#search-status")).to_have_text(
        "لا توجد أنشطة من فئة «\u2068مطاعم\u2069» في مدينة «\u2068الرباط\u2069».")
    search(page, "qwxz")
    expect(page.locator("#search-status")).to_have_text(
        "لا توجد نتائج لـ «qwxz» مع عوامل التصفية المختارة. تحقّق من الإملاء أو أزِل أحد "
        "عوامل التصفية.")
    assert page.locator("#search-results li").count() == 0


def test_index_that_fails_to_load_is_reported(open_page):
    page = open_page("/search/?q=" + quote("مطعم"), block={"/search/index/head.json"})
    expect(page.locator("#live-search")).to_have_attribute("data-ready", "error")
    expect(page.locator("#search-status")).to_contain_text("تعذّر تحميل فهرس البحث")
    assert page.locator("#search-results li").count() == 0


def test_a_worker_that_fails_to_load_is_reported(open_page):
    page = open_page("/search/?q=" + quote("مطعم"), block={"/theme/js/search-worker.js"})
    expect(page.locator("#live-search")).to_have_attribute("data-ready", "error")
    expect(page.locator("#search-status")).to_contain_text("تعذّر تحميل فهرس البحث")


def test_keyboard_moves_between_box_and_results(open_page):
    page = search(ready_search_page(open_page), "مق")
    assert len(result_slugs(page)) >= 2
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.getAttribute('href')").endswith(
        "/" + result_slugs(page)[0] + "/")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.getAttribute('href')").endswith(
        "/" + result_slugs(page)[1] + "/")
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.id") == "site-search"
    assert page.locator("#site-search").get_attribute("aria-controls") == "search-results"


def test_random_page_shows_published_listings_and_another_one(open_page, site):
    names = {entry["s"]: entry["n"] for entry in json.loads(site.read("search-index.json"))}
    page = open_page("/random/")
    discovery, button = page.locator("#random-discovery"), page.locator("#random-next")
    expect(button).to_be_enabled()
    seen = set()
    for _ in range(8):
        slug = discovery.get_attribute("data-slug")
        assert slug in PUBLISHED_LISTINGS
        expect(page.locator("#random-card .result-name")).to_have_text(names[slug])
        assert page.locator("#random-card a.result-link").get_attribute("href") == (
            f"https://dalil.test/directory/listing/{slug}/")
        seen.add(slug)
        button.click()
        expect(discovery).not_to_have_attribute("data-slug", slug)  # never the same twice
    assert len(seen) >= 2


def test_random_page_reports_an_index_that_fails_to_load(open_page):
    page = open_page("/random/", block={"/search-index.json"})
    expect(page.locator("#random-status")).to_contain_text("تعذّر تحميل الدليل")
    expect(page.locator("#random-next")).to_be_disabled()


def option_texts(page, select):
    return page.locator(f"{select} option").all_inner_texts()


def test_facets_from_the_url_filter_and_count(open_page):
    page = ready_search_page(open_page, "/search/?q=" + quote("مقهى") + "&city=rabat")
    expect(page.locator("#live-search")).to_have_attribute("data-filters", "city=rabat")
    assert result_slugs(page) == ["stars-cafe"]  # the category entry is no listing
    expect(page.locator("#facet-city")).to_have_value("rabat")
    # Categories counted within the city; cities within no category.
    assert option_texts(page, "#facet-category") == [
        "كل الفئات", "مقاهٍ (1)", "صيدليات (0)", "مطاعم (0)"]
    assert option_texts(page, "#facet-city") == ["كل المدن", "الدار البيضاء (1)", "الرباط (1)"]


def test_facets_chosen_on_the_page_change_the_url(open_page):
    page = search(ready_search_page(open_page), "مقهى")
    expect(page.locator("#search-status")).to_have_text("عدد النتائج: 3. تُعرض أول 2 نتيجة.")
    page.select_option("#facet-city", "casablanca")
    expect(page.locator("#live-search")).to_have_attribute("data-filters", "city=casablanca")
    assert result_slugs(page) == ["brothers-cafe"]
    assert url_state(page) == ("/search/", {"q": ["مقهى"], "city": ["casablanca"]})
    page.select_option("#facet-category", "pharmacies")
    expect(page.locator("#search-status")).to_contain_text("لا توجد نتائج")
    assert url_state(page) == ("/search/", {"q": ["مقهى"], "category": ["pharmacies"],
                                            "city": ["casablanca"]})
    page.select_option("#facet-city", "")
    page.select_option("#facet-category", "")
    expect(page.locator("#live-search")).to_have_attribute("data-filters", "")
    assert url_state(page) == ("/search/", {"q": ["مقهى"]})
    expect(page.locator("#search-status")).to_have_text("عدد النتائج: 3. تُعرض أول 2 نتيجة.")


def test_a_filter_alone_lists_its_listings_by_name(open_page):
    page = ready_search_page(open_page, "/search/?category=cafes")
    expect(page.locator("#search-status")).to_have_text("عدد النتائج: 2.")
    # مقهى الإخوة before مقهى «النجوم»…: by name, punctuation aside.
    assert result_slugs(page) == ["brothers-cafe", "stars-cafe"]
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing wider than it
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_an_unknown_slug_in_the_url_filters_nothing(open_page):
    page = ready_search_page(open_page, "/search/?q=" + quote("الزيتونة") + "&category=nope")
    expect(page.locator("#live-search")).to_have_attribute("data-query", "الزيتونه")
    expect(page.locator("#facet-category")).to_have_value("")
    assert result_slugs(page) == ["zaytouna"]


def test_category_and_city_pages_search_within_themselves(open_page):
    page = open_page("/directory/city/rabat/")
    box = page.locator("#scoped-search")
    expect(page.locator("label[for=scoped-search]")).to_have_text("ابحث في المدينة: الرباط")
    box.fill("صيدلية")
    box.press("Enter")
    page.wait_for_url("**/search/?*")
    assert url_state(page) == ("/search/", {"q": ["صيدلية"], "city": ["rabat"]})
    expect(page.locator("#live-search")).to_have_attribute("data-filters", "city=rabat")
    assert result_slugs(page) == ["amal-pharmacy"]
    page = open_page("/directory/category/cafes/")
    page.locator("#scoped-search").fill("النجوم")
    page.locator("#scoped-search").press("Enter")
    page.wait_for_url("**/search/?*")
    expect(page.locator("#live-search")).to_have_attribute("data-filters", "category=cafes")
    assert result_slugs(page) == ["stars-cafe"]


def test_the_index_is_fetched_and_prepared_in_a_worker_then_handed_over(open_page):
    page = open_page("/search/")
    workers = []
    page.on("worker", lambda worker: workers.append(worker.url))
    page.reload()
    expect(page.locator("#live-search")).to_have_attribute("data-ready", "13")
    assert set(workers) == {"https://dalil.test/theme/js/search-worker.js"}
    # The page's own thread never fetched the head (the worker did) ...
    assert page.evaluate("performance.getEntriesByType('resource')"
                         ".filter(e => e.name.includes('/head.json')).length") == 0
    # ... and the worker ends once it has handed the prepared head over.
    for _ in range(100):
        if not page.workers:
            break
        page.wait_for_timeout(50)
    assert page.workers == []
    assert page.evaluate("typeof DalilSearch.createSearcher") == "function"
    search(page, "مطعم")
    assert result_slugs(page)[0] == "zaytouna"


def fetched_index_files(page):
    """The index files the page fetched (head and parts), by name, in order."""
    return [request.url.rsplit("/", 1)[-1] for request in page.fetched
            if "/search/index/" in request.url]


@pytest.fixture
def watched_page(open_page):
    """``watched_page(path)``: open_page, the URLs its page and worker requested kept in
    ``page.fetched`` (requests, with their responses' sizes)."""
    def open_(path, block=()):
        fetched = []
        page = open_page("/theme/css/dalil.css", block=block)  # no script of its own
        page.on("request", lambda request: fetched.append(request))
        page.fetched = fetched
        page.goto("https://dalil.test" + path)
        return page
    return open_


def test_a_query_fetches_the_head_then_only_its_parts(watched_page, site):
    head = json.loads(site.read("search/index/head.json"))
    page = watched_page("/search/?q=" + quote("زيتونة"))
    expect(page.locator("#live-search")).to_have_attribute("data-query", "زيتونه")
    assert result_slugs(page)[0] == "zaytouna"
    fetched = fetched_index_files(page)
    assert fetched[0] == "head.json" and fetched.count("head.json") == 1
    parts = fetched[1:]
    assert 1 <= len(parts) < len(head["parts"]) / 2 and len(set(parts)) == len(parts)
    assert all(name[:-5] in head["parts"] for name in parts)
    # What they weigh as received: those parts, not the whole site's.
    received = sum(len(request.response().body()) for request in page.fetched
                   if "/search/index/t-" in request.url)
    every = sum(path.stat().st_size for path in site.path("search/index").glob("*.json")
                if path.name != "head.json")
    assert 0 < received < every / 4
    # A phone number brings the phones' part, once; the same query again, nothing new.
    search(page, "0537 778452")
    expect(page.locator("#search-results li")).to_have_count(1)
    assert fetched_index_files(page).count("phones.json") == 1
    before = fetched_index_files(page)
    page.locator("#site-search").fill("زيتونة")
    expect(page.locator("#live-search")).to_have_attribute("data-query", "زيتونه")
    assert fetched_index_files(page) == before


def test_a_category_filter_alone_fetches_that_category_s_part(watched_page):
    page = watched_page("/search/?category=restaurants")
    expect(page.locator("#search-results li a[href]").first).to_be_visible()
    # Then the display part of the listings shown (the fixture's entries fit in one).
    assert fetched_index_files(page) == ["head.json", "category-restaurants.json", "d-0.json"]


def test_a_part_that_fails_to_load_is_reported_and_typing_goes_on(watched_page, site):
    head = json.loads(site.read("search/index/head.json"))
    cafes = head["parts"][numbers_of(head["term_part"])[term_slot(head, "cafes")] - 1]
    page = watched_page("/search/?category=cafes", block={f"/search/index/{cafes}.json"})
    expect(page.locator("#search-status")).to_contain_text("تعذّر تحميل فهرس البحث")
    expect(page.locator("#live-search")).to_have_attribute("data-ready", "13")
    assert page.locator("#search-results li").count() == 0
    search(page, "الإخوة")  # a query, its own parts there: answered within the filter
    assert result_slugs(page) == ["brothers-cafe"]


def test_a_slow_part_says_it_is_loading(watched_page, site, open_page):
    page = watched_page("/search/")
    expect(page.locator("#live-search")).to_have_attribute("data-ready", "13")
    page.route("**/search/index/t-*.json", lambda route: None)  # never answered
    page.locator("#site-search").fill("زيتونة")
    expect(page.locator("#search-status")).to_have_text("جارٍ تحميل فهرس البحث…")


def numbers_of(text):
    values, value = [], 0
    for character in text:
        if ord(character) >= 0x5D:
            value = value * 32 + ord(character) - 0x5D
        else:
            values.append(value * 32 + ord(character) - 0x23)
            value = 0
    return values


def term_slot(head, slug):
    """The place of a category or city among the head's terms."""
    return head["terms"]["slug"].split(" ").index(slug)


def test_a_keystroke_is_answered_at_once_from_what_is_loaded_then_in_full(watched_page):
    page = watched_page("/search/")
    expect(page.locator("#live-search")).to_have_attribute("data-ready", "13")
    held, holding = [], [True]

    def hold(route):
        if holding[0]:
            held.append(route)  # answered later
        else:
            route.fallback()
    page.route("**/search/index/*.json", hold)
    page.locator("#site-search").fill("مطاعم")
    # The head's category is shown at once, the status saying the rest is loading.
    expect(page.locator("#search-status")).to_have_text("جارٍ تحميل فهرس البحث…")
    expect(page.locator("#search-results a.result-link")).to_have_count(1)
    assert result_slugs(page) == ["restaurants"]
    assert page.locator("#live-search").get_attribute("data-query") != "مطاعم"
    assert held
    holding[0] = False
    for route in held:
        route.fallback()  # served
    # Then its listings, from their parts, and the count said.
    expect(page.locator("#live-search")).to_have_attribute("data-query", "مطاعم")
    assert result_slugs(page)[0] == "restaurants" and len(result_slugs(page)) > 1
    expect(page.locator("#search-status")).not_to_have_text("جارٍ تحميل فهرس البحث…")
