"""The prepared search index (/search/prepared-index.json): its schema, and a decoder
written from the schema's description alone, which must give back /search-index.json."""

import copy
import json
import re
import unicodedata
from collections import Counter

import jsonschema
import pytest
from bs4 import BeautifulSoup
from hypothesis import given, settings
from hypothesis import strategies as st

from dalil.search.prepared import encode_numbers, prepared_index, prepared_phones
from dalil.search.plurals import plural_pairs
from tests import sitebuilder as sb

from .fixtures import fixture_files

PREPARED = "search/prepared-index.json"
SCHEMA = "schemas/search-prepared-index.schema.json"
PHONES = "search/phones.json"
PHONES_SCHEMA = "schemas/search-phones.schema.json"
# Hostile names must survive the split on the space as they are.
HOSTILE_NAME = ("=HYPERLINK(\"http://x\")  <img src=x onerror=alert(1)> \u202eفندق\u200f "
                "مطعم\u00a0الأطلس " + "ب" * 150)  # within DALIL_DIRECTORY_MAX_NAME_LENGTH


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    files = fixture_files()
    files.update(sb.listing("hostile", HOSTILE_NAME, Name_en="  Two  spaces  ",
                            Street="- ، -", city="rabat"))
    result = sb.build_site(tmp_path_factory.mktemp("prepared"), files)
    assert result.returncode == 0, result.log
    return result


@pytest.fixture(scope="module")
def published(site):
    """The search index, the prepared index and its schema, parsed, its phones beside it
    (as "phone", where decode reads them)."""
    index, prepared, schema = [json.loads(site.read(relpath))
                               for relpath in ("search-index.json", PREPARED, SCHEMA)]
    return index, {**prepared, "phone": json.loads(site.read(PHONES))["phone"]}, schema


def numbers(text):
    """An integer column, as the schema describes it: base-32 digits, a number's last
    digit the character U+0023 + d, the others U+005D + d."""
    values, value = [], 0
    for character in text:
        digit = ord(character)
        if 0x5D <= digit <= 0x7C:
            value = value * 32 + digit - 0x5D
        else:
            assert 0x23 <= digit <= 0x42, character
            values.append(value * 32 + digit - 0x23)
            value = 0
    assert value == 0
    return values


def decode(prepared):
    """The entries of the search index, from the prepared index, as its schema describes it."""
    tokens, fields = prepared["tokens"], prepared["text_fields"]
    types = numbers(prepared["type"])
    lengths = iter(numbers(prepared["text_lengths"]))
    text_tokens = iter(numbers(prepared["text_tokens"]))
    urls, images = dict(prepared["url_exceptions"]), dict(prepared["img_exceptions"])
    slugs = prepared["slug"].split(" ") if prepared["slug"] else []
    phones = prepared["phone"].split(" ")
    follows = numbers(prepared["img"])
    keywords = dict(prepared["keywords"])
    texts = [{field: " ".join(tokens[next(text_tokens)] for _ in range(next(lengths)))
              for field in fields} for _ in types]
    terms = {kind: [number for number, of_type in enumerate(types)
                    if prepared["types"][of_type] == kind] for kind in ("category", "location")}
    categories = [terms["category"][n - 1] if n else -1 for n in numbers(prepared["category"])]
    cities = [terms["location"][n - 1] if n else -1 for n in numbers(prepared["city"])]
    assert len(slugs) == len(phones) == len(follows) == len(categories) == len(cities) == len(types)
    entries = []
    for number, (kind, slug) in enumerate(zip(types, slugs)):
        category, city = categories[number], cities[number]
        entry = {"t": prepared["types"][kind], "s": slug, "n": texts[number]["n"],
                 "n_en": texts[number]["n_en"], "n_fr": texts[number]["n_fr"],
                 "c": texts[category]["n"] if category >= 0 else None,
                 "a": texts[number]["a"], "p": phones[number],
                 "img": images.get(number) or (prepared["img_patterns"][kind].replace(
                     "{slug}", slug) if follows[number] else None),
                 "cs": slugs[category] if category >= 0 else None,
                 "ls": slugs[city] if city >= 0 else None,
                 "k": [" ".join(tokens[token] for token in keyword)
                       for keyword in keywords.get(number, [])],
                 "url": urls.get(number) or prepared["url_patterns"][kind].replace("{slug}", slug)}
        entries.append({key: value for key, value in entry.items() if value})
    assert next(lengths, None) is None and next(text_tokens, None) is None
    return entries


def without_coordinates(entries):
    return [{key: value for key, value in entry.items() if key != "ll"} for entry in entries]


def test_schema_is_valid_and_the_prepared_index_validates(published):
    _, prepared, schema = published
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "https://dalil.test/" + SCHEMA
    jsonschema.Draft202012Validator(schema).validate(without_phones(prepared))


def prepared_with_phones(entries):
    """The prepared index of ``entries`` with its phones beside it, as decode reads them."""
    return {**prepared_index(entries), "phone": prepared_phones(entries)["phone"]}


