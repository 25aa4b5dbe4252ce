"""Making the directory model from the records read, for ``DirectoryGenerator``: the
categories and cities, the listings in their names' order, the translations shown."""

import datetime as dt
import struct

from dalil.core.i18n import shown_name
from dalil.core.pagecache import digest
from dalil.core.text import report_removed

from .collation import WordCollator
from .incremental import term_key
from .model import CORE_FIELDS, Directory, Listing, Term, cached_listing
from .sources import LISTING_INDEX, is_translation

# Where a listing's record holds its slug and its terms' slugs: among every value, or among
# its core values (from the cache).
_TERMS_AT = _SLUG, _CATEGORY, _CITY = tuple(
    LISTING_INDEX[name] for name in ("slug", "category", "city"))
_CORE_TERMS_AT = tuple(CORE_FIELDS.index(name) for name in ("slug", "category", "city"))
_DATES = (LISTING_INDEX["date"], LISTING_INDEX["modified"])
# How many of the newest listings the model keeps for ``Directory.recent``.
NEWEST_KNOWN = 64


class Assembly:
    """The directory generator's model: terms, listings and translations from their records."""

    def collation_key(self, name):
        """``name``'s Unicode collation key (the table is loaded on first use), packed as
        big-endian 32-bit weights: bytes compare as the tuple of weights does, in a
        quarter of its memory (10,000 keys are kept). Made in this process, word by word
        as the records arrive: the workers would each load the table (80 ms)."""
        if name in self.known_sort_keys:
            return self.known_sort_keys[name]
        if self.collator is None:
            self.collator = WordCollator()
        weights = self.collator.sort_key(name)
        return struct.pack(f">{len(weights)}I", *weights)

    def _shown_name_order(self, sort_keys):
        """The sort key of a term by the name its pages show (``shown_name``), then slug."""
        if self.local_name_field is None:
            return lambda term: (sort_keys[id(term)], term.slug)
        return lambda term: (self.collation_key(shown_name(term, self.local_name_field)), term.slug)

    @staticmethod
    def _accepted(record, errors):
        """Report ``record``'s problems; True if it has none."""
        for problem in record["problems"]:
            errors.add(record["where"], "%s", problem)
        return record["fields"] is not None and not record["problems"]

    def _read_terms(self, kind, records, url_pattern, save_as_pattern, errors):
        terms = {}
        # Listings name their category and city by slug, but exports and people tell
        # terms apart by name: two with one name would merge for them. An error, but
        # both terms stay, each with its listings: which file came first (a new file
        # may sort before an old one) never drops a term that was valid before.
        by_name = {}
        for record in records:
            if not self._accepted(record, errors):
                continue
            fields, where = record["fields"], record["where"]
            slug, name = fields["slug"], fields["name"]
            if slug in terms:
                errors.add(where, "duplicate %s slug %r, also used by %s",
                           kind, slug, terms[slug].source_path)
                continue
            if name in by_name:
                errors.add(where, "duplicate %s name %r, also used by %s",
                           kind, name, by_name[name].source_path)
            report_removed(where, record["removed"])
            terms[slug] = Term(
                url=url_pattern.format(slug=slug), save_as=save_as_pattern.format(slug=slug),
                **fields)
            by_name.setdefault(name, terms[slug])
            self.sort_keys[id(terms[slug])] = record["sort_key"]
        return terms

    def _read_listings(self, records, categories, cities, errors):
        """``(listings by slug, digests)``: ``digests`` (with the content cache, else None)
        maps each listing to the digest of everything it shows of itself and its terms, the
        key of its page, its card and its export rows from one build to the next."""
        by_slug, unloaded, sort_keys = {}, self.unloaded_texts, self.sort_keys
        from_iso, modified_at = dt.datetime.fromisoformat, _DATES[1]
        digests = term_digests = None
        if self.settings.get("CACHE_CONTENT"):
            # Fixed-size digests (the record's covers the listing's URL and path): no repr
            # for each of 100,000.
            digests = {}
            term_digests = {id(term): digest(repr(term_key(term)))
                            for term in (*categories.values(), *cities.values())}
        translations = []
        for record in records:
            if record.__class__ is not tuple:  # not is_listing: stopped by its problems
                if is_translation(record):
                    translations.append(record)
                    continue
                for key, known in (("category", categories), ("city", cities)):
                    if record[key] and record[key] not in known:
                        errors.add(record["where"], "names unknown %s %r", key, record[key])
                self._accepted(record, errors)
                continue
            where, removed, record_digest, sort_key, values, packed = record
            slug_at, category_at, city_at = _TERMS_AT if packed is None else _CORE_TERMS_AT
            slug, category_slug, city_slug = values[slug_at], values[category_at], values[city_at]
            category, city = categories.get(category_slug), cities.get(city_slug)
            if category is None or city is None:
                for key, term, term_slug in (("category", category, category_slug),
                                             ("city", city, city_slug)):
                    if term is None:
                        errors.add(where, "names unknown %s %r", key, term_slug)
                continue
            if slug in by_slug:
                errors.add(where, "duplicate listing slug %r, also used by %s",
                           slug, by_slug[slug].source_path)
                continue
            if removed:
                report_removed(where, removed)
            if packed is None:
                values = list(values)
                values[_CATEGORY], values[_CITY] = category, city
                date, modified = values[_DATES[0]], values[modified_at]
                if date is not None:
                    values[_DATES[0]] = from_iso(date)
                if modified is not None:
                    values[modified_at] = from_iso(modified)
                listing = by_slug[slug] = Listing(*values)
            else:
                # Its HTML is loaded for its page if that is rendered again (_load_texts).
                listing = by_slug[slug] = cached_listing(values, category, city, packed)
                unloaded[listing] = record
            sort_keys[id(listing)] = sort_key
            if digests is not None:
                digests[listing] = digest(record_digest + term_digests[id(category)]
                                          + term_digests[id(city)])
        self._read_translations(translations, by_slug, digests, errors)
        return [by_slug[slug] for slug in sorted(by_slug)], digests

    def _read_translations(self, records, by_slug, digests, errors):
        """Check the translations of listings' descriptions; those in the language of this
        build (``DEFAULT_LANG``) replace their listings' descriptions (``translate``)."""
        build_lang = self.settings.get("DEFAULT_LANG")
        seen = {}  # (slug, lang) -> where
        for record in sorted(records, key=lambda record: record["where"]):
            for problem in record["problems"]:
                errors.add(record["where"], "%s", problem)
            if record["translation"] is None:
                continue
            where, translation = record["where"], record["translation"]
            slug, lang = translation["slug"], translation["lang"]
            listing = by_slug.get(slug)
            if listing is None:
                errors.add(where, "is a translation (Lang: %s) of listing %r, which does not "
                           "exist: no listing has that Slug", lang, slug)
                continue
            if (slug, lang) in seen:
                errors.add(where, "is a second translation of listing %r into %s, also "
                           "translated by %s", slug, lang, seen[slug, lang])
                continue
            seen[slug, lang] = where
            if lang != build_lang:
                continue
            if record["removed"]:
                report_removed(where, record["removed"])
            self.translations[listing] = translation
            if listing not in self.unloaded_texts:  # else once its texts are loaded
                translate(listing, translation)
            if digests is not None:
                digests[listing] = digest(digests[listing] + translation["digest"])

    def _make_model(self, records, errors):
        """The ``Directory`` of ``records`` (see ``_finish_reading``), its problems told to ``errors``."""
        cfg = self.config
        categories = self._read_terms("category", records["category"], cfg.category_url,
                                      cfg.category_save_as, errors)
        cities = self._read_terms("city", records["city"], cfg.city_url, cfg.city_save_as, errors)
        listings, digests = self._read_listings(records["listing"], categories, cities, errors)
        published = [listing for listing in listings if listing.status == "published"]
        sort_keys = self.sort_keys
        # One stable sort by name of listings in slug order: each term's listings by name,
        # then slug, without a sort and a key tuple for each term.
        newest_by_term = {}
        for listing in sorted(published, key=lambda listing: sort_keys[id(listing)]):
            category, city = listing.category, listing.city
            category.listings.append(listing)
            city.listings.append(listing)
            when = listing.modified or listing.date
            if when is not None:
                for term in (category, city):
                    if term not in newest_by_term or newest_by_term[term] < when:
                        newest_by_term[term] = when

        directory = Directory(
            listings=published,
            hidden=[listing for listing in listings if listing.status == "hidden"],
            drafts=[listing for listing in listings if listing.status == "draft"],
            categories=[categories[slug] for slug in sorted(categories)],
            cities=[cities[slug] for slug in sorted(cities)],
            categories_by_name=sorted(categories.values(), key=self._shown_name_order(sort_keys)),
            cities_by_name=sorted(cities.values(), key=self._shown_name_order(sort_keys)),
        )
        directory.newest_known = directory.newest(NEWEST_KNOWN)
        directory.newest_by_term = newest_by_term
        self.sort_keys = self.known_sort_keys = {}  # sorted: not needed any more
        self.collator = None
        if digests is not None:
            directory.digests = digests
        directory.keys = directory.listing_keys()
        return directory


def translate(listing, translation):
    """Show ``translation``'s description on ``listing``'s page: its text, and its summary
    when it has one (else the listing's own, in the listing's language)."""
    listing.content, listing.description_lang = translation["content"], translation["lang"]
    if translation["summary"]:
        listing.summary, listing.summary_lang = translation["summary"], translation["lang"]
