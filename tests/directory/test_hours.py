"""The strict reader of schema.org openingHours text."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from dalil.directory.hours import parse_hours, utc_offsets, utc_offsets_text


@pytest.mark.parametrize("text, ranges", [
    ("", ()),
    ("Mo-Fr 09:00-18:00; Sa 09:00-13:00",
     tuple((day, 540, 1080) for day in range(5)) + ((5, 540, 780),)),
    ("Mo-Su 00:00-24:00", tuple((day, 0, 1440) for day in range(7))),
    ("Fr 20:00-02:00", ((4, 1200, 1560),)),  # ends on Saturday
    ("Mo 09:00-12:00,14:00-18:00", ((0, 540, 720), (0, 840, 1080))),
    ("Mo 14:00-18:00; Mo 09:00-12:00", ((0, 540, 720), (0, 840, 1080))),
    ("Tu,Th 10:00-11:00", ((1, 600, 660), (3, 600, 660))),
    ("Sa-Mo 10:00-11:00", ((0, 600, 660), (5, 600, 660), (6, 600, 660))),
    ("Su 18:00-24:00", ((6, 1080, 1440),)),
])
def test_valid_hours(text, ranges):
    assert parse_hours(text)[1] == ranges


def test_text_is_normalised():
    assert parse_hours("  Mo-Fr   09:00-18:00 ;Sa 09:00-13:00 ")[0] == \
        "Mo-Fr 09:00-18:00; Sa 09:00-13:00"


@pytest.mark.parametrize("text, names", [
    ("Mo-Fr 9-18", "'9-18'"),
    ("Xx 09:00-10:00", "'Xx'"),
    ("mo 09:00-10:00", "'mo'"),
    ("25:00", "'25:00'"),
    ("Mo 25:00-26:00", "'25:00'"),
    ("Mo 09:60-10:00", "'09:60'"),
    ("Mo 24:00-02:00", "'24:00'"),
    ("Mo 24:30-24:40", "'24:30'"),
    ("Mo 09:00-09:00", "'09:00-09:00'"),
    ("Mo 09:00-12:00; Mo 11:00-13:00", "overlap"),
    ("Mo 09:00-10:00;", "''"),
    ("Mo-Fr", "'Mo-Fr'"),
    ("Mo-Fr 09:00", "'09:00'"),
    ("Mo- 09:00-10:00", "'Mo-'"),
    ("Mo 9:00-10:00", "'9:00-10:00'"),
    ("Mo 09:00-10:00 Tu 09:00-10:00", "is not days then times"),
    ("Mo 09h00-10h00", "'09h00-10h00'"),
])
def test_bad_hours_name_the_value(text, names):
    with pytest.raises(ValueError) as raised:
        parse_hours(text)
    assert f"Hours {text!r}" in str(raised.value)
    assert names in str(raised.value)


def decoded_offsets(text):
    """The page's ``data-utc-offsets`` read back: ``[(start, end, minutes)]`` spans, as
    aware UTC datetimes, each start after the first being the minutes since the last."""
    epoch = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
    starts, minutes = [], []
    for item in text.split(";"):
        step, offset = item.split(":")
        starts.append((starts[-1] if starts else epoch) + dt.timedelta(minutes=int(step)))
        minutes.append(int(offset) if offset else None)
    assert minutes[-1] is None and None not in minutes[:-1]
    return list(zip(starts, starts[1:], minutes))


@pytest.mark.parametrize("timezone_name", ["Africa/Casablanca", "Europe/Paris",
                                           "America/Santiago", "Asia/Kolkata", "UTC"])
def test_utc_offsets_match_tzdata_for_ten_years_after_the_build(timezone_name):
    zone = ZoneInfo(timezone_name)
    spans = decoded_offsets(utc_offsets_text(utc_offsets(timezone_name, 2026)))
    assert spans[0][0] == dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    assert spans[-1][1] == dt.datetime(2037, 1, 1, tzinfo=dt.timezone.utc)  # 2026 + 10, whole
    assert all(end > start for start, end, _ in spans)
    for (start, end, minutes), following in zip(spans, [*spans[1:], None]):
        # Every six hours of the span, and either side of its change.
        moments = [start + dt.timedelta(hours=6) * step
                   for step in range((end - start) // dt.timedelta(hours=6) + 1)]
        moments = [moment for moment in moments if moment < end] + [end - dt.timedelta(minutes=1)]
        for moment in moments:
            assert moment.astimezone(zone).utcoffset() == dt.timedelta(minutes=minutes), moment
        if following is not None:
            assert following[2] != minutes  # a pair is a change
    if timezone_name == "Africa/Casablanca":
        assert len(spans) >= 20  # the Ramadan changes of each year
    if timezone_name in ("Asia/Kolkata", "UTC"):
        assert len(spans) == 1


def test_utc_offsets_are_transitions_not_days():
    text = utc_offsets_text(utc_offsets("Africa/Casablanca", 2026))
    assert len(text) < 300, text
