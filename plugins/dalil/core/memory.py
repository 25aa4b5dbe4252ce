"""Give large freed buffers back to the system at once (glibc).

glibc raises its mmap threshold each time a large block it mapped is freed, so after
the first big temporary buffer (a compressor's tables, a long page or index being
made) later ones come from the heap, and once freed stay in the process between
smaller live objects. A build makes many such buffers one after the other (exports,
search index, sitemaps), so the main process's size ratchets up by each of them.
A fixed threshold (glibc's initial 128 KiB) keeps every large buffer mapped on its
own, returned when freed: at 10,000 listings the peak fell from 165 to 136 MiB.
"""

import contextlib
import ctypes
import gc
import logging

logger = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3  # mallopt's parameter number (glibc malloc.h)
MMAP_THRESHOLD_BYTES = 128 * 1024


def return_large_buffers():
    """Fix glibc's mmap threshold; elsewhere (musl, macOS, Windows) nothing changes."""
    # The process's own symbols, where glibc's are: ctypes.util.find_library would run
    # ldconfig, a process, in every build.
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):  # TypeError: Windows takes no None
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    if mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) != 1:
        logger.debug("dalil: mallopt(M_MMAP_THRESHOLD) refused")
        return False
    return True


@contextlib.contextmanager
def kept_for_the_build():
    """Make objects that live until the build ends (the model, the loaded caches) without
    the cyclic collector: they hold no cycle, and collections would walk every one of
    them again (a tenth of a 100,000-listing rebuild). On the way out they go to the
    collector's permanent generation before it runs again: its first collection would
    walk them all at once (0.3 s at 100,000 listings). ``collect_previous_build`` gives
    them back."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def leave_build_to_exit():
    """At the end of a build: its objects (the model: millions at 100,000 listings) go to
    the collector's permanent generation, so that the interpreter's last collection does
    not walk and free them one by one as the process exits (a second of a 100,000-listing
    build). ``collect_previous_build`` gives them back when the process builds again."""
    gc.freeze()


def collect_previous_build():
    """At the start of each build (in ``invoke livereload`` and ``pelican --autoreload``
    too): the objects frozen by the last build are the collector's again."""
    gc.unfreeze()
