"""Tasks of this repository: the site's own (``dalil.tasks``) and the benchmarks'.

``invoke --list`` shows them all.
"""

import shlex
import sys
from pathlib import Path

from invoke import Exit, task

ROOT = Path(__file__).resolve().parent
# The package's source, not an installed copy, and the benchmarks beside it.
sys.path[:0] = [str(ROOT / "plugins"), str(ROOT)]

from dalil import theme_path  # noqa: E402
from dalil.tasks import *  # noqa: E402,F403


@task(help={"sizes": "comma-separated listing counts (default 10000,100000)",
            "validate": "run frictionless validate on the data package instead: wall time, "
                        "peak memory of its process tree (at most 2 GiB), rows and errors",
            "workdir": "where the files are written (default: the system's temporary folder)",
            "report": "with --validate, a JSON file of the figures"})
def bench_exports(c, sizes="10000,100000", validate=False, workdir=None, report=None):
    """Time and peak memory to write export.json, export.csv and every vCard; or, with
    --validate, frictionless's validation of the data package."""
    from benchmarks.exports import main

    results = main([int(size.replace("_", "")) for size in sizes.split(",")], validate, workdir,
                   report)
    if validate and not all(figures.get("valid") and figures["within_limit"]
                            for figures in results):
        raise Exit("bench-exports: the data package was invalid or frictionless passed its "
                   "memory limit", code=1)


@task(help={"pois": "comma-separated POI counts (default 100000)"})
def bench_osm(c, pois="100000"):
    """Time dalil-import-osm on a synthetic .osm.pbf, then the same file again."""
    from benchmarks.osm import main

    main([int(size) for size in pois.split(",")])


@task(help={"listings": "comma-separated listing counts (default 10000,100000)",
            "peer": "also index the same listings with Pagefind and compare (default yes)",
            "json": "also write the figures to this JSON file"})
def bench_search(c, listings="10000,100000", peer=True, peer_timeout=10800, json=None):
    """Search indexes' sizes, time to first results, keystroke-to-results and heap in
    headless Chromium, normal and 4x throttled; Pagefind side by side (reported, not
    fatal, when it fails or takes more than ``peer_timeout`` seconds)."""
    from benchmarks.search import main

    main(["--listings", str(listings), *([] if peer else ["--no-peer"]),
          "--peer-timeout", str(peer_timeout), *(["--json", json] if json else [])])


@task
def bench_relevance(c):
    """Recall@10 and MRR of Dalil's search and of Pagefind on the sample site, per query class."""
    from benchmarks.relevance import main

    main()


@task(help={"listings": "how many listings (news and blog follow in proportion)",
            "out": "folder to write to (emptied first), outside content/"})
def generate_content(c, listings=1000, out="synthetic"):
    """Write a deterministic synthetic directory (Markdown) for benchmarks."""
    from benchmarks.synthetic import write_content

    folder = Path(out).resolve()
    if folder == (ROOT / "content").resolve() or (ROOT / "content").resolve() in folder.parents:
        raise Exit("refusing to write synthetic content into content/", code=2)
    totals = write_content(folder, int(listings))
    print(f"{folder}: " + ", ".join(f"{count:,} {kind}" for kind, count in sorted(totals.items())))


@task(help={"listings": "comma-separated sizes, e.g. 1000,10000,100000 or 1000000",
            "rounds": "interleaved cold builds of each tool per size (default 3)",
            "edits": "warm and livereload edits per size (default 3)",
            "pelican_max": "largest size also built with plain Pelican (default 10000)",
            "hugo": "the Hugo command (default: hugo on PATH, Debian's package)",
            "memory_limit_gib": "kill a build whose process tree's PSS passes this (default 16)",
            "report": "JSON report file (default bench/report.json)",
            "workdir": "where the synthetic sites are built (default bench/, on the disk)"})
def bench(c, listings="1000,10000,100000", rounds=3, edits=3, pelican_max=10_000, hugo="hugo",
          memory_limit_gib=16.0, report="bench/report.json", workdir="bench"):
    """Time the full Dalil build against Hugo (doing the same job) and plain Pelican, then
    edits (cache, livereload); a build past the memory ceiling is killed and reported."""
    import shutil

    from pelican.log import console

    from benchmarks import build as perf_bench

    hugo_command = shutil.which(hugo)
    if hugo_command is None:
        raise Exit(f"bench: {hugo!r} not found: install Hugo (Debian: apt install hugo) "
                   "or pass --hugo PATH", code=2)
    sizes = [int(size.replace("_", "")) for size in str(listings).split(",") if size.strip()]
    result = perf_bench.run(ROOT, sizes, Path(workdir).resolve(), Path(report).resolve(),
                            rounds=int(rounds), hugo_command=hugo_command,
                            pelican_max=int(pelican_max), edits=int(edits),
                            memory_limit_gib=float(memory_limit_gib), echo=console.print)
    for table in perf_bench.table(result):
        console.print(table)
    # Hugo's or Pelican's failure (out of memory at a million) is a finding of the report;
    # Dalil's is the bench's.
    failed = sorted({entry["listings"] for entry in result["sizes"]
                     for build in [*(builds["dalil"] for builds in entry["rounds"]),
                                   *entry.get("warm_edit", {}).get("rounds", [])]
                     if "failure" in build})
    if failed:
        raise Exit(f"bench: a Dalil build failed at {failed} listings (see {workdir}/n*/*.log)",
                   code=1)


