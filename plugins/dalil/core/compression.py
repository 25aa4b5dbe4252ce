"""Precompressed copies (``.br``, ``.gz``) of the large data files, made of parts.

Servers send them as they are (nginx ``gzip_static``, the snippet's ``.br`` rule,
``.htaccess``). Each copy is one standard stream made of parts that are compressed
alone and joined, as pigz joins its blocks: a rebuild compresses again only the parts
an edit touched and takes the others from the last build's memo. A part ends at the
first line end or ``},`` past its minimum size whose last 16 bytes hash to a chosen
value: the cuts are set by the content, so an edit moves at most the cut after it.
"""

import contextlib
import ctypes
import functools
import hashlib
import mmap
import os
import re
import struct
import zlib

import brotli

PRECOMPRESSED = (".br", ".gz")

# gzip at zlib's default level (6), without a name or time: a third of the time of level
# 9 (17 against 50 MB/s on the exports), for copies 5 to 8% larger, which only clients
# without brotli take. Each part is compressed with the 32 KiB before it as its
# dictionary: the copy is 0.4-0.7% larger than one ``gzip.compress`` at the same level.
GZIP_LEVEL = 6
GZIP_SEGMENT_MIN, GZIP_SEGMENT_MAX, GZIP_WINDOW = 1 << 16, 1 << 20, 1 << 15
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"  # deflate, mtime 0, no flags, Unix: as zlib
_GZIP_LAST_BLOCK = b"\x03\x00"  # an empty final block after the segments' sync flushes

# Brotli at quality 5 with a 256 KiB window: its encoder holds about 10 MiB instead of
# the 40 MiB of quality 9 with a 4 MiB window, for copies 1 to 6% larger; quality 5
# takes two thirds of the time of 7 for copies 1 to 3% larger. A part cannot look back
# into the one before it (brotli's stream offset, made for joining streams), so parts
# are at least 1 MiB: the copy of a 43 MB export is 0.7% larger than one stream. From
# a window's length on, a part's bytes are the same wherever it starts.
BROTLI_QUALITY, BROTLI_LGWIN = 5, 18
BROTLI_SEGMENT_MIN, BROTLI_SEGMENT_MAX = 1 << 20, 1 << 22
assert BROTLI_SEGMENT_MIN >= 1 << BROTLI_LGWIN
_BROTLI_LAST_BLOCK = b"\x03"  # ISLAST and ISLASTEMPTY, after the parts' flushes
CHUNK_SIZE = 1 << 16
# The pages of a mapped file read already are let go this many bytes at a time.
RELEASE_MIN = 1 << 24

_CUT = re.compile(rb"\n|\},")


def segment_ends(data, minimum, maximum):
    """Where each part of ``data`` (bytes-like) ends, parts of ``minimum`` to ``maximum`` bytes."""
    start, size = 0, len(data)
    while start < size:
        end, limit = start + minimum, min(size, start + maximum)
        while end < limit:
            found = _CUT.search(data, end, limit)
            end = limit if found is None else found.end()
            if found is None or zlib.crc32(data[end - 16:end]) & 15 == 0:
                break
        start = min(end, size)
        yield start


def _part_key(flag, *pieces):
    """A part's key: 16 bytes of the SHA-256 of ``flag`` (one byte) and ``pieces``, which
    every part hashes whole (150 MB for the exports' two copies in a rebuild at 100,000
    listings): SHA-256, which processors run in hardware, took half BLAKE2b's time."""
    hasher = hashlib.sha256(b"\x01" if flag else b"\x00")
    for piece in pieces:
        hasher.update(piece)
    return hasher.digest()[:16]


def gzip_parts(data, memo=None, used=None, release=None):
    """The gzip copy of ``data`` (bytes-like), part by part. ``memo`` maps a segment's key
    (its bytes and dictionary) to its compressed bytes; ``used`` gets this copy's.
    ``release(offset)`` is told when the bytes before ``offset`` are read for good."""
    yield _GZIP_HEADER
    start, crc = 0, 0
    for end in segment_ends(data, GZIP_SEGMENT_MIN, GZIP_SEGMENT_MAX):
        window, segment = data[max(0, start - GZIP_WINDOW):start], data[start:end]
        key = _part_key(bool(start), window, segment)  # a window is empty or GZIP_WINDOW long
        deflated = memo.get(key) if memo else None
        if deflated is None:
            compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, -15, **({"zdict": window} if start else {}))
            deflated = compressor.compress(segment) + compressor.flush(zlib.Z_SYNC_FLUSH)
        if used is not None:
            used[key] = deflated
        crc = zlib.crc32(segment, crc)
        yield deflated
        if release is not None:
            release(end - GZIP_WINDOW)
        start = end
    yield _GZIP_LAST_BLOCK + struct.pack("<II", crc, len(data) & 0xFFFFFFFF)


def brotli_parts(data, memo=None, used=None, release=None):
    """The brotli copy of ``data`` (bytes-like), part by part; ``memo``, ``used`` and
    ``release`` as ``gzip_parts``, a part's key its bytes and whether it is the first.
    Where the brotli library's encoder cannot be reached (see ``_part_encoder``), one
    stream."""
    encode = _part_encoder()
    if encode is None:
        compressor = brotli.Compressor(quality=BROTLI_QUALITY, lgwin=BROTLI_LGWIN)
        for start in range(0, len(data), CHUNK_SIZE):
            yield compressor.process(bytes(data[start:start + CHUNK_SIZE]))
        yield compressor.finish()
        return
    start = 0
    for end in segment_ends(data, BROTLI_SEGMENT_MIN, BROTLI_SEGMENT_MAX) if data else [0]:
        segment = data[start:end]
        key = _part_key(start == 0, segment)
        part = memo.get(key) if memo else None
        if part is None:
            part = encode(segment, start)
        if used is not None:
            used[key] = part
        yield part
        if release is not None:
            release(end)
        start = end
    yield _BROTLI_LAST_BLOCK


