"""The search index, its JSON Schema and the OpenSearch description, on a fixture site."""

import copy
import json
import marshal

import jsonschema
import pytest
from bs4 import BeautifulSoup
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from dalil.search.index import search_phone
from tests import sitebuilder as sb

from .fixtures import TRICKY_NAME, fixture_files

OS = "{http://a9.com/-/spec/opensearch/1.1/}"

EXPECTED_INDEX = [
    {"t": "listing", "s": "amal-pharmacy", "n": "صيدلية الأمل", "c": "صيدليات", "a": "الرباط",
     "p": "0537778452", "cs": "pharmacies", "ls": "rabat",
     "url": "/directory/listing/amal-pharmacy/"},
    {"t": "listing", "s": "brothers-cafe", "n": "مَقْهَى الإِخْوَة", "n_fr": "Café des Frères",
     "c": "مقاهٍ", "a": "زنقة إدريس الأول، الدار البيضاء", "p": "+212537401010", "cs": "cafes",
     "ls": "casablanca",
     "url": "/directory/listing/brothers-cafe/"},
    {"t": "listing", "s": "stars-cafe", "n": TRICKY_NAME, "c": "مقاهٍ", "a": "الرباط",
     "cs": "cafes", "ls": "rabat", "url": "/directory/listing/stars-cafe/"},
    {"t": "listing", "s": "zaytouna", "n": "مطعم الزيتونة", "n_en": "Zaytouna Restaurant",
     "n_fr": "Restaurant La Zaytouna", "c": "مطاعم", "a": "12 شارع محمد الخامس، الدار البيضاء",
     "p": "+212522264519", "img": "/images/z.svg", "cs": "restaurants", "ls": "casablanca",
     "url": "/directory/listing/zaytouna/"},
    {"t": "category", "s": "cafes", "n": "مقاهٍ", "n_en": "Cafes", "n_fr": "Cafés",
     "k": ["مقهى", "قهوة", "coffee", "espresso"], "url": "/directory/category/cafes/"},
    {"t": "category", "s": "pharmacies", "n": "صيدليات", "url": "/directory/category/pharmacies/"},
    {"t": "category", "s": "restaurants", "n": "مطاعم", "n_en": "Restaurants",
     "n_fr": "Restaurants", "url": "/directory/category/restaurants/"},
    {"t": "location", "s": "casablanca", "n": "الدار البيضاء", "n_en": "Casablanca",
     "n_fr": "Casablanca", "url": "/directory/city/casablanca/"},
    {"t": "location", "s": "rabat", "n": "الرباط", "n_en": "Rabat", "n_fr": "Rabat",
     "url": "/directory/city/rabat/"},
    {"t": "news", "s": "market-opens", "n": "افتتاح السوق & المعرض", "url": "/news/market-opens/"},
    {"t": "blog", "s": "travel-tips", "n": "نصائح للسفر", "url": "/blog/travel-tips/"},
    {"t": "page", "s": "about", "n": "من نحن", "url": "/about/"},
    {"t": "page", "s": "open-data", "n": "البيانات المفتوحة", "url": "/open-data/"},
]
KEY_ORDER = ["t", "s", "n", "n_en", "n_fr", "c", "a", "p", "img", "cs", "ls", "k", "url"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("search"), fixture_files())
    assert result.returncode == 0, result.log
    return result


@pytest.fixture(scope="module")
def index(site):
    return json.loads(site.read("search-index.json"))


@pytest.fixture(scope="module")
def schema(site):
    return json.loads(site.read("schemas/search-index.schema.json"))


def test_index_is_utf8_json_without_bom(site):
    raw = site.read("search-index.json", "rb")
    assert not raw.startswith(b"\xef\xbb\xbf")
    assert "مطعم الزيتونة".encode("utf-8") in raw  # not \u-escaped
    assert isinstance(json.loads(raw.decode("utf-8")), list)


def test_index_holds_exactly_the_published_entries(index):
    assert index == EXPECTED_INDEX


