"""schema.org LocalBusiness JSON-LD for a listing page."""

import json

from dalil.core.i18n import shown_name
from dalil.core.urls import absolute_url

from .hours import MINUTES_PER_DAY, SCHEMA_DAYS, clock

# Compact: without indent, json uses its C encoder (a third of the time per page). Made
# once: json.dumps with options makes an encoder on every call (a fifth of the time).
_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def opening_hours_specification(opening_ranges):
    """One OpeningHoursSpecification per distinct (opens, closes), with its days.

    A ``closes`` before ``opens`` ends the next day (schema.org's rule); the end of the
    day is 23:59, as search engines read "open 24 hours" (schema.org has no 24:00).
    """
    days_by_times = {}
    for day, opens, closes in opening_ranges:
        ends = closes - MINUTES_PER_DAY if closes > MINUTES_PER_DAY else closes
        times = (clock(opens), "23:59" if ends == MINUTES_PER_DAY else clock(ends))
        days_by_times.setdefault(times, []).append(day)
    ordered = sorted(days_by_times.items(), key=lambda item: (item[1][0], item[0]))
    return [{"@type": "OpeningHoursSpecification",
             "dayOfWeek": ["https://schema.org/" + SCHEMA_DAYS[day] for day in days],
             "opens": opens, "closes": closes}
            for (opens, closes), days in ordered]


def listing_json_ld(listing, siteurl, summary_text, name_field=None):
    """The JSON-LD text, safe inside ``<script type="application/ld+json">``;
    ``summary_text`` is ``plain_text`` of the listing's summary, which its page shows too.
    ``name_field`` is ``local_name_field``'s: the ``name`` is the one the page shows, in
    its language where the listing has it, and the listing's other names are its
    ``alternateName``. The postal address stays as written, like the page's."""
    name = shown_name(listing, name_field)
    data = {
        "@context": "https://schema.org",
        "@type": listing.category.schema_type,
        "name": name,
        "url": absolute_url(siteurl, listing.url),
    }
    # A language without a name field (name_ar on a site written in English) shows the Title.
    shown_field = name_field if name_field and getattr(listing, name_field, "") else "name"
    alternate = [getattr(listing, field) for field in ("name", "name_en", "name_fr")
                 if field != shown_field and getattr(listing, field)]
    if alternate:
        data["alternateName"] = alternate
    if listing.phone:
        data["telephone"] = listing.phone
    if listing.email:
        data["email"] = listing.email
    if listing.website:
        data["sameAs"] = listing.website
    if listing.image:
        data["image"] = absolute_url(siteurl, listing.image)
    if summary_text:
        data["description"] = summary_text
    if listing.has_coordinates:
        data["geo"] = {"@type": "GeoCoordinates", "latitude": listing.latitude,
                       "longitude": listing.longitude}
    if listing.opening_ranges:
        data["openingHoursSpecification"] = opening_hours_specification(listing.opening_ranges)
    address = {"@type": "PostalAddress", "addressLocality": listing.city.name}
    if listing.street:
        address["streetAddress"] = listing.street
    if listing.postal_code:
        address["postalCode"] = listing.postal_code
    if listing.city.province:
        address["addressRegion"] = listing.city.province
    if listing.country:
        address["addressCountry"] = listing.country
    data["address"] = address
    text = _ENCODER.encode(data)
    # "</script>" or "<!--" in a name must not end the script element.
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
