"""``invoke livereload``'s builds run in its own process and survive a content error."""

import subprocess
import sys
import textwrap

from tests import sitebuilder as sb

SCRIPT = textwrap.dedent("""
    import sys
    from pathlib import Path
    from dalil.tasks import CachedBuilds

    builds = CachedBuilds(None, "pelicanconf.py")
    listing = Path("content/listings/zaytouna.md")
    builds.build()
    first = builds.pelican
    print("BUILT", Path("output/directory/listing/zaytouna/index.html").is_file(), flush=True)
    listing.write_text(listing.read_text(encoding="utf-8").replace("Category: restaurants",
                                                                    "Category: nowhere"),
                       encoding="utf-8")
    builds.build()
    print("SURVIVED", flush=True)
    listing.write_text(listing.read_text(encoding="utf-8").replace("Category: nowhere",
                                                                    "Category: restaurants")
                       + "\\nسطر جديد.\\n", encoding="utf-8")
    builds.build()
    print("SAME", builds.pelican is first, flush=True)
    builds.settings_changed()
    print("RELOADED", builds.pelican is not first, flush=True)
""")


def test_rebuilds_reuse_one_pelican_and_survive_an_error(tmp_path):
    files = sb.base_files()
    files.update(sb.listing("zaytouna", "مطعم الزيتونة"))
    sb.write_site(tmp_path, files)
    completed = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=tmp_path, capture_output=True, text=True,
        timeout=600, env={**sb.os.environ, "PYTHONPATH": str(sb.PACKAGE_SOURCE),
                          "SOURCE_DATE_EPOCH": sb.DEFAULT_EPOCH, "COLUMNS": "200"})
    out = completed.stdout
    assert completed.returncode == 0, out + completed.stderr
    assert "BUILT True" in out and "SURVIVED" in out
    assert "livereload: the build failed" in completed.stderr
    assert "nowhere" in completed.stderr + out  # the error names the unknown category
    assert "SAME True" in out and "RELOADED True" in out
    page = (tmp_path / "output/directory/listing/zaytouna/index.html").read_text(encoding="utf-8")
    assert "سطر جديد." in page
    # Each build used the content cache.
    assert (tmp_path / "cache").is_dir()


def test_a_livereload_build_after_a_command_line_build_keeps_its_caches(tmp_path):
    """pelican's command line sets DEBUG, which ``invoke livereload``'s builds do not
    have: it changes nothing written, so it must not change any cache's key."""
    files = sb.base_files()
    for number in range(8):
        files.update(sb.listing(f"shop-{number}", f"متجر {number}"))
    first = sb.build_site(tmp_path, files, CACHE_CONTENT=True, LOAD_CONTENT_CACHE=True)
    assert first.returncode == 0, first.log
    script = textwrap.dedent("""
        from dalil.tasks import CachedBuilds
        CachedBuilds(None, "pelicanconf.py").build()
    """)
    completed = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
        timeout=600, env={**sb.os.environ, "PYTHONPATH": str(sb.PACKAGE_SOURCE),
                          "SOURCE_DATE_EPOCH": sb.DEFAULT_EPOCH, "COLUMNS": "200"})
    log = " ".join((completed.stdout + completed.stderr).split())
    assert completed.returncode == 0, log
    assert "directory pages 0 rendered" in log and "files 0 written" in log, log


def test_the_change_watcher_runs_the_tasks_whose_patterns_a_changed_file_matches(tmp_path):
    from dalil.sitefiles.serving import ChangeWatcher

    ran = []
    watcher = ChangeWatcher()
    watcher.watch(str(tmp_path / "pelicanconf.py"), lambda: ran.append("settings"))
    watcher.watch(f"{tmp_path}/content/**/*", lambda: ran.append("content"))
    watcher.watch(f"{tmp_path}/package/**/*", lambda: ran.append("templates"),
                  ignore=lambda path: path.endswith(".py"))
    watcher.watch(f"{tmp_path}/package/**/*.py", lambda: ran.append("code"))
    watcher._changed = {str(tmp_path / "content/listings/a.md")}
    assert watcher.examine() == (str(tmp_path / "content/listings/a.md"), None)
    watcher._changed = {str(tmp_path / "package/x/y.py"), str(tmp_path / "output/index.html")}
    watcher.examine()
    watcher._changed = {str(tmp_path / "pelicanconf.py"), str(tmp_path / "content.md"),
                        str(tmp_path / "package/x/t.html")}
    watcher.examine()
    watcher._changed = {str(tmp_path / "output/directory/index.html")}
    assert watcher.examine() == (None, None)
    assert ran == ["content", "code", "settings", "templates"]
