"""News feeds: RSS 2.0 through Pelican's own feed writer, and JSON Feed 1.1."""

from pelican import signals

from .generator import FeedsGenerator
from .rss import finish_feed


def get_generators(pelican_object):
    return FeedsGenerator


def register():
    signals.get_generators.connect(get_generators)
    signals.feed_generated.connect(finish_feed)
