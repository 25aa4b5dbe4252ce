"""The sitemaps generator: sitemap index and sub-sitemaps, news sitemap, /sitemap/, robots.txt."""

import datetime as dt
import functools
import hashlib
import logging
import marshal
import operator
import os
from dataclasses import dataclass
from pathlib import Path

from lxml import etree
from pelican.generators import Generator

from dalil.core.background import when_contexts_done, when_writer_made
from dalil.core.dates import build_time, rfc3339, to_utc
from dalil.core.files import output_file_path
from dalil.core.i18n import N_, interface_settings, local_name_field, shown_name, translations
from dalil.core.languages import language_folders, writes_site_files
from dalil.core.output import output_files
from dalil.core.pagecache import PageCache, template_digest
from dalil.core.pages import register_page, site_pages
from dalil.core.templates import add_plugin_templates
from dalil.core.text import plain_text
from dalil.core.urls import absolute_url, root_path
from dalil.core.writer import DalilWriter
from dalil.directory.model import CONTEXT_KEY as DIRECTORY_KEY
from dalil.directory.model import parts_known_or_made
from dalil.directory.settings import build_workers

from .documents import (Location, NewsLocation, SitemapTooSmall, news_sitemap, sitemap_index,
                        sitemap_lines, split_lines, url_lines)
from .entries import closed_urls, listing_entries, site_entries, site_lastmod
from .robots import disallowed_paths, robots_txt
from .settings import PROTOCOL_MAX_BYTES, PROTOCOL_MAX_URLS, sitemaps_settings

logger = logging.getLogger(__name__)

TEMPLATES_DIR = Path(__file__).parent / "templates"
# Read by base.html: the footer links the human-readable sitemap.
PAGE_CONTEXT_KEY = "dalil_sitemap_page"
LINES_MEMO = "dalil_sitemap_lines.marshal"
LINES_PURPOSE = ("sitemap lines", etree.LXML_VERSION, etree.LIBXML_VERSION)
# The listings' lines in parts (``listing_parts``), kept by the part's key: an edit makes
# again the lines of the edited listing's part; the others are taken whole, without
# reading a field of their listings.
LISTING_LINES_MEMO = "dalil_sitemap_listing_lines.marshal"
LISTING_LINES_PURPOSE = ("sitemap listing lines, by part", *LINES_PURPOSE[1:])
PAGE_CACHE = "dalil_sitemap_page.marshal"


@dataclass(frozen=True)
class Link:
    url: str
    title: str  # plain text
    lang: str = ""  # the language of ``title``, when it is content's (not the interface's)


