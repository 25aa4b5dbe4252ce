"""The installable, offline-capable site: manifest, service worker, saved, compare, offline."""

from pelican import signals

from .generator import PwaGenerator


def get_generators(pelican_object):
    return PwaGenerator


def register():
    signals.get_generators.connect(get_generators)
