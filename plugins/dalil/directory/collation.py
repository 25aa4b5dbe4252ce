"""Unicode collation keys of names, made word by word.

pyuca's ``Collator.sort_key`` walks its table character by character: a quarter of
reading a listing. Names share their words (مطعم, صيدلية, the names of cities), and a
name's collation elements are its words' and spaces' elements one after the other: no
entry of the table joins a space to another character, and a space is a starter, so
no contraction, discontiguous or not, crosses it (a test checks both on pyuca's
table and on random names). So each word's elements are looked up once, split by
level, and a name's key is its words' levels joined, as ``sort_key`` joins them.
"""

import unicodedata

from pyuca import Collator
from pyuca.collator import COLL_ELEMENT_PATTERN
from pyuca.trie import Trie
from pyuca.utils import hexstrings2int

LEVELS = 4


class _TableByCharacter:
    """pyuca's table, a ``Trie`` given a character's entries the first time a lookup
    starts with that character: every entry a lookup can match starts with its first
    character. Parsing the whole table was 0.17 CPU-s of each cold build, for the few
    dozen characters names use."""

    def __init__(self, entries):
        self._trie = Trie()
        self._entries = entries  # first code point -> its entries' lines, not parsed yet

    def find_prefix(self, key):
        for line in self._entries.pop(key[0], ()) if key else ():
            # As pyuca's Collator.load parses a line.
            characters, elements = line.split(";", 1)
            self._trie.add(hexstrings2int(characters.split()),
                           [hexstrings2int(element.groups())
                            for element in COLL_ELEMENT_PATTERN.finditer(elements.strip())])
        return self._trie.find_prefix(key)


class _TableOnDemand(Collator):
    """pyuca's default collator, its table parsed a character at a time as it is used."""

    def load(self, filename):
        entries = {}
        with open(filename, encoding="ascii") as keys_file:
            for line in keys_file:
                line = line.split("#", 1)[0].rstrip()
                if not line or line.startswith("@version"):
                    continue
                if line.startswith("@implicitweights"):
                    character_range, base = line[len("@implicitweights"):].split(";")
                    start, end = character_range.split("..")
                    self.implicit_weights.append([int(start, 16), int(end, 16), int(base, 16)])
                    continue
                first = int(line.split(";", 1)[0].split(None, 1)[0], 16)
                entries.setdefault(first, []).append(line)
        self.table = _TableByCharacter(entries)


class WordCollator:
    def __init__(self):
        self._collator = _TableOnDemand()
        self._words = {}  # word or " " -> its weights, one list per level

    def _levels(self, word):
        levels = self._words.get(word)
        if levels is None:
            elements = self._collator.collation_elements(word)
            levels = tuple([element[level] for element in elements
                            if len(element) > level and element[level]]
                           for level in range(LEVELS))
            self._words[word] = levels
        return levels

    def sort_key(self, string):
        """What ``pyuca.Collator().sort_key(string)`` gives."""
        parts = [[] for _ in range(LEVELS)]
        for index, word in enumerate(unicodedata.normalize("NFD", string).split(" ")):
            pieces = (self._levels(" "), self._levels(word)) if index else (self._levels(word),)
            for levels in pieces:
                for level in range(LEVELS):
                    parts[level] += levels[level]
        key = parts[0]
        for level in range(1, LEVELS):
            key += [0]  # level separator
            key += parts[level]
        return tuple(key)
