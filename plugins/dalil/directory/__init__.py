"""The directory: listings, categories and cities, their model and their pages."""

from pelican import signals

from .articles import check_article_slugs, check_page_slugs
from .generator import DirectoryGenerator


def get_generators(pelican_object):
    return DirectoryGenerator


def register():
    signals.get_generators.connect(get_generators)
    signals.article_generator_finalized.connect(check_article_slugs)
    signals.page_generator_finalized.connect(check_page_slugs)
