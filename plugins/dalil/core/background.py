"""Write a generator's data files in a forked process while the build goes on.

A generator whose files nothing else in the build reads (the exports) hands its
writing to ``OutputFiles.in_background``: a forked child runs it through the same
``OutputFiles`` (and Pelican's writer, for a page), and sends back what the parent
must know, the files it wrote, their cache keys, the pages the writer wrote, the
observer's marks and its log records. The parent merges
them when it next asks about the build's files (``OutputFiles.join``): the bytes
are those the generator would write in the parent, only sooner on a second core.
"""

import contextlib
import gc
import logging
import marshal
import os
import sys
import traceback

from pelican import signals


# Scheduling niceness of the forked writers (see ``start``).
BACKGROUND_NICENESS = 10


class BackgroundError(RuntimeError):
    """An output generator failed in its forked process (the message holds its traceback)."""


class _Collector(logging.Handler):
    """Keeps a child's log records, flattened to plain data, for the parent."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append((record.name, record.levelno, record.getMessage()))


class _MarkRecorder:
    """The observer's ``mark`` calls, for the parent's observer."""

    def __init__(self):
        self.marks = []

    def mark(self, relpath, count=1):
        self.marks.append((relpath, count))


def fork_available():
    return hasattr(os, "fork")


def when_contexts_done(generator, function):
    """Call ``function()`` once every generator of ``generator``'s build has made its
    context (``all_generators_finalized``), before any writes its pages: a data file
    made from the contexts alone can then be written beside all the page output."""
    def receiver(generators):
        signals.all_generators_finalized.disconnect(receiver)
        if any(other is generator for other in generators):  # not a build that failed earlier
            function()

    signals.all_generators_finalized.connect(receiver, weak=False)


# Functions waiting for the writer of the build under way (see ``when_writer_made``).
_WAITING_FOR_WRITER = []


def when_writer_made(function):
    """Call ``function(writer)`` with this build's writer as Pelican makes it, right after
    every context is made and before any output, if it is Dalil's (``DalilWriter``):
    work that needs the writer then starts at once rather than at its generator's turn,
    which does it itself if nothing was called. Call it from ``when_contexts_done``."""
    _WAITING_FOR_WRITER.append(function)


# Functions that start the forked writers (see ``when_output_starts``).
_WAITING_FOR_OUTPUT = []


def when_output_starts(function):
    """Call ``function()`` once, as the build's output starts: right after its writer is
    made (``writer_made``), after what waits for the writer. With another writer than
    Dalil's, nothing calls it: ``OutputFiles.join`` does, later."""
    if function not in _WAITING_FOR_OUTPUT:
        _WAITING_FOR_OUTPUT.append(function)


def writer_made(writer):
    """``DalilWriter``'s: run what waits for it, then what waits for the output."""
    waiting = _WAITING_FOR_WRITER[:]
    _WAITING_FOR_WRITER.clear()
    for function in waiting:
        function(writer)
    starting = _WAITING_FOR_OUTPUT[:]
    _WAITING_FOR_OUTPUT.clear()
    for function in starting:
        function()


def _forget_waiting(pelican_object):
    """``get_generators``, once a build: what a build that failed before making its
    writer left waiting is dropped (returns no generator)."""
    _WAITING_FOR_WRITER.clear()
    _WAITING_FOR_OUTPUT.clear()


signals.get_generators.connect(_forget_waiting)


def start(files, function, writer=None):
    """Fork; the child runs ``function()`` with ``files`` (and ``writer``, a
    ``DalilWriter``) and exits. ``(pid, read_fd)``."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    # The parent's own collections would copy the pages it shares with the child. The
    # objects stay frozen for the rest of the build: given back as a child is joined, the
    # next collection walked every one of them (0.8 s at 100,000 listings, as the exports'
    # result was unmarshalled); the next build gives them back (``collect_previous_build``).
    gc.freeze()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid:
        os.close(write_fd)
        return pid, read_fd
    os.close(read_fd)
    # Nothing waits for this process until the build ends, while the main process's work
    # is the build's critical path: it yields the core to it. At 100,000 listings a
    # one-edit rebuild took 8.2 against 9.7 s (medians of six interleaved rounds).
    with contextlib.suppress(AttributeError, OSError):
        os.nice(BACKGROUND_NICENESS)
    # A collection would write to every object the parent made (their headers), copying
    # its whole heap page by page; the child is short-lived and its garbage goes with it.
    gc.disable()
    status = 1
    try:
        collector = _Collector()
        logging.getLogger().handlers = [collector]  # the parent's console is not ours
        recorder = _MarkRecorder()
        if files.observer is not None:
            files.observer = recorder
        known_written, known_memo = set(files.written), set(files._memo_now)
        known_pages = set(writer._written_files) if writer is not None else set()
        known_counts = (writer.changed, writer.unchanged) if writer is not None else (0, 0)
        error = None
        try:
            function()
        except BaseException:  # noqa: BLE001 (sent to the parent, which raises it)
            error = traceback.format_exc()
        result = {
            "written": {path: flag for path, flag in files.written.items()
                        if path not in known_written},
            "memo": {relpath: entry for relpath, entry in files._memo_now.items()
                     if relpath not in known_memo},
            "pages": sorted(set(writer._written_files) - known_pages) if writer else [],
            "page_counts": ((writer.changed - known_counts[0], writer.unchanged - known_counts[1])
                            if writer is not None else (0, 0)),
            "marks": recorder.marks, "records": collector.records, "error": error,
        }
        with os.fdopen(write_fd, "wb") as pipe:
            pipe.write(marshal.dumps(result))  # plain data: marshal is several times faster
        status = 0
    finally:
        os._exit(status)


def finish(pid, read_fd):
    """Wait for a child of ``start``: its result (see ``start``)."""
    with os.fdopen(read_fd, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if not data or os.waitstatus_to_exitcode(status) != 0:
        raise BackgroundError(f"an output process ended without its result "
                              f"(exit status {os.waitstatus_to_exitcode(status)})")
    return marshal.loads(data)


def replay(result):
    """Log the child's records in this process, then raise its error if it had one."""
    for name, level, message in result["records"]:
        logging.getLogger(name).log(level, "%s", message)
    if result["error"]:
        raise BackgroundError(result["error"])
