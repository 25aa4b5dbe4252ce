"""Atomic, idempotent writes of data files under OUTPUT_PATH.

Every data file goes through one ``OutputFiles`` per build: the path is joined
safely under the output folder, the bytes go to a temporary file in the same
folder which is then renamed over the target (readers never see half a file),
a second write to one path in one build is refused, and a file whose bytes did
not change is left alone so its mtime survives (rsync and S3 move only changes).
"""

import contextlib
import filecmp
import os
import tempfile
from pathlib import Path

CONTEXT_KEY = "dalil_output_files"


class UnsafeOutputPath(ValueError):
    """A path that would land outside the output folder."""


class DuplicateOutput(ValueError):
    """A second write to one path in one build."""


class OutputFiles:
    def __init__(self, output_path):
        self.root = Path(output_path).resolve()
        self.written = {}

    def path_for(self, relpath):
        relpath = str(relpath)
        if not relpath or os.path.isabs(relpath) or "\\" in relpath or "\x00" in relpath:
            raise UnsafeOutputPath(f"refusing output path {relpath!r}")
        target = (self.root / relpath).resolve()
        if target == self.root or self.root not in target.parents:
            raise UnsafeOutputPath(f"refusing output path {relpath!r}: outside the output folder")
        return target

    @contextlib.contextmanager
    def open(self, relpath, mode="w", newline=None):
        """Stream a file: yields a file object; the target changes only on success."""
        target = self.path_for(relpath)
        if target in self.written:
            raise DuplicateOutput(f"{relpath} is written twice in one build")
        self.written[target] = False
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=".dalil-", suffix=".tmp")
        try:
            encoding = None if "b" in mode else "utf-8"
            with os.fdopen(fd, mode, encoding=encoding, newline=newline) as handle:
                yield handle
            if target.is_file() and filecmp.cmp(temp_name, target, shallow=False):
                os.unlink(temp_name)
            else:
                os.chmod(temp_name, 0o644)
                os.replace(temp_name, target)
                self.written[target] = True
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp_name)
            raise

    def write(self, relpath, data):
        """Write ``data`` (str as UTF-8, or bytes) to ``relpath``; True if the bytes changed."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        with self.open(relpath, "wb") as handle:
            handle.write(data)
        return self.written[self.path_for(relpath)]


def output_files(context):
    """The build's one ``OutputFiles`` (the context is created anew for each build)."""
    files = context.get(CONTEXT_KEY)
    if files is None:
        files = context[CONTEXT_KEY] = OutputFiles(context["OUTPUT_PATH"])
    return files
