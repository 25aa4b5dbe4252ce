"""Dalil: an Arabic-first business-directory site built with Pelican.

Each capability is a subpackage with its own ``register()``; ``dalil.core`` holds
what they share (settings, text, slugs, dates, URLs, atomic output, templates).
"""
