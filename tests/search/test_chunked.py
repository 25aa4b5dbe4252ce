"""The search page's index in parts (/search/index/head.json and its parts): their
schemas, and a decoder written from the schemas' descriptions alone, which must give back
/search-index.json from the head and its parts."""

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

from dalil.search.chunked import ChunkedIndex, EntriesOfTexts, encode_numbers, serialise_chunk
from dalil.search.index import entries_text
from dalil.search.plurals import plural_pairs
from tests import sitebuilder as sb

from .fixtures import fixture_files

HEAD = "search/index/head.json"
HEAD_SCHEMA = "schemas/search-index-head.schema.json"
PART_SCHEMA = "schemas/search-index-part.schema.json"
# Hostile names must survive the split on the space as they are.
HOSTILE_NAME = ("=HYPERLINK(\"http://x\")  <img src=x onerror=alert(1)> \u202eفندق\u200f "
                "مطعم\u00a0الأطلس " + "ب" * 150)  # within DALIL_DIRECTORY_MAX_NAME_LENGTH
# Small parts: the fixture's few listings make several.
PART_SIZE = 3


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    files = fixture_files()
    files.update(sb.listing("hostile", HOSTILE_NAME, Name_en="  Two  spaces  ",
                            Street="- ، -", city="rabat"))
    result = sb.build_site(tmp_path_factory.mktemp("chunked"), files,
                           DALIL_SEARCH_PART_SIZE=PART_SIZE)
    assert result.returncode == 0, result.log
    return result


def part_path(name):
    return f"search/index/{name}.json"


@pytest.fixture(scope="module")
def published(site):
    """The search index, the head, its parts by name and the two schemas, parsed."""
    index, head = json.loads(site.read("search-index.json")), json.loads(site.read(HEAD))
    parts = {name: json.loads(site.read(part_path(name))) for name in head["parts"]}
    schemas = [json.loads(site.read(relpath)) for relpath in (HEAD_SCHEMA, PART_SCHEMA)]
    return index, head, parts, schemas


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


def read_block(head, block):
    """{position in the search index: its entry's fields} of a block (the head's terms,
    or a part), as the schema describes it: what its records hold (texts, category and
    city as term positions, image number) and what its display columns hold (slug, path
    exceptions), each when the block has them."""
    tokens, fields = head["tokens"], head["text_fields"]
    positions, at = [], 0
    for gap in numbers(block["entries"]):
        at += gap
        positions.append(at)
    read = {position: {} for position in positions}
    if "records" in block:
        records = iter(numbers(block["records"]))
        phones = block["phone"].split(" ") if "phone" in block else None
        keywords = dict(block.get("keywords", []))
        for local, position in enumerate(positions):
            kind = head["types"][next(records)]
            lengths = [next(records) for _ in fields]
            texts = {field: " ".join(tokens[next(records)] for _ in range(length))
                     for field, length in zip(fields, lengths)}
            category, city, image = next(records), next(records), next(records)
            read[position].update({
                "t": kind, **texts, "category": category, "city": city, "image": image,
                "k": [" ".join(tokens[token] for token in keyword)
                      for keyword in keywords.get(local, [])]})
            if phones is not None:
                read[position]["p"] = phones[local]
        assert next(records, None) is None
        assert phones is None or len(phones) == len(positions)
    if "slug" in block:
        slugs = block["slug"].split(" ") if block["slug"] else []
        assert len(slugs) == len(positions)
        urls, images = dict(block["url_exceptions"]), dict(block["img_exceptions"])
        for local, position in enumerate(positions):
            read[position].update({"s": slugs[local], "url": urls.get(local),
                                   "img_exception": images.get(local)})
    return read


