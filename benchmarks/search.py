"""Benchmark of the search indexes and live search at scale (``invoke bench-search``).

For each size (default 10,000 and 100,000 listings): builds a tiny site with the real
theme and search page, replaces its indexes by synthetic ones (realistic Arabic,
English and French names) written by the build's own code (``/search-index.json`` and
the index in parts: its head and parts, with their .br and .gz copies), and reports
their sizes. Then, in
headless Chromium, opens /search/?q=… (the time to the first results after navigation,
the page's and the worker's JS heap), types queries into it and reports, per keystroke,
the time from the key to the rendered results (median and 95th percentile) and the
matching time on its own; once as it is and once with the CPU throttled 4x
(Emulation.setCPUThrottlingRate: the page's renderer, its worker included), a phone's
proxy. Unless ``--no-peer``, it also writes a minimal page per listing, category and
city (names; a listing's category and address), indexes them with Pagefind
(tests/node_modules) and prints, per query, both engines' time to first results, bytes
fetched until then and recall@10 (benchmarks/peer.py)."""

import argparse
import html
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from dalil.core.compression import PRECOMPRESSED, compressed
from dalil.search.index import TYPES, make_entry, serialise
from dalil.search.chunked import ChunkedIndex, serialise_chunk
from dalil.core.search_settings import search_settings

from tests.browser import serve

from .peer import Handler, compare, page_heap, print_rows, throttle, worker_heap

REPO = Path(__file__).resolve().parents[1]
PAGEFIND = REPO / "tests" / "node_modules" / ".bin" / "pagefind"
HEAD_URL = "/" + search_settings({}).chunked_save_as

