"""Build time and date formats shared by every output."""

import datetime as dt
import os
from zoneinfo import ZoneInfo

UTC = dt.timezone.utc


def build_time():
    """The build's time: ``SOURCE_DATE_EPOCH`` when set, so builds are reproducible."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        return dt.datetime.fromtimestamp(int(epoch), UTC)
    return dt.datetime.now(UTC)


def to_utc(value, timezone_name="UTC"):
    """An aware UTC datetime; naive values are read in the site's ``TIMEZONE``."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=ZoneInfo(timezone_name))
    return value.astimezone(UTC)


def rfc3339(value):
    """``2026-11-20T09:30:00Z``: UTC, whole seconds."""
    # isoformat, not strftime: half the time (one per sitemap URL), and a four-digit year.
    return value.astimezone(UTC).isoformat(timespec="seconds")[:-6] + "Z"  # -6: "+00:00"


def rfc3339_millis(value):
    """``2026-11-20T09:30:00.123Z``: UTC, milliseconds."""
    return value.astimezone(UTC).isoformat(timespec="milliseconds")[:-6] + "Z"
