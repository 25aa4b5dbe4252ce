"""Directory exports: export.json (with its JSON Schema), export.csv, a vCard per listing,
and the importer behind ``invoke import-listings``."""

from pelican import signals

from .generator import ExportsGenerator


def get_generators(pelican_object):
    return ExportsGenerator


def register():
    signals.get_generators.connect(get_generators)
