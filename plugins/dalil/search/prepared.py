"""The prepared search index: the search index's searchable text as flat integer columns.

The search page's worker loads this file instead of ``/search-index.json``, so that it
parses a few integer arrays rather than an object per entry. Normalisation and stemming
stay in one place, the browser (``search-core.js``): the build only splits each text on
the ASCII space, a lossless step (``" ".join(tokens)`` gives the text back), and stores
every text as ids into one vocabulary of those raw tokens, the most frequent first.

The big integer columns are strings of base-32 digits (``encode_numbers``): the browser
decodes them with one loop into a typed array, where a JSON array of a million numbers
would cost a parse into a million-element array and its garbage collection.

Entries keep the order of ``/search-index.json``. Page and image paths are a pattern per
type and the exceptions to it. Coordinates are left out: the search
does not use them, and "near me" reads the full index when asked.
"""

import json
from collections import Counter

from .index import TYPES
from .plurals import plural_pairs

FORMAT = "dalil-search-prepared/1"
PHONES_FORMAT = "dalil-search-phones/1"
# The texts of an entry, in this order: each entry has one length per field.
TEXT_FIELDS = ("n", "n_en", "n_fr", "a")
SLUG_FIELD = "{slug}"
# Digits of encode_numbers: d is chr(LAST + d) as a number's last digit, else chr(MORE + d).
# Both ranges (U+0023-U+0042, U+005D-U+007C) avoid the quote and the backslash: no JSON escapes.
LAST, MORE = 0x23, 0x5D


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


def all_tokens(texts):
    """The tokens of each of ``texts`` (``tokens_of``), one after the other: the texts
    joined by a space and split once, the same tokens (a space is what splits them)."""
    joined = " ".join(filter(None, texts))
    return joined.split(" ") if joined else []


def prepared_index(entries):
    """The prepared index of ``entries`` (the search index's entries, in its order)."""
    # The most frequent tokens first: their numbers take one digit.
    frequency = Counter(all_tokens(text for entry in entries for text in _texts(entry)))
    vocabulary = sorted(frequency, key=lambda token: (-frequency[token], token))
    token_id = {token: number for number, token in enumerate(vocabulary)}
    # A listing's category and city: 1 + their number among the entries of their type.
    term_number = {}
    for kind in ("category", "location"):
        term_number.update({(kind, entry["s"]): number + 1 for number, entry in
                            enumerate(entry for entry in entries if entry["t"] == kind)})
    patterns, img_patterns = url_patterns(entries), url_patterns(entries, "img")
    type_number = {kind: number for number, kind in enumerate(TYPES)}
    # Each entry's texts, field by field: their lengths in tokens, then all their tokens.
    texts = [entry.get(field, "") for entry in entries for field in TEXT_FIELDS]
    lengths = [text.count(" ") + 1 if text else 0 for text in texts]
    text_tokens = list(map(token_id.__getitem__, all_tokens(texts)))
    url_exceptions, keywords, img_follows, img_exceptions = [], [], [], []
    for number, entry in enumerate(entries):
        pattern = patterns[type_number[entry["t"]]]
        if entry["url"] != pattern.replace(SLUG_FIELD, entry["s"]):
            url_exceptions.append([number, entry["url"]])
        img = entry.get("img", "")
        img_follows.append(int(bool(img) and img == img_patterns[type_number[entry["t"]]]
                               .replace(SLUG_FIELD, entry["s"])))
        if img and not img_follows[-1]:
            img_exceptions.append([number, img])
        if entry.get("k"):
            keywords.append([number, [[token_id[token] for token in tokens_of(keyword)]
                                      for keyword in entry["k"]]])
    return {
        "format": FORMAT,
        "types": list(TYPES),
        "url_patterns": patterns,
        "text_fields": list(TEXT_FIELDS),
        "tokens": vocabulary,
        "type": encode_numbers(type_number[entry["t"]] for entry in entries),
        # One string: slugs hold no space, and the browser cuts out only the ones it shows.
        "slug": " ".join(entry["s"] for entry in entries),
        "text_lengths": encode_numbers(lengths),
        "text_tokens": encode_numbers(text_tokens),
        "category": encode_numbers(term_number.get(("category", entry.get("cs")), 0)
                                   for entry in entries),
        "city": encode_numbers(term_number.get(("location", entry.get("ls")), 0)
                               for entry in entries),
        "img": encode_numbers(img_follows),
        "url_exceptions": url_exceptions,
        "img_patterns": img_patterns,
        "img_exceptions": img_exceptions,
        "keywords": keywords,
        "plurals": plural_pairs(vocabulary),
    }


def prepared_phones(entries):
    """The phones (p) of the prepared index's entries, in its order: a file of its own,
    fetched once the first results are shown (phone digits hardly compress)."""
    # Like slug: a phone holds no space; an entry without one has "".
    return {"format": PHONES_FORMAT, "phone": " ".join(entry.get("p", "") for entry in entries)}


def _texts(entry):
    return [entry.get(field, "") for field in TEXT_FIELDS] + list(entry.get("k", ()))


def serialise_prepared(prepared):
    """Compact UTF-8 JSON, keys in the documented order, no trailing newline."""
    return json.dumps(prepared, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
