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

HEAD_FORMAT = "dalil-search-head/2"
PART_FORMAT = "dalil-search-part/2"
# The texts of an entry, in this order: each entry has one length per field.
TEXT_FIELDS = ("n", "n_en", "n_fr", "a")
SLUG_FIELD = "{slug}"
# The category and city entries: in the head, whole.
TERM_TYPES = ("category", "location")
TERM_PART_PREFIX = {"category": "category-", "location": "city-"}
PHONES_PART = "phones"
# Entries per display part (slugs and path exceptions, by index position): a result list
# of 20 needs at most 20 of them, a few kilobytes each.
DISPLAY_SIZE = 256
DISPLAY_PART_PREFIX = "d-"
NAME_PART_PREFIX, ADDRESS_PART_PREFIX = "t-", "a-"
# Digits of encode_numbers: d is chr(LAST + d) as a number's last digit, else chr(MORE + d).
# Both ranges (U+0023-U+0042, U+005D-U+007C) avoid the quote and the backslash: no JSON escapes.
LAST, MORE = 0x23, 0x5D
# Texts whose tokens are counted at once: a Counter update per entry costs a fifth more.
TEXTS_PER_COUNT = 4096
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


def part_name(prefix, first_token):
    """A token part's file name: from its first token, so that it stays while that does."""
    return prefix + hashlib.blake2b(first_token.encode("utf-8"), digest_size=6).hexdigest()


def display_part_name(index):
    """The file name of the ``index``-th display part (entries from ``index * DISPLAY_SIZE``)."""
    return f"{DISPLAY_PART_PREFIX}{index}"


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


class EntriesOfTexts:
    """The search index's entries from the texts of its parts (``entries_text``: their
    JSON objects joined by commas, UTF-8), in order, each time it is iterated: a part's
    text is parsed when its entries are reached, so that one part's entries are in
    memory at a time rather than every entry (1.2 GB at 1,000,000 listings)."""

    def __init__(self, texts):
        self.texts = texts

    def __iter__(self):
        for text in self.texts:
            yield from json.loads(b"[" + text + b"]")