class SitemapsGenerator(Generator):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        add_plugin_templates(self, TEMPLATES_DIR)
        self.config = sitemaps_settings(self.settings)
        self.siteurl = self.settings.get("SITEURL", "")
        self.timezone = self.settings.get("TIMEZONE") or "UTC"
        # (lang, its folder) of each of the site's languages, if it has more than one.
        folders = language_folders(self.settings)
        self.language_folders = folders if len(folders) > 1 else []
        self.page_started = False
        when_contexts_done(self, self._start_data_files)

    def generate_context(self):
        cfg = self.config
        if cfg.page_save_as:
            register_page(self.context, cfg.page_url, N_("Site map"))
            self.context[PAGE_CONTEXT_KEY] = cfg.page_url

    def _start_data_files(self):
        if writes_site_files(self.settings):
            self._start_site_files()
        if self.config.page_save_as:
            when_writer_made(self._start_page)

    def _start_site_files(self):
        if not self.siteurl and (self.config.save_as or self.config.news_save_as
                                 or self.config.robots_save_as):
            logger.info("dalil.sitemaps: SITEURL is empty: sitemaps and robots.txt hold "
                        "root-relative URLs (set SITEURL when publishing)")
        # Made from the contexts, and nothing else in the build reads them: with a second
        # core they are written beside all the pages.
        files = output_files(self.context)
        # First: it lists every page of the site, the longest of the writers' functions.
        files.in_background(lambda: self._write_data_files(files),
                            forked=build_workers(self.settings) > 1, rank=2)

    def _start_page(self, writer):
        """The page, through Pelican's writer (which then learns of it), in a process of
        its own for the same reason: it lists every listing. Here, before the pages, when
        the build holds its writers (``OutputFiles.hold_background``): a writer that read
        every listing copied their memory pages (1.4 GB at 1,000,000 listings)."""
        self.page_started = True
        files = output_files(self.context)
        files.in_background(
            lambda: self._write_page(writer), writer=writer,
            forked=(build_workers(self.settings) > 1 and isinstance(writer, DalilWriter)
                    and not files.holding))

    def generate_output(self, writer):
        if self.config.page_save_as and not self.page_started:  # not Dalil's writer
            self._start_page(writer)

    def _write_page(self, writer):
        """Rendered again only when what it shows changed (its own ``PageCache``, kept by
        whichever process writes it): it links every listing, 0.4 CPU-s at 100,000, and
        an edited description or date leaves it as it was."""
        save_as, template = self.config.page_save_as, self.get_template("sitemaps/sitemap")
        page = self._page_context()
        global_key = None
        if self.settings.get("CACHE_CONTENT") and isinstance(writer, DalilWriter):
            global_key = template_digest(self.env, self.context, [template.name],
                                         {*page, "output_file", "localsiteurl"})
        cache = PageCache(self.settings, self.output_path, global_key, name=PAGE_CACHE)
        page_digest = _page_digest(page, local_name_field(self.settings)) if cache.enabled else None
        path = output_file_path(writer.output_path, save_as)
        if cache.enabled and cache.is_fresh(save_as, page_digest):
            writer.claim_unchanged([path])
        elif isinstance(writer, DalilWriter):
            # What Pelican's writer gives the template (without relative URLs, as the
            # directory's pages): at 1,000,000 listings the page is 142 MB, and made whole
            # in memory it took 1.6 GB.
            writer.write_file_in_pieces(save_as, template, {
                **self.context, **page, "output_file": save_as,
                "localsiteurl": self.context.get("localsiteurl")})
            cache.store(save_as, page_digest, os.path.getsize(path))
        else:
            writer.write_file(save_as, template, self.context, **page)
        cache.save()

    # -- XML sitemaps ----------------------------------------------------

    def _write_data_files(self, files):
        """The sitemaps, the news sitemap and robots.txt, which names them."""
        cfg = self.config
        sitemap_urls = []
        if cfg.save_as:
            sitemap_urls += self._write_sitemaps(files)
        if cfg.news_save_as:
            files.write(cfg.news_save_as, news_sitemap(self._news_locations()))
            sitemap_urls.append(absolute_url(self.siteurl, cfg.news_save_as))
        if cfg.robots_save_as:
            disallowed = disallowed_paths(self.siteurl, cfg.robots_disallow)
            files.write(cfg.robots_save_as, robots_txt(disallowed, sitemap_urls))

    def _locations(self, entries):
        """The ``Location`` of each ``(url, lastmod text)`` of ``entries``, minus what
        robots.txt closes (a blocked URL is an error)."""
        blocked = tuple(disallowed_paths("", self.config.robots_disallow))
        site = absolute_url(self.siteurl, "")[:-1]  # absolute_url, with each path made once
        absolute = ("http://", "https://")
        if not self.language_folders:
            return [Location(url if url.startswith(absolute) else site + path, lastmod)
                    for url, lastmod in entries if not (path := root_path(url)).startswith(blocked)]
        # Each page in each language, each listing all of them (and x-default, the first's).
        locations = []
        for url, lastmod in entries:
            if url.startswith(absolute):
                locations.append(Location(url, lastmod))
                continue
            versions = [(lang, site + root_path(folder + url))
                        for lang, folder in self.language_folders]
            alternates = (*versions, ("x-default", versions[0][1]))
            locations.extend(Location(loc, lastmod, alternates) for _, loc in versions
                             if not loc[len(site):].startswith(blocked))
        return locations

    def _listing_lines(self, files, lastmod):
        """``listing_lines`` of the directory, with the last build's parts."""
        directory = self.context.get(DIRECTORY_KEY)
        if directory is None:
            return [], [], []
        kept = {}
        columns = listing_lines(directory, self._locations, lastmod,
                                files.load_derived(LISTING_LINES_MEMO, LISTING_LINES_PURPOSE), kept)
        if directory.digests:
            files.save_derived(LISTING_LINES_MEMO, LISTING_LINES_PURPOSE, kept)
        return columns

    def _write_sitemaps(self, files):
        """Write the sub-sitemaps and the index; the URLs robots.txt names."""
        cfg = self.config
        max_urls = min(int(cfg.max_urls), PROTOCOL_MAX_URLS)
        max_bytes = min(int(cfg.max_bytes), PROTOCOL_MAX_BYTES)
        if (max_urls, max_bytes) != (cfg.max_urls, cfg.max_bytes):
            logger.warning("dalil.sitemaps: a sitemap holds at most %d URLs and %d bytes; "
                           "DALIL_SITEMAPS_MAX_URLS/MAX_BYTES lowered to that",
                           PROTOCOL_MAX_URLS, PROTOCOL_MAX_BYTES)
        lastmod = site_lastmod(self.context)
        # Once a date: a term's pages share its date (11,000 pages, 3,000 dates at 100,000).
        lastmod_text = functools.lru_cache(maxsize=None)(rfc3339)
        others = self._locations([(url, lastmod_text(date))
                                  for url, date in site_entries(self.context, lastmod)])
        # Each other URL's line is kept for the next build, which serialises only new URLs and dates.
        used = {}
        other_lines = sitemap_lines(others, files.load_derived(LINES_MEMO, LINES_PURPOSE), used)
        files.save_derived(LINES_MEMO, LINES_PURPOSE, used)
        locs, lastmods, lines = self._listing_lines(files, lastmod)
        # Each URL once: a listing's gives way to another page at that URL, or a closed one
        # (either is an error of its own: two pages at one URL).
        taken = {location.loc for location in others}
        taken.update(absolute_url(self.siteurl, url) for url in closed_urls(self.context))
        if not taken.isdisjoint(locs):
            kept = [index for index, loc in enumerate(locs) if loc not in taken]
            locs, lastmods, lines = ([column[index] for index in kept] for column in (locs, lastmods, lines))
        try:
            sitemaps = split_lines([location.loc for location in others] + locs,
                                   [location.lastmod for location in others] + lastmods,
                                   other_lines + lines, max(1, max_urls), max_bytes,
                                   alternates=bool(self.language_folders))
        except SitemapTooSmall as error:
            logger.error("dalil.sitemaps: %s: raise DALIL_SITEMAPS_MAX_BYTES", error)
            return []
        made = []
        for number, sitemap in enumerate(sitemaps):
            relpath = cfg.save_as.format(number=number)
            files.write(relpath, sitemap.document)
            made.append(Location(absolute_url(self.siteurl, relpath), sitemap.lastmod))
        logger.info("dalil.sitemaps: %d page(s) in %d sitemap(s)", len(others) + len(locs), len(made))
        if not cfg.index_save_as:
            return [location.loc for location in made]
        files.write(cfg.index_save_as, sitemap_index(made))
        return [absolute_url(self.siteurl, cfg.index_save_as)]

    def _news_articles(self, category):
        return [article for article in self.context.get("articles", [])
                if article.category.slug == category]

    def _news_locations(self):
        """News published in the window before the build time, newest first."""
        cfg = self.config
        end = build_time()
        start = end - dt.timedelta(hours=cfg.news_hours)
        name = plain_text(cfg.news_publication_name or self.settings.get("SITENAME", ""))
        default_lang = self.settings.get("DEFAULT_LANG", "ar")
        recent = []
        for article in self._news_articles(cfg.news_category):
            published = to_utc(article.date, self.timezone)
            if start <= published <= end:
                recent.append((published, article))
        recent.sort(key=lambda pair: (pair[0], pair[1].slug), reverse=True)
        return [NewsLocation(loc=absolute_url(self.siteurl, url), published=published,
                             title=plain_text(version.title), publication_name=name,
                             language=lang)
                for published, article in recent[: cfg.news_max_items]
                for url, lang, version in self._news_versions(article, default_lang)]

    def _news_versions(self, article, default_lang):
        """``(url, lang, article)`` of each language's version of a news item: itself, and
        in a site of several languages each translation, at its language's page, in the
        site's order of languages (Pelican's order of translations is the order it read
        them in, which a cached build changes)."""
        lang = (getattr(article, "lang", None) or default_lang).lower()
        if not self.language_folders:
            return [(article.url, lang, article)]
        folders = dict(self.language_folders)
        order = list(folders)
        versions = [article, *getattr(article, "translations", ())]
        return sorted(((folders[version_lang] + article.url, version_lang, version)
                       for version in versions
                       if (version_lang := (version.lang or default_lang).lower()) in folders),
                      key=lambda version: order.index(version[1]))

    # -- the HTML sitemap ------------------------------------------------

    def _page_context(self):
        """Listings under their category, then cities, article categories, pages."""
        directory = self.context.get(DIRECTORY_KEY)
        article_sections = []
        for category, articles in self.context.get("categories", []):
            links = [Link(article.url, plain_text(article.title), article.lang)
                     for article in articles]
            article_sections.append({"slug": category.slug, "name": plain_text(category.name),
                                     "url": category.url if category.save_as else "",
                                     "links": links})
        # News, then blog, then any other category by slug.
        order = {"news": 0, "blog": 1}
        article_sections.sort(key=lambda section: (order.get(section["slug"], 2), section["slug"]))
        gettext = translations(interface_settings(self.settings).lang).gettext
        pages = [Link(page.url, gettext(page.title)) for page in site_pages(self.context)
                 if page.indexable and page.url != self.config.page_url]
        pages += [Link(page.url, plain_text(page.title), page.lang)
                  for page in sorted(self.context.get("pages", []), key=lambda page: page.slug)]
        return {
            "sitemap_url": self.config.page_url,
            "categories": directory.categories_by_name if directory is not None else [],
            "cities": directory.cities_by_name if directory is not None else [],
            "article_sections": article_sections,
            "page_links": pages,
        }


