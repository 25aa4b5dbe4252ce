"""Opening hours in schema.org's ``openingHours`` syntax, read strictly.

``Mo-Fr 09:00-18:00; Sa 09:00-13:00``: rules separated by ``;``, each a list of
days and day ranges (``Mo,We-Fr``) then a list of time ranges (``09:00-12:00,14:00-18:00``).
A range whose end is not after its start ends on the next day (``Fr 20:00-02:00``);
``00:00-24:00`` is the whole day. The OpenStreetMap ``opening_hours`` libraries on
PyPI read a different, larger grammar, so this small parser is the exact one.
"""

import datetime as dt
import re
from zoneinfo import ZoneInfo

DAYS = ("Mo", "Tu", "We", "Th", "Fr", "Sa", "Su")
SCHEMA_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MINUTES_PER_DAY = 24 * 60

_RULE = re.compile(r"(?P<days>\S+) (?P<times>\S+)")
_DAY_ITEM = re.compile(r"(?P<first>[A-Za-z]{2})(?:-(?P<last>[A-Za-z]{2}))?")
_TIME_RANGE = re.compile(r"(?P<opens>[0-9]{2}:[0-9]{2})-(?P<closes>[0-9]{2}:[0-9]{2})")


def _day(token, text):
    if token not in DAYS:
        raise ValueError(f"Hours {text!r}: {token!r} is not a day ({', '.join(DAYS)})")
    return DAYS.index(token)


def _days(spec, text):
    days = []
    for item in spec.split(","):
        match = _DAY_ITEM.fullmatch(item)
        if not match:
            raise ValueError(f"Hours {text!r}: {item!r} is not a day or day range such as Mo-Fr")
        first = _day(match["first"], text)
        last = _day(match["last"], text) if match["last"] else first
        # Sa-Mo wraps past Sunday, as in opening_hours.
        days += [(first + offset) % 7 for offset in range((last - first) % 7 + 1)]
    return days


def _minutes(clock, text, closing):
    hours, minutes = int(clock[:2]), int(clock[3:])
    if minutes > 59 or hours > 24 or (hours == 24 and (minutes or not closing)):
        raise ValueError(f"Hours {text!r}: {clock!r} is not a time of day (00:00 to 23:59, "
                         "or 24:00 as a closing time)")
    return hours * 60 + minutes


def _times(spec, text):
    ranges = []
    for item in spec.split(","):
        match = _TIME_RANGE.fullmatch(item)
        if not match:
            raise ValueError(f"Hours {text!r}: {item!r} is not a time range such as 09:00-18:00")
        opens = _minutes(match["opens"], text, closing=False)
        closes = _minutes(match["closes"], text, closing=True)
        if opens == closes:
            raise ValueError(f"Hours {text!r}: {item!r} opens and closes at the same time "
                             "(write 00:00-24:00 for the whole day)")
        ranges.append((opens, closes if closes > opens else closes + MINUTES_PER_DAY))
    return ranges


def clock(minutes):
    """``HH:MM`` of a minute of the day (1440 is ``24:00``)."""
    return "%02d:%02d" % divmod(minutes, 60)


def parse_hours(value):
    """``(text, ranges)``: the rules with spaces normalised, and ``(day, opens, closes)``
    triples (day 0 is Monday; minutes from that day's midnight, ``closes`` past 1440 when
    the range ends the next day), ordered. Raises ValueError naming the bad part."""
    text = " ".join(str(value or "").split())
    if not text:
        return "", ()
    rules = [rule.strip() for rule in text.split(";")]
    ranges = set()
    for rule in rules:
        match = _RULE.fullmatch(rule)
        if not match:
            raise ValueError(f"Hours {text!r}: {rule!r} is not days then times, such as "
                             "'Mo-Fr 09:00-18:00'")
        days = _days(match["days"], text)
        times = _times(match["times"], text)
        ranges.update((day, opens, closes) for day in days for opens, closes in times)
    ordered = sorted(ranges)
    for (day, _, closes), (next_day, next_opens, _) in zip(ordered, ordered[1:]):
        if day == next_day and next_opens < closes:
            raise ValueError(f"Hours {text!r}: two ranges of {DAYS[day]} overlap")
    return "; ".join(rules), tuple(ordered)


# Years after the build year whose UTC offsets a listing page carries: its "open now"
# follows the build's tzdata, not the browser's, for a decade without a rebuild.
OFFSET_YEARS = 10


def utc_offsets(timezone_name, year, years=OFFSET_YEARS):
    """The zone's UTC offsets from January of ``year`` to the end of ``year + years``, as
    ``(start, minutes)`` pairs, ``start`` in minutes since the epoch (every zone changes
    on a whole minute), then the window's end as ``(end, None)``: a pair a change, not a
    table of days (Casablanca: two a year, around Ramadan)."""
    zone = ZoneInfo(timezone_name)

    def offset(moment):
        return int(moment.astimezone(zone).utcoffset().total_seconds() // 60)

    day, quarter = dt.timedelta(days=1), dt.timedelta(minutes=15)
    moment = dt.datetime(year, 1, 1, tzinfo=dt.timezone.utc)
    end = dt.datetime(year + years + 1, 1, 1, tzinfo=dt.timezone.utc)
    offsets = [(moment, offset(moment))]
    while moment < end:
        following = min(moment + day, end)
        if offset(following) != offsets[-1][1]:
            # The change lies in this day; every zone changes on a quarter hour.
            low, high = moment, following
            while high - low > quarter:
                middle = low + (high - low) // 2 // quarter * quarter
                low, high = (middle, high) if offset(middle) == offsets[-1][1] else (low, middle)
            offsets.append((high, offset(high)))
        moment = following
    offsets.append((end, None))
    return tuple((int(start.timestamp()) // 60, minutes) for start, minutes in offsets)


def utc_offsets_text(offsets):
    """``utc_offsets`` as a listing page carries them (``data-utc-offsets``, read by
    ``theme/js/hours.js``): ``start:minutes;step:minutes;…;step:``, each start after the
    first given as the minutes since the one before (a third shorter than each in full)."""
    items, previous = [], 0
    for start, minutes in offsets:
        items.append(f"{start - previous}:{'' if minutes is None else minutes}")
        previous = start
    return ";".join(items)
