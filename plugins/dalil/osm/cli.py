"""``dalil-import-osm FILE [--site DIR] [--bbox W,S,E,N] [--map MAPPING.toml] [--city NAME]
[--dry-run] [--hide-gone]``."""

import argparse
import sys

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from dalil.directory.sourcefiles import ImportFailed

from .importer import import_osm, parse_bbox
from .mapping import load_mapping


def parser():
    arguments = argparse.ArgumentParser(
        prog="dalil-import-osm",
        description="Write listings (and the categories and cities they need) from an "
                    "OpenStreetMap file (.osm.pbf, .osm, .osm.bz2) into a Dalil site; run it "
                    "again with a newer file to update the listings nobody has edited.")
    arguments.add_argument("file", help="the OpenStreetMap file")
    arguments.add_argument("--site", default=".", help="the site's folder (with pelicanconf.py)")
    arguments.add_argument("--bbox", help="only objects inside W,S,E,N (degrees)")
    arguments.add_argument("--map", dest="mapping", help="a TOML file of tags and categories "
                           "that overrides or extends the default table")
    arguments.add_argument("--city", default="", help="the city of objects without addr:city")
    arguments.add_argument("--dry-run", action="store_true",
                           help="print the report, write nothing")
    arguments.add_argument("--hide-gone", action="store_true",
                           help="mark listings no longer in the file Status: hidden")
    return arguments


def run(argv=None):
    """Exit status: 0, or 2 when the file, the mapping or the site cannot be read."""
    options = parser().parse_args(argv)
    console = Console(stderr=True)
    try:
        mapping = load_mapping(options.mapping)
        bbox = parse_bbox(options.bbox) if options.bbox else None
        with Progress(SpinnerColumn(), TextColumn("{task.description}: {task.completed:,} objects"),
                      TimeElapsedColumn(), console=console, transient=True,
                      disable=not console.is_terminal) as progress:
            task = progress.add_task("Reading " + options.file, total=None)
            report = import_osm(options.file, options.site, bbox, mapping, options.city,
                                options.dry_run, options.hide_gone,
                                on_object=lambda: progress.advance(task))
    except ImportFailed as error:
        print(f"dalil-import-osm: {error}", file=sys.stderr)
        return 2
    for line in report.lines():
        print(line)
    return 0


def main():
    sys.exit(run())
