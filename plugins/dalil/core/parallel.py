"""Run a function over chunks of work in forked worker processes, results in order.

Workers are forked, so they inherit the generator (its model, context and compiled
templates) without pickling it; each task sends only small job descriptions, and
each result only a few numbers or the parsed text of a file. With one worker, or
little work, everything runs in this process: the output is the same either way.
"""

import contextlib
import gc
import logging
import marshal
import multiprocessing
import os
import struct

# Below this many items a pool costs more than it saves.
MIN_PARALLEL_ITEMS = 64
# About sixteen chunks per worker, so the workers finish close together; each chunk is
# a message each way, so none smaller than the minimum (nor larger than the maximum).
MIN_CHUNK_SIZE, MAX_CHUNK_SIZE = 32, 256
CHUNKS_PER_WORKER = 16

# Items of the model (listings, their pages) a worker reads before a fresh one takes its
# place (see ``Pool``): it then holds copies of the model's memory for these only (at
# 100,000 listings a page worker's own memory stayed at 15-60 MiB instead of 140 MiB).
ITEMS_PER_FRESH_WORKER = 10_000

# The state a forked worker inherits from its parent: set once per worker process by
# the pool's initializer (the only way to hand a worker unpicklable state).
_worker_state = None


def available_cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def worker_count(setting):
    """``DALIL_DIRECTORY_WORKERS``: 0 means every core, 1 means serial."""
    cores = available_cores()
    return max(1, min(int(setting), cores) if int(setting) > 0 else cores)


def _init_worker(state):
    global _worker_state
    _worker_state = state
    # What the worker inherits lives as long as it does: its collections walk only what
    # it makes itself. At 100,000 listings a full collection walked the inherited objects
    # for 70 ms in each of the workers that list and measure the files (the first holds
    # up the build).
    gc.freeze()
    # The parent's rich console may be locked by its refresh thread at fork time;
    # a worker logs plainly to stderr instead.
    root = logging.getLogger()
    root.handlers = [logging.StreamHandler()]


def _call(payload):
    function, chunk = payload
    return function(_worker_state, chunk)


def _call_once(payload):
    function, args, niceness = payload
    if niceness:
        # For the rest of the worker's life: the pool ends with the build's reading.
        with contextlib.suppress(AttributeError, OSError):
            os.nice(niceness)
    return function(_worker_state, *args)


class _Done:
    """The result of a call made at once, as ``multiprocessing``'s ``AsyncResult`` gives it."""

    def __init__(self, value):
        self.value = value

    def get(self):
        return self.value


class Pool:
    """``with Pool(state, workers) as pool: for result in pool.map(fn, items): ...``

    ``fn(state, chunk)`` returns a list with one result per item of ``chunk``.
    """

    def __init__(self, state, workers, items_per_worker=None, min_items=MIN_PARALLEL_ITEMS):
        self.state = state
        self.workers = workers
        self.min_items = min_items
        # A worker ends after about this many items and a fresh one is forked: each page
        # a worker renders touches its listing's objects, whose memory pages it then
        # copies (their reference counts change), so a worker that lived through a
        # million listings held a copy of most of the model (2.0 GB each, two of them).
        self.items_per_worker = items_per_worker
        self._pool = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        if self._pool is not None:
            self._pool.terminate() if exc_info[0] else self._pool.close()
            self._pool.join()
        return False

    def _ensure_pool(self, chunk_size=1):
        if self._pool is None:
            context = multiprocessing.get_context("fork")
            tasks = (max(1, self.items_per_worker // chunk_size)
                     if self.items_per_worker else None)
            self._pool = context.Pool(self.workers, initializer=_init_worker,
                                      initargs=(self.state,), maxtasksperchild=tasks)
        return self._pool

    def in_workers(self, count=None):
        """True if ``map`` runs ``count`` items in worker processes, not in this one. One
        worker runs them here, unless it is to be replaced (``items_per_worker``): then
        it is forked for the memory it copies, which goes with it."""
        return ((self.workers > 1 or self.items_per_worker is not None)
                and (self.min_items if count is None else count) >= self.min_items
                and "fork" in multiprocessing.get_all_start_methods())

    def submit(self, function, *args, niceness=0):
        """``function(state, *args)`` in a worker, which starts at once (here, with one
        worker): an object whose ``get()`` gives its result. ``niceness`` lowers the
        worker's priority first, for work that only fills a core the build leaves idle."""
        if self.in_workers():
            return self._ensure_pool().apply_async(_call_once, ((function, args, niceness),))
        return _Done(function(self.state, *args))

    def map(self, function, items, chunk_size=None):
        """``(item, result)`` pairs in the order of ``items``, an iterator. Workers start
        at once: the caller may do other work before reading the results."""
        items = list(items)
        if chunk_size is None:
            chunk_size = min(MAX_CHUNK_SIZE, max(MIN_CHUNK_SIZE,
                                                 len(items) // (self.workers * CHUNKS_PER_WORKER)))
        chunks = [items[i:i + chunk_size] for i in range(0, len(items), chunk_size)]
        if self.in_workers(len(items)):
            results = self._ensure_pool(chunk_size).imap(_call, [(function, chunk) for chunk in chunks])
        else:
            results = (function(self.state, chunk) for chunk in chunks)
        return (pair for chunk, chunk_results in zip(chunks, results)
                for pair in zip(chunk, chunk_results))


def map_in_fresh_workers(state, function, items, reads, chunk_size=1):
    """``Pool.map(function, items, chunk_size)`` for a forked data writer (the exports, the
    search index) whose work reads ``reads`` listings of the model: in one worker of its
    own, replaced after ``ITEMS_PER_FRESH_WORKER`` of them, when they are more than that;
    else here. A process that reads every listing copies the model's memory pages it
    touches (their reference counts change): 1.5 GB at a million listings, for each
    writer, while a replaced worker holds those of the last 10,000 only."""
    items = list(items)
    per_worker = None
    if reads > ITEMS_PER_FRESH_WORKER and items:
        per_worker = max(chunk_size, len(items) * ITEMS_PER_FRESH_WORKER // reads)
    with Pool(state, 1, items_per_worker=per_worker, min_items=1) as pool:
        yield from pool.map(function, items, chunk_size)


class Handoff:
    """Plain data sent once from one process to another, both forked later by the process
    that makes this: a pipe neither waits on. ``take`` gives the value only if it was sent
    whole by then, else None, and the taker then does the work itself. A value larger
    than a pipe holds at once (64 KiB) is not sent."""

    _LIMIT = 1 << 16
    _HEADER = struct.Struct("<Q")

    def __init__(self):
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)
        os.set_blocking(self._write, False)
        self._taken = None  # (value,) once taken

    def send(self, value):
        data = marshal.dumps(value)
        message = self._HEADER.pack(len(data)) + data
        if len(message) <= self._LIMIT:
            # One write into an empty pipe that holds it: whole, or refused and not sent.
            with contextlib.suppress(OSError):
                os.write(self._write, message)

    def take(self):
        if self._taken is None:
            chunks = []
            with contextlib.suppress(OSError):  # BlockingIOError: nothing (more) sent
                while chunk := os.read(self._read, self._LIMIT):
                    chunks.append(chunk)
            data, header = b"".join(chunks), self._HEADER.size
            whole = len(data) >= header and self._HEADER.unpack_from(data)[0] == len(data) - header
            self._taken = (marshal.loads(data[header:]) if whole else None,)
        return self._taken[0]

    def close(self):
        for fd in (self._read, self._write):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._read = self._write = -1