def decode(head, parts):
    """The entries of the search index, from the head and its parts: each entry from
    every block that holds it must read the same, and each has its record and its
    display once at least."""
    terms = read_block(head, head["terms"])
    term_positions = list(terms)
    found = {position: dict(fields) for position, fields in terms.items()}
    for part in parts.values():
        for position, fields in read_block(head, part).items():
            entry = found.setdefault(position, {})
            for key, value in fields.items():
                assert entry.setdefault(key, value) == value, (position, key)
    assert sorted(found) == list(range(head["count"]))
    entries = []
    for position in range(head["count"]):
        entry = dict(found[position])
        assert "t" in entry and "s" in entry, position
        category, city = entry.pop("category"), entry.pop("city")
        if category:
            term = found[term_positions[category - 1]]
            entry["c"], entry["cs"] = term["n"], term["s"]
        if city:
            entry["ls"] = found[term_positions[city - 1]]["s"]
        # 0: none or an exception, 1: the pattern, 2 and more: a shared image.
        image, exception = entry.pop("image"), entry.pop("img_exception")
        pattern = head["img_patterns"][head["types"].index(entry["t"])].replace("{slug}", entry["s"])
        entry["img"] = exception if image == 0 else pattern if image == 1 else head["images"][image - 2]
        entry["url"] = entry["url"] or head["url_patterns"][head["types"].index(entry["t"])] \
            .replace("{slug}", entry["s"])
        order = ["t", "s", "n", "n_en", "n_fr", "c", "a", "p", "img", "cs", "ls", "k", "url"]
        entries.append({key: entry[key] for key in order if entry.get(key)})
    return entries


def without_coordinates(entries):
    return [{key: value for key, value in entry.items() if key != "ll"} for entry in entries]


def chunked(entries, part_size=PART_SIZE):
    """The head and the parts by name of ``entries``, as the build makes them."""
    index = ChunkedIndex(entries, part_size)
    return index.head(), dict(index.parts())


def test_schemas_are_valid_and_the_head_and_every_part_validate(published):
    _, head, parts, (head_schema, part_schema) = published
    for schema, relpath in ((head_schema, HEAD_SCHEMA), (part_schema, PART_SCHEMA)):
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$id"] == "https://dalil.test/" + relpath
    jsonschema.Draft202012Validator(head_schema).validate(head)
    for part in parts.values():
        jsonschema.Draft202012Validator(part_schema).validate(part)
        assert part["version"] == head["version"]


def test_they_decode_to_the_search_index(published):
    index, head, parts, _ = published
    assert head["count"] == len(index)
    assert decode(head, parts) == without_coordinates(index)
    hostile = next(entry for entry in decode(head, parts) if entry["s"] == "hostile")
    assert hostile["n"] == next(entry["n"] for entry in index if entry["s"] == "hostile")
    assert "ب" * 150 in hostile["n"] and "\u200f" in hostile["n"] and "=HYPERLINK" in hostile["n"]


def test_each_token_s_parts_hold_every_entry_outside_the_head_it_may_match(published):
    index, head, parts, _ = published
    names, tokens = head["parts"], head["tokens"]
    held = {name: {position for position in read_block(head, part)}
            for name, part in parts.items()}
    # A token's name part: the entries with it in a name; its address part: in the address.
    columns = {"name": numbers(head["token_part"]), "address": numbers(head["address_part"])}
    fields = {"name": ("n", "n_en", "n_fr"), "address": ("a",)}
    assert all(len(column) == len(tokens) for column in columns.values()) and len(names) > 3
    terms = set(read_block(head, head["terms"]))
    for kind, column in columns.items():
        own = {}  # position -> the parts of its own tokens of this kind
        for position, entry in enumerate(index):
            if position in terms:
                continue
            own[position] = {names[column[tokens.index(token)] - 1]
                             for field in fields[kind] if entry.get(field)
                             for token in entry[field].split(" ")}
            assert all(position in held[name] for name in own[position])
        # Each entry is in the parts of its own tokens only.
        prefix = {"name": "t-", "address": "a-"}[kind]
        for name, positions in held.items():
            if name.startswith(prefix):
                assert all(name in own[position] for position in positions), name
        assert any(name.startswith(prefix) for name in names)
    # A token only a category's name has (its listings are found through that
    # category's part) is in no token part: listings are not copied there.
    assert columns["name"][tokens.index("مطاعم")] == 0 and "مطاعم" not in json.dumps(
        [entry for position, entry in enumerate(index) if position not in terms],
        ensure_ascii=False).replace('"c": "مطاعم"', "")


def test_each_category_s_and_city_s_part_holds_its_listings(published):
    index, head, parts, _ = published
    terms = read_block(head, head["terms"])
    term_part, term_listings = numbers(head["term_part"]), numbers(head["term_listings"])
    assert len(term_part) == len(term_listings) == len(terms)
    for (position, term), part, count in zip(terms.items(), term_part, term_listings):
        key = "cs" if term["t"] == "category" else "ls"
        listings = {number for number, entry in enumerate(index)
                    if entry.get(key) == term["s"] and entry["t"] == "listing"}
        assert count == len(listings)
        if not listings:
            assert part == 0
            continue
        name = head["parts"][part - 1]
        assert name == ("category-" if term["t"] == "category" else "city-") + term["s"]
        assert set(read_block(head, parts[name])) == listings


