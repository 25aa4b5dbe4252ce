"""Typed, prefixed settings: read once into a frozen dataclass, never written back."""

import dataclasses
import logging

logger = logging.getLogger(__name__)

# A dict that ``invoke livereload`` puts in the settings it builds with: what one of its
# in-process builds leaves there, the next finds (the directory's source records).
# Settings read again start it empty. Not a setting: lowercase, in no digest or salt.
BUILD_MEMORY_KEY = "dalil_build_memory"


def read_settings(cls, settings, prefix):
    """Build ``cls`` from the ``PREFIX_NAME`` keys of Pelican's settings.

    Keys with the prefix that ``cls`` does not know are warned about, so a typo
    never silently falls back to a default.
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
    return cls(**values)
