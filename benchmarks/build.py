"""``invoke bench``: the full Dalil build against plain Pelican on the same synthetic content.

For each size: a cold plain-Pelican build (the same Markdown files as ordinary
articles, no Dalil plugin, the default theme, no feeds), a cold Dalil build with
every plugin of the repository's ``pelicanconf.py`` (plus ``benchmarks.timings`` for the
per-output timings), then a warm Dalil rebuild after editing one listing, counting
the output files it rewrote. Each build runs in its own process; its wall time and
peak RSS (``wait4``: the largest resident set of the build or any of its
workers) are recorded. The JSON report lets figures be compared across commits.
"""

import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

from . import synthetic

# The build time of every benchmark build (reproducible; news inside the 48-hour window).
SOURCE_DATE_EPOCH = str(int(synthetic.ANCHOR.replace(tzinfo=dt.timezone.utc).timestamp()))
SITEURL = "https://dalil.example"


def _settings_dalil(repo, site, extra):
    lines = [
        "import importlib.util",
        f"_spec = importlib.util.spec_from_file_location('dalil_bench_base', {str(repo / 'pelicanconf.py')!r})",
        "_base = importlib.util.module_from_spec(_spec)",
        "_spec.loader.exec_module(_base)",
        "globals().update({k: v for k, v in vars(_base).items() if k.isupper()})",
        f"PATH = {str(site / 'content')!r}",
        f"OUTPUT_PATH = {str(site / 'dalil-output')!r}",
        f"CACHE_PATH = {str(site / 'dalil-cache')!r}",
        f"PLUGIN_PATHS = [{str(repo)!r}]",
        "PLUGINS = [*PLUGINS, 'benchmarks.timings']",
        f"SITEURL = {SITEURL!r}",
        "CACHE_CONTENT = True",
        "LOAD_CONTENT_CACHE = True",
        f"DALIL_PERF_TIMINGS_PATH = {str(site / 'dalil-timings.json')!r}",
    ]
    lines += [f"{key} = {value!r}" for key, value in sorted(extra.items())]
    return "\n".join(lines) + "\n"


def _settings_plain(site):
    values = {
        "PATH": str(site / "content"), "OUTPUT_PATH": str(site / "plain-output"),
        "CACHE_PATH": str(site / "plain-cache"), "SITENAME": "Dalil", "SITEURL": SITEURL,
        "TIMEZONE": "Africa/Casablanca", "DEFAULT_LANG": "ar",
        "ARTICLE_PATHS": ["listings", "news", "blog"], "PAGE_PATHS": ["pages"],
        "STATIC_PATHS": ["images"], "PLUGINS": [],
        "FEED_ALL_ATOM": None, "CATEGORY_FEED_ATOM": None, "TRANSLATION_FEED_ATOM": None,
        "AUTHOR_FEED_ATOM": None, "AUTHOR_FEED_RSS": None,
        "CACHE_CONTENT": False, "LOAD_CONTENT_CACHE": False,
    }
    return "".join(f"{key} = {value!r}\n" for key, value in values.items())


def run_build(repo, site, settings_file, output, log_name, fatal=True):
    """Run one Pelican build in a child process: seconds, peak RSS (MiB), return code."""
    command = [sys.executable, "-m", "pelican", str(site / "content"), "-o", str(output),
               "-s", str(settings_file)]
    if fatal:
        command += ["--fatal", "errors"]
    env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, "COLUMNS": "200",
           "PYTHONPATH": str(repo / "plugins")}
    with open(site / f"{log_name}.log", "w", encoding="utf-8") as log:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=site, env=env, stdout=log, stderr=subprocess.STDOUT)
        # wait4 gives this child's own peak RSS (and that of the workers it waited for).
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    return {"seconds": round(seconds, 3), "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),
            "returncode": process.returncode}


def snapshot(folder):
    """``relpath -> (inode, mtime_ns, size)`` of every file under ``folder``."""
    files = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            stat = os.stat(path)
            files[os.path.relpath(path, folder)] = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
    return files


