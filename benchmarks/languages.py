"""``invoke bench-languages``: Dalil's build of a site in several languages against Hugo's
multilingual mode doing the same job (issue 42: at 10,000 listings × 3 languages, Dalil's
cold build at or under Hugo's wall time, with at most a quarter of its memory).

For each size the synthetic listings (French and English names for listings, categories
and cities; a French translation of every third news item) become a Dalil site built with
``DALIL_LANGUAGES`` and a Hugo site in Hugo's multilingual mode (``benchmarks.hugo``): the
first language at the root, the others under ``/{lang}/``, every listing, category, city,
news and home page in each language, and the data files (a vCard per listing, the search
index, the JSON and CSV exports) once. Cold builds run interleaved (Dalil, Hugo, Dalil, …)
on the work folder's disk, each in its own process: wall time, CPU time of the process
tree (``wait4``), peak RSS of its largest process and peak PSS of the whole tree (sampled,
``build.PssSampler``), which counts the pages Dalil's forked workers share once; a build
past ``build.MEMORY_LIMIT_GIB`` is killed and recorded as failed. The report counts each
tool's pages per language and where each data file was written.
"""

import datetime as dt
import os
from pathlib import Path

from . import build, hugo, synthetic

LANGUAGES = ("ar", "fr", "en")
METRICS = build.METRICS
PSS_INTERVAL = 0.1  # seconds between two samples of a build's PSS
MEMORY_LIMIT_KIB = build.MEMORY_LIMIT_GIB * 2**20  # a build past it is killed (build.measure)

# Each tool's pages of one kind, below a language's folder.
PAGES = {
    "dalil": {"listing": "directory/listing/*/index.html",
              "category": "directory/category/*/index.html",
              "city": "directory/city/*/index.html", "news": "news/*/index.html",
              "home": "index.html"},
    "hugo": {"listing": "directory/listing/*/index.html", "category": "categories/*/index.html",
             "city": "cities/*/index.html", "news": "news/*/index.html", "home": "index.html"},
}
# Data files a site has one of (a vCard per listing): where each tool wrote them.
DATA_FILES = ("contact.vcf", "search-index.json", "export.json", "export.csv")
# Issue 42's bounds on Dalil/Hugo: wall time at most 1, peak memory at most a quarter.
TARGETS = {"seconds": 1.0, "peak_pss_mib": 0.25}
VERDICT_NAMES = {"seconds": "wall", "peak_pss_mib": "PSS"}


def prepare_site(repo, workdir, listings, languages):
    """The synthetic content in ``languages``, Dalil's settings and Hugo's multilingual site."""
    site = Path(workdir) / f"languages-n{listings}"
    build.remove(site)
    site.mkdir(parents=True)
    (site / "pelicanconf.py").write_text(
        build._settings_dalil(repo, site, {"DALIL_LANGUAGES": list(languages)}), encoding="utf-8")
    totals = {}
    content = synthetic.written(site / "content", synthetic.generate_files(listings, languages),
                                totals)
    hugo.write_site(site / "hugo", content, build.SITEURL, languages=languages)
    return site, totals


def cold_round(repo, site, hugo_command, number):
    """One interleaved round of cold builds: Dalil, then Hugo, each from nothing."""
    build.remove(site / "dalil-output", site / "dalil-cache")
    builds = {"dalil": build.run_build(repo, site, site / "pelicanconf.py", f"dalil-cold-{number}",
                                       pss_interval=PSS_INTERVAL,
                                       memory_limit_kib=MEMORY_LIMIT_KIB)}
    build.remove(site / "hugo-output", site / "hugo-cache")
    builds["hugo"] = build.run_hugo(hugo_command, site, f"hugo-{number}",
                                    pss_interval=PSS_INTERVAL, memory_limit_kib=MEMORY_LIMIT_KIB)
    return builds


def pages_per_language(output, patterns, languages):
    """``{lang: {kind: count}}``: the first language's pages at the root, the others' below
    ``/{lang}/``."""
    counts = {}
    for number, lang in enumerate(languages):
        folder = output if number == 0 else output / lang
        counts[lang] = {kind: len(list(folder.glob(pattern))) for kind, pattern in patterns.items()}
    return counts


def data_files(output):
    """``{name: count, name + " folders": [folders holding it, …]}`` for each data file."""
    found = {}
    for name in DATA_FILES:
        paths = sorted(path.relative_to(output) for path in output.rglob(name))
        found[name] = len(paths)
        # A vCard per listing: the folders above the listings' show where they went.
        folders = {str(path.parent.parent if name == "contact.vcf" else path.parent)
                   for path in paths}
        found[f"{name} folders"] = sorted(folders)
    return found


