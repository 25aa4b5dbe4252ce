"""Typed, prefixed settings: read once into a frozen dataclass, never written back."""

import dataclasses
import logging

logger = logging.getLogger(__name__)

# A dict that ``invoke livereload`` puts in the settings it builds with: what one of its
# in-process builds leaves there, the next finds (the directory's source records).
# Settings read again start it empty. Not a setting: lowercase, in no digest or salt.
BUILD_MEMORY_KEY = "dalil_build_memory"
# Settings that change how a build runs, never what it writes: no cache key holds them.
# DEBUG, PORT and BIND come from pelican's command line, which ``invoke livereload``'s
# in-process builds do not have: keyed, each kind of build would undo the other's caches.
# In the build of a language after the first (``dalil.core.languages``): the folder of
# its pages, "fr/"; none in the first language's. Not a setting: lowercase.
LANGUAGE_PATH_KEY = "dalil_language_path"
NOT_OUTPUT_SETTINGS = frozenset({"DALIL_DIRECTORY_WORKERS", "CACHE_CONTENT", "LOAD_CONTENT_CACHE",
                                 "DALIL_PERF_TIMINGS_PATH", "DEBUG", "PORT", "BIND"})


def setting(default, doc):
    """A field of a settings class: its default and what it means (``doc``, Markdown),
    which the settings reference of docs/operators.md shows (``invoke settings-reference``)."""
    return dataclasses.field(default=default, metadata={"doc": doc})


def language_path(settings):
    """The folder of this build's pages: "" at the root (the first language)."""
    return settings.get(LANGUAGE_PATH_KEY, "")


def read_settings(cls, settings, prefix):
    """Build ``cls`` from the ``PREFIX_NAME`` keys of Pelican's settings.

    Keys with the prefix that ``cls`` does not know are warned about, so a typo
    never silently falls back to a default. The fields ``cls.PAGES`` names (the
    URLs and paths of pages, not of data files) are below the build's language
    folder (``language_path``).
    """
    known = {field.name for field in dataclasses.fields(cls)}
    values = {}
    for key in sorted(settings):
        if not key.startswith(prefix):
            continue
        name = key[len(prefix):].lower()
        if name in known:
            values[name] = settings[key]
        else:
            logger.warning("dalil: unknown setting %s (known: %s)", key,
                           ", ".join(prefix + n.upper() for n in sorted(known)))
    path = language_path(settings)
    for name in getattr(cls, "PAGES", ()) if path else ():
        values[name] = below_folder(values.get(name, getattr(cls, name)), path)
    return cls(**values)


def below_folder(value, path):
    """``value`` (a path, or a tuple of them; "" stays off) below the folder ``path``."""
    if isinstance(value, (tuple, list)):
        return type(value)(below_folder(item, path) for item in value)
    return path + value if value else value
