"""``invoke validate`` as an operator runs it, on the sample site in content/ (CI runs it).

The sample is built at the real time (no SOURCE_DATE_EPOCH): ``invoke validate``
compares security.txt's Expires with the real clock.
"""

import os
import re
import shutil
import subprocess
import sys

import pytest

from tests import sitebuilder as sb
from tests.validate.test_csp import assert_strict_csp


def run_validate(output):
    """``invoke validate --output OUTPUT`` in the sample site's folder, as an operator runs it."""
    return subprocess.run(
        [sys.executable, "-m", "invoke", "validate", "--output", str(output)],
        cwd=sb.REPO, capture_output=True, text=True, timeout=600,
    )


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    output = tmp_path_factory.mktemp("sample") / "output"
    environment = {key: value for key, value in os.environ.items() if key != "SOURCE_DATE_EPOCH"}
    environment["PYTHONPATH"] = str(sb.PACKAGE_SOURCE)
    completed = subprocess.run(
        [sys.executable, "-m", "pelican", str(sb.REPO / "content"), "-o", str(output),
         "-s", str(sb.REPO / "pelicanconf.py"), "--fatal", "errors"],
        cwd=output.parent, capture_output=True, text=True, timeout=600, env=environment,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return output


def test_invoke_validate_passes_on_the_sample_site(sample, tmp_path):
    completed = run_validate(sample)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    summary = completed.stdout.strip().splitlines()[-1]
    assert summary.startswith("validate: OK; checked "), summary
    pages = int(re.search(r"(\d+) HTML pages", summary).group(1))
    assert pages >= 60 + 10 + 6 + 12 + 6  # listings, categories, cities, news, blog


def test_invoke_validate_fails_on_a_broken_copy_with_a_message_for_each(sample, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(sample, broken)
    image = next(path for path in sorted((broken / "images").rglob("*.svg")))
    image.unlink()
    security = broken / ".well-known" / "security.txt"
    security.write_bytes(re.sub(rb"Expires: [^\r\n]+", b"Expires: 2020-01-01T00:00:00.000Z",
                                security.read_bytes()))
    export = broken / "directory" / "export.json"
    export.write_bytes(export.read_bytes()[:-200])

    completed = run_validate(broken)
    assert completed.returncode != 0
    lines = completed.stdout.splitlines()
    image_url = "/" + image.relative_to(broken).as_posix()
    assert any(f"image {image_url} does not resolve" in line for line in lines), lines
    assert any(line.startswith("FAIL .well-known/security.txt: expired on 2020-01-01")
               for line in lines), lines
    assert "FAIL directory/export.json: not valid JSON (truncated?)" in "\n".join(lines)
    assert lines[-1].startswith("validate: ") and "problem(s)" in lines[-1]


def test_sample_pages_have_nothing_a_strict_csp_blocks(sample):
    pages = sorted(sample.rglob("*.html"))
    assert len(pages) > 90
    for page in pages:
        assert_strict_csp(page.relative_to(sample).as_posix(), page.read_text(encoding="utf-8"))
