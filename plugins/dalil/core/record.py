"""The output folder holds exactly what the last build produced.

A successful build lists every file it produced (pages, data files, vCards, precompressed
copies, the content's and the theme's static files) in ``RECORD_NAME``, a dot file in the
output folder: it travels with the output (a staged build's rename, a copy), a cleaned
cache does not lose it, and no host serves or uploads a dot file. The build then removes
each file the previous build's list names that this one did not produce (a removed
listing's page and vCard, a removed category's pages, a removed news item), and the
folders those removals left empty. A file no build listed, put there by hand, is never
touched; a build that failed changes neither the list nor the files it names.
"""

import itertools
import json
import logging
import operator
import os
import re
import stat

from .files import write_if_changed
from .output import UnsafeOutputPath

logger = logging.getLogger(__name__)

RECORD_NAME = ".dalil-output-files.json"
# In a site of several languages, each language after the first keeps its own record
# (its build follows the first's, in the same folder): ".dalil-output-files.fr.json".
_LANGUAGE_RECORD = re.compile(r"\.dalil-output-files\.([a-z]{2,3})\.json")
# A list written by another version of the format is not trusted with a removal.
RECORD_FORMAT = "dalil-output-files/1"


def record_name(language_path=""):
    """The record of the build of the language whose folder is ``language_path``."""
    return f".dalil-output-files.{language_path.strip('/')}.json" if language_path else RECORD_NAME


def is_record(name):
    """Whether the file ``name`` (of the output folder) is a build's record."""
    return name == RECORD_NAME or _LANGUAGE_RECORD.fullmatch(name) is not None


def _relpaths(paths, root):
    """``paths`` (absolute, below ``root``) relative to ``root``, by slicing when they all
    start with it (100,000 pages at 100,000 listings)."""
    prefix = os.path.join(os.path.abspath(root), "")
    if all(path.startswith(prefix) for path in paths):
        return [path[len(prefix):] for path in paths]
    return [os.path.relpath(path, root) for path in paths]


def produced_files(files, writer, staticfiles=()):
    """The relpaths (``/``-separated) of every file this build produced: what ``files``
    (the build's ``OutputFiles``, its forked writers joined) wrote, kept or copied, what
    Dalil's ``writer`` wrote, kept or was told of (``DalilWriter.written_paths``), and the
    content's static files (``staticfiles``, Pelican's ``Static`` objects)."""
    produced = set(_relpaths(list(files.written), files.root))
    produced.update(_relpaths(list(files.copied), files.root))
    produced.update(_relpaths(list(writer.written_paths()), writer.output_path))
    produced.update(static.save_as for static in staticfiles if static.save_as)
    if os.sep != "/":
        produced = {relpath.replace(os.sep, "/") for relpath in produced}
    return {relpath for relpath in produced if not is_record(relpath)}


def previous_record(root, name=RECORD_NAME):
    """The relpaths the last build's record ``name`` names, or an empty list when there
    is none (a first build, an output folder made before records) or it is not ours."""
    try:
        with open(os.path.join(root, name), encoding="utf-8") as handle:
            record = json.load(handle)
    except (OSError, ValueError):
        return []
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        return []
    relpaths = record.get("files")
    if not isinstance(relpaths, list):
        return []
    return [relpath for relpath in relpaths if isinstance(relpath, str)]


def _remove(files, relpath):
    """Remove the file (or link) at ``relpath`` below the output folder: its path, or None
    when nothing was removed. A path that leads out of the output folder, through ``..``
    or a link, is left alone."""
    try:
        target = files.path_for(relpath)
    except UnsafeOutputPath:
        return None
    folder = os.path.realpath(os.path.dirname(target))
    if folder != files.root and not folder.startswith(files.root.rstrip(os.sep) + os.sep):
        return None
    try:
        if stat.S_ISDIR(os.lstat(target).st_mode):
            return None
        os.unlink(target)
    except OSError:  # gone already
        return None
    return target


def _remove_empty_folders(root, removed):
    """Remove the folders of ``removed`` (absolute paths) that they left empty, up to
    ``root``: a folder with anything else in it stays, and so does every folder above it."""
    folders = {os.path.dirname(path) for path in removed}
    root = root.rstrip(os.sep)
    # Deepest first: a folder is empty only once the folders in it are gone.
    for folder in sorted(folders, key=lambda path: path.count(os.sep), reverse=True):
        while folder != root and folder.startswith(root + os.sep):
            try:
                os.rmdir(folder)
            except OSError:  # not empty (or gone): nor is any folder above it ours to remove
                break
            folder = os.path.dirname(folder)


def retire_leftovers(files, writer, staticfiles=(), name=RECORD_NAME, languages=None):
    """At the end of a successful build: remove what the last build's record ``name``
    names and this build did not produce (``produced_files``), then record this build's
    files. The first language's build (``languages``: the folders of the others) also
    retires the pages of a language the site no longer has, and their record. The number
    of files removed."""
    produced = produced_files(files, writer, staticfiles)
    previous = previous_record(files.root, name)
    dropped = [] if languages is None else [
        entry for entry in sorted(os.listdir(files.root))
        if (match := _LANGUAGE_RECORD.fullmatch(entry)) and f"{match[1]}/" not in languages]
    leftovers = [relpath for relpath in previous if relpath not in produced]
    leftovers += [relpath for record in dropped for relpath in previous_record(files.root, record)
                  if relpath not in produced]
    removed = [target for relpath in leftovers if (target := _remove(files, relpath)) is not None]
    _remove_empty_folders(files.root, removed)
    if removed:
        logger.info("dalil: removed %d file(s) that the last build wrote and this one did not",
                    len(removed))
    # Mostly the same files as the last build (an edit): the record stands as it is, and
    # is neither sorted nor written again (30 ms at 10,000 listings). Same only if the
    # last record was ours, sorted without a repeat.
    if (leftovers or len(previous) != len(produced)
            or not all(map(operator.lt, previous, itertools.islice(previous, 1, None)))):
        record = json.dumps({"format": RECORD_FORMAT, "files": sorted(produced)},
                            ensure_ascii=True)
        write_if_changed(os.path.join(files.root, name), record.encode("ascii"))
    for record in dropped:
        os.remove(os.path.join(files.root, record))
    return len(removed)
