"""Pelican's writer, except that a file whose bytes did not change is left alone.

An unchanged page keeps its mtime, so rsync and S3 uploads move only what changed.
Everything else (sanitised paths, the ``override_output`` rules, signals, feeds) is
Pelican's own ``Writer``.
"""

import io
import os

from pelican.utils import sanitised_join
from pelican.writers import FileOverwriteFailedError, Writer

from .output import OBSERVER_KEY, write_if_changed


class _CompareOnClose(io.StringIO):
    """Collects text; on close writes it only if the file's bytes would change."""

    def __init__(self, writer, path, encoding):
        super().__init__()
        self._writer, self._path, self._encoding = writer, path, encoding

    def close(self):
        if not self.closed:
            data = self.getvalue().encode(self._encoding)
            super().close()
            self._writer.record(self._path, write_if_changed(self._path, data))


class DalilWriter(Writer):
    def __init__(self, output_path, settings=None):
        super().__init__(output_path, settings=settings)
        self.changed = 0
        self.unchanged = 0

    def record(self, path, changed):
        if changed:
            self.changed += 1
        else:
            self.unchanged += 1

    def claim(self, path):
        """Note ``path`` as written by someone else (a worker process), as ``_open_w`` would."""
        if path in self._written_files or path in self._overridden_files:
            raise FileOverwriteFailedError(
                f'Failed to overwrite "{path}" as Pelican has already written to it previously')
        self._written_files.add(path)

    def _open_w(self, filename, encoding, override=False):
        # Pelican's bookkeeping, word for word, then a buffer instead of open(..., "w").
        if filename in self._overridden_files:
            if override:
                raise FileOverwriteFailedError(
                    f'Failed to overwrite "{filename}" a second time (was previously overwritten)')
            return open(os.devnull, "w", encoding=encoding)
        if filename in self._written_files and not override:
            raise FileOverwriteFailedError(
                f'Failed to overwrite "{filename}" as Pelican has already '
                "written to it previously (set `override=True` if intended)")
        if override:
            self._overridden_files.add(filename)
        self._written_files.add(filename)
        return _CompareOnClose(self, filename, encoding)

    def write_file(self, name, template, context, *args, **kwargs):
        super().write_file(name, template, context, *args, **kwargs)
        _observe(context, name)

    def write_feed(self, elements, context, path=None, *args, **kwargs):
        feed = super().write_feed(elements, context, path, *args, **kwargs)
        _observe(context, path)
        return feed


def _observe(context, name):
    observer = context.get(OBSERVER_KEY) if name else None
    if observer is not None:
        observer.mark(name)


def output_file_path(output_path, save_as):
    """The absolute path Pelican's writer gives ``save_as``."""
    return sanitised_join(output_path, save_as)


def get_writer(pelican_object):
    return DalilWriter
