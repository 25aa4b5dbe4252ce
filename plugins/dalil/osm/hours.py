"""OpenStreetMap ``opening_hours`` to Dalil's ``Hours``, only where the meaning is exactly
the same.

The two syntaxes share their simplest form (``Mo-Fr 09:00-18:00; Sa 09:00-13:00``), but
in OpenStreetMap a later rule replaces what an earlier one said of the same day, where
Dalil adds the rules up: a value naming a day in two rules is not converted. ``24/7`` is
``Mo-Su 00:00-24:00``, and times without days are every day's. Anything else (public
holidays, months, weeks, ``off``, comments) is left for the operator.
"""

import functools
import re

from dalil.directory.hours import parse_hours

_TIMES_ONLY = re.compile(r"[0-9]{2}:[0-9]{2}-[0-9]{2}:[0-9]{2}(?:,[0-9]{2}:[0-9]{2}-[0-9]{2}:[0-9]{2})*")


@functools.lru_cache(maxsize=4096)  # shops of one chain share their hours
def convert_hours(value):
    """Dalil's ``Hours`` text for the OpenStreetMap value, or ValueError saying why not."""
    text = " ".join(value.split())
    if text == "24/7":
        text = "Mo-Su 00:00-24:00"
    rules = [rule.strip() for rule in text.split(";")]
    rules = [f"Mo-Su {rule}" if _TIMES_ONLY.fullmatch(rule) else rule for rule in rules if rule]
    if not rules:
        raise ValueError("empty")
    seen = set()
    for rule in rules:
        _, ranges = parse_hours(rule)  # raises ValueError on what Dalil cannot read
        days = {day for day, _, _ in ranges}
        if days & seen:
            raise ValueError("a later rule replaces an earlier one for the same day")
        seen |= days
    converted, _ = parse_hours("; ".join(rules))
    return converted
