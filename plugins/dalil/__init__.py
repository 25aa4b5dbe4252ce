"""Dalil: an Arabic-first business-directory site built with Pelican.

Each capability is a subpackage with its own ``register()``; ``dalil.core`` holds
what they share (settings, text, slugs, dates, URLs, atomic output, templates).
A site uses the whole suite with::

    import dalil
    PLUGINS = dalil.PLUGINS
    THEME = dalil.theme_path()
"""

from pathlib import Path

__version__ = "0.2.0"

# In this order: the directory model comes first, every other plugin reads it.
PLUGINS = (
    "dalil.directory",
    "dalil.pwa",
    "dalil.exports",
    "dalil.search",
    "dalil.sitefiles",
    "dalil.feeds",
    "dalil.sitemaps",
)


def theme_path():
    """The folder of Dalil's default theme, for Pelican's ``THEME`` setting."""
    return str(Path(__file__).resolve().parent / "theme")
