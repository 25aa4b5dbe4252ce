"""Files written whole or not at all, and where a relative path lands below a folder.

The primitives of every output and cache file: a write goes to a temporary file beside
its target, renamed over it (readers never see half a file); ``stats_below`` stamps
many files relative to one open folder.
"""

import contextlib
import filecmp
import functools
import hashlib
import marshal
import mmap
import operator
import os
import threading

from pelican.utils import sanitised_join


def same_bytes(path, data):
    """True if the file at ``path`` holds exactly ``data`` (size checked first, cheaply)."""
    try:
        # access first, not a stat that raises: a cold build's files do not exist yet
        # (an exception each: 3 µs of a file's 17).
        if not os.access(path, os.F_OK) or os.path.getsize(path) != len(data):
            return False
        with open(path, "rb") as handle:
            return handle.read() == data
    except OSError:
        return False


def write_if_changed(path, data):
    """Write ``data`` to ``path`` unless it already holds those bytes; True if written.

    A changed file is written to a temporary file beside it and renamed over it,
    so a reader never sees half a file.
    """
    if same_bytes(path, data):
        return False
    replace_atomically(path, data)
    return True


def write_pieces_if_changed(path, pieces):
    """``write_if_changed`` of the bytes that ``pieces`` (an iterable of bytes) make
    together, never whole in memory: written to a temporary file beside ``path``, then
    renamed over it unless it holds the same bytes. True if written."""
    fd, temp_name = open_temp_beside(path)
    try:
        with os.fdopen(fd, "wb") as handle:  # buffered: a template gives small pieces
            for piece in pieces:
                handle.write(piece)
        if os.access(path, os.F_OK) and filecmp.cmp(temp_name, path, shallow=False):
            os.unlink(temp_name)
            return False
        os.replace(temp_name, path)
        return True
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise


def _current_umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# Read once, as the module loads: a file made with mode 0o644 has that mode unless the
# umask takes bits from it, and only then is a chmod needed.
_UMASK = _current_umask()


def open_temp_beside(target):
    """``(fd, name)`` of a new temporary file beside ``target`` (folder made if missing).

    Named after the target, the process and the thread, so two files open at once
    never share a name, without mkstemp (the largest single cost of a cold build).
    """
    folder, base = os.path.split(target)
    if len(base.encode("utf-8", "surrogateescape")) > 200:  # room for the suffix within a file name's 255 bytes
        base = hashlib.blake2b(base.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
    name = os.path.join(folder, f".dalil-{base}.{os.getpid()}-{threading.get_native_id()}.tmp")
    # O_EXCL: the file is new, so its mode is the one given here, and a link left at that
    # name is never written through (nor followed: O_NOFOLLOW).
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(name, flags, 0o644)
    except FileNotFoundError:  # only then the folder: a stat fewer for every file
        try:
            os.mkdir(folder)  # most often the only one missing (a listing's own folder)
        except OSError:
            os.makedirs(folder, exist_ok=True)
        fd = os.open(name, flags, 0o644)
    except FileExistsError:  # left by a killed build: a file or a link, replaced
        os.unlink(name)
        fd = os.open(name, flags, 0o644)
    if _UMASK & 0o644:
        os.fchmod(fd, 0o644)  # whatever the umask
    return fd, name


def replace_atomically(path, data):
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``."""
    fd, temp_name = open_temp_beside(path)
    try:
        # os.write, not a file object: no buffer and no fstat for each of 20,000 files.
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise


def load_marshalled(path):
    """What ``marshal.dumps`` wrote to the file at ``path``. The build's caches are
    ``marshal`` data, not pickles: several times faster to write and read, and pickling a
    ``str`` leaves a UTF-8 copy of it attached to the string for its lifetime."""
    # loads, not load: marshal reads a file object piece by piece, 4× slower. From the
    # file mapped, not read into a buffer of its size: that buffer's memory is new to the
    # process, each page a fault (loading the source cache and export rows of 100,000
    # listings, 167 MB: 38,000 faults and 0.15 s of kernel time less). The caches are
    # replaced whole, never rewritten in place: a mapped file does not shrink under it.
    with open(path, "rb") as handle:
        if not os.fstat(handle.fileno()).st_size:
            return marshal.loads(b"")  # EOFError, as for any file cut short
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return marshal.loads(data)


def is_plain_relpath(relpath):
    """True if joining ``relpath`` to a folder needs no normalising: not absolute, no
    empty, ``.`` or ``..`` segment, no final slash. A page's or a card's path always is:
    the join is then one concatenation, where ``normpath`` took 2 µs for each of 200,000."""
    return bool(relpath) and relpath[0] not in "/." and relpath[-1] != "/" and (
        "/." not in relpath and "//" not in relpath)


def all_plain_relpaths(relpaths):
    """True if every one of ``relpaths`` (strings) ``is_plain_relpath`` and holds neither a
    backslash nor NUL: tested on them joined, in substring searches made in C (100,000
    pages or vCards in a rebuild, 3 µs a path one by one)."""
    if not relpaths:
        return True
    try:
        joined = "\0" + "\0".join(relpaths) + "\0"
    except TypeError:  # not all strings: one by one
        return False
    return joined.count("\0") == len(relpaths) + 1 and not any(
        mark in joined for mark in ("\\", "\0\0", "\0/", "\0.", "/\0", "/.", "//"))


def stats_below(folder, paths, stamp):
    """``stamp(os.stat(path))`` of each of ``paths`` (relative to ``folder``, or absolute),
    or None for one that cannot be stamped. Each relative to the open folder: 1 to 1.5 µs
    less a file than from its full path, for 100,000 listings, pages or vCards; each stat
    result dropped as it is stamped: 100,000 of them held at once took 15,000 page faults."""
    try:
        folder_fd = os.open(folder, os.O_RDONLY)
    except OSError:  # no folder: nothing below it
        return [None] * len(paths)
    stamps = []
    append, stat = stamps.append, os.stat
    try:
        for path in paths:
            try:
                append(stamp(stat(path, dir_fd=folder_fd)))
            except OSError:
                append(None)
    finally:
        os.close(folder_fd)
    return stamps


# A stamp for ``stats_below``: the file's size alone.
SIZE_STAMP = operator.attrgetter("st_size")


def output_file_paths(output_path, save_as_list):
    """The absolute path Pelican's writer gives each of ``save_as_list``
    (``sanitised_join``), made by concatenation when nothing needs normalising: 4 µs
    less for each of 100,000 pages."""
    if not _is_normal_folder(output_path):
        return [sanitised_join(output_path, save_as) for save_as in save_as_list]
    prefix = output_path + "/"
    if all_plain_relpaths(save_as_list):
        return list(map(prefix.__add__, save_as_list))
    return [prefix + save_as if is_plain_relpath(save_as) else sanitised_join(output_path, save_as)
            for save_as in save_as_list]


def output_file_path(output_path, save_as):
    """``output_file_paths`` of one ``save_as``."""
    if _is_normal_folder(output_path) and is_plain_relpath(save_as):
        return output_path + "/" + save_as
    return sanitised_join(output_path, save_as)


@functools.lru_cache(maxsize=8)
def _is_normal_folder(path):
    return os.sep == "/" and os.path.abspath(path) == path and not path.endswith("/")
