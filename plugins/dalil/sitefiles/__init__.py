"""Operational files: build-info.json, security.txt, and header files for common hosts."""

from pelican import signals

from .generator import SiteFilesGenerator


def get_generators(pelican_object):
    return SiteFilesGenerator


def register():
    signals.get_generators.connect(get_generators)