def test_the_phones_part_holds_the_entries_with_a_phone(published):
    index, head, parts, _ = published
    name = head["parts"][head["phone_part"] - 1]
    assert name == "phones"
    phones = {position: entry["p"] for position, entry in read_block(head, parts[name]).items()}
    assert phones == {number: entry["p"] for number, entry in enumerate(index) if entry.get("p")}
    assert len(phones) >= 3
    assert all("phone" not in part for other, part in parts.items() if other != name)


def test_broken_plurals_of_its_words_from_the_lexicon(published):
    head = published[1]
    pairs = head["plurals"]
    assert pairs == sorted(pairs) and len({tuple(pair) for pair in pairs}) == len(pairs)
    # فندق and مطعم are words of the fixture's names; مطاعم a category's name.
    assert ["فنادق", "فندق"] in pairs and ["مطاعم", "مطعم"] in pairs and ["فروع", "فرع"] in pairs
    # The tokens' Arabic words as the search sees them: no marks, ة as ه, ى as ي.
    plain = "".join(character for token in head["tokens"] + [" "] for character in
                    unicodedata.normalize("NFKD", token + " ")
                    if not unicodedata.combining(character) and character != "\u0640")
    plain = plain.translate({0x0629: 0x0647, 0x0649: 0x064A})
    words = {word.removeprefix("ال") for word in re.findall("[\u0621-\u064a]+", plain)}
    assert all(plural in words or singular in words for plural, singular in pairs)


def test_the_moroccan_plurals_arramooz_lacks_come_from_the_packaged_table():
    # قفطان has no broken plural in Arramooz; plurals.toml, installed with the package, gives it.
    assert ["قفاطين", "قفطان"] in plural_pairs(["دار القفطان"])
    assert ["جلاليب", "جلابه"] in plural_pairs(["جلابة مغربية"])


def test_tokens_are_unique_the_most_frequent_first_and_hold_no_space(published):
    index, head, _, _ = published
    tokens = head["tokens"]
    assert len(tokens) == len(set(tokens))
    assert not any(" " in token for token in tokens)
    uses = Counter(token for entry in index for text in
                   [entry.get(field, "") for field in ("n", "n_en", "n_fr", "a")] + entry.get("k", [])
                   if text for token in text.split(" "))
    assert sorted(tokens, key=lambda token: (-uses[token], token)) == tokens


def test_numbers_take_one_digit_below_32_and_another_per_five_bits():
    assert encode_numbers([0, 31, 32, 1023, 1024, 100000]) == "#B^#|B^]#`^r#"
    assert numbers(encode_numbers([0, 31, 32, 1023, 1024, 100000])) == [0, 31, 32, 1023, 1024, 100000]
    # Past the table of small numbers' digits too, in either order.
    large = [7, 2**18 - 1, 2**18, 2**40 + 5, 3]
    assert numbers(encode_numbers(large)) == large
    assert numbers(encode_numbers(large[::-1])) == large[::-1]
    assert encode_numbers([]) == ""


def test_urls_follow_one_pattern_per_type(published):
    head, parts = published[1], published[2]
    assert head["url_patterns"][:3] == ["/directory/listing/{slug}/",
                                        "/directory/category/{slug}/",
                                        "/directory/city/{slug}/"]
    assert head["terms"]["url_exceptions"] == []
    assert all(part.get("url_exceptions", []) == [] for part in parts.values())


def test_texts_split_on_the_space_only_and_keep_empty_tokens():
    entries = [{"t": "listing", "s": "a", "n": "x  y\u00a0z", "n_en": "A-B", "c": "C", "a": "،",
                "cs": "c", "ls": "l", "url": "/other/a.html"},
               {"t": "category", "s": "c", "n": "C", "k": ["p q", "r"], "url": "/cat/c/"},
               {"t": "location", "s": "l", "n": "L", "url": "/city/l/"}]
    head, parts = chunked(entries)
    assert head["tokens"] == ["", "A-B", "C", "L", "p", "q", "r", "x", "y\u00a0z", "،"]
    assert head["terms"]["keywords"] == [[0, [[4, 5], [6]]]]
    listing = read_block(head, parts["category-c"])[0]
    assert (listing["n"], listing["category"], listing["city"]) == ("x  y\u00a0z", 1, 2)
    assert head["url_patterns"][0] == "/other/{slug}.html"
    assert decode(head, parts) == entries


