"""Progress of long build stages and the build's summary line, on Pelican's rich console."""

import time

from pelican.log import console

from dalil.core.output import CONTEXT_KEY as OUTPUT_FILES_KEY
from dalil.core.settings import language_path

# A stage that runs longer than this shows its counts, then again at this interval.
INTERVAL = 2.0


class Progress:
    def __init__(self, label, total):
        self.label, self.total, self.count = label, total, 0
        self.started = self.last = time.perf_counter()
        self.shown = False

    def advance(self, count=1):
        self.count += count
        now = time.perf_counter()
        if now - self.last >= INTERVAL:
            self.last, self.shown = now, True
            console.print(f"dalil: {self.label}: {self.count:,}/{self.total:,} "
                          f"({100 * self.count // max(1, self.total)}%)", markup=False,
                          highlight=False)

    def done(self):
        if self.shown:
            console.print(f"dalil: {self.label}: {self.count:,} in "
                          f"{time.perf_counter() - self.started:.1f} s", markup=False,
                          highlight=False)


def print_summary(generator, seconds):
    """One line: what the build holds, per type, what it wrote, and how long it took."""
    directory, context = generator.directory, generator.context
    if directory is None:
        return
    articles = context.get("articles", [])
    news = sum(1 for article in articles if article.category.slug == "news")
    parts = [
        f"{len(directory.listings):,} listings ({len(directory.hidden):,} hidden, "
        f"{len(directory.drafts):,} drafts)",
        f"{len(directory.categories):,} categories",
        f"{len(directory.cities):,} cities",
        f"{news:,} news",
        f"{len(articles) - news:,} blog articles",
        f"{len(context.get('pages', [])):,} pages",
    ]
    stats = generator.stats
    changed, unchanged = getattr(generator, "writer_counts", (0, 0))
    files = context.get(OUTPUT_FILES_KEY)
    if files is not None:
        data_changed, data_unchanged = files.counts()
        changed, unchanged = changed + data_changed, unchanged + data_unchanged
    # In a site of several languages, each language's build says which it is.
    path = language_path(generator.settings)
    name = f"dalil ({path.rstrip('/')})" if path else "dalil"
    console.print(
        f"{name}: {', '.join(parts)}; {generator.sources_read:,} sources read; directory pages {stats['rendered']:,} rendered, "
        f"{stats['skipped']:,} unchanged and skipped; files {changed:,} written, "
        f"{unchanged:,} unchanged, {generator.removed:,} removed; {seconds:.2f} s",
        markup=False, highlight=False)
