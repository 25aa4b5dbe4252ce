"""A test-only plugin: every listing's card from the build's writer against vobject's.

``test_vcard_writer`` adds it to ``PLUGINS``; at the end of the build it writes
``vcard-reference.json`` beside the settings: how many listings were compared and
the slugs whose two cards differ, with both texts.
"""

import json
import os

from pelican import signals

from dalil.directory.model import CONTEXT_KEY
from dalil.exports.vcard import listing_vcard, listing_vcard_vobject

REPORT_NAME = "vcard-reference.json"


def compare(generators):
    context = generators[0].context
    directory = context[CONTEXT_KEY]
    listings = [*directory.listings, *directory.hidden, *directory.drafts]
    different = []
    for listing in listings:
        fast, reference = listing_vcard(listing), listing_vcard_vobject(listing)
        if fast != reference:
            different.append({"slug": listing.slug, "fast": fast, "vobject": reference})
    report = {"compared": len(listings), "different": different}
    path = os.path.join(os.path.dirname(context["CACHE_PATH"]), REPORT_NAME)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(report, handle, ensure_ascii=False)


def register():
    signals.all_generators_finalized.connect(compare)