@task(help={"listings": "comma-separated sizes (default 1000,10000)",
            "languages": "the site's languages, the first at the root (default ar,fr,en)",
            "rounds": "interleaved cold builds of each tool per size (default 3)",
            "hugo": "the Hugo command (default: hugo on PATH, Debian's package)",
            "report": "JSON report file (default bench/languages.json)",
            "workdir": "where the synthetic sites are built (default bench/)"})
def bench_languages(c, listings="1000,10000", languages="ar,fr,en", rounds=3, hugo="hugo",
                    report="bench/languages.json", workdir="bench"):
    """Time Dalil's build in several languages against Hugo's multilingual mode doing the
    same job (pages in each language, data files once): wall, CPU, peak PSS."""
    import shutil

    from pelican.log import console

    from benchmarks import languages as perf_languages

    hugo_command = shutil.which(hugo)
    if hugo_command is None:
        raise Exit(f"bench-languages: {hugo!r} not found: install Hugo (Debian: apt install "
                   "hugo) or pass --hugo PATH", code=2)
    sizes = [int(size.replace("_", "")) for size in str(listings).split(",") if size.strip()]
    codes = [code.strip() for code in str(languages).split(",") if code.strip()]
    unknown = sorted(set(codes) - set(perf_languages.hugo.LANGUAGE_NAMES))
    if unknown or len(codes) < 2:
        raise Exit(f"bench-languages: --languages takes two or more of "
                   f"{', '.join(perf_languages.hugo.LANGUAGE_NAMES)}", code=2)
    result = perf_languages.run(ROOT, sizes, Path(workdir).resolve(), Path(report).resolve(),
                                languages=codes, rounds=int(rounds), hugo_command=hugo_command,
                                echo=console.print)
    for table in perf_languages.table(result):
        console.print(table)
    failed = perf_languages.failed_sizes(result)
    if failed:
        raise Exit(f"bench-languages: a build failed at {failed} listings "
                   f"(see {workdir}/languages-n*/*.log)", code=1)


@task
def icons(c):
    """Redraw the default theme's PNG icons (its icons.py) into its static/icons/."""
    c.run(shlex.join([sys.executable, str(Path(theme_path()) / "icons.py")]), pty=False)


@task
def messages(c):
    """Extract the interface text of templates and scripts into every catalog
    (plugins/dalil/locales/LANG/LC_MESSAGES/{messages,scripts}.po); translate the new
    entries there."""
    babel = [sys.executable, "-m", "babel.messages.frontend"]
    package = ROOT / "plugins" / "dalil"
    for domain, mapping, keywords in (
            ("messages", "babel.cfg", ["_", "gettext", "ngettext:1,2", "N_"]),
            ("scripts", "babel-scripts.cfg", ["dalilText", "dalilPlural:1,2"])):
        template = ROOT / "build" / f"{domain}.pot"
        template.parent.mkdir(exist_ok=True)
        c.run(shlex.join([*babel, "extract", "-F", str(ROOT / mapping), "--no-location",
                          "--sort-output", "--no-default-keywords", "--project", "dalil",
                          *[f"--keyword={keyword}" for keyword in keywords],
                          "-o", str(template), str(package)]))
        for folder in sorted(path for path in (package / "locales").iterdir() if path.is_dir()):
            catalog = folder / "LC_MESSAGES" / f"{domain}.po"
            command = "update" if catalog.exists() else "init"
            extra = ["--no-fuzzy-matching", "--ignore-obsolete"] if command == "update" else []
            c.run(shlex.join([*babel, command, *extra, "-D", domain, "-i", str(template),
                              "-d", str(package / "locales"), "-l", folder.name]))


@task(name="settings-reference")
def settings_reference(c):
    """Write the settings table of docs/operators.md from the settings classes."""
    from docs.settings_reference import OPERATORS_GUIDE, write_reference

    changed = write_reference()
    print(f"{OPERATORS_GUIDE.relative_to(ROOT)}: "
          f"{'settings reference written' if changed else 'settings reference up to date'}")
