"""Dalil as a stranger adopts it: the wheel, a fresh virtual environment, a new site.

The wheel is built offline from a copy of the package's source (nothing is written
into the repository), then installed with ``--no-deps`` into a virtual environment
that sees this environment's packages (Pelican and the rest) but not the source
tree: what the sites below import is the installed wheel. This environment may itself
be a virtual environment (the usual way in on Debian's Python) or the system's Python.
"""

import json
import os
import shutil
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pelican
import pytest
import vobject

from tests import sitebuilder as sb


def run(command, cwd, venv_dir=None, stdin=None, timeout=300):
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    environment.update(SOURCE_DATE_EPOCH=sb.DEFAULT_EPOCH, COLUMNS="200")
    if venv_dir:
        environment["PATH"] = f"{venv_dir / 'bin'}{os.pathsep}{environment['PATH']}"
    completed = subprocess.run(command, cwd=cwd, env=environment, input=stdin,
                               capture_output=True, text=True, timeout=timeout)
    assert completed.returncode == 0, (command, completed.stdout + completed.stderr)
    return completed


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    source = tmp_path_factory.mktemp("source")
    shutil.copy(sb.REPO / "pyproject.toml", source)
    shutil.copytree(sb.PACKAGE_SOURCE, source / "plugins",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    dist = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "-q", "-w", str(dist), str(source)], cwd=source)
    (built,) = dist.glob("dalil-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """A virtual environment with the wheel installed; its ``bin/`` folder."""
    venv_dir = tmp_path_factory.mktemp("venv")
    venv.create(venv_dir, with_pip=True)
    python = venv_dir / "bin" / "python"
    # system_site_packages would show the base interpreter's packages, which are not
    # Pelican's when these tests run inside a virtual environment: the new one is given
    # this environment's site folders (with their .pth files), after its own.
    purelib = run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                  cwd=venv_dir).stdout.strip()
    folders = site.getsitepackages() + ([site.getusersitepackages()] if site.ENABLE_USER_SITE
                                        else [])
    (Path(purelib) / "test-environment.pth").write_text(
        "import site; " + "; ".join(f"site.addsitedir({folder!r})" for folder in folders) + "\n",
        encoding="utf-8")
    # --ignore-installed: a dalil installed beside Pelican must not stand in for the wheel.
    run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--ignore-installed",
         "-q", str(wheel)], cwd=venv_dir)
    where = run([str(python), "-c", "import dalil; print(dalil.__file__)"], cwd=venv_dir)
    assert where.stdout.strip().startswith(str(venv_dir)), where.stdout
    where = run([str(python), "-c", "import pelican; print(pelican.__file__)"], cwd=venv_dir)
    assert where.stdout.strip() == pelican.__file__, where.stdout
    return venv_dir


def test_wheel_ships_the_package_and_no_tests_or_benchmarks(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    for expected in ("dalil/theme/templates/base.html", "dalil/theme/static/css/dalil.css",
                     "dalil/theme/static/js/search.js", "dalil/theme/static/icons/icon-512.png",
                     "dalil/directory/templates/directory/listing.html", "dalil/pwa/sw.js",
                     "dalil/quickstart/site/content/pages/open-data.md", "dalil/tasks.py",
                     "dalil/osm/categories.toml"):
        assert expected in names, expected
    assert all(name.startswith(("dalil/", "dalil-")) for name in names), names
    assert not [name for name in names if "benchmark" in name or "/tests/" in name
                or "__pycache__" in name]
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt")))
    assert "dalil-quickstart = dalil.quickstart:main" in metadata.decode()
    assert "dalil-import-osm = dalil.osm.cli:main" in metadata.decode()


def test_quickstart_site_builds_without_warning_and_validates(installed, tmp_path):
    site = tmp_path / "new-site"
    run([str(installed / "bin" / "dalil-quickstart"), str(site), "--name", "دليل الحي",
         "--url", "https://dalil-alhay.example", "--timezone", "Africa/Casablanca",
         "--security-contact", "security@dalil-alhay.example"], cwd=tmp_path)
    python = str(installed / "bin" / "python")
    build = run([python, "-m", "pelican", "content", "--fatal", "warnings"], cwd=site)
    assert "WARNING" not in build.stdout + build.stderr
    validated = run([python, "-m", "invoke", "validate"], cwd=site)
    assert validated.stdout.strip().splitlines()[-1].startswith("validate: OK;"), validated.stdout
    index = json.loads((site / "output" / "search-index.json").read_text("utf-8"))
    assert {(entry["t"], entry["s"]) for entry in index} >= {
        ("listing", "example-cafe"), ("category", "cafes"), ("location", "rabat"),
        ("news", "welcome"), ("page", "about"), ("page", "open-data")}
    settings = (site / "pelicanconf.py").read_text("utf-8")
    assert "SITENAME = 'دليل الحي'" in settings
    assert "'https://dalil-alhay.example'" in (site / "publishconf.py").read_text("utf-8")


def test_installed_import_osm_reads_its_category_table(installed, tmp_path):
    site = tmp_path / "osm-site"
    run([str(installed / "bin" / "dalil-quickstart"), str(site), "--defaults"], cwd=tmp_path)
    (tmp_path / "one.osm").write_text(
        '<osm version="0.6"><node id="7" version="1" timestamp="2024-05-01T10:00:00Z" '
        'lat="34.02" lon="-6.84"><tag k="amenity" v="pharmacy"/><tag k="name" v="صيدلية النور"/>'
        '<tag k="addr:city" v="Rabat"/></node></osm>', encoding="utf-8")
    run([str(installed / "bin" / "dalil-import-osm"), str(tmp_path / "one.osm"), "--site",
         str(site)], cwd=tmp_path)
    listing = (site / "content" / "listings" / "sydly-lnwr.md").read_text("utf-8")
    assert "Category: pharmacies\n" in listing and "Osm: node/7\n" in listing
    assert "City: rabat\n" in listing  # the scaffold's city, found by its English name
    assert "Title: صيدليات\n" in (site / "content" / "categories" / "pharmacies.md").read_text("utf-8")


def test_quickstart_refuses_to_overwrite_and_writes_nothing(installed, tmp_path):
    site = tmp_path / "existing"
    site.mkdir()
    (site / "pelicanconf.py").write_text("# mine\n", encoding="utf-8")
    completed = subprocess.run([str(installed / "bin" / "dalil-quickstart"), str(site),
                                "--defaults"], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 2
    assert "pelicanconf.py" in completed.stderr and "nothing written" in completed.stderr
    assert [path.name for path in site.iterdir()] == ["pelicanconf.py"]
    assert (site / "pelicanconf.py").read_text("utf-8") == "# mine\n"


def test_quickstart_asks_when_run_at_a_prompt(installed, tmp_path):
    """Without options, at a terminal, it asks; a bad answer is asked again."""
    script = ("import builtins, sys\n"
              "answers = iter(['Mon dalil', 'not a url', 'https://mon.example', '', ''])\n"
              "builtins.input = lambda prompt='': next(answers)\n"
              "sys.stdin.isatty = lambda: True\n"
              "from dalil.quickstart import main\n"
              f"sys.exit(main([{str(tmp_path / 'asked')!r}]))\n")
    completed = run([str(installed / "bin" / "python"), "-c", script], cwd=tmp_path)
    assert "is not an http(s) address" in completed.stderr
    settings = (tmp_path / "asked" / "pelicanconf.py").read_text("utf-8")
    assert "SITENAME = 'Mon dalil'" in settings
    assert "TIMEZONE = 'Africa/Casablanca'" in settings
    assert "DALIL_SITEFILES_SECURITY_CONTACT = 'security@mon.example'" in settings


def test_quickstart_reads_answers_piped_in(installed, tmp_path):
    """One answer a line, in the order it asks; an empty line takes the default."""
    completed = run([str(installed / "bin" / "dalil-quickstart"), str(tmp_path / "piped")],
                    cwd=tmp_path, stdin="دليل الحي\nhttps://dalil-alhay.example\n\n"
                                        "amina@dalil-alhay.example\n")
    assert "default" not in completed.stderr, completed.stderr
    settings = (tmp_path / "piped" / "pelicanconf.py").read_text("utf-8")
    assert "SITENAME = 'دليل الحي'" in settings
    assert "TIMEZONE = 'Africa/Casablanca'" in settings
    assert "DALIL_SITEFILES_SECURITY_CONTACT = 'amina@dalil-alhay.example'" in settings
    assert "'https://dalil-alhay.example'" in (tmp_path / "piped" / "publishconf.py").read_text(
        "utf-8")


def test_quickstart_says_which_defaults_it_takes_when_the_input_ends(installed, tmp_path):
    completed = run([str(installed / "bin" / "dalil-quickstart"), str(tmp_path / "short"),
                     "--timezone", "Europe/Paris"], cwd=tmp_path, stdin="Mon dalil\n")
    assert ("the input ended before the answer to 'Address of the published site'"
            in completed.stderr)
    assert "Security contact (e-mail): security@example.com" in completed.stderr
    settings = (tmp_path / "short" / "pelicanconf.py").read_text("utf-8")
    assert "SITENAME = 'Mon dalil'" in settings and "TIMEZONE = 'Europe/Paris'" in settings
    assert "DALIL_SITEFILES_SECURITY_CONTACT = 'security@example.com'" in settings


def test_quickstart_stops_at_a_wrong_piped_answer_and_writes_nothing(installed, tmp_path):
    completed = subprocess.run([str(installed / "bin" / "dalil-quickstart"), str(tmp_path / "bad")],
                               input="Mon dalil\nnot a url\nhttps://mon.example\n",
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 2
    assert ("line 2 of the input (Address of the published site): 'not a url' is not an "
            "http(s) address" in completed.stderr)
    assert not (tmp_path / "bad").exists()


def test_pelican_quickstart_site_gets_the_directory_from_plugins_and_theme(installed, tmp_path):
    site = tmp_path / "pelican-site"
    site.mkdir()
    python = str(installed / "bin" / "python")
    # pelican-quickstart's questions: folder, title, author, language, URL prefix (no),
    # then every default (pagination, time zone, tasks.py, no upload).
    answers = "\n\n\n\nn\n" + "\n" * 40
    run([python, "-m", "pelican.tools.pelican_quickstart", "-p", str(site), "-t", "Mon site",
         "-a", "Moi", "-l", "ar"], cwd=site, stdin=answers)
    with (site / "pelicanconf.py").open("a", encoding="utf-8") as settings:
        settings.write("\nimport dalil\n\nPLUGINS = dalil.PLUGINS\nTHEME = dalil.theme_path()\n")
    files = {**sb.base_files(),
             **sb.listing("atlas", "مطعم الأطلس", Phone="+212 522 000 000",
                          Website="https://atlas.example", Street="1 شارع الحرية"),
             **sb.news("opening", "افتتاح", "2026-11-20 10:00")}
    for relpath, text in files.items():
        (site / "content" / relpath).parent.mkdir(parents=True, exist_ok=True)
        (site / "content" / relpath).write_text(text, encoding="utf-8")
    run([python, "-m", "pelican", "content", "--fatal", "errors"], cwd=site)
    output = site / "output"
    assert (output / "directory" / "listing" / "atlas" / "index.html").is_file()
    index = json.loads((output / "search-index.json").read_text("utf-8"))
    assert {"t": "listing", "s": "atlas"}.items() <= index[0].items()
    card = vobject.readOne((output / "directory/listing/atlas/contact.vcf").read_text("utf-8"))
    assert card.fn.value == "مطعم الأطلس" and card.tel.value == "+212 522 000 000"
    # Listings, categories and cities are the directory's, not Pelican articles.
    assert not list(output.glob("**/atlas.html")) and not list(output.glob("**/restaurants.html"))