def without_phones(prepared):
    return {key: value for key, value in prepared.items() if key != "phone"}


def test_broken_plurals_of_its_words_from_the_lexicon(published):
    prepared = published[1]
    pairs = prepared["plurals"]
    assert pairs == sorted(pairs) and len({tuple(pair) for pair in pairs}) == len(pairs)
    # فندق and مطعم are words of the fixture's names; مطاعم a category's name.
    assert ["فنادق", "فندق"] in pairs and ["مطاعم", "مطعم"] in pairs and ["فروع", "فرع"] in pairs
    # The tokens' Arabic words as the search sees them: no marks, ة as ه, ى as ي.
    plain = "".join(character for token in prepared["tokens"] + [" "] for character in
                    unicodedata.normalize("NFKD", token + " ")
                    if not unicodedata.combining(character) and character != "\u0640")
    plain = plain.translate({0x0629: 0x0647, 0x0649: 0x064A})
    words = {word.removeprefix("ال") for word in re.findall("[\u0621-\u064a]+", plain)}
    assert all(plural in words or singular in words for plural, singular in pairs)


def test_the_moroccan_plurals_arramooz_lacks_come_from_the_packaged_table():
    # قفطان has no broken plural in Arramooz; plurals.toml, installed with the package, gives it.
    assert ["قفاطين", "قفطان"] in plural_pairs(["دار القفطان"])
    assert ["جلاليب", "جلابه"] in plural_pairs(["جلابة مغربية"])