def listing_lines(directory, locations, lastmod, known=None, used=None):
    """``(locs, lastmods, lines)``: the sitemap URL, ``lastmod`` text and line of each
    published listing's page (three columns), made a part of listings at a time
    (``listing_parts``), in a worker of their own (``parts_known_or_made``).
    ``locations`` makes ``Location``s of (url, lastmod text) pairs; ``lastmod`` is the
    date of an undated listing. A part in ``known`` (by its key) is taken whole; ``used``
    gets this build's parts (plain data, for ``marshal``)."""
    known, site_date = known or {}, rfc3339(lastmod)

    def kept(key):
        # A part with an undated listing shows the site's date: kept while it is the same.
        part = known.get(key)
        return part if part is not None and part[0] in (None, site_date) else None

    locs, lastmods, lines = [], [], []
    for key, part in parts_known_or_made(directory, kept, (directory.listings, locations, site_date),
                                         _part_lines):
        if key is not None and used is not None:
            used[key] = part
        locs += part[1]
        lastmods += part[2]
        lines += part[3]
    return locs, lastmods, lines


def _part_lines(state, ranges):
    """A part's ``(site date if it shows it else None, locs, lastmods, lines)`` for each
    part of the listings (``(start, end)`` in ``ranges``)."""
    listings, locations, site_date = state
    parts = []
    for start, end in ranges:
        entries = listing_entries(listings[start:end])
        made = locations([(url, date or site_date) for url, date in entries])
        parts.append((site_date if any(date is None for _, date in entries) else None,
                      [location.loc for location in made],
                      [location.lastmod for location in made], url_lines(made)))
    return parts


