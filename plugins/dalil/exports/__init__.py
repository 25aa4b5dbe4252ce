"""Directory exports: export.json (with its JSON Schema), export.csv, a vCard per listing,
and the importer behind ``invoke import-listings``."""

from pelican import signals

from dalil.core.output import check_ahead_with

from .generator import ExportsGenerator
from .writers import CARDS_CHECK, stale_cards


def get_generators(pelican_object):
    return ExportsGenerator


def register():
    signals.get_generators.connect(get_generators)
    check_ahead_with(CARDS_CHECK, stale_cards)
