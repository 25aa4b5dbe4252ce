"""The strict reader of schema.org openingHours text."""

import pytest

from dalil.directory.hours import parse_hours


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


def test_utc_offsets_follow_tzdata_changes():
    import datetime as dt
    from zoneinfo import ZoneInfo

    from dalil.directory.hours import utc_offsets

    offsets = utc_offsets("Africa/Casablanca", 2026)
    zone = ZoneInfo("Africa/Casablanca")
    assert offsets[-1] == (int(dt.datetime(2028, 1, 1, tzinfo=dt.timezone.utc).timestamp()) * 1000,
                           None)
    for (start, minutes), (end, _) in zip(offsets, offsets[1:]):
        for millis in (start, end - 1):  # both ends of each span agree with zoneinfo
            moment = dt.datetime.fromtimestamp(millis / 1000, dt.timezone.utc)
            assert moment.astimezone(zone).utcoffset() == dt.timedelta(minutes=minutes)
    assert len(offsets) > 3  # Ramadan changes
    assert utc_offsets("Asia/Kolkata", 2026)[0][1] == 330
