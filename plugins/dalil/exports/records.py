"""The nine-field export record of a listing (the seed's field order), and its GeoJSON Feature."""

from dalil.core.urls import absolute_url

FIELDS = ("name", "category", "phone", "email", "website", "address", "image", "url",
          "dateModified")


def export_record(listing, siteurl):
    """A dict of nine strings, ``""`` for a missing value, in ``FIELDS`` order."""
    return {
        "name": listing.name,
        "category": listing.category.name,
        "phone": listing.phone,
        "email": listing.email,
        "website": listing.website,
        "address": listing.address,
        "image": absolute_url(siteurl, listing.image) if listing.image else "",
        "url": absolute_url(siteurl, listing.url),
        "dateModified": listing.date_modified,
    }


# The GeoJSON Feature's properties after the nine fields.
GEO_FIELDS = (*FIELDS, "slug", "city", "hours")


def geojson_feature(listing, record):
    """An RFC 7946 Point Feature (``[longitude, latitude]``) for a listing with coordinates."""
    properties = dict(record, slug=listing.slug, city=listing.city.name, hours=listing.hours)
    return {"type": "Feature", "id": listing.slug,
            "geometry": {"type": "Point", "coordinates": [listing.longitude, listing.latitude]},
            "properties": properties}
