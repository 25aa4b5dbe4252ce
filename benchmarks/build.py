"""``invoke bench``: the full Dalil build against Hugo and plain Pelican on the same content.

For each size the same synthetic listings become a Dalil site (every plugin of the
repository's ``pelicanconf.py`` plus ``benchmarks.timings`` for per-output timings),
a plain Pelican site (the listings as ordinary articles, default theme, no feeds)
and a Hugo site doing Dalil's job (``benchmarks.hugo``: listing, category and city pages,
sitemap, RSS, a vCard per listing, the search index, the JSON and CSV exports), written in
one streaming pass. Cold builds run interleaved (Dalil, Hugo, Pelican, Dalil, …), each in
its own process group: wall time and CPU time from ``wait4``, peak memory as the PSS of
the whole process tree (sampled; the largest process's RSS beside it). Every build runs
under a memory ceiling: past it, or with the machine's available memory running out, its
tree is killed and the failure recorded (Hugo at a million listings). Ratios are taken
within a round, then their median and range. Then Dalil rebuilds with the content cache
after one edited listing (files rewritten counted), and ``invoke livereload`` runs in the
site's folder to time a save until the listing's page is rewritten. The report names the
work folder's filesystem (the ordinary disk by default, or tmpfs). Hugo is Debian's
``hugo`` package: the bench installs nothing.
"""


import collections
import contextlib
import datetime as dt
import json
import os
import platform
import signal
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from . import hugo, synthetic

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
        # The sample site has three languages; this bench measures one (bench-languages: three).
        "DALIL_LANGUAGES = ['ar']",
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


# Seconds between two samples of a build's tree PSS, at least: reading a large process's
# smaps_rollup costs the kernel tens of milliseconds per GiB (37 ms at 2 GiB), so a costly
# sample lengthens the wait, the sampler keeping to SAMPLE_SHARE of a core.
PSS_INTERVAL = 0.2
SAMPLE_SHARE = 0.1
MEMORY_LIMIT_GIB = 16  # default ceiling of a build's tree PSS (the machine has 23 GiB)
# A build is stopped too when the machine's MemAvailable falls under this, whatever its own size.
MIN_AVAILABLE_KIB = 1536 * 1024
LOG_TAIL_LINES = 20


def measure(command, cwd, log_path, env=None, pss_interval=PSS_INTERVAL, memory_limit_kib=None,
            stdout_path=None):
    """Run ``command`` to its end: wall seconds, CPU seconds and peak memory of its process tree.

    ``wait4`` reports the child's own usage plus that of every descendant it waited
    for (a build's worker processes): user + system time summed, RSS the largest
    (``peak_rss_mib``). Every ``pss_interval`` seconds the whole tree's proportional set
    size is sampled (``peak_pss_mib``: forked workers' shared pages counted once); with
    ``memory_limit_kib``, the tree is killed when it grows past it or the machine's
    MemAvailable falls under ``MIN_AVAILABLE_KIB``, and ``failure`` says so. A build that
    fails otherwise has its return code in ``failure``; either way ``log_tail`` holds its
    last lines. With ``stdout_path``, the standard output goes there, the log has the errors.
    """
    with contextlib.ExitStack() as stack:
        log = stack.enter_context(open(log_path, "w", encoding="utf-8"))
        stdout = stack.enter_context(open(stdout_path, "wb")) if stdout_path else log
        started = time.perf_counter()
        # Its own process group: a memory kill reaches the build's workers too.
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=stdout,
                                   stderr=log if stdout_path else subprocess.STDOUT,
                                   start_new_session=True)
        sampler = PssSampler(process.pid, pss_interval, memory_limit_kib)
        try:
            _, status, usage = os.wait4(process.pid, 0)
        except BaseException:  # an interrupted bench leaves no build running
            kill_tree(process.pid)
            process.wait()
            raise
        finally:
            sampler.stop()
        seconds = time.perf_counter() - started
    result = {"seconds": round(seconds, 3),
              "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 3),
              "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),
              "peak_pss_mib": round(sampler.peak / 1024, 1),
              "returncode": os.waitstatus_to_exitcode(status)}
    if sampler.over:
        result["failure"] = f"out of memory: {sampler.over} after {seconds:.0f} s"
    elif result["returncode"]:
        result["failure"] = f"exit code {result['returncode']} after {seconds:.0f} s"
    if "failure" in result:
        result["log_tail"] = log_tail(log_path)
    return result


