"""The nine-field export record of a listing (the seed's field order)."""

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