CATEGORIES = [  # slug, Arabic name, word in a business name (ar, en, fr)
    ("restaurants", "مطاعم", "مطعم", "Restaurant", "Restaurant"),
    ("cafes", "مقاهٍ", "مقهى", "Café", "Café"),
    ("pharmacies", "صيدليات", "صيدلية", "Pharmacy", "Pharmacie"),
    ("hotels", "فنادق", "فندق", "Hotel", "Hôtel"),
    ("bakeries", "مخابز", "مخبزة", "Bakery", "Boulangerie"),
    ("clinics", "عيادات", "عيادة", "Clinic", "Clinique"),
    ("bookshops", "مكتبات", "مكتبة", "Bookshop", "Librairie"),
    ("garages", "ورشات إصلاح السيارات", "ورشة", "Garage", "Garage"),
    ("schools", "مدارس خاصة", "مدرسة", "School", "École"),
    ("hammams", "حمّامات", "حمّام", "Hammam", "Hammam"),
    ("butchers", "جزارات", "جزارة", "Butcher", "Boucherie"),
    ("opticians", "نظاراتيون", "بصريات", "Optician", "Opticien"),
    ("tailors", "خياطون", "خياطة", "Tailor", "Couture"),
    ("grocers", "بقالات", "بقالة", "Grocery", "Épicerie"),
    ("dentists", "أطباء الأسنان", "عيادة أسنان", "Dental Clinic", "Cabinet dentaire"),
    ("lawyers", "محامون", "مكتب محاماة", "Law Office", "Cabinet d'avocats"),
    ("gyms", "قاعات رياضة", "نادي", "Gym", "Salle de sport"),
    ("florists", "بائعو الزهور", "زهور", "Florist", "Fleuriste"),
    ("travel", "وكالات أسفار", "وكالة أسفار", "Travel Agency", "Agence de voyages"),
    ("electronics", "إلكترونيات", "متجر", "Electronics", "Électronique"),
]
CITIES = [  # slug, Arabic, English, French
    ("casablanca", "الدار البيضاء", "Casablanca", "Casablanca"), ("rabat", "الرباط", "Rabat", "Rabat"),
    ("fes", "فاس", "Fez", "Fès"), ("marrakech", "مراكش", "Marrakesh", "Marrakech"),
    ("tangier", "طنجة", "Tangier", "Tanger"), ("agadir", "أكادير", "Agadir", "Agadir"),
    ("meknes", "مكناس", "Meknes", "Meknès"), ("oujda", "وجدة", "Oujda", "Oujda"),
    ("kenitra", "القنيطرة", "Kenitra", "Kénitra"), ("tetouan", "تطوان", "Tetouan", "Tétouan"),
    ("safi", "آسفي", "Safi", "Safi"), ("el-jadida", "الجديدة", "El Jadida", "El Jadida"),
    ("nador", "الناظور", "Nador", "Nador"), ("beni-mellal", "بني ملال", "Beni Mellal", "Béni Mellal"),
    ("essaouira", "الصويرة", "Essaouira", "Essaouira"), ("ifrane", "إفران", "Ifrane", "Ifrane"),
    ("laayoune", "العيون", "Laayoune", "Laâyoune"), ("errachidia", "الرشيدية", "Errachidia", "Errachidia"),
    ("taza", "تازة", "Taza", "Taza"), ("settat", "سطات", "Settat", "Settat"),
]
PROPER_NAMES = [  # Arabic, Latin
    ("الأطلس", "Atlas"), ("الزيتونة", "Zaytouna"), ("النخيل", "Nakhil"), ("الأندلس", "Andalus"),
    ("السلام", "Salam"), ("الأمل", "Amal"), ("الياسمين", "Yasmine"), ("البركة", "Baraka"),
    ("النور", "Nour"), ("الفردوس", "Firdaous"), ("الريف", "Rif"), ("المنار", "Manar"),
    ("الواحة", "Oasis"), ("القصبة", "Kasbah"), ("المدينة", "Medina"), ("الهلال", "Hilal"),
    ("الصفاء", "Safae"), ("الرياض", "Riad"), ("الشروق", "Chorouk"), ("الوفاء", "Wafae"),
    ("إدريس", "Idriss"), ("ابن بطوطة", "Ibn Battuta"), ("الفارابي", "Al Farabi"),
    ("ابن سينا", "Ibn Sina"), ("أمينة", "Amina"), ("فاطمة الزهراء", "Fatima Zahra"),
    ("يوسف", "Youssef"), ("مريم", "Meryem"), ("الحاج أحمد", "Haj Ahmed"), ("سعيد", "Said"),
    ("الخير", "Al Khair"), ("النجمة", "Najma"), ("الربيع", "Rabie"), ("الكرم", "Karam"),
    ("المغرب الجديد", "New Morocco"), ("الضيافة", "Diyafa"), ("الأصدقاء", "Friends"),
    ("البحر", "Bahr"), ("الجبل", "Jabal"), ("الوردة", "Warda"),
]
STREETS = ["شارع محمد الخامس", "شارع الحسن الثاني", "زنقة ابن خلدون", "شارع الجيش الملكي",
           "زنقة الأمير عبد القادر", "شارع الزرقطوني", "ساحة الأمم المتحدة", "زنقة فلسطين",
           "شارع عبد الرحيم بوعبيد", "طريق الجديدة", "زنقة المعتمد بن عباد", "حي الرياض",
           "شارع أنفا", "زنقة طارق بن زياد", "شارع مولاي يوسف", "درب السلطان"]

QUERIES = [  # what people type; one sample per keystroke
    ("arabic", "مطعم"), ("arabic", "صيدلية الأمل"), ("arabic", "الدار البيضاء"),
    ("arabic", "مَقْهَى"), ("arabic", "فندق اطلس"), ("arabic", "شارع الزرقطوني"),
    ("latin", "restaurant"), ("latin", "pharmacie"), ("latin", "cafe atlas"),
    ("latin", "Hôtel Oasis"), ("latin", "zzqx"),
]