def log_tail(path, lines=LOG_TAIL_LINES):
    with open(path, encoding="utf-8", errors="replace") as log:
        return [line.rstrip("\n") for line in collections.deque(log, lines)]


def _children():
    """``ppid -> [pid, …]`` of every process now running."""
    children = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                text = stat.read()
        except OSError:
            continue  # gone meanwhile
        # After the command (in parentheses, which may hold spaces): state, then ppid.
        parent = int(text[text.rindex(b")") + 2:].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    return children


def tree_pids(root):
    """``root`` and all its descendants now."""
    children, found, pending = _children(), [], [root]
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending.extend(children.get(pid, ()))
    return found


def tree_pss_kib(root):
    """Proportional set size (KiB) of process ``root`` and all its descendants, now."""
    total = 0
    for pid in tree_pids(root):
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as rollup:
                for line in rollup:
                    if line.startswith(b"Pss:"):
                        total += int(line.split()[1])
                        break
        except (OSError, ValueError):
            continue  # exited meanwhile
    return total


def kill_tree(root):
    """SIGKILL process ``root``, its process group (started in its own session) and every
    descendant that left the group."""
    pids = tree_pids(root)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(root, signal.SIGKILL)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def mem_available_kib():
    with open("/proc/meminfo", encoding="ascii") as meminfo:
        for line in meminfo:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1])
    return 0


class PssSampler:
    """The largest ``tree_pss_kib(pid)`` sampled every ``interval`` seconds or more (at
    most ``SAMPLE_SHARE`` of a core), in a thread (``os.wait4`` in the main thread lets it
    run). With ``limit_kib``, the tree is killed when its PSS passes it or the machine's
    MemAvailable falls under ``MIN_AVAILABLE_KIB``; ``over`` then says which."""

    def __init__(self, pid, interval, limit_kib=None):
        self.pid, self.interval, self.limit_kib = pid, interval, limit_kib
        self.peak, self.over = 0, ""
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.done.is_set():
            started = time.perf_counter()
            pss = tree_pss_kib(self.pid)
            self.peak = max(self.peak, pss)
            if self.limit_kib is not None:
                available = mem_available_kib()
                if pss > self.limit_kib:
                    self.over = f"over {_gib(self.limit_kib)} GiB"
                elif available < MIN_AVAILABLE_KIB:
                    self.over = (f"the machine's available memory under "
                                 f"{_gib(MIN_AVAILABLE_KIB)} GiB at {_gib(pss)} GiB")
                if self.over:
                    kill_tree(self.pid)
                    return
            cost = time.perf_counter() - started
            self.done.wait(max(self.interval, cost / SAMPLE_SHARE - cost))

    def stop(self):
        self.done.set()
        self.thread.join()
        return self.peak


def _gib(kib):
    return f"{kib / 2**20:.3g}"


def build_env(repo):
    # An installed program runs from its compiled bytecode: a shell that turns writing it
    # off (PYTHONDONTWRITEBYTECODE) would make every build compile Dalil's modules again,
    # a tenth of a second that no user's build pays.
    environment = {key: value for key, value in os.environ.items()
                   if key != "PYTHONDONTWRITEBYTECODE"}
    return {**environment, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, "COLUMNS": "200",
            "PYTHONPATH": str(repo / "plugins")}


