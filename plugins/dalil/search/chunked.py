"""The search page's index in parts: a head with the vocabulary, then parts of entries.

A query needs every word of the vocabulary (prefix ranges, typos, transliteration), and
of the entries only those that may match it. The head holds the raw tokens of every
text, the broken plurals, the categories and cities in full, and which part holds the
entries of each token and of each category and city; a part holds entries, whole
(their texts, category, city, slug, image). The page loads the head, then the parts of
the tokens its query's words match: of the thousands of parts of a large site, a few. A
listing is also in the parts of its category's and city's words (names, keywords), so
that those parts hold every listing a query may find through them.

Normalisation and stemming stay in one place, the browser (``search-core.js``): the
build only splits each text on the ASCII space, a lossless step (``" ".join(tokens)``
gives the text back), and stores every text as numbers into the head's tokens, the most
frequent first. Tokens are grouped into parts by a rough key (``grouping_key``: case,
accents, the article and broken plurals left out) in code-point order, so that the
spellings a query finds together, and words with a common start, share parts; a part
closes between keys at a point set by them (a hash), so that an edit moves the parts it
touches only, and part files are named by their first token. The key only groups: which
part holds a token is in the head, and the page asks for the parts of every token its
query matches.

The integer columns are strings of base-32 digits (``encode_numbers``): the browser
decodes them with one loop into a typed array. Entries are numbered in the order of
``/search-index.json``; page and image paths are a pattern per type and the exceptions to
it. Coordinates are left out: the search does not use them.
"""

import hashlib
import json
import unicodedata
import zlib
from array import array
from collections import Counter

from .index import TYPES
from .plurals import normalise, plural_pairs

HEAD_FORMAT = "dalil-search-head/1"
PART_FORMAT = "dalil-search-part/1"
# The texts of an entry, in this order: each entry has one length per field.
TEXT_FIELDS = ("n", "n_en", "n_fr", "a")
SLUG_FIELD = "{slug}"
# The category and city entries: in the head, whole.
TERM_TYPES = ("category", "location")
TERM_PART_PREFIX = {"category": "category-", "location": "city-"}
PHONES_PART = "phones"
# Digits of encode_numbers: d is chr(LAST + d) as a number's last digit, else chr(MORE + d).
# Both ranges (U+0023-U+0042, U+005D-U+007C) avoid the quote and the backslash: no JSON escapes.
LAST, MORE = 0x23, 0x5D
# A part closes past half its size at a token whose hash ends in these bits, or at its size.
CUT_MASK = 3


def _number_digits(number):
    own = [chr(LAST + (number & 31))]
    number >>= 5
    while number:
        own.append(chr(MORE + (number & 31)))
        number >>= 5
    return "".join(reversed(own))


# number -> its digits, made once up to the largest number seen below _TABLE_LIMIT (token
# numbers run up to the vocabulary's size, and each is written many times).
_DIGITS = []
_TABLE_LIMIT = 1 << 18


def encode_numbers(numbers):
    """Non-negative integers as one string: each in base 32, most significant digit
    first, its last digit from one range of characters and the others from another."""
    numbers = list(numbers)
    top = max(numbers, default=-1)
    if top >= len(_DIGITS):
        _DIGITS.extend(map(_number_digits, range(len(_DIGITS), min(top + 1, _TABLE_LIMIT))))
    if top < len(_DIGITS):
        return "".join(map(_DIGITS.__getitem__, numbers))
    return "".join(_DIGITS[number] if number < _TABLE_LIMIT else _number_digits(number)
                   for number in numbers)


def tokens_of(text):
    """The raw tokens of a text; ``""`` (a field the entry lacks) has none."""
    return text.split(" ") if text else []


def all_tokens(texts):
    """The tokens of each of ``texts`` (``tokens_of``), one after the other: the texts
    joined by a space and split once, the same tokens (a space is what splits them)."""
    joined = " ".join(filter(None, texts))
    return joined.split(" ") if joined else []


def url_patterns(entries, field="url"):
    """Per type, the pattern most of its entries' ``field`` paths follow
    (``/directory/listing/{slug}/``), found from the first entry of that type that has one
    holding its slug; ``""`` for a type without one."""
    patterns = {}
    for entry in entries:
        head, found, tail = entry.get(field, "").rpartition(entry["s"])
        if entry["t"] not in patterns and found:
            patterns[entry["t"]] = head + SLUG_FIELD + tail
    return [patterns.get(kind, "") for kind in TYPES]


