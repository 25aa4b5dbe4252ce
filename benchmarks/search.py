"""Benchmark of the search index and live search at scale (``invoke bench-search``).

Builds a tiny site with the real theme and search page, replaces its index by a
synthetic one of N listings (default 100,000) with realistic Arabic, English and French
names, reports the index's raw, gzip and brotli sizes, then opens /search/?q=… in
headless Chromium (the time to the first results after navigation), types queries into
it and reports, per keystroke, the time from the key to the rendered results (median
and 95th percentile), and the matching time on its own; once as it is and once with
the CPU throttled 4x (Emulation.setCPUThrottlingRate), a phone's proxy.
"""

import argparse
import functools
import http.server
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

from dalil.core.output import PRECOMPRESSED, compressed
from dalil.search.index import TYPES, make_entry, serialise

REPO = Path(__file__).resolve().parents[1]

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


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".json": "application/json; charset=utf-8",
                      ".js": "text/javascript; charset=utf-8"}

    def do_GET(self):
        if self.path == "/__baseline.html":
            self._send(BASELINE, "text/html; charset=utf-8")
            return
        if self.path.startswith("/images/listings/"):  # every synthetic image exists
            self._send(PLACEHOLDER, "image/svg+xml")
            return
        super().do_GET()

    def _send(self, body, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


# Installed before the page's scripts: times each keystroke to its rendered results.
PROBE = """
window.__bench = { samples: [], start: null, readyAt: null, firstResultsAt: null };
document.addEventListener('dalil:results', e => {
  if (e.detail.query && window.__bench.firstResultsAt === null) window.__bench.firstResultsAt = performance.now();
}, true);
document.addEventListener('keydown', e => { if (window.__bench.start === null) window.__bench.start = e.timeStamp; }, true);
document.addEventListener('beforeinput', e => { if (window.__bench.start === null) window.__bench.start = e.timeStamp; }, true);
document.addEventListener('dalil:results', e => {
  const bench = window.__bench, start = bench.start, dom = performance.now(), detail = e.detail;
  bench.start = null;
  if (start === null || !detail.query) return;
  requestAnimationFrame(() => setTimeout(() => bench.samples.push({
    query: detail.query, total: detail.total, match: detail.matchMs, render: detail.renderMs,
    dom: dom - start, paint: performance.now() - start }), 0));
}, true);
new MutationObserver(() => {
  const root = document.getElementById('live-search');
  if (root && root.dataset.ready && window.__bench.readyAt === null) window.__bench.readyAt = performance.now();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready'] });
"""

# Matching alone, from a cold searcher (no narrowing from the previous keystroke).
FULL_SCAN = """async ([url, queries, rounds]) => {
  const entries = await DalilSearch.loadIndex(url);
  const searcher = DalilSearch.createSearcher(entries);
  const out = {};
  for (const q of queries) {
    const times = [];
    for (let i = 0; i < rounds; i++) { searcher.search('', 20); times.push(searcher.search(q, 20).ms); }
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


def run_browser(output, queries, chromium, throttling=1):
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_Handler, directory=str(output))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium, headless=True,
                args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                      "--enable-precise-memory-info", "--disable-background-networking"])
            page = browser.new_page()
            if throttling > 1:  # a phone's proxy: every thread of the page's renderer slowed
                page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate",
                                                        {"rate": throttling})
            page.add_init_script(PROBE)
            page.goto(base + "/search/?q=" + urllib.parse.quote(FIRST_QUERY))
            page.wait_for_function("window.__bench.firstResultsAt !== null", timeout=300_000)
            load = page.evaluate("""() => ({
              ready: window.__bench.readyAt, firstResults: window.__bench.firstResultsAt,
              heap: performance.memory ? performance.memory.usedJSHeapSize : null })""")
            box = page.locator("#site-search")
            results = {}
            for round_number, (group, query) in enumerate([("warmup", "مطعم"), *queries]):
                box.fill("")
                page.evaluate("window.__bench.samples = []; window.__bench.start = null")
                for typed, char in enumerate(query, start=1):
                    page.keyboard.type(char)
                    page.wait_for_function("n => window.__bench.samples.length >= n", arg=typed)
                samples = page.evaluate("window.__bench.samples")
                if group != "warmup":
                    results.setdefault(group, []).extend(samples)
                    results.setdefault(query, samples)
            full_scan = page.evaluate(FULL_SCAN, ["/search-index.json",
                                                  [query for _, query in queries], 15])
            page.close()
            page = browser.new_page()
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
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return load, results, full_scan


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listings", type=int, default=100_000)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    entries = synthetic_entries(args.listings)
    data = serialise(entries).encode("utf-8")
    generated = time.perf_counter() - started
    size = sizes(data)
    print(f"Synthetic index: {len(entries):,} entries ({args.listings:,} listings), "
          f"generated and serialised in {generated:.1f} s")
    for kind, value in size.items():
        print(f"  {kind:7} {value:>12,} bytes  {value / 1024 / 1024:7.2f} MiB  "
              f"{value / len(entries):6.1f} bytes/entry")

    with tempfile.TemporaryDirectory(prefix="dalil-bench-") as workdir:
        output = build_site(Path(workdir))
        (output / "search-index.json").write_bytes(data)
        runs = {rate: run_browser(output, QUERIES, args.chromium, rate) for rate in (1, 4)}
    report = {"entries": len(entries), "listings": args.listings, "sizes": size,
              "load_average": os.getloadavg()[0], "cpus": os.cpu_count(), "runs": {}}
    for rate, (load, results, full_scan) in runs.items():
        report["runs"][rate] = print_run(rate, entries, load, results, full_scan)
    if args.json:
        Path(args.json).write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n",
                                   encoding="utf-8")
    return report


def print_run(rate, entries, load, results, full_scan):
    """Prints one run's figures (``rate``: the CPU throttling) and returns them."""

    load_average = os.getloadavg()
    print(f"\nHeadless Chromium, CPU throttling {rate}x, /search/ with the real search.js and "
          f"its worker (index fetched from a loopback server, uncompressed); load average "
          f"{load_average[0]:.1f} on {os.cpu_count()} CPUs (timings grow with it):")
    print(f"  /search/?q={FIRST_QUERY}: index ready in the worker at {load['ready']:.0f} ms, "
          f"first results shown at {load['firstResults']:.0f} ms after navigation start")
    if load["heap"]:
        print(f"  the page's JS heap after load: {load['heap'] / 1024 / 1024:.1f} MiB "
              f"(the worker's heap, which holds the index, is not in it)")
    report = {"load": load, "keystrokes": {}, "full_scan_ms": {}}
    print("\nPer keystroke (ms): key -> DOM updated | key -> next paint | matching | rendering")
    for group in ("arabic", "latin"):
        samples = results[group]
        figures = {name: summary([sample[name] for sample in samples])
                   for name in ("dom", "paint", "match", "render")}
        report["keystrokes"][group] = figures
        print(f"  {group:7} n={len(samples):3}  " + "  ".join(
            f"{name} median {figures[name]['median']:5.1f} p95 {figures[name]['p95']:5.1f}"
            for name in ("dom", "paint", "match", "render")))
    every = results["arabic"] + results["latin"]
    overall = {name: summary([sample[name] for sample in every])
               for name in ("dom", "paint", "match", "render")}
    report["keystrokes"]["all"] = overall
    print(f"  all     n={len(every):3}  " + "  ".join(
        f"{name} median {overall[name]['median']:5.1f} p95 {overall[name]['p95']:5.1f}"
        for name in ("dom", "paint", "match", "render")))
    baseline = {name: summary([sample[name] for sample in results["baseline"]])
                for name in ("dom", "paint")}
    report["keystrokes"]["baseline_echo_page"] = baseline
    print(f"  the same keys on a page that only echoes them: dom median "
          f"{baseline['dom']['median']:.1f}, paint median {baseline['paint']['median']:.1f} "
          f"p95 {baseline['paint']['p95']:.1f} (the browser's own input-to-frame cost)")
    first = [samples[0] for key, samples in results.items()
             if key not in ("arabic", "latin", "baseline")]
    report["keystrokes"]["first_key"] = {name: summary([sample[name] for sample in first])
                                         for name in ("dom", "paint", "match")}
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
