"""schema.org LocalBusiness JSON-LD for a listing page."""

import json

from dalil.core.urls import absolute_url


def listing_json_ld(listing, siteurl):
    """The JSON-LD text, safe inside ``<script type="application/ld+json">``."""
    data = {
        "@context": "https://schema.org",
        "@type": "LocalBusiness",
        "name": listing.name,
        "url": absolute_url(siteurl, listing.url),
    }
    alternate = [name for name in (listing.name_en, listing.name_fr) if name]
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
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1)
    # "</script>" or "<!--" in a name must not end the script element.
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
