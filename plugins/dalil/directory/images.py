"""A listing's image on the site must be one of the files the site publishes."""

import logging
from urllib.parse import unquote

from dalil.core.errors import ContentErrors

from .model import CONTEXT_KEY
from .validate import shown

logger = logging.getLogger(__name__)


def check_listing_images(static_generator):
    """``static_generator_finalized`` (the content's static files are known, nothing is
    written yet): a listing whose ``Image`` is a path on the site that no static file has
    is a content error naming its source file, for its page, JSON-LD, vCard and exports
    would point to a missing file. Drafts and hidden listings have pages too."""
    directory = static_generator.context.get(CONTEXT_KEY)
    if directory is None:
        return
    published = {"/" + static.url for static in static_generator.staticfiles}
    errors = ContentErrors()
    for listing in (*directory.listings, *directory.hidden, *directory.drafts):
        image = listing.image
        if image.startswith("/") and image not in published and unquote(image) not in published:
            errors.add(listing.source_path, "Image %s is not a file of the site (none in %s)",
                       shown(image), ", ".join(static_generator.settings["STATIC_PATHS"]))
    errors.report(logger)
