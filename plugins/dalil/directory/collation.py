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

LEVELS = 4


class WordCollator:
    def __init__(self):
        self._collator = Collator()
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