def edit_one_listing(content):
    """Change one published listing's description and date; its path."""
    listings = sorted((content / "listings").glob("*.md"))
    for path in listings[len(listings) // 2:]:
        text = path.read_text(encoding="utf-8")
        if "\nStatus:" in text:
            continue
        head, body = text.split("\n\n", 1)
        head = "\n".join("Modified: 2026-11-21 11:00" if line.startswith("Modified:") else line
                         for line in head.splitlines())
        path.write_text(head + "\n\n" + body + "\nتم تحديث معلومات هذا النشاط.\n", encoding="utf-8")
        return path
    raise ValueError("no published listing to edit")


def _read_json(path):
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def bench_size(repo, workdir, listings, extra_settings=None):
    site = Path(workdir) / f"n{listings}"
    if site.exists():
        shutil.rmtree(site)
    site.mkdir(parents=True)
    totals = synthetic.write_content(site / "content", listings)
    (site / "dalil_settings.py").write_text(_settings_dalil(repo, site, extra_settings or {}),
                                            encoding="utf-8")
    (site / "plain_settings.py").write_text(_settings_plain(site), encoding="utf-8")

    plain = run_build(repo, site, site / "plain_settings.py", site / "plain-output", "plain",
                      fatal=False)
    plain["files"] = len(snapshot(site / "plain-output"))
    dalil = run_build(repo, site, site / "dalil_settings.py", site / "dalil-output", "dalil-cold")
    before = snapshot(site / "dalil-output")
    dalil["files"] = len(before)
    timings = _read_json(site / "dalil-timings.json")

    edited = edit_one_listing(site / "content")
    warm = run_build(repo, site, site / "dalil_settings.py", site / "dalil-output", "dalil-warm")
    after = snapshot(site / "dalil-output")
    rewritten = sorted(path for path, stamp in after.items()
                       if before.get(path, (None, None))[:2] != stamp[:2])
    warm.update(edited=str(edited.relative_to(site)), rewritten_files=len(rewritten),
                rewritten=rewritten[:40],
                removed_files=len(set(before) - set(after)))
    warm_timings = _read_json(site / "dalil-timings.json")
    return {
        "listings": listings, "content_files": totals,
        "plain_pelican": plain, "dalil": dalil,
        "time_ratio": round(dalil["seconds"] / plain["seconds"], 3),
        "rss_ratio": round(dalil["peak_rss_mib"] / max(plain["peak_rss_mib"], 0.1), 3),
        "dalil_outputs_seconds": timings.get("outputs", {}),
        "dalil_generators_seconds": timings.get("generators", {}),
        "dalil_output_files": timings.get("files", {}),
        "warm_rebuild": warm,
        "warm_outputs_seconds": warm_timings.get("outputs", {}),
    }


def machine():
    return {"python": platform.python_version(), "platform": platform.platform(),
            "cpus": os.cpu_count(), "pelican": _version("pelican")}


def _version(name):
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return ""


def plugins_of(repo):
    from pelican.settings import read_settings

    return list(read_settings(str(repo / "pelicanconf.py")).get("PLUGINS", []))


def run(repo, sizes, workdir, report_path=None, extra_settings=None, echo=print):
    repo = Path(repo).resolve()
    report = {"machine": machine(), "plugins": plugins_of(repo),
              "started": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
              "sizes": []}
    for listings in sizes:
        echo(f"bench: {listings:,} listings ...")
        result = bench_size(repo, workdir, listings, extra_settings)
        report["sizes"].append(result)
        echo(summary_line(result))
        if report_path:
            write_report(report, report_path)
    sizes_done = {entry["listings"]: entry for entry in report["sizes"]}
    if 10_000 in sizes_done and 100_000 in sizes_done:
        report["scaling_100k_over_10k"] = round(
            sizes_done[100_000]["dalil"]["seconds"] / sizes_done[10_000]["dalil"]["seconds"], 2)
    if report_path:
        write_report(report, report_path)
    return report


def write_report(report, path):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                    encoding="utf-8")


def summary_line(entry):
    plain, dalil, warm = entry["plain_pelican"], entry["dalil"], entry["warm_rebuild"]
    return (f"{entry['listings']:>7,} listings | plain {plain['seconds']:7.2f} s "
            f"{plain['peak_rss_mib']:7.1f} MiB | dalil {dalil['seconds']:7.2f} s "
            f"{dalil['peak_rss_mib']:7.1f} MiB | ratio {entry['time_ratio']:.2f}x | "
            f"warm {warm['seconds']:.2f} s, {warm['rewritten_files']} files rewritten")


def table(report):
    """The report as a rich table, with each Dalil output's seconds."""
    from rich.table import Table

    result = Table(title="Dalil vs plain Pelican (cold builds; warm = after editing one listing)")
    for column in ("listings", "plain s", "plain MiB", "dalil s", "dalil MiB", "ratio",
                   "warm s", "rewritten", "files"):
        result.add_column(column, justify="right")
    for entry in report["sizes"]:
        plain, dalil, warm = entry["plain_pelican"], entry["dalil"], entry["warm_rebuild"]
        result.add_row(f"{entry['listings']:,}", f"{plain['seconds']:.2f}",
                       f"{plain['peak_rss_mib']:.0f}", f"{dalil['seconds']:.2f}",
                       f"{dalil['peak_rss_mib']:.0f}", f"{entry['time_ratio']:.2f}×",
                       f"{warm['seconds']:.2f}", str(warm["rewritten_files"]),
                       f"{dalil['files']:,}")
    outputs = Table(title="Seconds per Dalil output (cold)")
    outputs.add_column("output")
    for entry in report["sizes"]:
        outputs.add_column(f"{entry['listings']:,}", justify="right")
    kinds = sorted({kind for entry in report["sizes"] for kind in entry["dalil_outputs_seconds"]})
    for kind in kinds:
        outputs.add_row(kind, *(f"{entry['dalil_outputs_seconds'].get(kind, 0):.2f}"
                                for entry in report["sizes"]))
    return result, outputs
