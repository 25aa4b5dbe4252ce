"""Listings' HTML kept on disk while a build runs, not in its processes' memory.

A listing's summary and description are two thirds of its record, and only its own page
(and the source cache, when saved) reads them. The workers that read the listings'
files append each listing's HTML to a file of their own in a temporary folder and send
the build's process only where it is (``SpilledTexts``); the page's worker reads it back
for the page and lets it go. The card of a listing that its page's worker makes for its
category's and city's pages goes there too. At a million listings that keeps gigabytes
out of the build and out of every process forked from it.

The folder is made in the system's temporary folder (``TMPDIR``) by the build that reads
the files, and removed when that build ends (its other languages' builds included). A
build kept in memory between builds (``invoke livereload``) keeps its records and their
HTML in memory instead: they outlive the build.
"""

import contextlib
import marshal
import os
import shutil
import tempfile
import weakref


class SpilledTexts(tuple):
    """Where a value put in the spill is: ``(file name, offset, length)``."""

    __slots__ = ()


class TextSpill:
    """The build's folder of listings' HTML: each process appends to its own file."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="dalil-texts-")
        # Also when the build fails: removed as its process exits, never by a forked one.
        self._removal = weakref.finalize(self, _remove_folder, self.folder, os.getpid())
        self._writer = None  # (pid, file) of this process's own file
        self._readers = {}  # file name -> descriptor, in the process that reads

    def put(self, value):
        """Append ``value`` (``marshal`` data) to this process's file: where it now is."""
        pid = os.getpid()
        if self._writer is None or self._writer[0] != pid:  # a worker forked since
            name = f"{pid}.marshal"
            self._writer = (pid, open(os.path.join(self.folder, name), "ab"), name)
        _, file, name = self._writer
        data = marshal.dumps(value)
        offset = file.tell()
        file.write(data)
        file.flush()  # read by other processes, perhaps before this one ends
        return SpilledTexts((name, offset, len(data)))

    def get(self, where):
        """The value put at ``where``."""
        name, offset, length = where
        descriptor = self._readers.get(name)
        if descriptor is None:
            descriptor = self._readers[name] = os.open(os.path.join(self.folder, name), os.O_RDONLY)
        return marshal.loads(os.pread(descriptor, length, offset))

    def remove(self):
        for descriptor in self._readers.values():
            with contextlib.suppress(OSError):
                os.close(descriptor)
        self._readers = {}
        self._removal()


def _remove_folder(folder, owner):
    if os.getpid() == owner:
        shutil.rmtree(folder, ignore_errors=True)