# BrotliEncoderParameter and BrotliEncoderOperation values of the library's encode.h.
_MODE, _QUALITY, _LGWIN, _STREAM_OFFSET = 0, 1, 2, 9
_PROCESS, _FLUSH = 0, 1
_STREAM_OFFSET_MAX = 1 << 30


@functools.cache
def _part_encoder():
    """``encode(segment, offset)``: ``segment`` compressed as the part of a brotli stream
    that starts ``offset`` bytes in, flushed, through the brotli library's own encoder in
    the ``brotli`` package's module (its Python API has no stream offset); None if that
    module does not export it."""
    try:
        library = ctypes.CDLL(brotli._brotli.__file__)
        create, set_parameter, compress, has_more, destroy = (
            library.BrotliEncoderCreateInstance, library.BrotliEncoderSetParameter,
            library.BrotliEncoderCompressStream, library.BrotliEncoderHasMoreOutput,
            library.BrotliEncoderDestroyInstance)
    except (AttributeError, OSError):
        return None
    size_p, pointer_p = ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_void_p)
    create.restype, create.argtypes = ctypes.c_void_p, [ctypes.c_void_p] * 3
    set_parameter.restype = ctypes.c_int
    set_parameter.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32]
    compress.restype = ctypes.c_int
    compress.argtypes = [ctypes.c_void_p, ctypes.c_int, size_p, pointer_p, size_p, pointer_p,
                         ctypes.c_void_p]
    has_more.restype, has_more.argtypes = ctypes.c_int, [ctypes.c_void_p]
    destroy.restype, destroy.argtypes = None, [ctypes.c_void_p]

    def encode(segment, offset):
        state = create(None, None, None)
        if not state:
            raise MemoryError("brotli: no encoder")
        try:
            for parameter, value in ((_MODE, brotli.MODE_GENERIC), (_QUALITY, BROTLI_QUALITY),
                                     (_LGWIN, BROTLI_LGWIN),
                                     (_STREAM_OFFSET, min(offset, _STREAM_OFFSET_MAX))):
                if not set_parameter(state, parameter, value):
                    raise ValueError(f"brotli: parameter {parameter} = {value} refused")
            source = bytes(segment)  # read in place: the encoder never writes to it
            available_in = ctypes.c_size_t(len(source))
            next_in = ctypes.cast(ctypes.c_char_p(source), ctypes.c_void_p)
            sink = ctypes.create_string_buffer(CHUNK_SIZE)
            parts = []
            for operation in (_PROCESS, _FLUSH):
                while True:  # a flush is done when the input is all taken and no output is left
                    available_out = ctypes.c_size_t(CHUNK_SIZE)
                    next_out = ctypes.c_void_p(ctypes.addressof(sink))
                    if not compress(state, operation, ctypes.byref(available_in), ctypes.byref(next_in),
                                    ctypes.byref(available_out), ctypes.byref(next_out), None):
                        raise ValueError("brotli: the encoder failed")
                    parts.append(sink.raw[:CHUNK_SIZE - available_out.value])
                    if not available_in.value and not has_more(state):
                        break
            return b"".join(parts)
        finally:
            destroy(state)

    return encode


_PARTS = {".gz": gzip_parts, ".br": brotli_parts}


def compress_file(source, handle, suffix, memo=None, used=None):
    """Write the ``suffix`` copy of the file at ``source`` to ``handle``; ``memo`` and
    ``used`` as ``gzip_parts``. The file is mapped, never held whole, and its parts are
    hashed where they lie: a slice of the map would copy each one (the exports' 75 MB
    for each copy in a rebuild at 100,000 listings, a page fault for every 4 KiB). The
    pages read are let go as the copy goes on: mapped, a million listings' 1.6 GB export
    would count in the process's memory whole by its end."""
    with open(source, "rb") as stream:
        size = os.fstat(stream.fileno()).st_size
        with (mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) if size
              else contextlib.nullcontext(b"")) as mapped, memoryview(mapped) as data:
            released = 0

            def release(offset):
                nonlocal released
                offset -= offset % mmap.PAGESIZE
                if offset - released >= RELEASE_MIN:
                    mapped.madvise(mmap.MADV_DONTNEED, released, offset - released)
                    released = offset

            can_release = size and hasattr(mmap, "MADV_DONTNEED")  # not on Windows
            for part in _PARTS[suffix](data, memo, used, release if can_release else None):
                handle.write(part)


def compressed(data, suffix):
    """The ``suffix`` (``.br`` or ``.gz``) copy of ``data``, as ``compress_file`` makes it."""
    return b"".join(_PARTS[suffix](data))


def parts_purpose(suffix):
    """What a memo of ``suffix`` parts depends on besides their keys: the libraries and
    the way parts are made."""
    return ("precompressed parts", "sha256", suffix, zlib.ZLIB_RUNTIME_VERSION, brotli.__version__,
            _part_encoder() is not None, GZIP_LEVEL, GZIP_SEGMENT_MIN, GZIP_SEGMENT_MAX,
            BROTLI_QUALITY, BROTLI_LGWIN, BROTLI_SEGMENT_MIN, BROTLI_SEGMENT_MAX)
