"""Sitemaps: the sitemap index and its sub-sitemaps, the news sitemap, the HTML sitemap
and robots.txt (kept here, beside the sitemaps it names)."""

from pelican import signals

from .generator import SitemapsGenerator


def get_generators(pelican_object):
    return SitemapsGenerator


def register():
    signals.get_generators.connect(get_generators)
