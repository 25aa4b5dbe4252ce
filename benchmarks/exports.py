"""Benchmark of the exports: time and peak memory to write export.json, export.csv,
export.geojson and every vCard for synthetic directories (model objects built directly, no Pelican run).

``invoke bench-exports`` or ``python -m benchmarks.exports 10000 100000``.
Each size is written into fresh folders: once timed, with the vCards made on every
core as a build makes them, then in one process under tracemalloc (which slows Python
down, so its time is not the one reported, and sees no worker), all files and then
the three exports alone. The peak of all files grows with the number of files because
``core.output.OutputFiles`` remembers every path it wrote (to refuse a second write).

``invoke bench-exports --validate`` (``python -m benchmarks.exports --validate 1000000``)
checks instead that the published data package stays valid at that size within
``VALIDATE_LIMIT_GIB``: the exports and ``datapackage.json`` written by the build's own
writers, then ``frictionless validate`` of the package in its own process, its wall time,
CPU time and peak PSS of its process tree (``build.measure``, killed past the limit) and
each resource's rows and errors.
"""

import argparse
import datetime as dt
import json
import resource
import shutil
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from dalil.core.output import OutputFiles
from dalil.directory.model import Directory, Listing, Term
from dalil.exports.datapackage import data_package
from dalil.exports.settings import ExportSettings
from dalil.exports.writers import write_exports

from . import build

SITEURL = "https://dalil.example"
_WORDS = ("مطعم", "صيدلية", "مقهى", "فندق", "مخبزة", "الأطلس", "الزيتونة", "النخيل",
          "الأندلس", "الياسمين", "\"الأصدقاء\"", "وشركاؤهم,", "فرع;", "المدينة")


def _term(kind, number):
    slug = f"{kind}-{number}"
    return Term(kind=kind, slug=slug, name=f"{_WORDS[number % len(_WORDS)]} {number}",
                name_en=slug, name_fr=slug, province=f"P{number:02d}", description="",
                source_path=f"content/{kind}/{slug}.md", url=f"directory/{kind}/{slug}/",
                save_as=f"directory/{kind}/{slug}/index.html")


def synthetic_directory(count):
    """``count`` published listings with every field; one in seven has a long name, one in
    seven no coordinates."""
    categories = [_term("category", number) for number in range(24)]
    cities = [_term("city", number) for number in range(60)]
    base = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    listings = []
    for number in range(count):
        slug = f"listing-{number:06d}"
        words = [_WORDS[(number * 7 + k) % len(_WORDS)] for k in range(3 + 12 * (number % 7 == 0))]
        listings.append(Listing(
            slug=slug, name=" ".join(words) + f" {number}", name_en=f"Business {number}",
            name_fr=f"Entreprise {number}", category=categories[number % len(categories)],
            city=cities[number % len(cities)], street=f"{number % 300} شارع محمد الخامس",
            postal_code=f"{20000 + number % 900}", country="المغرب",
            phone=f"+212 522 {number % 1000:03d} {number % 997:03d}",
            email=f"contact{number}@example.ma", website=f"https://b{number}.example.ma/",
            image=f"/images/listings/{slug}.jpg", date=base,
            modified=base + dt.timedelta(minutes=number), summary="", content="",
            status="published", source_path=f"content/listings/{slug}.md",
            url=f"directory/listing/{slug}/", save_as=f"directory/listing/{slug}/index.html",
            latitude=None if number % 7 == 3 else round(33.5 + number % 1000 / 10000, 6),
            longitude=None if number % 7 == 3 else round(-7.6 - number % 997 / 10000, 6),
            hours="Mo-Fr 09:00-18:00; Sa 09:00-13:00"))
    return Directory(listings=listings, hidden=[], drafts=[], categories=categories,
                     cities=cities)


def _write(directory, folder, config=ExportSettings()):
    return write_exports(OutputFiles(folder), directory, config, SITEURL)


def _traced_peak(write):
    tracemalloc.start()
    try:
        write()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def measure(count, workdir):
    """A dict of figures for ``count`` listings, written under ``workdir``."""
    directory = synthetic_directory(count)
    timed, traced = Path(workdir, f"timed-{count}"), Path(workdir, f"traced-{count}")
    started = time.perf_counter()
    files = _write(directory, timed)
    seconds = time.perf_counter() - started
    peak = _traced_peak(lambda: _write(directory, traced))
    # The three exports alone: streamed, so their peak does not grow with the directory.
    exports_peak = _traced_peak(lambda: _write(directory, Path(workdir, f"exports-{count}"),
                                               ExportSettings(vcard_save_as="")))
    vcards = list(timed.glob("directory/listing/*/contact.vcf"))
    figures = {
        "listings": count, "files": files, "seconds": seconds,
        "listings_per_second": count / seconds,
        "peak_traced_mib": peak / 2**20,
        "exports_peak_mib": exports_peak / 2**20,
        "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "json_mib": (timed / "directory/export.json").stat().st_size / 2**20,
        "csv_mib": (timed / "directory/export.csv").stat().st_size / 2**20,
        "geojson_mib": (timed / "directory/export.geojson").stat().st_size / 2**20,
        "vcards": len(vcards),
        "vcard_mib": sum(path.stat().st_size for path in vcards) / 2**20,
    }
    for folder in (timed, traced, Path(workdir, f"exports-{count}")):
        shutil.rmtree(folder)
    return figures