def run_build(repo, site, settings_file, log_name, fatal=True, pss_interval=PSS_INTERVAL,
              memory_limit_kib=None):
    """One Pelican build in a child process (see ``measure``). The paths come from the
    settings file alone, as under ``invoke livereload``: the same settings, the same
    cache keys."""
    command = [sys.executable, "-m", "pelican", "-s", str(settings_file)]
    if fatal:
        command += ["--fatal", "errors"]
    return measure(command, site, site / f"{log_name}.log", build_env(repo), pss_interval,
                   memory_limit_kib)


def run_hugo(hugo, site, log_name, pss_interval=PSS_INTERVAL, memory_limit_kib=None):
    """One Hugo build of ``site/hugo`` into ``site/hugo-output`` (see ``measure``)."""
    command = [hugo, "--source", str(site / "hugo"), "--destination", str(site / "hugo-output"),
               "--cacheDir", str(site / "hugo-cache"), "--quiet"]
    return measure(command, site, site / f"{log_name}.log",
                   {**os.environ, "HUGO_ENVIRONMENT": "production"}, pss_interval,
                   memory_limit_kib)


def snapshot(folder):
    """``relpath -> (inode, mtime_ns, size)`` of every file under ``folder``."""
    files = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            stat = os.stat(path)
            files[os.path.relpath(path, folder)] = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
    return files


def published_listings(content):
    """The synthetic listings a build publishes (no ``Status``), in file order."""
    return [path for path in sorted((content / "listings").glob("*.md"))
            if "\nStatus:" not in path.read_text(encoding="utf-8")]


def edit_listing(path):
    """Change one listing's description and modification date; its path."""
    text = path.read_text(encoding="utf-8")
    head, body = text.split("\n\n", 1)
    head = "\n".join("Modified: 2026-11-21 11:00" if line.startswith("Modified:") else line
                     for line in head.splitlines())
    path.write_text(head + "\n\n" + body + "\nتم تحديث معلومات هذا النشاط.\n", encoding="utf-8")
    return path


def _read_json(path):
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def prepare_site(repo, workdir, listings, extra_settings=None):
    """The synthetic content, Dalil's and plain Pelican's settings and the Hugo site."""
    site = Path(workdir) / f"n{listings}"
    if site.exists():
        shutil.rmtree(site)
    site.mkdir(parents=True)
    # pelicanconf.py and tasks.py: the folder is also a site for ``invoke livereload``.
    (site / "pelicanconf.py").write_text(_settings_dalil(repo, site, extra_settings or {}),
                                         encoding="utf-8")
    (site / "tasks.py").write_text("from dalil.tasks import *  # noqa: F403\n", encoding="utf-8")
    (site / "plain_settings.py").write_text(_settings_plain(site), encoding="utf-8")
    # One pass: each file is written for Dalil and Pelican, then as Hugo's page.
    totals = {}
    hugo.write_site(site / "hugo", synthetic.written(site / "content",
                                                     synthetic.generate_files(listings), totals),
                    SITEURL)
    return site, totals


def remove(*folders):
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


def cold_round(repo, site, hugo_command, number, with_pelican, memory_limit_kib=None):
    """One interleaved round of cold builds: Dalil, then Hugo, then plain Pelican."""
    remove(site / "dalil-output", site / "dalil-cache")
    builds = {"dalil": run_build(repo, site, site / "pelicanconf.py", f"dalil-cold-{number}",
                                 memory_limit_kib=memory_limit_kib)}
    remove(site / "hugo-output", site / "hugo-cache")
    builds["hugo"] = run_hugo(hugo_command, site, f"hugo-{number}",
                              memory_limit_kib=memory_limit_kib)
    if with_pelican:
        remove(site / "plain-output", site / "plain-cache")
        builds["pelican"] = run_build(repo, site, site / "plain_settings.py", f"plain-{number}",
                                      fatal=False, memory_limit_kib=memory_limit_kib)
    return builds


def spread(values):
    """Median, smallest and largest of ``values`` (rounded), and how many."""
    values = sorted(values)
    return {"median": round(statistics.median(values), 3), "min": round(values[0], 3),
            "max": round(values[-1], 3), "n": len(values)}


