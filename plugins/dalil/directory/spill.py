"""Listings' HTML kept on disk while a build runs, not in its processes' memory.

A listing's summary and description are two thirds of its record, and only its own page
(and the source cache, when saved) reads them. The workers that read the listings'
files append each listing's HTML to a file of their own in a temporary folder and send
the build's process only where it is (``SpilledTexts``), with the listing's record packed
as the source cache keeps it (see ``model.cached_listing``); the page's worker reads the
HTML back for the page and lets it go. The card of a listing that its page's worker makes for its
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


class SpilledTexts(int):
    """Where a value put in the spill is: its file's process, its offset and its length
    in one number (a tuple of three and a file name took five times the memory, for each
    of a million listings)."""

    __slots__ = ()

    @classmethod
    def of(cls, pid, offset, length):
        return cls((pid << _PID_SHIFT) | (offset << _OFFSET_SHIFT) | length)

    def parts(self):
        return (self >> _PID_SHIFT, (self >> _OFFSET_SHIFT) & _OFFSET_MASK,
                self & _LENGTH_MASK)


_OFFSET_SHIFT, _PID_SHIFT = 32, 80  # lengths below 4 GiB, offsets below 256 TiB
_LENGTH_MASK, _OFFSET_MASK = (1 << 32) - 1, (1 << 48) - 1


class TextSpill:
    """The build's folder of listings' HTML: each process appends to its own file."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="dalil-texts-")
        # Also when the build fails: removed as its process exits, never by a forked one.
        self._removal = weakref.finalize(self, _remove_folder, self.folder, os.getpid())
        self._writer = None  # (pid, file) of this process's own file
        self._readers = {}  # pid -> descriptor of its file, in the process that reads

    def put(self, value):
        """Append ``value`` (``marshal`` data) to this process's file: where it now is."""
        pid = os.getpid()
        if self._writer is None or self._writer[0] != pid:  # a worker forked since
            self._writer = (pid, open(self._path(pid), "ab"))
        file = self._writer[1]
        data = marshal.dumps(value)
        offset = file.tell()
        file.write(data)
        file.flush()  # read by other processes, perhaps before this one ends
        return SpilledTexts.of(pid, offset, len(data))

    def _path(self, pid):
        return os.path.join(self.folder, f"{pid}.marshal")

    def get(self, where):
        """The value put at ``where``."""
        pid, offset, length = where.parts()
        descriptor = self._readers.get(pid)
        if descriptor is None:
            descriptor = self._readers[pid] = os.open(self._path(pid), os.O_RDONLY)
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