def synthetic_entries(count, seed=1):
    """``count`` listings plus every category and city and a few articles, in index order."""
    rng = random.Random(seed)
    entries = []
    for number in range(count):
        cat_slug, cat_name, word_ar, word_en, word_fr = rng.choice(CATEGORIES)
        city_slug, city_ar, _, _ = rng.choice(CITIES)
        proper_ar, proper_latin = rng.choice(PROPER_NAMES)
        branch = rng.random()
        name = f"{word_ar} {proper_ar}"
        if branch < 0.3:
            name += f" {city_ar}"
        elif branch < 0.4:
            name += f" فرع {rng.randint(2, 9)}"
        slug = f"{proper_latin}-{cat_slug}-{number}".lower().replace(" ", "-")
        street = f"{rng.randint(1, 250)} {rng.choice(STREETS)}" if rng.random() < 0.85 else ""
        entries.append(make_entry(
            "listing", slug, name, f"directory/listing/{slug}/",
            n_en=f"{proper_latin} {word_en}" if rng.random() < 0.6 else "",
            n_fr=f"{word_fr} {proper_latin}" if rng.random() < 0.6 else "",
            c=cat_name, a="، ".join(part for part in (street, city_ar) if part),
            img=f"/images/listings/{slug}.jpg" if rng.random() < 0.75 else "",
            cs=cat_slug, ls=city_slug))
    for slug, name, word_ar, en, fr in CATEGORIES:
        entries.append(make_entry("category", slug, name, f"directory/category/{slug}/",
                                  n_en=en, n_fr=fr, k=[word_ar, en.lower(), fr.lower()]))
    for slug, name, en, fr in CITIES:
        entries.append(make_entry("location", slug, name, f"directory/city/{slug}/",
                                  n_en=en, n_fr=fr))
    for number in range(200):
        kind = "news" if number % 4 else "blog"
        entries.append(make_entry(kind, f"article-{number}", f"افتتاح فرع جديد رقم {number}",
                                  f"{kind}/article-{number}/"))
    rank = {kind: position for position, kind in enumerate(TYPES)}
    entries.sort(key=lambda entry: (rank[entry["t"]], entry["s"]))
    return entries


def sizes(data):
    """Raw bytes, and the build's .gz and .br copies (what nginx sends)."""
    return {"raw": len(data), **{suffix[1:]: len(compressed(data, suffix))
                                 for suffix in sorted(PRECOMPRESSED)}}


def build_site(workdir):
    """A tiny site built by Pelican with the repository's settings, theme and plugins."""
    content = workdir / "content"
    sources = {
        "categories/restaurants.md": "Title: مطاعم\nSlug: restaurants\n\nمطاعم.\n",
        "cities/casablanca.md": "Title: الدار البيضاء\nSlug: casablanca\nProvince: CAS\n\nمدينة.\n",
        "listings/atlas.md": "Title: مطعم الأطلس\nSlug: atlas\nCategory: restaurants\n"
                             "City: casablanca\n\nمطعم.\n",
    }
    for relpath, text in sources.items():
        (content / relpath).parent.mkdir(parents=True, exist_ok=True)
        (content / relpath).write_text(text, encoding="utf-8")
    output = workdir / "output"
    command = [sys.executable, "-m", "pelican", str(content), "-o", str(output),
               "-s", str(REPO / "pelicanconf.py"), "-e", 'SITEURL=""',
               f"CACHE_PATH={json.dumps(str(workdir / 'cache'))}"]
    env = {**os.environ, "PYTHONPATH": str(REPO / "plugins"), "SOURCE_DATE_EPOCH": "1795262400"}
    subprocess.run(command, cwd=workdir, env=env, check=True, capture_output=True)
    return output


def write_indexes(output, entries):
    """The synthetic entries as the build writes them: the search index, the index in
    parts (the build's own code), and their .br and .gz copies, a file at a time.
    Returns the sizes (``sizes``) of the index, the head, and all the parts together
    (with how many there are)."""
    settings = search_settings({})

    def write(relpath, data):
        (output / relpath).parent.mkdir(parents=True, exist_ok=True)
        (output / relpath).write_bytes(data)
        for suffix in PRECOMPRESSED:
            (output / (relpath + suffix)).write_bytes(compressed(data, suffix))
        return sizes(data)

    report = {settings.index_save_as: write(settings.index_save_as,
                                            serialise(entries).encode("utf-8"))}
    chunked = ChunkedIndex(entries, settings.part_size)
    head = settings.chunked_save_as
    report[head] = write(head, serialise_chunk(chunked.head()).encode("utf-8"))
    folder = head.rpartition("/")[0]
    parts = {"files": 0}
    for name, data in chunked.parts():
        for kind, value in write(f"{folder}/{name}.json", serialise_chunk(data).encode("utf-8")).items():
            parts[kind] = parts.get(kind, 0) + value
        parts["files"] += 1
    report[f"{folder}/*.json (parts)"] = parts
    return report


