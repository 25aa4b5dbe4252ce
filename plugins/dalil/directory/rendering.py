"""Writing the directory's pages for ``DirectoryGenerator``: listing and term pages
rendered in workers, an unchanged page skipped (``dalil.core.pagecache``)."""

import contextlib
import itertools
import marshal
import operator
import os
import posixpath

import jinja2
from markupsafe import Markup

from dalil.core.files import output_file_path, output_file_paths, write_if_changed
from dalil.core.i18n import write_script_messages
from dalil.core.output import OBSERVER_KEY, output_files
from dalil.core.pagecache import PageCache, digest, template_closure, undeclared_names
from dalil.core.parallel import ITEMS_PER_FRESH_WORKER, Pool
from dalil.core.text import plain_text
from dalil.core.writer import DalilWriter

from .assembly import translate
from .incremental import CACHE_NAME, global_digest, term_key
from .jsonld import listing_json_ld
from .model import TEXT_NOT_LOADED
from .progress import Progress
from .sources import DIGEST, WHERE, is_listing, listing_texts
from .spill import SpilledTexts

_SAVE_AS = operator.attrgetter("save_as")


class Rendering:
    """The directory generator's pages: rendered, or skipped when unchanged."""

    def generate_output(self, writer):
        self.writer = writer
        cfg = self.config
        directory = self.directory
        listing_template = self.get_template("directory/listing")
        term_template = self.get_template("directory/term")
        self.page_listings = (*directory.listings, *directory.hidden, *directory.drafts)
        self.page_variables = {}  # template name -> the variables its pages share
        global_key = None
        if self.settings.get("CACHE_CONTENT"):
            global_key = global_digest(self, [listing_template.name, term_template.name])
        cache = PageCache(self.settings, self.output_path, global_key, CACHE_NAME,
                          stale=self._measured_stale(), stored=self._stored_pages)
        self._stored_pages = None
        # Without the cache nothing is skipped, so nothing needs a digest.
        listing_digests = directory.digests if cache.enabled else dict.fromkeys(self.page_listings)
        # A term page's: its term and page number, then its listings' fixed-size digests as
        # they are (a repr of them took 60 µs a page).
        term_page_digest = ((lambda head, digests: digest(head + b"".join(digests)))
                            if cache.enabled else (lambda head, digests: None))
        # Pages as columns (refs, save_as, digests): a job is made only for a page rendered
        # again, and the cache checks the 100,000 others in a few passes made in C.
        listings = self.page_listings
        listing_pages = (range(len(listings)), list(map(_SAVE_AS, listings)),
                         list(map(listing_digests.__getitem__, listings)))
        term_pages = tuple(map(list, zip(*[
            ((kind, index, number), save_as, page_digest)
            for kind, terms in (("category", directory.categories), ("city", directory.cities))
            for index, term in enumerate(terms)
            for number, save_as, page_digest
            in self._term_pages(term, term_page_digest, listing_digests)]))) or ([], [], [])
        # Each listing's card, made with its page, for its category's and city's pages.
        self.cards = {} if "page_cards" in undeclared_names(self.env, term_template.name) else None
        observer = self.context.get(OBSERVER_KEY)
        # Compiled before the workers fork, which then share them: each compiled those it
        # extends and imports (0.1 CPU-s).
        for name in template_closure(self.env, [listing_template.name, term_template.name]):
            with contextlib.suppress(jinja2.TemplateError):  # rendering reports it
                self.env.get_template(name)
        with Pool(self, self.workers, items_per_worker=ITEMS_PER_FRESH_WORKER) as pool:
            self._render_all(pool, writer, cache, "listing pages", "listing", listing_pages,
                             observer)
            # Only the pages rendered again take their cards: 8,000 pages at 100,000 listings.
            self._render_all(pool, writer, cache, "category and city pages", "term", term_pages,
                             observer, complete=lambda job: (*job, self._page_cards(job[1])))
            self.cards = None
        output_files(self.context).release_background()  # see _make_context
        cache.save()
        write_script_messages(self.context, self.settings)  # what the theme's pages load
        writer.write_file(cfg.index_save_as, self.get_template("directory/index"), self.context)
        not_found = self.get_template("404")
        for save_as in cfg.not_found_save_as:
            writer.write_file(save_as, not_found, self.context, noindex=True)

    def _measured_stale(self):
        """The last build's pages whose files changed since, as a reading worker found
        them, else None; the reading pool ends here."""
        if self._sizing is not None:
            with self._sizing[0]:
                self._stale_pages = set(marshal.loads(self._sizing[1].get()))
            self._sizing = None
        return self._stale_pages

    def _render_all(self, pool, writer, cache, label, kind, pages, observer, complete=None):
        """Render the pages of ``kind`` that the cache does not keep, ``pages`` their refs,
        ``save_as`` and digests (three sequences); a page's job is ``(kind, ref, save_as,
        digest)``, made whole by ``complete`` when given."""
        refs, save_as_list, digests = pages
        fresh = cache.fresh(save_as_list, digests)
        kept = list(itertools.compress(save_as_list, fresh))
        todo = [(kind, refs[index], save_as_list[index], digests[index])
                for index in itertools.compress(range(len(fresh)), map(operator.not_, fresh))]
        if complete is not None:
            todo = [complete(job) for job in todo]
        self.stats["skipped"] += len(kept)
        if isinstance(writer, DalilWriter):
            writer.claim_unchanged(output_file_paths(writer.output_path, kept))
        self._load_texts(todo)  # before the workers are forked
        progress = Progress(label, len(todo))
        for job, (size, changed, card) in pool.map(_render_chunk, todo):
            cache.store(job[2], job[3], size)
            self.stats["rendered"] += 1
            self.stats["changed"] += changed
            self._claim(writer, job[2], changed)
            if card is not None:
                self.cards[id(self.page_listings[job[1]])] = card
            progress.advance()
        progress.done()
        if observer is not None and save_as_list:
            observer.mark(save_as_list[-1], count=len(save_as_list))

    def _page_cards(self, ref):
        """The cards of a term page's listings made with their own pages (see term.html)."""
        if self.cards is None:
            return None
        kind, index, number = ref
        return tuple(self.cards.get(id(listing))
                     for listing in self._page_listings(self._term(kind, index), number))

    def _term(self, kind, index):
        return (self.directory.categories if kind == "category" else self.directory.cities)[index]

    def _page_listings(self, term, number):
        """The listings on page ``number`` (from 1) of ``term``'s pages."""
        per_page = max(1, int(self.config.per_page))
        return term.listings[(number - 1) * per_page:number * per_page]

    def _page_count(self, term):
        return max(1, -(-len(term.listings) // max(1, int(self.config.per_page))))

    def _load_texts(self, jobs):
        """Give the listings of ``jobs`` their HTML, kept apart in the source cache; if it
        is gone from there (a cache emptied during the build), their files are read again.
        HTML in the build's spill is read by each page's worker instead (``render_page``)."""
        spilled = self.cached_texts.spilled
        for job in jobs:
            if job[0] != "listing":
                continue
            listing = self.page_listings[job[1]]
            record = self.unloaded_texts.get(listing)
            if record is None or self._relpath(record) in spilled:
                continue
            del self.unloaded_texts[listing]
            self._give_texts(listing, record)

    def _relpath(self, record):
        return record[WHERE][len(self.content_folder) + 1:].replace("/", os.sep)

    def _give_texts(self, listing, record):
        """Give ``listing`` the HTML of its ``record``."""
        relpath = self._relpath(record)
        texts = self.cached_texts.get(relpath, record[DIGEST])
        if texts is None:
            read_again = self.read_record("listing", relpath)
            texts = listing_texts(read_again) if is_listing(read_again) else ("", "")
        listing.summary, listing.content = texts
        if listing in self.translations:
            translate(listing, self.translations[listing])

    @staticmethod
    def _claim(writer, save_as, changed):
        if isinstance(writer, DalilWriter):
            path = output_file_path(writer.output_path, save_as)
            writer.claim(path)
            writer.record(path, changed)

    def _term_pages(self, term, page_digest, listing_digests):
        """``(number, save_as, digest)`` of each page of a category or city."""
        cfg = self.config
        count = self._page_count(term)
        base_dir = posixpath.dirname(term.save_as)
        key = repr((term_key(term), len(term.listings), count))
        for number in range(1, count + 1):
            save_as = term.save_as if number == 1 else posixpath.join(
                base_dir, cfg.page_url.format(number=number), "index.html")
            chunk = self._page_listings(term, number)
            yield number, save_as, page_digest(f"{key}:{number}:".encode("utf-8"),
                                               map(listing_digests.__getitem__, chunk))

    def render_page(self, job):
        """Render one page and write it if its bytes changed: ``(size, changed, card)``,
        ``card`` the listing's card for its terms' pages when they need it, else None."""
        kind, ref, save_as = job[:3]
        card = spilled = None
        if kind == "listing":
            listing = self.page_listings[ref]
            spilled = self.unloaded_texts.get(listing)
            if spilled is not None:  # its HTML in the spill, for this page only
                self._give_texts(listing, spilled)
            template = self.get_template("directory/listing")
            # Its description and its JSON-LD's: made once (7 µs a page each time).
            summary_text = plain_text(listing.summary)
            # A hidden listing is listed nowhere: no crawler indexes it either, and
            # ``invoke validate`` tells its page from a leftover of a removed listing.
            extra = {"listing": listing, "noindex": listing.status != "published",
                     "summary_text": summary_text,
                     "json_ld": listing_json_ld(listing, self.settings.get("SITEURL", ""),
                                                summary_text, self.local_name_field)}
            if self.cards is not None and listing.status == "published":
                card = str(self._card_macro()(listing, self.context.get("SITEURL"), 2))
                if self.cached_texts.spill is not None:  # where it is, not the card
                    card = self.cached_texts.spill.put(card)
        else:
            term_kind, index, number = ref
            template = self.get_template("directory/term")
            extra = self._term_page_context(self._term(term_kind, index), number, job[4])
        # Template.render, without copying the variables every page shares (a few hundred
        # settings): the page's own are the context's, which it looks up first.
        context = template.new_context(self._page_variables(template), shared=True)
        context.vars["output_file"] = save_as
        context.vars.update(extra)
        try:
            text = template.environment.concat(template.root_render_func(context))
        except Exception:
            template.environment.handle_exception()
        finally:
            if spilled is not None:
                listing.summary = listing.content = TEXT_NOT_LOADED
        data = text.encode("utf-8")
        changed = write_if_changed(output_file_path(self.output_path, save_as), data)
        return len(data), changed, card

    def _card_text(self, card):
        return self.cached_texts.spill.get(card) if card.__class__ is SpilledTexts else card

    def _card_macro(self):
        """``listing_card`` of _macros.html, as term.html imports it (without context)."""
        if self.card_macro is None:
            self.card_macro = self.env.get_template("_macros.html").module.listing_card
        return self.card_macro

    def _page_variables(self, template):
        """What Pelican's Writer.write_file gives ``template``, without relative URLs,
        over the template's globals: made once per template and process."""
        variables = self.page_variables.get(template.name)
        if variables is None:
            variables = self.page_variables[template.name] = dict(template.globals, **self.context)
            variables["localsiteurl"] = self.context.get("localsiteurl", None)
        return variables

    def _term_page_context(self, term, number, cards=None):
        cfg = self.config
        count = self._page_count(term)
        page_listings = self._page_listings(term, number)

        def page_url(page):
            return term.url if page == 1 else term.url + cfg.page_url.format(number=page)

        return {
            "term": term, "page_listings": page_listings,
            "page_cards": [None if card is None else Markup(self._card_text(card))
                           for card in cards] if cards else [None] * len(page_listings),
            "near_me_index": self.near_me_index,
            "page_number": number, "page_count": count,
            "previous_url": page_url(number - 1) if number > 1 else "",
            "next_url": page_url(number + 1) if number < count else "",
        }


def _render_chunk(generator, jobs):
    return [generator.render_page(job) for job in jobs]