def test_index_leaves_out_drafts_and_hidden_items(index):
    slugs = {entry["s"] for entry in index}
    assert not slugs & {"secret-shop", "future-bakery", "secret-news", "old"}


def test_entries_are_ordered_by_type_then_slug(index):
    types = ["listing", "category", "location", "news", "blog", "page"]
    keys = [(types.index(entry["t"]), entry["s"]) for entry in index]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_keys_come_in_documented_order_and_are_never_empty(site):
    entries = json.loads(site.read("search-index.json"), object_pairs_hook=list)
    for pairs in entries:
        keys = [key for key, _ in pairs]
        assert keys == [key for key in KEY_ORDER if key in keys], keys
        assert all(isinstance(value, list if key == "k" else str) and value
                   for key, value in pairs), pairs


def test_urls_and_images_are_root_relative_and_exist(site, index):
    for entry in index:
        for key in ("url", "img"):
            if key in entry:
                path = entry[key]
                assert path.startswith("/") and not path.startswith("//"), entry
                target = path + "index.html" if path.endswith("/") else path
                assert site.path(target).is_file(), entry


def test_external_image_is_left_out(index):
    cafe = next(entry for entry in index if entry["s"] == "brothers-cafe")
    assert "img" not in cafe


def test_schema_is_valid_and_the_index_validates(index, schema):
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "https://dalil.test/schemas/search-index.schema.json"
    jsonschema.Draft202012Validator(schema).validate(index)


@pytest.mark.parametrize("position, change", [
    (0, {"url": None}),                      # url is required
    (0, {"n": None}),                        # so is the name
    (0, {"c": None}),                        # a listing names its category
    (0, {"n_en": ""}),                       # empty optional values are left out
    (0, {"x": "1"}),                         # no unknown keys
    (0, {"img": "https://cdn.example/x.jpg"}),  # img is a root-relative path
    (0, {"url": "directory/listing/x/"}),    # and so is url
    (0, {"s": "Not A Slug"}),
    (0, {"n": " صيدلية"}),                   # plain text, trimmed
    (0, {"n": "سطر\nثان"}),
    (0, {"t": "shop"}),
    (4, {"c": "مطاعم"}),                     # terms carry no category, address or image
    (7, {"img": "/images/z.svg"}),
    (9, {"n_en": "Market"}),                 # news, blog and pages carry no translations
    (9, {"a": "الرباط"}),
    (0, {"cs": None}),                       # a listing names its category's and city's slugs
    (0, {"ls": "Rabat City"}),
    (0, {"k": ["مطعم"]}),                    # keywords belong to categories only
    (7, {"k": ["مدينة"]}),
    (4, {"k": []}),                          # present only when there are some
    (4, {"k": ["قهوة", "قهوة"]}),
    (4, {"k": "قهوة"}),
    (8, {"cs": "cafes"}),                    # terms have no category or city slug
    (0, {"p": "+212 522"}),                  # a phone is its digits, maybe after a +
    (0, {"p": "0522-998713"}),
    (0, {"p": ""}),
    (4, {"p": "0522998713"}),                # listings only
])
def test_schema_rejects_entries_that_break_the_rules(index, schema, position, change):
    broken = copy.deepcopy(index)
    for key, value in change.items():
        if value is None:
            broken[position].pop(key)
        else:
            broken[position][key] = value
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(broken)


def test_a_phone_is_its_digits_after_a_plus_when_international():
    assert search_phone("+212 522-26 45 19") == "+212522264519"
    assert search_phone("00212 (537) 40.10.10") == "+212537401010"
    assert search_phone("0537/77 84 52") == "0537778452"
    assert search_phone("٠٥٣٧ ٧٧") == "053777"  # Arabic-Indic
    assert search_phone("") == search_phone("+") == ""


def test_same_content_gives_same_bytes(site, tmp_path):
    again = sb.run_pelican(site.root, output=tmp_path / "again")
    assert again.returncode == 0, again.log
    for relpath in ("search-index.json", "schemas/search-index.schema.json", "opensearch.xml"):
        assert again.read(relpath, "rb") == site.read(relpath, "rb"), relpath


