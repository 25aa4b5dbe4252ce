"""``dalil-import-osm``: listings from an OpenStreetMap extract, kept in step with it.

Not a Pelican plugin: a command that writes content sources (listings and the categories
and cities they need) from ``.osm.pbf``, ``.osm`` or ``.osm.bz2`` files read with pyosmium.
It imports ``dalil.core`` and ``dalil.directory`` only.
"""
