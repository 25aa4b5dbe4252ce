"""The benchmark runs on a small directory (its figures are reported, never asserted)."""

import json

import vobject

from dalil.core.output import OutputFiles
from benchmarks.exports import measure, synthetic_directory
from dalil.exports.settings import ExportSettings
from dalil.exports.writers import write_exports


def test_benchmark_measures_every_file(tmp_path):
    # JSON, CSV and GeoJSON, their .br and .gz copies, 30 vCards.
    figures = measure(30, tmp_path)
    assert figures["listings"] == 30 and figures["files"] == 39 and figures["vcards"] == 30
    assert figures["seconds"] > 0 and figures["peak_traced_mib"] > 0
    assert not list(tmp_path.iterdir())  # cleaned up


def test_synthetic_directory_gives_valid_outputs(tmp_path):
    write_exports(OutputFiles(tmp_path), synthetic_directory(15), ExportSettings(), "https://x")
    records = json.loads((tmp_path / "directory/export.json").read_text(encoding="utf-8"))
    assert [record["url"] for record in records] == [
        f"https://x/directory/listing/listing-{number:06d}/" for number in range(15)]
    card = vobject.readOne((tmp_path / "directory/listing/listing-000000/contact.vcf")
                           .read_bytes().decode("utf-8"))
    assert card.fn.value == records[0]["name"] and len(records[0]["name"].encode()) > 75