# Peak memory is the whole process tree's PSS; the largest single process's RSS beside it.
METRICS = ("seconds", "cpu_seconds", "peak_pss_mib", "peak_rss_mib")


def summarise(rounds, metrics=METRICS):
    """Per tool and metric the spread over rounds; per ratio the spread of each round's ratio.

    Ratios are taken within a round (builds run one after another), so a slow
    moment of the shared machine weighs on both sides of the ratio alike. A failed
    build (``failure``) counts in neither: a tool whose every build failed has its
    first failure as its summary, and a ratio only rounds where both builds succeeded.
    """
    tools = sorted({tool for builds in rounds for tool in builds})
    summary = {}
    for tool in tools:
        done = [builds[tool] for builds in rounds if "failure" not in builds[tool]]
        summary[tool] = ({metric: spread([build[metric] for build in done]) for metric in metrics}
                         if done else {"failure": rounds[0][tool]["failure"]})
        summary[tool]["failures"] = len(rounds) - len(done)
    ratios = {}
    for other in ("hugo", "pelican"):
        pairs = [builds for builds in rounds if other in builds
                 and "failure" not in builds["dalil"] and "failure" not in builds[other]]
        if pairs:
            ratios[f"dalil/{other}"] = {
                metric: spread([builds["dalil"][metric] / max(builds[other][metric], 1e-3)
                                for builds in pairs]) for metric in metrics}
    return summary, ratios


