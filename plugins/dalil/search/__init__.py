"""Search and discovery: the combined search index, OpenSearch, live search, random discovery."""

from pelican import signals

from .generator import SearchGenerator


def get_generators(pelican_object):
    return SearchGenerator


def register():
    signals.get_generators.connect(get_generators)
