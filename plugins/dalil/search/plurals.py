"""Broken plurals (جمع التكسير) for the search: from Arramooz, an Arabic lexicon for
morphological analysis (the ``arramooz-pysqlite`` package, its nouns table), and the few
Moroccan words it lacks (``plurals.toml``, beside this file).

Light stemming takes suffixes off, which joins صيدلية and صيدليات but never فندق and
فنادق. The head of the search page's index carries the pairs of this table whose singular or plural is a
word of the index, and the search page finds either from the other.
"""

import functools
import re
import sqlite3
import tomllib
import unicodedata
from importlib import resources

# As search-core.js normalises: no tashkeel, tatweel or hamza marks; ة -> ه, ى -> ي.
_MARKS = re.compile("[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0640]")
_FOLDS = str.maketrans({"\u0671": "\u0627", "\u0649": "\u064a", "\u06cc": "\u064a",
                        "\u0629": "\u0647", "\u06a9": "\u0643"})
ARABIC_WORD = re.compile("[\u0621-\u064a]+")
ARTICLE = "\u0627\u0644"
SHORTEST = 3  # letters: a shorter "plural" of the table is a note (ات: a sound plural)


def normalise(text):
    return _MARKS.sub("", unicodedata.normalize("NFKD", text)).translate(_FOLDS)


def _bare(word):
    return word[len(ARTICLE):] if word.startswith(ARTICLE) and len(word) - len(ARTICLE) >= 3 else word


def _supplement():
    """``(singular, plurals)`` rows of ``plurals.toml``, as Arramooz's rows are."""
    table = tomllib.loads((resources.files(__package__) / "plurals.toml").read_text("utf-8"))
    return [(singular, " ".join(plurals)) for singular, plurals in sorted(table.items())]


@functools.cache
def broken_plurals():
    """{normalised singular: its normalised broken plurals}, from Arramooz's nouns and
    ``plurals.toml``."""
    database = resources.files("arramooz") / "data" / "arabicdictionary.sqlite"
    with resources.as_file(database) as path:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = connection.execute("SELECT unvocalized, broken_plural FROM nouns "
                                      "WHERE broken_plural != ''").fetchall()
        finally:
            connection.close()
    table = {}
    for singular, plurals in rows + _supplement():
        singular = normalise(singular)
        # The column lists plurals apart by ; or spaces, with notes (+ات, brackets).
        for plural in ARABIC_WORD.findall(normalise(plurals or "")):
            plural = _bare(plural)
            if len(plural) >= SHORTEST and plural != singular:
                table.setdefault(singular, set()).add(plural)
    return table


def plural_pairs(texts):
    """``[plural, singular]`` of the table whose singular or plural is a word of
    ``texts`` (with or without the article), sorted."""
    words = {_bare(word) for text in texts for word in ARABIC_WORD.findall(normalise(text))}
    return sorted([plural, singular] for singular, plurals in broken_plurals().items()
                  for plural in plurals if singular in words or plural in words)