def test_an_entry_off_its_types_pattern_keeps_its_path():
    entries = [{"t": "page", "s": "a", "n": "A", "url": "/a/"},
               {"t": "page", "s": "b", "n": "B", "url": "/pages/b.html"}]
    head, parts = chunked(entries)
    # One part (A and B are one token each, below a part's size): b is its second entry.
    assert [part["url_exceptions"] for name, part in parts.items() if "slug" in part] == \
        [[[1, "/pages/b.html"]]]
    assert decode(head, parts) == entries


def test_images_off_the_pattern_are_exceptions():
    entries = [{"t": "listing", "s": s, "n": s.upper(), "c": "C", "cs": "c", "ls": "l",
                "url": f"/l/{s}/", **({"img": img} if img else {})}
               for s, img in (("a", "/img/a.jpg"), ("b", ""), ("c", "/img/c.jpg"),
                              ("d", "/other/x.png"))]
    entries += [{"t": "category", "s": "c", "n": "C", "url": "/c/c/"},
                {"t": "location", "s": "l", "n": "L", "url": "/c/l/"}]
    head, parts = chunked(entries)
    assert head["img_patterns"][0] == "/img/{slug}.jpg"
    records = numbers(parts["category-c"]["records"])
    assert len(records) == 4 * 9 and records[8::9] == [1, 0, 1, 0]  # each one's last: img
    assert parts["d-0"]["img_exceptions"] == [[3, "/other/x.png"]]
    assert decode(head, parts) == entries


def test_an_image_several_entries_share_is_named_once_in_the_head():
    # A default picture: off the pattern, shared; a record names it by number.
    entries = [{"t": "listing", "s": s, "n": s.upper(), "c": "C", "cs": "c", "ls": "l",
                "url": f"/l/{s}/", "img": img}
               for s, img in (("a", "/img/a.jpg"), ("b", "/img/default.svg"), ("c", "/img/c.jpg"),
                              ("d", "/img/default.svg"), ("e", "/img/other.svg"),
                              ("f", "/img/blank.svg"), ("g", "/img/blank.svg"))]
    entries += [{"t": "category", "s": "c", "n": "C", "url": "/c/c/"},
                {"t": "location", "s": "l", "n": "L", "url": "/c/l/"}]
    head, parts = chunked(entries)
    assert head["images"] == ["/img/blank.svg", "/img/default.svg"]
    records = numbers(parts["category-c"]["records"])
    assert records[8::9] == [1, 3, 1, 3, 0, 2, 2]
    assert parts["d-0"]["img_exceptions"] == [[4, "/img/other.svg"]]
    assert "default.svg" not in json.dumps(parts, ensure_ascii=False)
    assert decode(head, parts) == entries


def test_parts_group_tokens_in_code_point_order_and_close_near_their_size():
    entries = [{"t": "page", "s": f"p{number}", "n": f"w{number:03}", "url": f"/p{number}/"}
               for number in range(200)]
    head, parts = chunked(entries, part_size=20)
    token_part = numbers(head["token_part"])
    by_token = sorted(zip(head["tokens"], token_part))
    assert [part for _, part in by_token] == sorted(part for _, part in by_token)
    sizes = Counter(token_part)
    assert all(10 <= size <= 20 for part, size in sizes.items() if part != token_part[
        head["tokens"].index(by_token[-1][0])])
    # A part is named by its first token: an edit further on leaves the name as it is.
    more = entries + [{"t": "page", "s": "zz", "n": "w999", "url": "/zz/"}]
    names = head["parts"]
    assert chunked(more, part_size=20)[0]["parts"][:len(names) - 1] == names[:-1]