ENTRY_PAGE = ('<!DOCTYPE html><html lang="ar" dir="rtl"><meta charset="utf-8"><title>{n}</title>'
              '<main data-pagefind-body><h1>{n}</h1><p lang="en">{n_en}</p><p lang="fr">{n_fr}</p>'
              '<p>{c}</p><p>{a}</p></main></html>')
DIRECTORY_TYPES = ("listing", "category", "location")


def write_directory_pages(output, entries):
    """A minimal page per listing, category and city with the texts its index entry has
    (names; a listing's category and address), at its URL: what Pagefind indexes."""
    for entry in entries:
        if entry["t"] not in DIRECTORY_TYPES:
            continue
        folder = output / entry["url"].strip("/")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "index.html").write_text(ENTRY_PAGE.format(**{
            key: html.escape(entry.get(key, "")) for key in ("n", "n_en", "n_fr", "c", "a")}),
            encoding="utf-8")


PLACEHOLDER = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 10"><rect width="16" height="10" fill="#d5ddd8"/></svg>'


# The same keystroke on a page that does nothing but echo it: the browser's own cost
# of an input event and a frame, under the same load, for comparison.
BASELINE = """<!DOCTYPE html><html lang="ar" dir="rtl"><meta charset="utf-8">
<link rel="stylesheet" href="/theme/css/dalil.css"><input id="site-search"><p id="echo"></p>
<script>
document.getElementById('site-search').addEventListener('input', event => {
  const echo = document.getElementById('echo');
  echo.textContent = event.target.value;
  echo.dispatchEvent(new CustomEvent('dalil:results', { detail: {
    query: event.target.value, total: 0, matchMs: 0, renderMs: 0 } }));
});
</script></html>""".encode("utf-8")


class _Handler(Handler):
    pages = {**Handler.pages, "/__baseline.html": (BASELINE, "text/html; charset=utf-8")}

    def do_GET(self):
        if self.path.startswith("/images/listings/"):  # every synthetic image exists
            self.send_bytes(PLACEHOLDER, "image/svg+xml")
            return
        super().do_GET()


# Installed before the page's scripts: times each keystroke to its rendered results
# (final: every part they need loaded), and to the first results shown (``shown``: those
# of the parts loaded, when some were still loading, then answered again).
PROBE = """
window.__bench = { samples: [], start: null, shownAt: null, readyAt: null, firstResultsAt: null };
document.addEventListener('dalil:partial', e => {
  if (window.__bench.start !== null && window.__bench.shownAt === null) window.__bench.shownAt = performance.now();
}, true);
document.addEventListener('dalil:results', e => {
  if (e.detail.query && window.__bench.firstResultsAt === null) window.__bench.firstResultsAt = performance.now();
}, true);
document.addEventListener('keydown', e => { if (window.__bench.start === null) window.__bench.start = e.timeStamp; }, true);
document.addEventListener('beforeinput', e => { if (window.__bench.start === null) window.__bench.start = e.timeStamp; }, true);
document.addEventListener('dalil:results', e => {
  const bench = window.__bench, start = bench.start, dom = performance.now(), detail = e.detail;
  const shown = bench.shownAt === null ? dom : bench.shownAt;
  bench.start = null;
  bench.shownAt = null;
  if (start === null || !detail.query) return;
  requestAnimationFrame(() => setTimeout(() => bench.samples.push({
    query: detail.query, total: detail.total, match: detail.matchMs, render: detail.renderMs,
    shown: shown - start, dom: dom - start, paint: performance.now() - start }), 0));
}, true);
new MutationObserver(() => {
  const root = document.getElementById('live-search');
  if (root && root.dataset.ready && window.__bench.readyAt === null) window.__bench.readyAt = performance.now();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready'] });
"""