def test_opensearch_description(site):
    root = etree.fromstring(site.read("opensearch.xml", "rb"))
    assert root.tag == OS + "OpenSearchDescription"
    short_name = root.findtext(OS + "ShortName")
    assert short_name == "دليل" and 0 < len(short_name) <= 16
    assert root.findtext(OS + "Description").strip()
    assert root.findtext(OS + "InputEncoding") == "UTF-8"
    assert root.findtext(OS + "Language") == "ar"
    html_urls = root.findall(OS + "Url[@type='text/html']")
    assert len(html_urls) == 1
    assert html_urls[0].get("template") == "https://dalil.test/search/?q={searchTerms}"
    assert html_urls[0].get("method", "get") == "get"
    image = root.find(OS + "Image")
    assert image.text == "https://dalil.test/theme/icons/icon.svg"
    assert image.get("type") == "image/svg+xml" and int(image.get("width")) > 0
    assert site.path("theme/icons/icon.svg").is_file()
    self_url = root.find(OS + "Url[@rel='self']")
    assert self_url.get("template") == "https://dalil.test/opensearch.xml"


def test_every_page_links_the_opensearch_description(site):
    pages = [relpath for relpath in site.files() if relpath.endswith(".html")]
    assert "search/index.html" in pages and "random/index.html" in pages and len(pages) > 15
    for relpath in pages:
        page = BeautifulSoup(site.read(relpath), "html.parser")
        links = page.find_all("link", rel="search")
        assert len(links) == 1, relpath
        assert links[0]["type"] == "application/opensearchdescription+xml", relpath
        assert links[0]["href"] == "https://dalil.test/opensearch.xml", relpath
        assert links[0]["title"] == "دليل", relpath


def test_search_and_random_pages_are_strict_csp_friendly(site):
    for relpath in ("search/index.html", "random/index.html"):
        page = BeautifulSoup(site.read(relpath), "html.parser")
        assert page.find("link", rel="canonical")["href"] == "https://dalil.test/" + relpath[:-10]
        for script in page.find_all("script"):
            if script.get("type") in ("application/ld+json", "application/json"):
                continue  # data blocks are allowed inline
            assert script.get("src", "").startswith("https://dalil.test/theme/js/"), relpath
            assert script.has_attr("defer") and not script.string, relpath
        assert not page.find(style=True) and not page.find("style"), relpath
        assert not [tag for tag in page.find_all(True)
                    if any(attr.startswith("on") for attr in tag.attrs)], relpath
        live = page.find(attrs={"data-index": True})
        index = "search/index/head.json" if relpath.startswith("search/") else "search-index.json"
        assert live["data-index"] == "https://dalil.test/" + index
        assert page.find(attrs={"aria-live": "polite"}), relpath
    search = BeautifulSoup(site.read("search/index.html"), "html.parser")
    assert search.find(attrs={"data-input": True})["data-input"] == "site-search"
    assert search.find(id="site-search")["name"] == "q"


@pytest.fixture(scope="module")
def site_without_search_files(tmp_path_factory):
    result = sb.build_site(
        tmp_path_factory.mktemp("search-off"), fixture_files(),
        DALIL_SEARCH_INDEX_SAVE_AS="", DALIL_SEARCH_SCHEMA_SAVE_AS="",
        DALIL_SEARCH_RANDOM_SAVE_AS="",
        DALIL_SEARCH_OPENSEARCH_SHORT_NAME="دليل المغرب للأعمال والخدمات")
    assert result.returncode == 0, result.log
    return result


def test_empty_save_as_turns_outputs_off(site_without_search_files):
    site = site_without_search_files
    for relpath in ("search-index.json", "schemas/search-index.schema.json", "random/index.html"):
        assert not site.path(relpath).exists(), relpath
    assert site.path("search/index.html").is_file()
    assert "need the search index" in site.log