class ChunkedIndex:
    """The head and parts of ``entries`` (the search index's entries, in its order: a
    list, or an iterable that gives them again each time, as ``EntriesOfTexts``; read
    twice). Each entry's pieces (its digit record, slug, exceptions, phone) are made once,
    here, and then the entries are let go: a part joins the pieces of its entries.
    ``head()`` and ``parts()`` make the files' data one at a time."""

    def __init__(self, entries, part_size):
        if iter(entries) is entries:
            # An iterator would give nothing the second time: an index without records.
            raise TypeError("ChunkedIndex reads its entries twice: not an iterator")
        frequency, term_entries = self._survey(entries)
        # The most frequent tokens first: their numbers take one digit.
        self.tokens = sorted(frequency, key=lambda token: (-frequency[token], token))
        del frequency
        self.token_id = token_id = {token: number for number, token in enumerate(self.tokens)}
        encode_numbers([len(self.tokens)])  # every token's digits made once, in the table
        token_digits = {token: encode_numbers([number]) for token, number in token_id.items()}
        image_code = {path: number + 2 for number, path in enumerate(self.images)}
        type_number = {kind: number for number, kind in enumerate(TYPES)}
        # The categories and cities, in index order: the head's entries.
        self.terms = [number for number, _ in term_entries]
        self.term_names = [TERM_PART_PREFIX[entry["t"]] + entry["s"] for _, entry in term_entries]
        self.term_keywords = {slot: [[token_id[token] for token in tokens_of(keyword)]
                                     for keyword in entry["k"]]
                              for slot, (_, entry) in enumerate(term_entries) if entry.get("k")}
        term_slot = {kind: {entry["s"]: slot + 1 for slot, (_, entry)
                            in enumerate(term_entries) if entry["t"] == kind}
                     for kind in TERM_TYPES}
        category_slot, city_slot = term_slot["category"], term_slot["location"]
        # Per type, its paths' pattern as (before the slug, after it).
        url_around = [pattern.partition(SLUG_FIELD)[::2] for pattern in self.patterns]
        img_around = [pattern.partition(SLUG_FIELD)[::2] if pattern else None
                      for pattern in self.img_patterns]
        self.records, self.slugs = [], []
        self.url_exceptions, self.img_exceptions, self.phones = {}, {}, {}
        # Entries by token: in a name (n, n_en, n_fr), and in the address.
        self.name_postings = [array("i") for _ in self.tokens]
        self.address_postings = [array("i") for _ in self.tokens]
        self.members = [array("i") for _ in self.terms]
        # Small numbers' digits, looked up: the table holds up to every token's number.
        small = _DIGITS.__getitem__ if len(_DIGITS) > max(len(self.terms), 64) else None
        digit_of = token_digits.__getitem__
        for number, entry in enumerate(entries):
            kind, slug, get = entry["t"], entry["s"], entry.get
            texts = [text.split(" ") if text else [] for text in
                     map(get, TEXT_FIELDS)]
            type_number_of = type_number[kind]
            img = get("img")
            around = img_around[type_number_of]
            if not img:
                img_code = 0
            elif around and img == around[0] + slug + around[1]:
                img_code = 1
            else:
                img_code = image_code.get(img, 0)
                if not img_code:
                    self.img_exceptions[number] = img
            category, city = category_slot.get(get("cs"), 0), city_slot.get(get("ls"), 0)
            head = [type_number_of, *map(len, texts)]
            tail = [category, city, img_code]
            try:
                head, tail = "".join(map(small, head)), "".join(map(small, tail))
            except (IndexError, TypeError):  # a long text, or a small table: computed
                head, tail = encode_numbers(head), encode_numbers(tail)
            self.records.append(head + "".join(map(digit_of, texts[0] + texts[1] + texts[2]
                                                   + texts[3])) + tail)
            self.slugs.append(slug)
            around = url_around[type_number_of]
            if entry["url"] != around[0] + slug + around[1]:
                self.url_exceptions[number] = entry["url"]
            if kind in TERM_TYPES:
                continue
            # A listing is found through its category's and city's words too: the page
            # loads that category's or city's part for them (term_part).
            for token in {token for tokens in texts[:3] for token in tokens}:
                self.name_postings[token_id[token]].append(number)
            for token in set(texts[3]):
                self.address_postings[token_id[token]].append(number)
            for slot in {category, city} - {0}:
                self.members[slot - 1].append(number)
            if entry.get("p"):
                self.phones[number] = entry["p"]
        self.part_size = part_size
        self.plurals = plural_pairs(self.tokens)
        # What a part's numbers mean: a part of another build is refused by the page.
        self.version = hashlib.blake2b(json.dumps(
            [self.count, self.terms, self.tokens, self.images], ensure_ascii=False).encode("utf-8"),
            digest_size=8).hexdigest()
        # A query of one letter matches names only: it loads name parts alone.
        singulars = {plural: singular for plural, singular in self.plurals}
        keys = {token: grouping_key(token, singulars) for token in self.tokens}
        self.name_groups = self._token_groups(self.name_postings, keys, NAME_PART_PREFIX)
        self.address_groups = self._token_groups(self.address_postings, keys,
                                                 ADDRESS_PART_PREFIX)

    def _survey(self, entries):
        """The first reading of ``entries``: sets ``count``, the path patterns and the
        shared images; returns the tokens' frequencies and ``(number, entry)`` of each
        category and city (a few: kept whole)."""
        frequency, off_pattern, term_entries = Counter(), Counter(), []
        uncounted = []  # texts whose tokens are not in ``frequency`` yet
        # Per field, {type: the pattern its paths follow}: found from the first entry of
        # that type whose path holds its slug (``/directory/listing/{slug}/``).
        found = {"url": {}, "img": {}}
        count = 0
        for count, entry in enumerate(entries, 1):
            kind, slug = entry["t"], entry["s"]
            uncounted += _texts(entry)
            if len(uncounted) >= TEXTS_PER_COUNT:
                frequency.update(all_tokens(uncounted))
                uncounted.clear()
            for field, patterns in found.items():
                if kind not in patterns:
                    before, holds, after = entry.get(field, "").rpartition(slug)
                    if holds:
                        patterns[kind] = before + SLUG_FIELD + after
            # Until an entry of its type finds the pattern, an image is off it: one that
            # held its slug would have found it.
            img = entry.get("img")
            if img and img != found["img"].get(kind, "").replace(SLUG_FIELD, slug):
                off_pattern[img] += 1
            if kind in TERM_TYPES:
                term_entries.append((count - 1, entry))
        frequency.update(all_tokens(uncounted))
        self.count = count
        self.patterns, self.img_patterns = ([patterns.get(kind, "") for kind in TYPES]
                                            for patterns in found.values())
        # The image paths several entries share off their type's pattern (a default
        # picture), sorted: a record names one by a number rather than each part repeating it.
        self.images = sorted(path for path, uses in off_pattern.items() if uses > 1)
        return frequency, term_entries

    def _token_groups(self, postings, keys, prefix):
        """The tokens of ``postings`` (entries by token), by grouping key (``keys``),
        cut into groups of about ``part_size`` entry numbers: [(name, postings, token
        numbers)]."""
        keyed = sorted((keys[token], token) for token in self.tokens
                       if postings[self.token_id[token]])
        groups, current, size = [], [], 0
        for at, (key, token) in enumerate(keyed):
            number = self.token_id[token]
            current.append(number)
            size += len(postings[number])
            if at + 1 < len(keyed) and keyed[at + 1][0] == key:
                continue  # a key's tokens share a part
            hashed = zlib.crc32(key.encode("utf-8")) & CUT_MASK == 0
            if size >= self.part_size or (hashed and size * 2 >= self.part_size):
                groups.append((part_name(prefix, self.tokens[current[0]]), postings, current))
                current, size = [], 0
        if current:
            groups.append((part_name(prefix, self.tokens[current[0]]), postings, current))
        return groups

    def part_names(self):
        names = [name for name, _, _ in self.name_groups + self.address_groups]
        names += [name for slot, name in enumerate(self.term_names) if self.members[slot]]
        if self.phones:
            names.append(PHONES_PART)
        names += [name for name, _ in self._display_parts()]
        return names

    def _display_parts(self):
        """``(name, entry numbers)`` of each display part, in index order."""
        return [(display_part_name(index), range(start, min(start + DISPLAY_SIZE, self.count)))
                for index, start in enumerate(range(0, self.count, DISPLAY_SIZE))]

    def block(self, numbers, records=True, display=True, with_keywords=False,
              with_phones=False):
        """The entries ``numbers`` (ascending) as columns: their numbers (the first, then
        the gaps), their digit ``records``, their ``display`` (slugs and path
        exceptions), keywords and phones."""
        gaps = [numbers[0]] + [b - a for a, b in zip(numbers, numbers[1:])] if numbers else []
        block = {"entries": encode_numbers(gaps)}
        if records:
            block["records"] = "".join(map(self.records.__getitem__, numbers))
        if display:
            # One string: slugs hold no space.
            block["slug"] = " ".join(map(self.slugs.__getitem__, numbers))
            block["url_exceptions"] = _exceptions(numbers, self.url_exceptions)
            block["img_exceptions"] = _exceptions(numbers, self.img_exceptions)
        if with_keywords:
            block["keywords"] = [[at, self.term_keywords[slot]] for at, slot in
                                 enumerate(map(self.terms.index, numbers))
                                 if slot in self.term_keywords]
        if with_phones:
            block["phone"] = " ".join(map(self.phones.__getitem__, numbers))
        return block

    def head(self):
        names = self.part_names()
        place = {name: at + 1 for at, name in enumerate(names)}
        token_part, address_part = [0] * len(self.tokens), [0] * len(self.tokens)
        for column, groups in ((token_part, self.name_groups),
                               (address_part, self.address_groups)):
            for name, _, group in groups:
                for number in group:
                    column[number] = place[name]
        term_part = [place[name] if self.members[slot] else 0
                     for slot, name in enumerate(self.term_names)]
        return {
            "format": HEAD_FORMAT,
            "version": self.version,
            "types": list(TYPES),
            "url_patterns": self.patterns,
            "img_patterns": self.img_patterns,
            "images": self.images,
            "text_fields": list(TEXT_FIELDS),
            "count": self.count,
            "tokens": self.tokens,
            "plurals": self.plurals,
            "parts": names,
            "token_part": encode_numbers(token_part),
            "address_part": encode_numbers(address_part),
            "terms": self.block(self.terms, with_keywords=True),
            "term_part": encode_numbers(term_part),
            "term_listings": encode_numbers(map(len, self.members)),
            "phone_part": place.get(PHONES_PART, 0),
            "display_size": DISPLAY_SIZE,
            "display_part": place.get(display_part_name(0), 0),
        }

    def parts(self):
        """(name, data) of each part, in the head's order, made one at a time."""
        part = {"format": PART_FORMAT, "version": self.version}
        for name, postings, group in self.name_groups + self.address_groups:
            numbers = sorted(set().union(*map(postings.__getitem__, group)))
            yield name, {**part, **self.block(numbers, display=False)}
        for slot, name in enumerate(self.term_names):
            if self.members[slot]:
                yield name, {**part, **self.block(self.members[slot].tolist(), display=False)}
        if self.phones:
            yield PHONES_PART, {**part, **self.block(list(self.phones), display=False,
                                                     with_phones=True)}
        # Shown results only need these: they are fetched for the results on the page.
        for name, numbers in self._display_parts():
            yield name, {**part, **self.block(list(numbers), records=False)}


def _exceptions(numbers, exceptions):
    """[position in ``numbers``, value] of those of ``numbers`` that ``exceptions`` has."""
    if not exceptions:
        return []
    return [[at, exceptions[number]] for at, number in enumerate(numbers) if number in exceptions]


def serialise_chunk(data):
    """Compact UTF-8 JSON, keys in the documented order, no trailing newline."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