# Matching alone, from a cold searcher (no narrowing from the previous keystroke), the
# query's parts loaded.
FULL_SCAN = """async ([url, queries, rounds]) => {
  const index = DalilSearch.prepareIndex(await DalilSearch.loadIndex(url));
  const folder = url.replace(/[^/]*$/, '');
  const out = {};
  for (const q of queries) {
    const search = DalilSearch.openIndex(index, undefined, name => folder + name + '.json');
    let result = search.answer(q, 20);
    while (result.missing) {
      await search.load(result);
      result = search.answer(q, 20);
    }
    const times = [];
    for (let i = 0; i < rounds; i++) { search.answer('', 20); times.push(search.answer(q, 20).ms); }
    out[q] = times;
  }
  return out;
}"""


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))]


def summary(values):
    return {"median": statistics.median(values), "p95": percentile(values, 0.95),
            "max": max(values), "n": len(values)}


FIRST_QUERY = "مطعم"


def run_browser(base, queries, browser, throttling=1):
    page = browser.new_page()
    cdp = throttle(page, throttling)  # the worker runs in the page's renderer: slowed too
    page.add_init_script(PROBE)
    page.goto(base + "/search/?q=" + urllib.parse.quote(FIRST_QUERY))
    page.wait_for_function("window.__bench.firstResultsAt !== null", timeout=300_000)
    load = page.evaluate("""() => ({
      ready: window.__bench.readyAt, firstResults: window.__bench.firstResultsAt })""")
    load["heap"] = page_heap(cdp)
    load["worker_heap"] = worker_heap(page, cdp)
    box = page.locator("#site-search")
    results = {}
    for group, query in [("warmup", "مطعم"), *queries]:
        box.fill("")
        page.evaluate("window.__bench.samples = []; window.__bench.start = null")
        for typed, char in enumerate(query, start=1):
            page.keyboard.type(char)
            page.wait_for_function("n => window.__bench.samples.length >= n", arg=typed)
        samples = page.evaluate("window.__bench.samples")
        if group != "warmup":
            results.setdefault(group, []).extend(samples)
            results.setdefault(query, samples)
    load["heap_after_typing"] = page_heap(cdp)
    page.close()
    page = browser.new_page()
    throttle(page, throttling)
    page.add_init_script(PROBE)
    page.goto(base + "/search/")
    full_scan = page.evaluate(FULL_SCAN, [HEAD_URL, [query for _, query in queries], 15])
    page.close()
    page = browser.new_page()
    throttle(page, throttling)
    page.add_init_script(PROBE)
    page.goto(base + "/__baseline.html")
    page.locator("#site-search").focus()
    typed = 0
    for _, query in queries:
        page.locator("#site-search").fill("")
        for char in query:
            typed += 1
            page.keyboard.type(char)
            page.wait_for_function("n => window.__bench.samples.length >= n", arg=typed)
    results["baseline"] = page.evaluate("window.__bench.samples")
    page.close()
    return load, results, full_scan


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listings", default="10000,100000",
                        help="comma-separated listing counts (default 10000,100000)")
    parser.add_argument("--no-peer", dest="peer", action="store_false",
                        help="leave Pagefind out")
    parser.add_argument("--peer-timeout", type=float, default=3 * 3600,
                        help="seconds Pagefind may take to index a size (default 3 hours)")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    report = {"load_average": os.getloadavg()[0], "cpus": os.cpu_count(), "sizes": {}}
    for count in (int(size) for size in str(args.listings).split(",")):
        report["sizes"][count] = bench_size(count, args)
    if args.json:
        Path(args.json).write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n",
                                   encoding="utf-8")
    return report


