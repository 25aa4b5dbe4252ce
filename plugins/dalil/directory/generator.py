"""The directory generator: reads listings, categories and cities; writes their pages."""

import logging
import os
import posixpath
from pathlib import Path

from pelican.generators import Generator
from pelican.readers import Readers

from dalil.core.dates import to_utc
from dalil.core.errors import ContentErrors
from dalil.core.pages import register_page
from dalil.core.slugs import derive_slug, is_valid_slug
from dalil.core.templates import add_plugin_templates
from dalil.core.text import html_text, plain_text

from . import validate
from .jsonld import listing_json_ld
from .model import CONTEXT_KEY, Directory, Listing, Term
from .settings import directory_settings

logger = logging.getLogger(__name__)

TEMPLATES_DIR = Path(__file__).parent / "templates"


class SourceFile:
    """What Pelican's readers give back: body HTML and processed metadata."""

    def __init__(self, content, metadata, settings, source_path, context):
        self.content = content or ""
        self.metadata = metadata
        self.source_path = source_path


class DirectoryGenerator(Generator):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Pelican's article defaults (category from the folder name, date from the
        # file name, DEFAULT_METADATA) must not invent listing metadata.
        reader_settings = dict(self.settings, USE_FOLDER_AS_CATEGORY=False, DEFAULT_METADATA={},
                               DEFAULT_DATE=None, CATEGORY_SAVE_AS="", FILENAME_METADATA="",
                               PATH_METADATA="")
        self.readers = Readers(reader_settings, "dalil-directory")
        add_plugin_templates(self, TEMPLATES_DIR)
        self.config = directory_settings(self.settings)
        self.directory = None

    # -- reading ---------------------------------------------------------

    def _display_path(self, source_path):
        """``content/listings/x.md``: the path an operator recognises."""
        base = os.path.dirname(os.path.abspath(self.path))
        return Path(os.path.relpath(source_path, base)).as_posix()

    def _read_all(self, paths, errors):
        sources = []
        extensions = self.readers.extensions
        for relpath in sorted(self.get_files(list(paths), extensions=extensions)):
            full_path = os.path.join(self.path, relpath)
            try:
                source = self.readers.read_file(
                    base_path=self.path, path=relpath, content_class=SourceFile, context=self.context
                )
            except Exception as error:  # a reader's own error: bad date, bad encoding, ...
                errors.add(self._display_path(full_path), "cannot be read: %s", error)
                continue
            source.display_path = self._display_path(source.source_path)
            sources.append(source)
        return sources

    def _slug(self, source, errors, *name_candidates):
        given = source.metadata.get("slug")
        if given is not None:
            slug = str(given).strip()
            if not is_valid_slug(slug):
                errors.add(source.display_path,
                           "Slug %r is not of the form [a-z0-9]+(-[a-z0-9]+)*", slug)
                return None
            return slug
        slug = derive_slug(*name_candidates)
        if not slug:
            errors.add(source.display_path, "no Slug given and none can be derived from its names")
            return None
        return slug

    def _read_terms(self, kind, paths, url_pattern, save_as_pattern, errors):
        terms = {}
        for source in self._read_all(paths, errors):
            meta = source.metadata
            name = plain_text(meta.get("title"))
            if not name:
                errors.add(source.display_path, "has no Title (the Arabic name of the %s)", kind)
                continue
            name_en, name_fr = plain_text(meta.get("name_en")), plain_text(meta.get("name_fr"))
            slug = self._slug(source, errors, name_en, name_fr, name)
            if slug is None:
                continue
            if slug in terms:
                errors.add(source.display_path, "duplicate %s slug %r, also used by %s",
                           kind, slug, terms[slug].source_path)
                continue
            terms[slug] = Term(
                kind=kind, slug=slug, name=name, name_en=name_en, name_fr=name_fr,
                province=plain_text(meta.get("province")),
                description=html_text(source.content),
                source_path=source.display_path,
                url=url_pattern.format(slug=slug), save_as=save_as_pattern.format(slug=slug),
            )
        return terms

    def _read_listings(self, categories, cities, errors):
        cfg = self.config
        timezone = self.settings.get("TIMEZONE", "UTC")
        by_slug = {}
        for source in self._read_all(cfg.listing_paths, errors):
            meta, where = source.metadata, source.display_path
            name = plain_text(meta.get("title"))
            if not name:
                errors.add(where, "has no Title (the Arabic name of the business)")
                continue
            problems = []
            terms = {}
            for key, known in (("category", categories), ("city", cities)):
                term_slug = plain_text(str(meta.get(key) or ""))
                if not term_slug:
                    problems.append(f"has no {key.capitalize()}")
                elif term_slug not in known:
                    problems.append(f"names unknown {key} {term_slug!r}")
                else:
                    terms[key] = known[term_slug]
            fields = {}
            for key, clean in (("phone", validate.clean_phone), ("email", validate.clean_email),
                               ("website", validate.clean_website), ("image", validate.clean_image),
                               ("status", validate.clean_status)):
                try:
                    fields[key] = clean(meta.get(key))
                except ValueError as error:
                    problems.append(str(error))
            name_en, name_fr = plain_text(meta.get("name_en")), plain_text(meta.get("name_fr"))
            slug = self._slug(source, errors, name_en, name_fr, name)
            if problems or slug is None:
                for problem in problems:
                    errors.add(where, "%s", problem)
                continue
            if slug in by_slug:
                errors.add(where, "duplicate listing slug %r, also used by %s",
                           slug, by_slug[slug].source_path)
                continue
            draft = fields["status"] == "draft"
            url_pattern = cfg.listing_draft_url if draft else cfg.listing_url
            save_as_pattern = cfg.listing_draft_save_as if draft else cfg.listing_save_as
            by_slug[slug] = Listing(
                slug=slug, name=name, name_en=name_en, name_fr=name_fr,
                category=terms["category"], city=terms["city"],
                street=plain_text(meta.get("street")),
                postal_code=plain_text(meta.get("postal_code")),
                country=plain_text(meta.get("country")) or cfg.default_country,
                date=to_utc(meta.get("date"), timezone),
                modified=to_utc(meta.get("modified"), timezone),
                summary=html_text(meta.get("summary")),
                content=html_text(source.content),
                source_path=where,
                url=url_pattern.format(slug=slug), save_as=save_as_pattern.format(slug=slug),
                **fields,
            )
        return [by_slug[slug] for slug in sorted(by_slug)]

    def generate_context(self):
        cfg = self.config
        errors = ContentErrors()
        categories = self._read_terms("category", cfg.category_paths, cfg.category_url,
                                      cfg.category_save_as, errors)
        cities = self._read_terms("city", cfg.city_paths, cfg.city_url, cfg.city_save_as, errors)
        listings = self._read_listings(categories, cities, errors)
        self.readers.save_cache()

        published = [listing for listing in listings if listing.status == "published"]
        for listing in published:
            listing.category.listings.append(listing)
            listing.city.listings.append(listing)
        for term in (*categories.values(), *cities.values()):
            term.listings.sort(key=lambda listing: (listing.name, listing.slug))

        self.directory = Directory(
            listings=published,
            hidden=[listing for listing in listings if listing.status == "hidden"],
            drafts=[listing for listing in listings if listing.status == "draft"],
            categories=[categories[slug] for slug in sorted(categories)],
            cities=[cities[slug] for slug in sorted(cities)],
        )
        self.context[CONTEXT_KEY] = self.directory
        register_page(self.context, cfg.index_url, "الدليل")
        for save_as in cfg.not_found_save_as:
            url = save_as[: -len("index.html")] if save_as.endswith("/index.html") else save_as
            register_page(self.context, url, "الصفحة غير موجودة", indexable=False)
        errors.report(logger)

    # -- writing ---------------------------------------------------------

    def generate_output(self, writer):
        cfg = self.config
        directory = self.directory
        siteurl = self.settings.get("SITEURL", "")
        listing_template = self.get_template("directory/listing")
        for listing in (*directory.listings, *directory.hidden, *directory.drafts):
            writer.write_file(
                listing.save_as, listing_template, self.context,
                listing=listing, json_ld=listing_json_ld(listing, siteurl),
                noindex=listing.status == "draft",
            )
        term_template = self.get_template("directory/term")
        for term in (*directory.categories, *directory.cities):
            self._write_paginated(writer, term_template, term)
        writer.write_file(cfg.index_save_as, self.get_template("directory/index"), self.context)
        not_found = self.get_template("404")
        for save_as in cfg.not_found_save_as:
            writer.write_file(save_as, not_found, self.context, noindex=True)

    def _write_paginated(self, writer, template, term):
        cfg = self.config
        per_page = max(1, int(cfg.per_page))
        chunks = [term.listings[i:i + per_page] for i in range(0, len(term.listings), per_page)]
        chunks = chunks or [[]]
        base_dir = posixpath.dirname(term.save_as)

        def page_url(number):
            return term.url if number == 1 else term.url + cfg.page_url.format(number=number)

        for number, chunk in enumerate(chunks, start=1):
            save_as = term.save_as if number == 1 else posixpath.join(
                base_dir, cfg.page_url.format(number=number), "index.html")
            writer.write_file(
                save_as, template, self.context,
                term=term, page_listings=chunk, page_number=number, page_count=len(chunks),
                previous_url=page_url(number - 1) if number > 1 else "",
                next_url=page_url(number + 1) if number < len(chunks) else "",
            )