def part_name(first_token):
    """A token part's file name: from its first token, so that it stays while that does."""
    return "t-" + hashlib.blake2b(first_token.encode("utf-8"), digest_size=6).hexdigest()


def grouping_key(token, singulars):
    """A token as it is grouped into parts: casefolded, without accents, tashkeel or the
    article, a broken plural as its singular (``singulars``: {plural: singular})."""
    word = "".join(character for character in normalise(token).casefold()
                   if not unicodedata.combining(character))
    if word.startswith("\u0627\u0644") and len(word) >= 5:
        word = word[2:]
    return singulars.get(word, word)


def _texts(entry):
    return [entry.get(field, "") for field in TEXT_FIELDS] + list(entry.get("k", ()))


class ChunkedIndex:
    """The head and parts of ``entries`` (the search index's entries, in its order).
    Holds one digit string per entry and each token's entry numbers; ``head()`` and
    ``parts()`` make the files' data one at a time."""

    def __init__(self, entries, part_size):
        self.entries = entries
        frequency = Counter(all_tokens(text for entry in entries for text in _texts(entry)))
        # The most frequent tokens first: their numbers take one digit.
        self.tokens = sorted(frequency, key=lambda token: (-frequency[token], token))
        del frequency
        token_id = {token: number for number, token in enumerate(self.tokens)}
        self.patterns, self.img_patterns = url_patterns(entries), url_patterns(entries, "img")
        self.type_number = {kind: number for number, kind in enumerate(TYPES)}
        # The categories and cities, in index order: the head's entries.
        self.terms = [number for number, entry in enumerate(entries) if entry["t"] in TERM_TYPES]
        term_slot = {(entries[number]["t"], entries[number]["s"]): slot + 1
                     for slot, number in enumerate(self.terms)}
        self.records, self.postings = [], [array("i") for _ in self.tokens]
        self.members = {slot: array("i") for slot in range(len(self.terms))}
        self.phones = array("i")
        # A listing matches the words of its category's names and keywords and of its
        # city's names too: it is in their tokens' parts, so that a query's tokens' parts
        # hold every listing of the categories and cities it matches.
        term_tokens = [frozenset(token_id[token] for text in _texts(entries[number])[:3]
                                 + list(entries[number].get("k", ())) for token in tokens_of(text))
                       for number in self.terms]
        for number, entry in enumerate(entries):
            lengths, ids = [], []
            for field in TEXT_FIELDS:
                tokens = tokens_of(entry.get(field, ""))
                lengths.append(len(tokens))
                ids.extend(map(token_id.__getitem__, tokens))
            category = term_slot.get(("category", entry.get("cs")), 0)
            city = term_slot.get(("location", entry.get("ls")), 0)
            self.records.append(encode_numbers(
                [self.type_number[entry["t"]], *lengths, *ids, category, city,
                 int(self._img_follows(entry))]))
            if entry["t"] in TERM_TYPES:
                continue
            held = set(ids)
            for slot in {category, city} - {0}:
                held |= term_tokens[slot - 1]
            for token in held:
                self.postings[token].append(number)
            for slot in {category, city} - {0}:
                self.members[slot - 1].append(number)
            if entry.get("p"):
                self.phones.append(number)
        self.token_id = token_id
        self.part_size = part_size
        self.plurals = plural_pairs(self.tokens)
        # What a part's numbers mean: a part of another build is refused by the page.
        self.version = hashlib.blake2b(json.dumps(
            [len(entries), self.terms, self.tokens], ensure_ascii=False).encode("utf-8"),
            digest_size=8).hexdigest()
        self.groups = self._token_groups()

    def _img_follows(self, entry):
        img = entry.get("img", "")
        pattern = self.img_patterns[self.type_number[entry["t"]]]
        return bool(img) and img == pattern.replace(SLUG_FIELD, entry["s"])

    def _token_groups(self):
        """The tokens held by entries outside the head, by grouping key, cut into groups
        of about ``part_size`` entry numbers: [(name, token numbers)]."""
        singulars = {plural: singular for plural, singular in self.plurals}
        keyed = sorted((grouping_key(token, singulars), token) for token in self.tokens
                       if self.postings[self.token_id[token]])
        groups, current, size = [], [], 0
        for at, (key, token) in enumerate(keyed):
            number = self.token_id[token]
            current.append(number)
            size += len(self.postings[number])
            if at + 1 < len(keyed) and keyed[at + 1][0] == key:
                continue  # a key's tokens share a part
            hashed = zlib.crc32(key.encode("utf-8")) & CUT_MASK == 0
            if size >= self.part_size or (hashed and size * 2 >= self.part_size):
                groups.append((part_name(self.tokens[current[0]]), current))
                current, size = [], 0
        if current:
            groups.append((part_name(self.tokens[current[0]]), current))
        return groups

    def part_names(self):
        names = [name for name, _ in self.groups]
        names += [TERM_PART_PREFIX[self.entries[number]["t"]] + self.entries[number]["s"]
                  for slot, number in enumerate(self.terms) if self.members[slot]]
        if self.phones:
            names.append(PHONES_PART)
        return names

    def block(self, numbers, with_keywords=False, with_phones=False):
        """The entries ``numbers`` (ascending) as columns: their numbers (the first, then
        the gaps), their digit records, slugs, exceptions, keywords and phones."""
        entries = self.entries
        gaps = [numbers[0]] + [b - a for a, b in zip(numbers, numbers[1:])] if numbers else []
        url_exceptions, img_exceptions, keywords = [], [], []
        for at, number in enumerate(numbers):
            entry = entries[number]
            if entry["url"] != self.patterns[self.type_number[entry["t"]]].replace(
                    SLUG_FIELD, entry["s"]):
                url_exceptions.append([at, entry["url"]])
            if entry.get("img") and not self._img_follows(entry):
                img_exceptions.append([at, entry["img"]])
            if with_keywords and entry.get("k"):
                keywords.append([at, [[self.token_id[token] for token in tokens_of(keyword)]
                                      for keyword in entry["k"]]])
        block = {"entries": encode_numbers(gaps),
                 "records": "".join(map(self.records.__getitem__, numbers)),
                 # One string: slugs hold no space.
                 "slug": " ".join(entries[number]["s"] for number in numbers),
                 "url_exceptions": url_exceptions, "img_exceptions": img_exceptions}
        if with_keywords:
            block["keywords"] = keywords
        if with_phones:
            block["phone"] = " ".join(entries[number]["p"] for number in numbers)
        return block

    def head(self):
        names = self.part_names()
        place = {name: at + 1 for at, name in enumerate(names)}
        token_part = [0] * len(self.tokens)
        for name, group in self.groups:
            for number in group:
                token_part[number] = place[name]
        term_part = [place.get(TERM_PART_PREFIX[self.entries[number]["t"]]
                               + self.entries[number]["s"], 0) if self.members[slot] else 0
                     for slot, number in enumerate(self.terms)]
        return {
            "format": HEAD_FORMAT,
            "version": self.version,
            "types": list(TYPES),
            "url_patterns": self.patterns,
            "img_patterns": self.img_patterns,
            "text_fields": list(TEXT_FIELDS),
            "count": len(self.entries),
            "tokens": self.tokens,
            "plurals": self.plurals,
            "parts": names,
            "token_part": encode_numbers(token_part),
            "terms": self.block(self.terms, with_keywords=True),
            "term_part": encode_numbers(term_part),
            "term_listings": encode_numbers(len(self.members[slot])
                                            for slot in range(len(self.terms))),
            "phone_part": place.get(PHONES_PART, 0),
        }

    def parts(self):
        """(name, data) of each part, in the head's order, made one at a time."""
        for name, group in self.groups:
            numbers = sorted(set().union(*(self.postings[token] for token in group)))
            yield name, {"format": PART_FORMAT, "version": self.version, **self.block(numbers)}
        for slot, number in enumerate(self.terms):
            if self.members[slot]:
                yield (TERM_PART_PREFIX[self.entries[number]["t"]] + self.entries[number]["s"],
                       {"format": PART_FORMAT, "version": self.version, **self.block(list(self.members[slot]))})
        if self.phones:
            yield PHONES_PART, {"format": PART_FORMAT, "version": self.version,
                                **self.block(list(self.phones), with_phones=True)}


def serialise_chunk(data):
    """Compact UTF-8 JSON, keys in the documented order, no trailing newline."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