@pytest.mark.parametrize("change", [
    {"format": "dalil-search-head/1"},
    {"images": ["images/x.jpg"]},
    {"version": "x"},
    {"types": ["listing"]},
    {"count": -1},
    {"tokens": ["a", "a"]},
    {"token_part": "#^"},
    {"address_part": [1]},
    {"parts": ["../x"]},
    {"terms": {"entries": "#", "records": "#", "slug": "Not-A-Slug", "url_exceptions": [],
               "img_exceptions": []}},
    {"terms": {"entries": "]#"}},
    {"phone_part": "1"},
    {"term_listings": [1]},
    {"plurals": [["فنادق"]]},
    {"plurals": [["hotels", "hotel"]]},
    {"plurals": [["فُنْدُق", "فندق"]]},
    {"extra": 1},
])
def test_head_schema_rejects_a_broken_head(published, change):
    head, (schema, _) = published[1], published[3]
    broken = copy.deepcopy(head)
    broken.update(change)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(broken)


@pytest.mark.parametrize("change", [
    {"format": "dalil-search-part/1"}, {"records": [0]}, {"records": "#\"#"}, {"slug": "a  b"},
    {"entries": "]#"}, {"img_exceptions": [[0, "images/x.jpg"]]},
    {"url_exceptions": [[0, "directory/x/"]]}, {"phone": "0522-998713"}, {"extra": 1},
])
def test_part_schema_rejects_a_broken_part(published, change):
    parts, (_, schema) = published[2], published[3]
    broken = copy.deepcopy(next(iter(parts.values())))
    broken.update(change)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(broken)


def test_precompressed_copies_and_same_bytes_again(site, published, tmp_path):
    relpaths = [HEAD, HEAD_SCHEMA, PART_SCHEMA] + [part_path(name) for name in published[1]["parts"]]
    for relpath in relpaths[:1] + relpaths[3:]:
        assert site.path(relpath + ".br").is_file() and site.path(relpath + ".gz").is_file()
    again = sb.run_pelican(site.root, output=tmp_path / "again")
    assert again.returncode == 0, again.log
    for relpath in relpaths + [HEAD + ".br", HEAD + ".gz"]:
        assert again.read(relpath, "rb") == site.read(relpath, "rb"), relpath
    assert sorted(path.name for path in (tmp_path / "again" / "search" / "index").glob("*.json")) == \
        sorted(path.name for path in site.path("search/index").glob("*.json"))


def test_the_search_page_loads_the_head_and_the_other_pages_the_full_index(site):
    search = BeautifulSoup(site.read("search/index.html"), "html.parser")
    assert search.find(id="live-search")["data-index"] == "https://dalil.test/" + HEAD
    near_me = search.find(class_="near-me")
    assert near_me["data-index"] == "https://dalil.test/search-index.json"
    random = BeautifulSoup(site.read("random/index.html"), "html.parser")
    assert random.find(attrs={"data-index": True})["data-index"] == (
        "https://dalil.test/search-index.json")
    worker = site.read("sw.js")
    start = worker.index("const BUILD = ") + len("const BUILD = ")
    build = json.loads(worker[start:worker.index(";\n", start)])
    assert build["data"] == ["search-index.json", HEAD, "search/index/"]


def test_empty_save_as_turns_it_off(tmp_path):
    result = sb.build_site(tmp_path, fixture_files(), DALIL_SEARCH_CHUNKED_SAVE_AS="")
    assert result.returncode == 0, result.log
    assert not result.path("search/index").exists()
    search = BeautifulSoup(result.read("search/index.html"), "html.parser")
    assert search.find(id="live-search")["data-index"] == "https://dalil.test/search-index.json"


@settings(max_examples=500, deadline=None, derandomize=True)
@given(st.lists(st.text(alphabet=" a\u00a0ب\u200f", max_size=6), max_size=6))
def test_all_tokens_are_the_tokens_of_each_text_in_turn(texts):
    from dalil.search.chunked import all_tokens, tokens_of

    assert all_tokens(texts) == [token for text in texts for token in tokens_of(text)]


def test_an_edit_that_keeps_the_vocabulary_changes_only_the_parts_of_that_entry(published,
                                                                                  tmp_path):
    # A new phone: the same tokens and terms, so the same numbers; only the phones' part.
    files = fixture_files()
    files.update(sb.listing("hostile", HOSTILE_NAME, Name_en="  Two  spaces  ",
                            Street="- ، -", city="rabat", Phone="0600 112233"))
    result = sb.build_site(tmp_path, files, DALIL_SEARCH_PART_SIZE=PART_SIZE)
    assert result.returncode == 0, result.log
    head = json.loads(result.read(HEAD))
    assert head == published[1] | {"phone_part": head["phone_part"], "parts": head["parts"]}
    changed = {name for name in head["parts"] if name not in published[2]
               or json.loads(result.read(part_path(name))) != published[2][name]}
    assert changed == {"phones"}