def warm_edits(repo, site, listings, count, memory_limit_kib=None):
    """``count`` Dalil rebuilds with the content cache, each after editing one listing."""
    edits = []
    for number, path in enumerate(listings[len(listings) // 2:][:count], 1):
        before = snapshot(site / "dalil-output")
        edit_listing(path)
        build = run_build(repo, site, site / "pelicanconf.py", f"dalil-warm-{number}",
                          memory_limit_kib=memory_limit_kib)
        after = snapshot(site / "dalil-output")
        rewritten = sorted(relpath for relpath, stamp in after.items()
                           if before.get(relpath, (None, None))[:2] != stamp[:2])
        build.update(edited=str(path.relative_to(site)), rewritten_files=len(rewritten),
                     rewritten=rewritten[:40], removed_files=len(set(before) - set(after)))
        edits.append(build)
    return edits


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _builds_done(log_path):
    try:
        return log_path.read_text(encoding="utf-8", errors="replace").count("Done: Processed")
    except OSError:
        return 0


def _wait_for(condition, timeout, process):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        if process.poll() is not None:
            return False
        time.sleep(0.02)
    return False


def livereload_edits(repo, site, listings, count, timeout=1800, memory_limit_kib=None):
    """Seconds from saving a listing to its page rewritten, under ``invoke livereload``.

    The real task runs in the site's folder; each edit waits for the page's new
    mtime, then for the rebuild to finish before the next edit. Its process tree's PSS
    is sampled, and killed past ``memory_limit_kib`` as a build's (see ``measure``).
    """
    log_path = site / "livereload.log"
    env = {**build_env(repo), "DALIL_HOST": "127.0.0.1", "DALIL_PORT": str(free_port())}
    with open(log_path, "w", encoding="utf-8") as log:
        process = subprocess.Popen([sys.executable, "-m", "invoke", "livereload"], cwd=site,
                                   env=env, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    sampler = PssSampler(process.pid, PSS_INTERVAL, memory_limit_kib)
    seconds, failures = [], 0
    try:
        if not _wait_for(lambda: _builds_done(log_path) >= 1, timeout, process):
            return {"error": f"livereload's first build did not finish"
                             f"{': out of memory, ' + sampler.over if sampler.over else ''}",
                    "log": str(log_path), "peak_pss_mib": round(sampler.peak / 1024, 1),
                    "log_tail": log_tail(log_path)}
        time.sleep(2)  # the watcher's first pass records every file's mtime
        for path in listings[:count]:
            page = site / "dalil-output" / "directory" / "listing" / path.stem / "index.html"
            builds = _builds_done(log_path)
            before = os.stat(page).st_mtime_ns
            saved = time.time_ns()
            edit_listing(path)
            if not _wait_for(lambda: os.stat(page).st_mtime_ns != before, timeout, process):
                failures += 1
                break
            seconds.append((os.stat(page).st_mtime_ns - saved) / 1e9)
            _wait_for(lambda: _builds_done(log_path) > builds, timeout, process)
            time.sleep(1)
    finally:
        sampler.stop()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
    result = {"rounds": [round(value, 3) for value in seconds], "failures": failures,
              "peak_pss_mib": round(sampler.peak / 1024, 1)}
    if sampler.over:
        result["error"] = f"out of memory: {sampler.over}"
    if seconds:
        result["seconds"] = spread(seconds)
    return result


def _build_line(tool, build):
    line = (f"{tool} {build['seconds']:.2f} s {build['cpu_seconds']:.1f} CPU-s "
            f"{build['peak_pss_mib']:.0f} MiB PSS")
    return f"{line} ({build['failure']})" if "failure" in build else line


def bench_size(repo, workdir, listings, rounds=3, hugo_command="hugo", with_pelican=True,
               edits=3, extra_settings=None, memory_limit_kib=None, echo=print):
    started = time.perf_counter()
    site, totals = prepare_site(repo, workdir, listings, extra_settings)
    prepare_seconds = round(time.perf_counter() - started, 1)
    echo(f"  content and Hugo site written in {prepare_seconds:.0f} s")
    cold = []
    for number in range(1, rounds + 1):
        cold.append(cold_round(repo, site, hugo_command, number, with_pelican, memory_limit_kib))
        echo(f"  round {number}: " + ", ".join(_build_line(tool, build)
                                               for tool, build in cold[-1].items()))
    summary, ratios = summarise(cold)
    entry = {"listings": listings, "content_files": totals, "prepare_seconds": prepare_seconds,
             "rounds": cold, "summary": summary, "ratios": ratios}
    if "failure" in cold[-1]["dalil"]:
        return entry  # no output to edit
    # The last cold build's outputs: what the warm edits start from.
    timings = _read_json(site / "dalil-timings.json")
    files = len(snapshot(site / "dalil-output"))
    published = published_listings(site / "content")
    warm = warm_edits(repo, site, published, edits, memory_limit_kib)
    echo("  warm edits: " + ", ".join(_build_line("dalil", build) for build in warm))
    warm_timings = _read_json(site / "dalil-timings.json")
    live = livereload_edits(repo, site, published[len(published) // 4:], edits,
                            memory_limit_kib=memory_limit_kib)
    done = [edit for edit in warm if "failure" not in edit]
    return {
        **entry, "dalil_files": files,
        "dalil_outputs_seconds": timings.get("outputs", {}),
        "dalil_generators_seconds": timings.get("generators", {}),
        "dalil_output_files": timings.get("files", {}),
        "warm_edit": {"rounds": warm,
                      **({metric: spread([edit[metric] for edit in done]) for metric in METRICS}
                         if done else {"failure": warm[0]["failure"]}),
                      "outputs_seconds": warm_timings.get("outputs", {})},
        "livereload_edit": live,
    }


def filesystem(folder):
    """The filesystem ``folder`` is on: its type (``ext4``, ``tmpfs``, …), source, mount point."""
    folder = existing = Path(folder).resolve()
    while not existing.exists():  # the work folder is made later
        existing = existing.parent
    completed = subprocess.run(["findmnt", "--json", "--target", str(existing),
                                "--output", "FSTYPE,SOURCE,TARGET"],
                               capture_output=True, text=True, check=True)
    mount = json.loads(completed.stdout)["filesystems"][-1]  # the top one of stacked mounts
    return {"path": str(folder), "type": mount["fstype"],
            "source": mount["source"], "mount_point": mount["target"],
            "in_memory": mount["fstype"] in ("tmpfs", "ramfs")}


# A size's cold build over a tenth of it: issue 46's bound on the million's.
SCALING_TARGETS = {"100k_over_10k": (100_000, 10_000, None),
                   "1m_over_100k": (1_000_000, 100_000, 11.0)}


def scaling(sizes_done):
    """Each ``SCALING_TARGETS`` ratio of Dalil's median cold build time, where both sizes built."""
    figures = {}
    for name, (larger, smaller, at_most) in SCALING_TARGETS.items():
        both = [sizes_done.get(size, {}).get("summary", {}).get("dalil", {}).get("seconds")
                for size in (larger, smaller)]
        if all(both):
            ratio = round(both[0]["median"] / both[1]["median"], 2)
            figures[name] = ({"ratio": ratio, "at_most": at_most, "met": ratio <= at_most}
                             if at_most else {"ratio": ratio})
    return figures


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


def hugo_version(command):
    completed = subprocess.run([command, "version"], capture_output=True, text=True, check=True)
    return completed.stdout.strip()


def run(repo, sizes, workdir, report_path=None, rounds=3, hugo_command="hugo",
        pelican_max=10_000, edits=3, extra_settings=None, memory_limit_gib=MEMORY_LIMIT_GIB,
        echo=print):
    """Bench every size in ``sizes``; plain Pelican only up to ``pelican_max`` listings;
    every build killed past ``memory_limit_gib`` of tree PSS (``None``: no ceiling)."""
    repo = Path(repo).resolve()
    memory_limit_kib = None if memory_limit_gib is None else int(memory_limit_gib * 2**20)
    report = {"machine": {**machine(), "hugo": hugo_version(hugo_command),
                          "load_average_at_start": os.getloadavg()},
              "plugins": plugins_of(repo), "workdir": filesystem(workdir),
              "memory_limit_gib": memory_limit_gib,
              "min_available_gib": MIN_AVAILABLE_KIB / 2**20,
              "pss_interval_seconds": PSS_INTERVAL, "pss_sample_share": SAMPLE_SHARE,
              "started": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
              "sizes": []}
    echo(f"bench: building on {report['workdir']['type']} ({report['workdir']['path']}), "
         f"each build killed over {memory_limit_gib} GiB of PSS")
    for listings in sizes:
        echo(f"bench: {listings:,} listings, {rounds} interleaved rounds ...")
        result = bench_size(repo, workdir, listings, rounds=rounds, hugo_command=hugo_command,
                            with_pelican=listings <= pelican_max, edits=edits,
                            extra_settings=extra_settings, memory_limit_kib=memory_limit_kib,
                            echo=echo)
        report["sizes"].append(result)
        echo(summary_line(result))
        if report_path:
            write_report(report, report_path)
    report["scaling"] = scaling({entry["listings"]: entry for entry in report["sizes"]})
    report["load_average_at_end"] = os.getloadavg()
    if report_path:
        write_report(report, report_path)
    return report


def write_report(report, path):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                    encoding="utf-8")


def _median_range(values, unit="", digits=2):
    return (f"{values['median']:.{digits}f}{unit} "
            f"({values['min']:.{digits}f}–{values['max']:.{digits}f})")


def summary_line(entry):
    dalil, ratios = entry["summary"]["dalil"], entry["ratios"]
    if "failure" in dalil:
        return f"{entry['listings']:>7,} listings | dalil failed: {dalil['failure']}"
    parts = [f"{entry['listings']:>7,} listings | dalil {dalil['seconds']['median']:.2f} s "
             f"{dalil['peak_pss_mib']['median']:.0f} MiB PSS"]
    parts += [f"{name} {ratio['seconds']['median']:.2f}x time, "
              f"{ratio['peak_pss_mib']['median']:.2f}x memory" for name, ratio in ratios.items()]
    parts += [f"{tool} failed: {values['failure']}" for tool, values in entry["summary"].items()
              if "failure" in values and tool != "dalil"]
    warm = entry.get("warm_edit")
    if warm is None:
        return " | ".join([*parts, "no edits: the last cold build failed"])
    parts.append(f"warm edit {warm['seconds']['median']:.2f} s" if "seconds" in warm
                 else f"warm edit failed: {warm['failure']}")
    live = entry["livereload_edit"]
    parts.append(f"livereload edit {live['seconds']['median']:.2f} s" if "seconds" in live
                 else f"livereload edit failed: {live.get('error', 'no page rewritten')}")
    return " | ".join(parts)


def table(report):
    """The report as rich tables: builds, ratios, edits, and seconds per Dalil output."""
    from rich.table import Table

    where = report["workdir"]
    builds = Table(title=f"Cold builds on {where['type']} ({where['path']}): median (min–max) "
                         f"over interleaved rounds; peak memory: the process tree's PSS, and "
                         f"its largest process's RSS")
    for column in ("listings", "tool", "wall s", "CPU s", "peak PSS MiB", "peak RSS MiB",
                   "files"):
        builds.add_column(column, justify="right")
    ratios = Table(title="Dalil / other, each round's ratio: median (min–max)")
    for column in ("listings", "ratio", "wall", "CPU", "peak PSS", "peak RSS"):
        ratios.add_column(column, justify="right")
    edits = Table(title="Dalil after editing one listing (content cache on)")
    for column in ("listings", "warm build s", "CPU s", "peak PSS MiB", "rewritten files",
                   "livereload: saved → page rewritten s"):
        edits.add_column(column, justify="right")
    for entry in report["sizes"]:
        size = f"{entry['listings']:,}"
        for tool, values in entry["summary"].items():
            if "failure" in values:
                builds.add_row(size, tool, values["failure"], "", "", "", "")
                continue
            builds.add_row(size, tool, _median_range(values["seconds"]),
                           _median_range(values["cpu_seconds"], digits=1),
                           _median_range(values["peak_pss_mib"], digits=0),
                           _median_range(values["peak_rss_mib"], digits=0),
                           f"{entry['dalil_files']:,}" if tool == "dalil" and "dalil_files" in entry
                           else "")
        for name, values in entry["ratios"].items():
            ratios.add_row(size, name, *(_median_range(values[metric], "×")
                                         for metric in METRICS))
        warm, live = entry.get("warm_edit"), entry.get("livereload_edit", {})
        if warm is None:
            continue
        if "seconds" not in warm:
            edits.add_row(size, warm["failure"], "", "", "", "")
            continue
        edits.add_row(size, _median_range(warm["seconds"]), _median_range(warm["cpu_seconds"]),
                      _median_range(warm["peak_pss_mib"], digits=0),
                      ", ".join(str(edit.get("rewritten_files", "–")) for edit in warm["rounds"]),
                      _median_range(live["seconds"]) if "seconds" in live
                      else live.get("error", "failed"))
    outputs = Table(title="Seconds per Dalil output (last cold build)")
    outputs.add_column("output")
    measured = [entry for entry in report["sizes"] if "dalil_outputs_seconds" in entry]
    for entry in measured:
        outputs.add_column(f"{entry['listings']:,}", justify="right")
    kinds = sorted({kind for entry in measured for kind in entry["dalil_outputs_seconds"]})
    for kind in kinds:
        outputs.add_row(kind, *(f"{entry['dalil_outputs_seconds'].get(kind, 0):.2f}"
                                for entry in measured))
    tables = [builds, ratios, edits, outputs]
    if report.get("scaling"):
        scale = Table(title="Dalil's cold build time, a size over a tenth of it")
        for column in ("sizes", "ratio", "bound"):
            scale.add_column(column, justify="right")
        for name, figure in report["scaling"].items():
            bound = (f"≤ {figure['at_most']}×: {'met' if figure['met'] else 'not met'}"
                     if "at_most" in figure else "")
            scale.add_row(name.replace("_over_", " / "), f"{figure['ratio']:.2f}×", bound)
        tables.append(scale)
    return tables