def index_with_pagefind(output, entries, count, args, report):
    """Writes a page per directory entry and indexes them with Pagefind; True when it
    did. A failure (or more than ``--peer-timeout`` seconds) is reported, with what
    Pagefind said, and the size is benched without it."""
    started = time.perf_counter()
    write_directory_pages(output, entries)
    written = time.perf_counter() - started
    # In a session of its own: on a timeout its whole group ends (the npm wrapper runs
    # Pagefind's binary as a child, which would outlive it).
    process = subprocess.Popen([str(PAGEFIND), "--site", str(output), "--glob",
                                "directory/**/*.html"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=args.peer_timeout)
        if process.returncode:
            raise subprocess.CalledProcessError(process.returncode, process.args, stdout, stderr)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            error.stdout, error.stderr = process.communicate()
        said = (error.stderr or b"").decode("utf-8", "replace")[-2000:] + (
            (error.stdout or b"").decode("utf-8", "replace")[-2000:])
        failure = (f"Pagefind failed on {count:,} listing pages ({written:.0f} s to write them, "
                   f"then {time.perf_counter() - started - written:.0f} s): {error}")
        print(f"  {failure}\n  its last words: {said.strip()[-1500:]}")
        report["peer_failure"] = {"error": failure, "output": said}
        return False
    files_size = sum(path.stat().st_size for path in (output / "pagefind").rglob("*")
                     if path.is_file())
    print(f"  Pagefind: {count:,} listing pages and the category and city pages "
          f"written and indexed in {time.perf_counter() - started:.1f} s; its files: "
          f"{files_size:,} bytes")
    return True


def bench_size(count, args):
    from playwright.sync_api import sync_playwright

    started = time.perf_counter()
    entries = synthetic_entries(count)
    print(f"\n=== {count:,} listings: synthetic index of {len(entries):,} entries, "
          f"made in {time.perf_counter() - started:.1f} s")
    report = {"entries": len(entries), "listings": count, "sizes": {}, "runs": {}, "peer": {}}
    with tempfile.TemporaryDirectory(prefix="dalil-bench-") as workdir:
        output = build_site(Path(workdir))
        started = time.perf_counter()
        files = write_indexes(output, entries)
        print(f"  indexes written with their .br and .gz copies in "
              f"{time.perf_counter() - started:.1f} s")
        for relpath, size in files.items():
            report["sizes"][relpath] = size
            print(f"  /{relpath}: " + ", ".join(
                f"{kind} {value:,} bytes ({value / len(entries):.1f}/entry)"
                for kind, value in size.items() if kind != "files")
                + (f"; {size['files']:,} files" if "files" in size else ""))
        peer = args.peer and index_with_pagefind(output, entries, count, args, report)
        with serve(output, _Handler) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=args.chromium, headless=True,
                args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                      "--enable-precise-memory-info", "--disable-background-networking"])
            for rate in (1, 4):
                load, results, full_scan = run_browser(base, QUERIES, browser, rate)
                report["runs"][rate] = print_run(rate, load, results, full_scan)
                if peer:
                    rows = compare(browser, base, [query for query, _ in PEER_QUERIES], rate)
                    recall = recall_at_10(entries)
                    medians = print_rows(rows, rate, recall)
                    report["peer"][rate] = {"medians": medians, "rows": {
                        query: {engine: {**figures, "recall@10": recall(query, figures["urls"])}
                                for engine, figures in row.items()}
                        for query, row in rows.items()}}
            browser.close()
    return report


# Queries of the side-by-side run and which synthetic entries answer them (for
# recall@10): by category, by category and proper name, by city. A query for a category
# or a city alone is also answered by that category's or city's own page.
def _in(category=None, proper=None, city=None):
    def relevant(entry):
        if entry["t"] != "listing":
            return proper is None and (entry["t"], entry["s"]) in (("category", category),
                                                                   ("location", city))
        return ((category is None or entry["cs"] == category)
                and (city is None or entry["ls"] == city)
                and (proper is None or entry["s"].startswith(f"{proper}-{entry['cs']}-")))
    return relevant


PEER_QUERIES = [
    ("مطعم", _in("restaurants")), ("صيدلية الأمل", _in("pharmacies", "amal")),
    ("فندق اطلس", _in("hotels", "atlas")), ("الدار البيضاء", _in(city="casablanca")),
    ("restaurant", _in("restaurants")), ("pharmacie", _in("pharmacies")),
    ("cafe atlas", _in("cafes", "atlas")), ("Hôtel Oasis", _in("hotels", "oasis")),
]