def test_long_short_name_is_cut_to_16_characters_with_a_warning(site_without_search_files):
    site = site_without_search_files
    root = etree.fromstring(site.read("opensearch.xml", "rb"))
    assert root.findtext(OS + "ShortName") == "دليل المغرب للأعمال والخدمات"[:16]
    assert "DALIL_SEARCH_OPENSEARCH_SHORT_NAME" in site.log


def test_no_search_page_means_no_opensearch_and_no_link(tmp_path):
    result = sb.build_site(tmp_path, sb.base_files(), DALIL_SEARCH_PAGE_SAVE_AS="")
    assert result.returncode == 0, result.log
    assert not result.path("opensearch.xml").exists()
    assert not result.path("search/index.html").exists()
    page = BeautifulSoup(result.read("index.html"), "html.parser")
    assert page.find("link", rel="search") is None
    assert json.loads(result.read("search-index.json"))[0]["t"] == "category"


@pytest.mark.parametrize("count", [0, 1, 512, 513, 1100])
def test_the_index_written_in_pieces_is_the_index_as_one_json_text(count):
    from dalil.search.index import serialise

    entries = [{"t": "listing", "s": f"s{number}", "n": f"مطعم \"{number}\"\u2028", "url": "/x/"}
               for number in range(count)]
    whole = json.dumps(entries, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    assert serialise(entries) == whole
    assert json.loads(serialise(entries)) == entries


def test_a_memo_of_entries_makes_only_the_changed_listings_parts_entries(monkeypatch):
    import dataclasses
    import hashlib

    from benchmarks.exports import synthetic_directory
    from dalil.directory.model import listing_parts
    from dalil.search import index

    made = []
    original = index.listing_entry
    monkeypatch.setattr(index, "listing_entry", lambda listing: made.append(listing.slug) or original(listing))
    directory = synthetic_directory(1200)
    directory.digests = {listing: hashlib.blake2b(listing.slug.encode(), digest_size=16).digest()
                         for listing in directory.listings}
    parts = listing_parts(directory.listings, directory.digests)
    assert len(parts) > 2
    used = {}
    first = json.loads(b"".join(index.serialised_texts(
        [text for text, _ in index.index_parts(directory, [], [], None, used)])))
    assert len(made) == 1200 and len(used) == len(parts)
    renamed = dataclasses.replace(directory.listings[700], name="اسم جديد")
    old_digest = directory.digests[directory.listings[700]]
    directory.listings[700] = renamed
    directory.digests[renamed] = old_digest[:-1] + bytes([old_digest[-1] ^ 1])  # the same part ends
    made.clear()
    again = {}
    # The memo is marshal data: each part's entries' JSON text and its digest, by the part's key.
    found = index.index_parts(directory, [], [], marshal.loads(marshal.dumps(used)), again)
    part = next([listing.slug for listing in listings] for listings, _ in parts
                if any(listing.slug == renamed.slug for listing in listings))
    assert made == part and 0 < len(made) < 600
    assert set(again) == {key for _, key in listing_parts(directory.listings, directory.digests)}
    texts = [text for text, _ in found]
    assert [digest for _, digest in found] == [index.text_digest(text) for text in texts]
    assert b"".join(index.serialised_texts(texts, per_piece=1)).decode("utf-8") == index.serialise(
        index.build_entries(directory, [], []))
    second = json.loads(b"".join(index.serialised_texts(texts)))
    assert [entry["n"] for entry in second if entry["t"] == "listing"] == [
        entry["n"] if number != 700 else "اسم جديد"
        for number, entry in enumerate(item for item in first if item["t"] == "listing")]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.dictionaries(st.sampled_from(["t", "s", "n", "ll", "k"]),
                                st.one_of(st.text(max_size=4), st.floats(-90, 90),
                                          st.lists(st.text(max_size=3), max_size=2)),
                                max_size=4), max_size=5))
def test_entries_are_encoded_together_as_each_alone(entries):
    from dalil.search.index import entries_text, entry_text

    assert entries_text(entries) == b",".join(map(entry_text, entries))
