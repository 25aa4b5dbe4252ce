"""The directory pages' part of skipping unchanged pages (``dalil.core.pagecache``): their
cache file, the names the generator gives their templates, a term's key, the global digest.
"""

import dataclasses

from dalil.core.pagecache import template_digest

from .model import Term

CACHE_NAME = "dalil_directory_pages.marshal"
# Names the directory generator passes to its templates itself.
PAGE_NAMES = {"listing", "json_ld", "summary_text", "noindex", "term", "page_listings",
              "page_number", "page_count", "previous_url", "next_url", "output_file",
              "localsiteurl", "near_me_index", "page_cards"}
# The code that makes directory pages; other plugins reach them only through context
# values, which are digested themselves.
CODE_PARTS = ("core", "directory")
_TERM_FIELDS = [f.name for f in dataclasses.fields(Term) if f.name != "listings"]


def term_key(term):
    return tuple(getattr(term, name) for name in _TERM_FIELDS)


def global_digest(generator, template_names):
    """The digest of everything a directory page depends on besides its own data, or None."""
    return template_digest(generator.env, generator.context, template_names, PAGE_NAMES,
                           generator._templates_path, CODE_PARTS)
