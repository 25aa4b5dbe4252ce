"""Atomic, idempotent writes of data files under OUTPUT_PATH.

Every data file goes through one ``OutputFiles`` per build: the path is joined
safely under the output folder, the bytes go to a temporary file in the same
folder which is then renamed over the target (readers never see half a file),
a second write to one path in one build is refused, and a file whose bytes did
not change is left alone so its mtime survives (rsync and S3 move only changes).
"""

import concurrent.futures
import contextlib
import filecmp
import hashlib
import itertools
import marshal
import math
import operator
import os
import struct
from pathlib import Path

from . import background
from .compression import PRECOMPRESSED, compress_file, parts_purpose
from .files import (SIZE_STAMP, all_plain_relpaths, is_plain_relpath, load_marshalled,
                    open_temp_beside, replace_atomically, stats_below, write_if_changed)
from .parallel import Handoff, available_cores
from .settings import NOT_OUTPUT_SETTINGS

CONTEXT_KEY = "dalil_output_files"
# A relative path without a drive or a backslash: what ``is_plain_relpath`` checks is enough.
_POSIX_PATHS = os.sep == "/" and os.altsep is None
# An object with ``mark(relpath, count=1)`` told of every output file (the benchmarks' timings plugin).
OBSERVER_KEY = "dalil_output_observer"


class UnsafeOutputPath(ValueError):
    """A path that would land outside the output folder."""


class DuplicateOutput(ValueError):
    """A second write to one path in one build."""


# name -> function(files) giving plain data: which of the files the last build wrote
# are no longer as it wrote them, found by a worker ahead of the writer that would stamp
# them (``OutputFiles.check_ahead``). Plugins add theirs as they register.
_AHEAD_CHECKS = {}


def check_ahead_with(name, function):
    """Have ``function`` run ahead as ``name`` (see ``OutputFiles.check_ahead``)."""
    _AHEAD_CHECKS[name] = function


MEMO_NAME = "dalil_output_memo.marshal"
_KEY_DIGEST_SIZE = 16
PARTS_MEMO_FOLDER = "dalil_precompressed_parts"


def build_salt(settings):
    """Digest of the Dalil code and the plain settings: a cache outlives neither."""
    package = Path(__file__).resolve().parent.parent
    hasher = hashlib.blake2b(digest_size=16)
    for path in sorted(package.rglob("*.py")):
        hasher.update(str(path).encode() + path.read_bytes())
    for key in sorted(k for k in settings if k.isupper() and k not in NOT_OUTPUT_SETTINGS):
        value = settings[key]
        if isinstance(value, (str, int, float, bool, type(None), tuple, list)):
            hasher.update(f"{key}={value!r}".encode())
    return hasher.digest()