def _page_digest(page, name_field=None):
    """The digest of what the HTML sitemap shows of ``page`` (its context). Each term's
    listings are taken as two texts, their URLs and their names joined, with each text's
    length (so that no two lists give one digest): made in C, a third of the time of a
    tuple for each of 100,000 listings. The names are the ones shown (``shown_name`` of
    ``name_field``, ``local_name_field``'s)."""
    name = _NAME if name_field is None else functools.partial(_shown_name, name_field)
    hasher = hashlib.blake2b(digest_size=16)
    for term in page["categories"]:
        for texts in (list(map(_URL, term.listings)), list(map(name, term.listings))):
            hasher.update(marshal.dumps(list(map(len, texts))))
            hasher.update("\0".join(texts).encode("utf-8", "surrogatepass"))
    categories, cities = ([(term.url, name(term), len(term.listings)) for term in page[kind]]
                          for kind in ("categories", "cities"))
    sections = [(section["slug"], section["name"], section["url"],
                 [(link.url, link.title, link.lang) for link in section["links"]])
                for section in page["article_sections"]]
    pages = [(link.url, link.title, link.lang) for link in page["page_links"]]
    hasher.update(marshal.dumps((page["sitemap_url"], categories, cities, sections, pages)))
    return hasher.digest()


_URL, _NAME = operator.attrgetter("url"), operator.attrgetter("name")


def _shown_name(name_field, item):
    return shown_name(item, name_field)