def test_the_spellings_a_query_finds_together_share_a_part():
    # Case, accents, the article and a broken plural apart: one key, one part, whatever
    # the part's size (each token here is held by one entry).
    names = ["Restaurant", "restaurant", "مطعم", "المطعم", "مطاعم", "Café", "cafe", "زيتونة"]
    entries = [{"t": "page", "s": f"p{number}", "n": name, "url": f"/p{number}/"}
               for number, name in enumerate(names)]
    head, _ = chunked(entries, part_size=1)
    part = dict(zip(head["tokens"], numbers(head["token_part"])))
    assert part["Restaurant"] == part["restaurant"] != part["مطعم"]
    assert part["مطعم"] == part["المطعم"] == part["مطاعم"]
    assert part["Café"] == part["cafe"]
    assert len(set(part.values())) == 4


def test_slugs_and_paths_are_in_the_display_part_of_their_position_only():
    entries = [{"t": "page", "s": f"page-{number}", "n": f"w{number % 7}", "url": f"/p{number}/"}
               for number in range(600)]
    head, parts = chunked(entries, part_size=50)
    size, first = head["display_size"], head["display_part"]
    display = head["parts"][first - 1:]
    assert display == [f"d-{n}" for n in range(-(-600 // size))] and len(display) >= 3
    for position, entry in enumerate(entries):
        part = parts[head["parts"][first - 1 + position // size]]
        assert part["slug"].split(" ")[position % size] == entry["s"]
        assert numbers(part["entries"])[0] == position - position % size
    # The parts a query loads hold what ranks; no slug, no path.
    for name in head["parts"][:first - 1]:
        assert "slug" not in parts[name] and "url_exceptions" not in parts[name]
        assert "page-" not in json.dumps(parts[name])
    assert decode(head, parts) == entries


def test_the_index_made_from_the_part_texts_is_the_same_bytes_as_from_the_entries(published):
    # The build keeps the index's part texts, not its entries: each read of them parses
    # the texts again. Listings off their paths' patterns, sharing a default picture (the
    # first before an entry finds the pattern), and a page off its type's pattern: every
    # column of the head and parts.
    index = published[0]
    extra = [{"t": "listing", "s": slug, "n": f"مطعم {slug}", "a": "شارع الحسن الثاني",
              "p": "0522998713", "img": img, "cs": "restaurants", "ls": "rabat",
              "url": f"/directory/listing/{slug}/"}
             for slug, img in (("plain-1", "/images/default.svg"), ("own-1", "/images/own-1.jpg"),
                               ("plain-2", "/images/default.svg"), ("odd-1", "/other/odd.png"))]
    extra.append({"t": "page", "s": "odd-page", "n": "صفحة", "url": "/pages/odd-page.html"})
    entries = index + extra
    texts = [entries_text(entries[start:start + 3]) for start in range(0, len(entries), 3)]
    from_texts = EntriesOfTexts(texts)
    assert list(from_texts) == list(from_texts) == entries

    def files(index):
        return [("head", serialise_chunk(index.head()))] + [
            (name, serialise_chunk(data)) for name, data in index.parts()]

    expected = files(ChunkedIndex(entries, PART_SIZE))
    assert files(ChunkedIndex(from_texts, PART_SIZE)) == expected
    head, parts = json.loads(expected[0][1]), {name: json.loads(text) for name, text in expected}
    assert head["count"] == len(entries) and len(texts) > 5 and len(head["parts"]) > 10
    assert len(head["terms"]["slug"].split(" ")) == 5 and head["terms"]["keywords"]
    assert head["images"] == ["/images/default.svg"] and "phones" in parts
    assert head["img_patterns"][0] == "/images/{slug}.jpg"
    assert parts["d-0"]["img_exceptions"][-1] == [len(entries) - 2, "/other/odd.png"]
    assert parts["d-0"]["url_exceptions"] == [[len(entries) - 1, "/pages/odd-page.html"]]


def test_the_index_refuses_entries_it_could_read_once_only(published):
    with pytest.raises(TypeError, match="twice"):
        ChunkedIndex(iter(published[0]), PART_SIZE)