def bench_size(repo, workdir, listings, languages=LANGUAGES, rounds=3, hugo_command="hugo",
               echo=print):
    site, totals = prepare_site(repo, workdir, listings, languages)
    cold = []
    for number in range(1, rounds + 1):
        cold.append(cold_round(repo, site, hugo_command, number))
        echo(f"  round {number}: " + ", ".join(build._build_line(tool, result)
                                               for tool, result in cold[-1].items()))
    summary, ratios = build.summarise(cold, METRICS)
    outputs = {"dalil": site / "dalil-output", "hugo": site / "hugo-output"}
    failed = sorted({tool for builds in cold for tool, result in builds.items()
                     if "failure" in result})
    ratio = ratios.get("dalil/hugo", {metric: {"median": None} for metric in TARGETS})
    pages = {tool: pages_per_language(outputs[tool], PAGES[tool], languages) for tool in outputs}
    # A failed build, or one that wrote fewer languages (a Dalil without DALIL_LANGUAGES),
    # did not do the same job: no verdict then.
    same_job = not failed and pages["dalil"] == pages["hugo"]
    return {
        "listings": listings, "languages": list(languages), "content_files": totals,
        "published_listings": len(build.published_listings(site / "content")),
        "rounds": cold, "summary": summary, "ratios": ratios,
        "failed": failed, "same_pages": pages["dalil"] == pages["hugo"],
        "issue_42": {metric: {"ratio_median": ratio[metric]["median"], "at_most": bound,
                              "met": ratio[metric]["median"] <= bound if same_job else None}
                     for metric, bound in TARGETS.items()},
        "pages": pages,
        "data_files": {tool: data_files(folder) for tool, folder in outputs.items()},
        "files": {tool: len(build.snapshot(folder)) for tool, folder in outputs.items()},
    }


def run(repo, sizes, workdir, report_path=None, languages=LANGUAGES, rounds=3,
        hugo_command="hugo", echo=print):
    repo = Path(repo).resolve()
    report = {"machine": {**build.machine(), "hugo": build.hugo_version(hugo_command),
                          "load_average_at_start": os.getloadavg()},
              "plugins": build.plugins_of(repo), "languages": list(languages),
              "pss_interval_seconds": PSS_INTERVAL,
              "started": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
              "sizes": []}
    for listings in sizes:
        echo(f"bench-languages: {listings:,} listings × {len(languages)} languages, "
             f"{rounds} interleaved rounds ...")
        report["sizes"].append(bench_size(repo, workdir, listings, languages, rounds,
                                          hugo_command, echo))
        if report_path:
            build.write_report(report, report_path)
    report["load_average_at_end"] = os.getloadavg()
    if report_path:
        build.write_report(report, report_path)
    return report


def failed_sizes(report):
    return [entry["listings"] for entry in report["sizes"] if entry["failed"]]


def table(report):
    """The report as rich tables: builds, Dalil/Hugo with issue 42's bounds, pages per language."""
    from rich.table import Table

    builds = Table(title="Cold builds in several languages: median (min–max) over interleaved "
                         "rounds")
    for column in ("listings", "tool", "wall s", "CPU s", "peak PSS MiB", "peak RSS MiB",
                   "files"):
        builds.add_column(column, justify="right")
    ratios = Table(title="Dalil / Hugo, each round's ratio: median (min–max)")
    for column in ("listings", "wall", "CPU", "peak PSS", "issue 42"):
        ratios.add_column(column, justify="right")
    pages = Table(title="Pages per language (listing, category, city, news, home)")
    for column in ("listings", "tool", *report["languages"]):
        pages.add_column(column, justify="right")
    for entry in report["sizes"]:
        size = f"{entry['listings']:,}"
        for tool, values in entry["summary"].items():
            if "failure" in values:
                builds.add_row(size, tool, values["failure"], "", "", "", "")
                continue
            builds.add_row(size, tool, build._median_range(values["seconds"]),
                           build._median_range(values["cpu_seconds"], digits=1),
                           build._median_range(values["peak_pss_mib"], digits=0),
                           build._median_range(values["peak_rss_mib"], digits=0),
                           f"{entry['files'][tool]:,}")
            pages.add_row(size, tool, *(" / ".join(str(count) for count in
                                                   entry["pages"][tool][lang].values())
                                        for lang in entry["languages"]))
        ratio, verdict = entry["ratios"].get("dalil/hugo"), entry["issue_42"]
        if ratio is None:
            ratios.add_row(size, "", "", "", f"{' and '.join(entry['failed'])} failed")
            continue
        ratios.add_row(size, *(build._median_range(ratio[metric], "×")
                               for metric in ("seconds", "cpu_seconds", "peak_pss_mib")),
                       f"{' and '.join(entry['failed'])} failed" if entry["failed"] else
                       "not the same pages" if not entry["same_pages"] else
                       ", ".join(f"{'met' if value['met'] else 'not met'} "
                                 f"({VERDICT_NAMES[metric]} ≤ {value['at_most']}×)"
                                 for metric, value in verdict.items()))
    return builds, ratios, pages
