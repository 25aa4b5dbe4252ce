"""Formula neutralisation for CSV cells, and its exact inverse for the importer.

A spreadsheet runs a cell as a formula when it starts with ``=``, ``@``, ``+`` or
``-`` (tab and carriage return can hide such a start). Such a cell gets a leading
apostrophe, which spreadsheets show as text. Phone numbers (``+``, maybe ``(``, a
digit, then only digits, spaces and ``( ) . / -``) are left alone: they hold no
letters, so no function or cell reference, and stay readable. A cell that already starts with apostrophes
followed by a formula start gets one more, so that ``unguard_cell`` undoes
``guard_cell`` exactly.
"""

import re

GUARD = "'"
_FORMULA_STARTS = ("=", "@", "\t", "\r")
_SIGNS = ("+", "-")
_RISKY_FIRST = frozenset("".join((*_FORMULA_STARTS, *_SIGNS, GUARD)))
# The build's phone rule (dalil.directory.validate) for a number written with "+".
_PHONE = re.compile(r"\+\(?[0-9][0-9 ()./-]*")


def _runs_as_formula(value):
    if value.startswith(_FORMULA_STARTS):
        return True
    return value.startswith(_SIGNS) and not _PHONE.fullmatch(value)


def guard_cell(value):
    """``value`` as a CSV cell that no spreadsheet runs as a formula."""
    if not value or value[0] not in _RISKY_FIRST:  # most cells: their first character says
        return value
    return GUARD + value if _runs_as_formula(value.lstrip(GUARD)) else value


def unguard_cell(value):
    """The value ``guard_cell`` was given."""
    if value.startswith(GUARD) and _runs_as_formula(value[1:].lstrip(GUARD)):
        return value[1:]
    return value