def recall_at_10(entries):
    """recall(query, urls): of the top 10 URLs, the relevant entries over the most there
    could be (ten, or fewer when fewer are relevant)."""
    pages = {entry["url"]: entry for entry in entries if entry["t"] in DIRECTORY_TYPES}
    tests = dict(PEER_QUERIES)
    totals = {query: sum(map(test, pages.values())) for query, test in tests.items()}

    def recall(query, urls):
        found = sum(1 for url in urls[:10] if url in pages and tests[query](pages[url]))
        return found / min(10, totals[query]) if totals[query] else 1.0
    return recall


def print_run(rate, load, results, full_scan):
    """Prints one run's figures (``rate``: the CPU throttling) and returns them."""

    load_average = os.getloadavg()
    print(f"\nHeadless Chromium, CPU throttling {rate}x (the page and its worker), /search/ "
          f"with the real search.js and its worker (the index in parts from a loopback "
          f"server, gzip); load average {load_average[0]:.1f} on {os.cpu_count()} CPUs "
          f"(timings grow with it):")
    print(f"  /search/?q={FIRST_QUERY}: index ready in the worker at {load['ready']:.0f} ms, "
          f"first results shown at {load['firstResults']:.0f} ms after navigation start")
    mib = 1024 * 1024
    print("  the page's JS heap after a collection (CDP Runtime.getHeapUsage; + its "
          "ArrayBuffers, outside the heap): " + ", ".join(
              f"{load[key]['used'] / mib:.1f} + {load[key]['array_buffers'] / mib:.1f} MiB {when}"
              for key, when in (("heap", "after load"), ("heap_after_typing", "after typing")))
          + "; the worker's, after it handed the index over: "
          + (f"{load['worker_heap'] / mib:.1f} MiB" if load["worker_heap"] else "ended"))
    report = {"load": load, "keystrokes": {}, "full_scan_ms": {}}
    print("\nPer keystroke (ms): key -> first results shown (from the parts loaded) | "
          "key -> final results in the DOM | key -> next paint | matching | rendering")
    for group in ("arabic", "latin"):
        samples = results[group]
        figures = {name: summary([sample[name] for sample in samples])
                   for name in ("shown", "dom", "paint", "match", "render")}
        report["keystrokes"][group] = figures
        print(f"  {group:7} n={len(samples):3}  " + "  ".join(
            f"{name} median {figures[name]['median']:5.1f} p95 {figures[name]['p95']:5.1f}"
            for name in ("shown", "dom", "paint", "match", "render")))
    every = results["arabic"] + results["latin"]
    overall = {name: summary([sample[name] for sample in every])
               for name in ("shown", "dom", "paint", "match", "render")}
    report["keystrokes"]["all"] = overall
    print(f"  all     n={len(every):3}  " + "  ".join(
        f"{name} median {overall[name]['median']:5.1f} p95 {overall[name]['p95']:5.1f}"
        for name in ("shown", "dom", "paint", "match", "render")))
    baseline = {name: summary([sample[name] for sample in results["baseline"]])
                for name in ("dom", "paint")}
    report["keystrokes"]["baseline_echo_page"] = baseline
    print(f"  the same keys on a page that only echoes them: dom median "
          f"{baseline['dom']['median']:.1f}, paint median {baseline['paint']['median']:.1f} "
          f"p95 {baseline['paint']['p95']:.1f} (the browser's own input-to-frame cost)")
    first = [samples[0] for key, samples in results.items()
             if key not in ("arabic", "latin", "baseline")]
    report["keystrokes"]["first_key"] = {name: summary([sample[name] for sample in first])
                                         for name in ("shown", "dom", "paint", "match")}
    print("  first keystroke of each query (one letter, the most matches): paint median "
          f"{report['keystrokes']['first_key']['paint']['median']:.1f} max "
          f"{report['keystrokes']['first_key']['paint']['max']:.1f}")
    print("\nMatching alone, whole query on a fresh scan of every entry (ms, median of 15):")
    for query, times in full_scan.items():
        report["full_scan_ms"][query] = summary(times)
        final = results[query][-1]
        print(f"  {query!r:22} {statistics.median(times):6.1f}   ({final['total']:,} matches)")
    return report


if __name__ == "__main__":
    main()
