"""Reproducible builds: the same content and SOURCE_DATE_EPOCH give the same bytes,
whatever the time zone, locale, hash seed, folder and order the files were created in."""

import os

import pytest

from tests import sitebuilder as sb
from tests.validate import fixtures

MACHINES = {
    # Fourteen hours ahead of UTC, C.UTF-8, files created in name order.
    "kiritimati": {"TZ": "Pacific/Kiritimati", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8",
                   "PYTHONHASHSEED": "1"},
    # Eight hours behind, the POSIX locale with ASCII as its encoding (no UTF-8 mode),
    # files created in reverse order.
    "los-angeles": {"TZ": "America/Los_Angeles", "LC_ALL": "POSIX", "LANG": "POSIX",
                    "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0",
                    "PYTHONHASHSEED": "2"},
}


def build_on(root, machine, files):
    names = sorted(files, reverse=machine == "los-angeles")
    sb.write_site(root, {name: files[name] for name in names})
    for number, name in enumerate(names):  # file times must not matter either
        os.utime(root / "content" / name, (1_600_000_000 + number * 7919,) * 2)
    return sb.run_pelican(root, env=MACHINES[machine])


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    files = fixtures.site_files()
    results = {machine: build_on(tmp_path_factory.mktemp(machine), machine, files)
               for machine in MACHINES}
    for result in results.values():
        assert result.returncode == 0, result.log
    return results


def test_both_builds_write_the_same_files(builds):
    first, second = builds.values()
    assert first.files() == second.files()
    assert len(first.files()) > 40


def test_every_output_byte_is_the_same(builds):
    first, second = builds.values()
    different = [relpath for relpath in first.files()
                 if first.path(relpath).read_bytes() != second.path(relpath).read_bytes()]
    assert not different, different


def test_no_output_names_the_build_folder(builds):
    for result in builds.values():
        folder = str(result.root).encode()
        leaking = [relpath for relpath in result.files()
                   if folder in result.path(relpath).read_bytes()]
        assert not leaking, leaking
