"""Copy the theme's static files only when their bytes changed.

Pelican copies every theme file on every build, which gives each one a new mtime
(so rsync and S3 would upload them all). This keeps Pelican's paths and ignore
rules and skips a file whose copy already holds the same bytes.
"""

import filecmp
import fnmatch
import os
import shutil
import types

from .output import output_files


def _ignored(name, ignores):
    return any(fnmatch.fnmatch(name, pattern) for pattern in ignores)


def copy_if_changed(source, destination, ignores=()):
    """``pelican.utils.copy`` for a file or a folder, leaving identical files alone: the
    paths of the copies, whether copied or left alone."""
    source, destination = os.path.abspath(source), os.path.abspath(destination)
    if _ignored(os.path.basename(source), ignores):
        return []
    if os.path.isfile(source):
        pairs = [(source, destination)]
    elif os.path.isdir(source):
        pairs = []
        for folder, subfolders, names in os.walk(source, followlinks=True):
            subfolders[:] = [name for name in subfolders if not _ignored(name, ignores)]
            target = os.path.join(destination, os.path.relpath(folder, source))
            pairs += [(os.path.join(folder, name), os.path.join(target, name))
                      for name in names if not _ignored(name, ignores)]
    else:
        return []
    for from_path, to_path in pairs:
        if os.path.isfile(to_path) and filecmp.cmp(from_path, to_path, shallow=False):
            continue
        os.makedirs(os.path.dirname(to_path), exist_ok=True)
        shutil.copyfile(from_path, to_path)
    return [to_path for _, to_path in pairs]


def _copy_paths(self, paths, source, destination, output_path, final_path=None):
    """``StaticGenerator._copy_paths`` with ``copy_if_changed``."""
    for path in paths:
        source_path = os.path.join(source, path)
        if final_path:
            tail = os.path.basename(path) if os.path.isfile(source_path) else ""
            destination_path = os.path.join(output_path, destination, final_path, tail)
        else:
            destination_path = os.path.join(output_path, destination, path)
        output_files(self.context).note_copies(copy_if_changed(
            source_path, destination_path.rstrip(os.sep), self.settings["IGNORE_FILES"]))


def keep_unchanged_static(static_generator):
    """``static_generator_finalized``: the theme copy of this build skips identical files."""
    static_generator._copy_paths = types.MethodType(_copy_paths, static_generator)