def test_its_phones_are_a_file_of_their_own_that_validates(site):
    phones, schema = json.loads(site.read(PHONES)), json.loads(site.read(PHONES_SCHEMA))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "https://dalil.test/" + PHONES_SCHEMA
    jsonschema.Draft202012Validator(schema).validate(phones)
    assert set(phones) == {"format", "phone"} and phones["format"] == "dalil-search-phones/1"
    search = BeautifulSoup(site.read("search/index.html"), "html.parser")
    assert search.find(id="live-search")["data-phones"] == "https://dalil.test/" + PHONES
    for change in ({"phone": "0522-998713"}, {"phone": ["0522998713"]}, {"format": "x"},
                   {"extra": 1}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.Draft202012Validator(schema).validate({**phones, **change})


def test_it_decodes_to_the_search_index(published):
    index, prepared, _ = published
    assert decode(prepared) == without_coordinates(index)
    hostile = next(entry for entry in decode(prepared) if entry["s"] == "hostile")
    assert hostile["n"] == next(entry["n"] for entry in index if entry["s"] == "hostile")
    assert "ب" * 150 in hostile["n"] and "\u200f" in hostile["n"] and "=HYPERLINK" in hostile["n"]


def test_tokens_are_unique_the_most_frequent_first_and_hold_no_space(published):
    prepared = published[1]
    tokens = prepared["tokens"]
    assert len(tokens) == len(set(tokens))
    assert not any(" " in token for token in tokens)
    text_tokens = numbers(prepared["text_tokens"])
    assert len(text_tokens) == sum(numbers(prepared["text_lengths"]))
    uses = Counter(text_tokens + [token for _, keywords in prepared["keywords"]
                                  for keyword in keywords for token in keyword])
    assert sorted(range(len(tokens)), key=lambda t: (-uses[t], tokens[t])) == list(range(len(tokens)))


def test_numbers_take_one_digit_below_32_and_another_per_five_bits():
    assert encode_numbers([0, 31, 32, 1023, 1024, 100000]) == "#B^#|B^]#`^r#"
    assert numbers(encode_numbers([0, 31, 32, 1023, 1024, 100000])) == [0, 31, 32, 1023, 1024, 100000]
    # Past the table of small numbers' digits too, in either order.
    large = [7, 2**18 - 1, 2**18, 2**40 + 5, 3]
    assert numbers(encode_numbers(large)) == large
    assert numbers(encode_numbers(large[::-1])) == large[::-1]
    assert encode_numbers([]) == ""


def test_urls_follow_one_pattern_per_type(published):
    prepared = published[1]
    assert prepared["url_patterns"][:3] == ["/directory/listing/{slug}/",
                                            "/directory/category/{slug}/",
                                            "/directory/city/{slug}/"]
    assert prepared["url_exceptions"] == []


def test_texts_split_on_the_space_only_and_keep_empty_tokens():
    entries = [{"t": "listing", "s": "a", "n": "x  y\u00a0z", "n_en": "A-B", "c": "C", "a": "،",
                "cs": "c", "ls": "l", "url": "/other/a.html"},
               {"t": "category", "s": "c", "n": "C", "k": ["p q", "r"], "url": "/cat/c/"},
               {"t": "location", "s": "l", "n": "L", "url": "/city/l/"}]
    prepared = prepared_with_phones(entries)
    assert prepared["tokens"] == ["", "A-B", "C", "L", "p", "q", "r", "x", "y\u00a0z", "،"]
    assert numbers(prepared["text_lengths"])[:4] == [3, 1, 0, 1]
    assert numbers(prepared["category"]) == [1, 0, 0] and numbers(prepared["city"]) == [1, 0, 0]
    assert prepared["url_exceptions"] == [] and prepared["url_patterns"][0] == "/other/{slug}.html"
    assert prepared["keywords"] == [[1, [[4, 5], [6]]]]
    assert decode(prepared) == [{key: value for key, value in entry.items()} for entry in entries]


def test_an_entry_off_its_types_pattern_keeps_its_path():
    entries = [{"t": "page", "s": "a", "n": "A", "url": "/a/"},
               {"t": "page", "s": "b", "n": "B", "url": "/pages/b.html"}]
    prepared = prepared_with_phones(entries)
    assert prepared["url_exceptions"] == [[1, "/pages/b.html"]]
    assert prepared["slug"] == "a b"
    assert decode(prepared) == entries


def test_images_off_the_pattern_are_exceptions():
    entries = [{"t": "listing", "s": s, "n": s.upper(), "c": "C", "cs": "c", "ls": "l",
                "url": f"/l/{s}/", **({"img": img} if img else {})}
               for s, img in (("a", "/img/a.jpg"), ("b", ""), ("c", "/img/c.jpg"),
                              ("d", "/other/x.png"))]
    entries += [{"t": "category", "s": "c", "n": "C", "url": "/c/c/"},
                {"t": "location", "s": "l", "n": "L", "url": "/c/l/"}]
    prepared = prepared_with_phones(entries)
    assert prepared["img_patterns"][0] == "/img/{slug}.jpg"
    assert numbers(prepared["img"]) == [1, 0, 1, 0, 0, 0]
    assert prepared["img_exceptions"] == [[3, "/other/x.png"]]
    assert decode(prepared) == entries


@pytest.mark.parametrize("change", [
    {"format": "dalil-search-prepared/2"},
    {"types": ["listing"]},
    {"type": [0]},
    {"type": "#\"#"},
    {"slug": ["a"]},
    {"slug": "a  b"},
    {"slug": "Not-A-Slug"},
    {"img": "#^"},
    {"img_exceptions": [[0, "images/x.jpg"]]},
    {"text_tokens": "#^"},
    {"text_tokens": "]#"},
    {"category": "#\\#"},
    {"url_exceptions": [[0, "directory/x/"]]},
    {"tokens": ["a", "a"]},
    {"phone": ""},  # the phones are a file of their own
    {"plurals": [["فنادق"]]},
    {"plurals": [["hotels", "hotel"]]},
    {"plurals": [["فُنْدُق", "فندق"]]},
    {"extra": 1},
])
def test_schema_rejects_a_broken_prepared_index(published, change):
    _, prepared, schema = published
    broken = copy.deepcopy(without_phones(prepared))
    broken.update(change)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(broken)


def test_precompressed_copies_and_same_bytes_again(site, tmp_path):
    assert site.path(PREPARED + ".br").is_file() and site.path(PREPARED + ".gz").is_file()
    again = sb.run_pelican(site.root, output=tmp_path / "again")
    assert again.returncode == 0, again.log
    for relpath in (PREPARED, PREPARED + ".br", PREPARED + ".gz", SCHEMA, PHONES, PHONES + ".br",
                    PHONES_SCHEMA):
        assert again.read(relpath, "rb") == site.read(relpath, "rb"), relpath


def test_the_search_page_loads_it_and_the_other_pages_the_full_index(site):
    search = BeautifulSoup(site.read("search/index.html"), "html.parser")
    assert search.find(id="live-search")["data-index"] == "https://dalil.test/" + PREPARED
    near_me = search.find(class_="near-me")
    assert near_me["data-index"] == "https://dalil.test/search-index.json"
    random = BeautifulSoup(site.read("random/index.html"), "html.parser")
    assert random.find(attrs={"data-index": True})["data-index"] == (
        "https://dalil.test/search-index.json")
    worker = site.read("sw.js")
    start = worker.index("const BUILD = ") + len("const BUILD = ")
    build = json.loads(worker[start:worker.index(";\n", start)])
    assert build["data"] == ["search-index.json", PREPARED, PHONES]


def test_empty_save_as_turns_it_off(tmp_path):
    result = sb.build_site(tmp_path, fixture_files(), DALIL_SEARCH_PREPARED_SAVE_AS="")
    assert result.returncode == 0, result.log
    assert not result.path(PREPARED).exists() and not result.path(PREPARED + ".gz").exists()
    assert not result.path(PHONES).exists()  # the full index holds them
    search = BeautifulSoup(result.read("search/index.html"), "html.parser")
    assert search.find(id="live-search")["data-index"] == "https://dalil.test/search-index.json"
    assert not search.find(id="live-search").has_attr("data-phones")


@settings(max_examples=500, deadline=None, derandomize=True)
@given(st.lists(st.text(alphabet=" a\u00a0ب\u200f", max_size=6), max_size=6))
def test_all_tokens_are_the_tokens_of_each_text_in_turn(texts):
    from dalil.search.prepared import all_tokens, tokens_of

    assert all_tokens(texts) == [token for text in texts for token in tokens_of(text)]