VALIDATE_LIMIT_GIB = 2  # issue 46: frictionless validates the million-row package within this
BUILT_AT = dt.datetime(2026, 11, 21, 12, 0, tzinfo=dt.timezone.utc)


def write_package(count, folder):
    """The exports (no vCards) and ``datapackage.json`` of ``count`` synthetic listings in
    ``folder``, as a build writes them; the package's path."""
    config = ExportSettings(vcard_save_as="")
    files = OutputFiles(folder)
    write_exports(files, synthetic_directory(count), config, SITEURL)
    files.write(config.datapackage_save_as, data_package(config, SITEURL, "Dalil", BUILT_AT))
    return Path(files.path_for(config.datapackage_save_as))


def validate(count, workdir, frictionless="frictionless", limit_gib=VALIDATE_LIMIT_GIB):
    """``frictionless validate`` of the data package of ``count`` listings: a dict of figures."""
    folder = Path(workdir, f"validate-{count}")
    shutil.rmtree(folder, ignore_errors=True)
    started = time.perf_counter()
    package = write_package(count, folder)
    written = time.perf_counter() - started
    report_path = folder / "frictionless.json"
    run = build.measure([frictionless, "validate", "--json", package.name], package.parent,
                        folder / "frictionless.log", memory_limit_kib=int(limit_gib * 2**20),
                        stdout_path=report_path)
    figures = {"listings": count, "write_seconds": round(written, 1), **run,
               "limit_gib": limit_gib,
               "within_limit": "failure" not in run and run["peak_pss_mib"] <= limit_gib * 1024,
               "exports_mib": {path.name: round(path.stat().st_size / 2**20, 1)
                               for path in sorted(package.parent.glob("export.*"))
                               if path.suffix in (".csv", ".json", ".geojson")}}
    if "failure" not in run:
        report = json.loads(report_path.read_text(encoding="utf-8"))
        figures["valid"] = report["valid"]
        figures["resources"] = {task["name"]: {key: task["stats"].get(key)
                                               for key in ("rows", "errors", "seconds")}
                                for task in report["tasks"]}
    shutil.rmtree(folder)
    return figures


def validate_line(figures):
    head = (f"{figures['listings']:8d} {figures['write_seconds']:8.1f} {figures['seconds']:8.1f} "
            f"{figures['cpu_seconds']:8.1f} {figures['peak_pss_mib']:10.1f}")
    if "failure" in figures:
        return f"{head}  {figures['failure']}"
    rows = ", ".join(f"{name} {stats['rows']} rows {stats['errors']} errors"
                     for name, stats in figures["resources"].items())
    verdict = "within" if figures["within_limit"] else "over"
    return (f"{head}  {'valid' if figures['valid'] else 'INVALID'}, {verdict} "
            f"{figures['limit_gib']} GiB; {rows}")


def main(sizes, validate_package=False, workdir=None, report=None):
    """Print a line of figures per size; with ``validate_package``, frictionless's (and write
    them as JSON to ``report``). Returns the figures."""
    workdir = Path(tempfile.mkdtemp(prefix="dalil-bench-", dir=workdir))
    results = []
    try:
        if validate_package:
            frictionless = shutil.which("frictionless")
            if frictionless is None:
                raise SystemExit("bench-exports: frictionless not found "
                                 "(pip install 'frictionless[json]')")
            where = build.filesystem(workdir)
            print(f"frictionless validate of the data package, on {where['type']} "
                  f"({where['path']})\n"
                  "listings  write s  wall s    CPU s  peak PSS MiB  result")
            for count in sizes:
                results.append(validate(count, workdir, frictionless))
                print(validate_line(results[-1]), flush=True)
            if report:
                build.write_report({"filesystem": where, "validate": results}, report)
            return results
        print("listings   files  seconds  listings/s  peak traced MiB  (exports only)  "
              "max RSS MiB  json MiB  csv MiB  geojson MiB  vCards MiB")
        for count in sizes:
            f = measure(count, workdir)
            results.append(f)
            print(f"{f['listings']:8d} {f['files']:7d} {f['seconds']:8.2f}"
                  f"{f['listings_per_second']:11.0f} {f['peak_traced_mib']:16.2f} "
                  f"{f['exports_peak_mib']:16.2f} "
                  f"{f['max_rss_mib']:12.1f} {f['json_mib']:9.2f} {f['csv_mib']:8.2f} "
                  f"{f['geojson_mib']:12.2f} {f['vcard_mib']:11.2f}", flush=True)
        return results
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[10000, 100000])
    parser.add_argument("--validate", action="store_true",
                        help="frictionless validate of the data package instead")
    parser.add_argument("--workdir", help="the folder to write in (default: the system's temp)")
    parser.add_argument("--report", help="with --validate, a JSON file of the figures")
    arguments = parser.parse_args()
    main(arguments.sizes, arguments.validate, arguments.workdir, arguments.report)