class OutputFiles:
    def __init__(self, output_path, observer=None, settings=None):
        self.root = str(Path(output_path).resolve())
        self._root_prefix = self.root.rstrip(os.sep) + os.sep
        self.written = {}
        self.copied = set()  # paths of the files copied as they are (note_copies)
        self.observer = observer
        self._settings = settings or {}
        self._memo = None  # relpath -> (key digest, size), loaded on first use
        self._memo_now = {}
        self._key_digests = {}  # relpath -> key digest, from keep_if_current to write_keyed
        self._background = []  # (pid, pipe, writer) of the forked writers not yet joined
        self._pending = []  # (function, writer, rank) to fork for (see start_background)
        self._queues = []  # (read end of a pipe of numbers, functions) not yet run out
        self.holding = False  # no writer forks until release_background (see hold_background)
        self._ahead = None  # the Handoff of check_ahead's findings, while the build lasts

    @property
    def settings(self):
        """The build's settings (its context), as given."""
        return self._settings

    def paths_for(self, relpaths):
        """``path_for`` of each of ``relpaths``, by concatenation when all are plain."""
        if _POSIX_PATHS and all_plain_relpaths(relpaths):
            return list(map(self._root_prefix.__add__, relpaths))
        return list(map(self.path_for, relpaths))

    def path_for(self, relpath):
        relpath = str(relpath)
        if "\\" in relpath or "\x00" in relpath:
            raise UnsafeOutputPath(f"refusing output path {relpath!r}")
        if _POSIX_PATHS and is_plain_relpath(relpath):  # never absolute there
            return self._root_prefix + relpath
        if not relpath or os.path.isabs(relpath):
            raise UnsafeOutputPath(f"refusing output path {relpath!r}")
        # Lexical, as Pelican's sanitised_join, and on strings: resolving symlinks or
        # making Path objects cost a tenth of a rebuild at 10,000 vCards.
        target = os.path.normpath(os.path.join(self.root, relpath))
        if not target.startswith(self._root_prefix):
            raise UnsafeOutputPath(f"refusing output path {relpath!r}: outside the output folder")
        return target

    @contextlib.contextmanager
    def open(self, relpath, mode="w", newline=None, key=None):
        """Stream a file: yields a file object; the target changes only on success. With
        ``key``, as ``write_keyed``: remembered for the next build's ``keep_if_current``."""
        target = self._claim(relpath)
        fd, temp_name = open_temp_beside(target)
        try:
            encoding = None if "b" in mode else "utf-8"
            with os.fdopen(fd, mode, encoding=encoding, newline=newline) as handle:
                yield handle
            if os.path.isfile(target) and filecmp.cmp(temp_name, target, shallow=False):
                os.unlink(temp_name)
            else:
                os.replace(temp_name, target)
                self.written[target] = True
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp_name)
            raise
        if key is not None:
            self._remember_key(str(relpath), key, os.path.getsize(target))
        if self.observer is not None:
            self.observer.mark(str(relpath))

    def _claim(self, relpath, target=None):
        target = target or self.path_for(relpath)
        if target in self.written:
            raise DuplicateOutput(f"{relpath} is written twice in one build")
        self.written[target] = False
        return target

    def note_copies(self, targets):
        """Note ``targets`` (absolute paths below the output folder) as files this build
        produced by copying them (the theme's static files), for ``record``."""
        self.copied.update(targets)

    def write(self, relpath, data):
        """Write ``data`` (str as UTF-8, or bytes) to ``relpath``; True if the bytes changed."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        target = self._claim(relpath)
        # Compared in memory first: most files of a rebuild are unchanged.
        changed = self.written[target] = write_if_changed(target, data)
        if self.observer is not None:
            self.observer.mark(str(relpath))
        return changed

    def written_apart(self, relpath, changed):
        """Note ``relpath`` as ``write`` notes a file it writes, written by a worker
        (``write_if_changed`` of ``path_for(relpath)``, which gave ``changed``)."""
        self.written[self._claim(relpath)] = changed
        if self.observer is not None:
            self.observer.mark(str(relpath))

    def precompress(self, *relpaths):
        """Write ``relpath.br`` and ``relpath.gz`` beside each file this build wrote. When
        a file did not change and its copies are newer, they are kept as they are."""
        jobs = []
        for relpath in relpaths:
            target = self.path_for(relpath)
            if target not in self.written:
                raise ValueError(f"{relpath} is not an output of this build")
            if not self.written[target] and all(
                    _newer(target + suffix, target) for suffix in PRECOMPRESSED):
                for suffix in PRECOMPRESSED:
                    self._claim(str(relpath) + suffix)
                continue
            jobs += [(relpath, target, suffix) for suffix in PRECOMPRESSED]

        # Every copy side by side: zlib and brotli let go of the GIL while they compress.
        def make_copy(job):
            relpath, target, suffix = job
            memo_name = memo = used = None
            if self._settings.get("CACHE_CONTENT"):
                name = hashlib.blake2b(f"{relpath}{suffix}".encode("utf-8"), digest_size=16).hexdigest()
                memo_name = f"{PARTS_MEMO_FOLDER}/{name}.marshal"
                memo = self.load_derived(memo_name, parts_purpose(suffix))
                used = {}  # this copy's parts: the next build's memo
            with self.open(str(relpath) + suffix, "wb") as handle:
                compress_file(target, handle, suffix, memo, used)
            if memo_name is not None:
                self.save_derived(memo_name, parts_purpose(suffix), used)

        if jobs:
            with concurrent.futures.ThreadPoolExecutor(len(jobs)) as threads:
                list(threads.map(make_copy, jobs))

    def load_derived(self, name, purpose):
        """What ``save_derived`` kept as ``name`` (a path in CACHE_PATH) for ``purpose``
        (plain data naming how it was made), if this code and these settings kept it;
        else None, and always without the content cache."""
        if not (self._settings.get("CACHE_CONTENT") and self._settings.get("LOAD_CONTENT_CACHE")):
            return None
        with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
            salt, value = load_marshalled(os.path.join(self._settings["CACHE_PATH"], name))
            if salt == self._purpose_digest(purpose):
                return value
        return None

    def save_derived(self, name, purpose, value):
        """Keep ``value`` (plain data that ``marshal`` stores) for the next build's
        ``load_derived``, with the content cache."""
        if self._settings.get("CACHE_CONTENT"):
            replace_atomically(os.path.join(self._settings["CACHE_PATH"], name),
                               marshal.dumps((self._purpose_digest(purpose), value)))

    def keep_if_current(self, relpath, key):
        """True if the last build wrote ``relpath`` from the same ``key`` and the file is
        still there with that size: it is then this build's output as it stands, and
        its bytes need not be made again. ``key`` is plain data covering everything
        the bytes depend on besides code and settings (both are in the memo's salt).
        Without ``CACHE_CONTENT``, always False."""
        return not self.keep_current([(relpath, key)])

    def keep_current(self, keyed):
        """``keep_if_current`` for each ``(relpath, key)`` of ``keyed``: the pairs whose files
        were not kept, in order (``keep_unchanged``)."""
        keyed = [(str(relpath), key) for relpath, key in keyed]
        if not self._settings.get("CACHE_CONTENT"):
            return keyed
        memo, key_digests = self._load_memo(), self._key_digests
        # Only a file the memo knows from the same key can be kept: only those are stamped.
        known = []
        for relpath, key in keyed:
            digest, memo_entry = self._key_digest(key), memo.get(relpath)
            key_digests[relpath] = digest  # for write_keyed, if not kept
            if memo_entry is not None and memo_entry[0] == digest:
                known.append((relpath, memo_entry))
        kept = {relpath for (relpath, _), flag in
                zip(known, self.keep_unchanged([(relpath, entry[1]) for relpath, entry in known]))
                if flag}
        for relpath, memo_entry in known:
            if relpath in kept:
                self._memo_now[relpath] = memo_entry
                del key_digests[relpath]
        return [pair for pair in keyed if pair[0] not in kept]

    def keep_unchanged(self, expected, changed=None):
        """For each ``(relpath, size)`` of ``expected``, a file the last build wrote with
        bytes that nothing since changed (its caller knows from their key): True if the
        file is still there with that size, and it is then this build's output as it
        stands. The files are stamped together (``stats_below``) and taken in together:
        100,000 vCards in a rebuild, in the exports' forked writer. ``changed``, when
        given, holds those of ``expected`` that a check ahead found otherwise
        (``stale_files``): none is stamped again."""
        # In passes made in C.
        relpaths, expected_sizes = zip(*expected) if expected else ((), ())
        targets = self.paths_for(relpaths)
        if changed is None:
            flags = list(map(operator.eq, self._sizes(targets), expected_sizes))
        else:
            flags = list(map(operator.not_, map(changed.__contains__, relpaths)))
        kept = list(itertools.compress(targets, flags))
        if len(set(kept)) != len(kept) or not self.written.keys().isdisjoint(kept):
            for (relpath, _), target, flag in zip(expected, targets, flags):
                if flag:
                    self._claim(relpath, target)  # raises for the first written already
        self.written.update(dict.fromkeys(kept, False))
        if self.observer is not None and kept:
            last = next(relpath for (relpath, _), flag in zip(reversed(expected), reversed(flags)) if flag)
            self.observer.mark(last, count=len(kept))  # one mark for them all
        return flags

    def _sizes(self, targets):
        """The size of the file at each of ``targets`` (paths below the root), or None."""
        below_root = operator.itemgetter(slice(len(self._root_prefix), None))
        return stats_below(self.root, list(map(below_root, targets)), SIZE_STAMP)

    def stale_files(self, expected):
        """The relpaths of ``expected`` (``(relpath, size)`` pairs, files the last build
        wrote) that are no longer there with that size, in order."""
        relpaths, expected_sizes = zip(*expected) if expected else ((), ())
        sizes = self._sizes(self.paths_for(relpaths))
        return list(itertools.compress(relpaths, map(operator.ne, sizes, expected_sizes)))

    def start_checking_ahead(self):
        """Before the worker that will ``check_ahead`` is forked: the pipe through which
        its findings reach the writers forked after it (``checked_ahead``). Without fork
        the writers run in this process, and check for themselves."""
        if self._ahead is None and _AHEAD_CHECKS and background.fork_available():
            self._ahead = Handoff()

    def check_ahead(self):
        """In a worker, while the build reads: run the checks plugins gave
        (``check_ahead_with``) and send their findings to ``checked_ahead``. At 100,000
        listings the vCards' 100,000 stamps (0.3 CPU-s) move from the exports' writer,
        which the build waits for, to a worker that has a core to itself."""
        if self._ahead is None:
            return
        found = {}
        for name, check in _AHEAD_CHECKS.items():
            try:
                found[name] = check(self)
            except Exception:  # noqa: BLE001 (the writer checks for itself, and meets it there)
                continue
        self._ahead.send(found)

    def checked_ahead(self, name):
        """What ``check_ahead`` found as ``name`` if it was sent by now, else None: the
        caller never waits for it and checks for itself."""
        found = self._ahead.take() if self._ahead is not None else None
        return None if found is None else found.get(name)

    def write_keyed(self, relpath, key, data):
        """``write``, remembering ``key`` for the next build's ``keep_if_current``."""
        data = data.encode("utf-8") if isinstance(data, str) else data
        relpath = str(relpath)
        target = self._claim(relpath)
        changed = self.written[target] = write_if_changed(target, data)
        self._remember_key(relpath, key, len(data))
        if self.observer is not None:
            self.observer.mark(relpath)
        return changed

    def _remember_key(self, relpath, key, size):
        if self._settings.get("CACHE_CONTENT"):
            self._load_memo()  # so that save_memo keeps this key
            key_digest = self._key_digests.pop(relpath, None) or self._key_digest(key)
            self._memo_now[relpath] = (key_digest, size)

    def in_background(self, function, forked=True, writer=None, now=False, rank=0):
        """Run ``function()``, which writes through this object and ``writer`` (Pelican's,
        a ``DalilWriter`` when given), in a forked process when ``forked`` (and fork
        exists), else at once; ``join`` takes in its files. The forked ones start together
        when the build's output starts (``start_background``), those of a higher ``rank``
        taken first (the longest first: the processes then end close together), or, when
        ``now``, this one at once in a process of its own."""
        if not (forked and background.fork_available()):
            function()
            return
        if self._settings.get("CACHE_CONTENT"):
            self._load_memo()  # here, once: the child's keys are merged into this memo
        if now and not self.holding:
            self._background.append((*background.start(self, function, writer), writer))
            return
        self._pending.append((function, writer, math.inf if now else rank))  # held: first
        background.when_output_starts(self.start_background)

    def hold_background(self):
        """Fork no writer until ``release_background`` (or ``join``): the build's process
        is about to touch most of the model (the pages of a large cold build), and a
        writer forked before keeps each memory page as it was while the build's process
        copies it (at 1,000,000 listings the tree held 2.7 GB of such pages twice)."""
        self.holding = True

    def release_background(self):
        self.holding = False
        self.start_background()

    def start_background(self):
        """Fork for the functions ``in_background`` was given: one process per core at most,
        each taking the next function not yet taken until none is left, so that the
        longest (the exports at 100,000 listings) runs beside the others instead of
        after them, and the build's own process takes part at its end (``run_untaken``).
        Every process that reads the model copies the memory pages it touches: five of
        them beside the pages' workers cost more than they saved on two cores (a sixth of
        a cold build's page faults at 10,000 listings)."""
        if self.holding:
            return
        pending, self._pending = self._pending, []
        if not pending:
            return
        jobs = [(function, writer) for function, writer, _ in
                sorted(pending, key=lambda job: -job[2])]  # stable: the same rank in order
        writer = next((writer for _, writer in jobs if writer is not None), None)
        # The functions' numbers, read by the processes in turn: a read of 4 bytes from
        # a pipe is whole, and the pipe is closed for writing first, so each ends on EOF.
        taken, numbers = os.pipe()
        os.write(numbers, struct.pack(f"<{len(jobs)}I", *range(len(jobs))))
        os.close(numbers)
        self._queues.append((taken, jobs))

        def run():
            self._run_queue(taken, jobs)

        # A core for each process, counting those started already.
        for _ in range(min(len(jobs), max(1, available_cores() - len(self._background)))):
            self._background.append((*background.start(self, run, writer), writer))

    @staticmethod
    def _run_queue(taken, jobs):
        while number := os.read(taken, 4):
            jobs[struct.unpack("<I", number)[0]][0]()

    def run_untaken(self):
        """Run here the functions no forked writer has taken yet: at the end of the build's
        own work, which would otherwise only wait for the writers (at 100,000 listings the
        last one went on for two seconds with a core idle)."""
        self.release_background()
        try:
            while self._queues:
                taken, jobs = self._queues[-1]
                self._run_queue(taken, jobs)
                os.close(taken)
                self._queues.pop()
        except BaseException:
            with contextlib.suppress(Exception):  # no writer left running; this error first
                self.join()
            raise

    def join(self):
        """Wait for the forked writers and take in what they wrote, logged and raised."""
        self.release_background()
        jobs, self._background = self._background, []
        results = [(background.finish(pid, pipe), writer) for pid, pipe, writer in jobs]
        while self._queues:  # all taken by the writers now
            os.close(self._queues.pop()[0])
        for result, writer in results:
            for target in result["written"]:
                if target in self.written:
                    raise DuplicateOutput(f"{os.path.relpath(target, self.root)} is written "
                                          "twice in one build")
            self.written.update(result["written"])
            self._memo_now.update(result["memo"])
            if writer is not None:
                for path in result["pages"]:
                    writer.claim(path)
                    if self.observer is not None:
                        self.observer.mark(os.path.relpath(path, writer.output_path))
                writer.changed += result["page_counts"][0]
                writer.unchanged += result["page_counts"][1]
            if self.observer is not None:
                for relpath, count in result["marks"]:
                    self.observer.mark(relpath, count)
            background.replay(result)

    def _key_digest(self, key):
        """What the memo keeps of ``key``: a short bytes key (a listing's digest, for its
        card) as it is, anything else as the digest of its repr; no salt, as the memo is
        dropped whole when the salt changes (0.2 against 0.58 µs for each of 100,000 cards)."""
        if key.__class__ is bytes and len(key) <= _KEY_DIGEST_SIZE:
            return key
        data = key if key.__class__ is bytes else repr(key).encode("utf-8")
        return hashlib.blake2b(data, digest_size=_KEY_DIGEST_SIZE).digest()

    def _purpose_digest(self, purpose):
        """The salted digest of a derived value's ``purpose`` (see ``load_derived``)."""
        self._load_memo()  # sets the salt
        return hashlib.blake2b(self._salt + repr(purpose).encode("utf-8"), digest_size=16).digest()

    def _load_memo(self):
        if self._memo is None:
            self._salt = build_salt(self._settings)
            self._memo = {}
            if self._settings.get("LOAD_CONTENT_CACHE"):
                with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
                    salt, memo = load_marshalled(os.path.join(self._settings["CACHE_PATH"], MEMO_NAME))
                    if salt == self._salt:
                        self._memo = memo
        return self._memo

    def save_memo(self):
        """Keep this build's ``write_derived`` keys for the next build (end of build)."""
        self.join()
        if self._ahead is not None:
            self._ahead.close()
        if self._memo is None or not self._settings.get("CACHE_CONTENT"):
            return
        replace_atomically(os.path.join(self._settings["CACHE_PATH"], MEMO_NAME),
                           marshal.dumps((self._salt, self._memo_now)))

    def counts(self):
        """``(changed, unchanged)`` numbers of files so far."""
        self.join()
        changed = sum(1 for flag in self.written.values() if flag)
        return changed, len(self.written) - changed


def _newer(path, than):
    try:
        return os.stat(path).st_mtime_ns >= os.stat(than).st_mtime_ns
    except OSError:
        return False


def output_files(context):
    """The build's one ``OutputFiles`` (the context is created anew for each build)."""
    files = context.get(CONTEXT_KEY)
    if files is None:
        files = context[CONTEXT_KEY] = OutputFiles(context["OUTPUT_PATH"],
                                                   observer=context.get(OBSERVER_KEY),
                                                   settings=context)
    return files
