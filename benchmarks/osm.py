"""Benchmark of ``dalil-import-osm``: a synthetic ``.osm.pbf`` of POIs (written with
pyosmium's writer) imported into an empty site, then the same file imported again.

``invoke bench-osm`` or ``python -m benchmarks.osm 100000``. The POIs are nodes of the
default table's tags, in 60 cities, each with names in three languages, an address, a
phone, a website and opening hours (one in five in a syntax Dalil does not read).
"""

import datetime as dt
import sys
import tempfile
import time
from pathlib import Path

import osmium

from dalil.osm.importer import import_osm
from dalil.osm.mapping import load_mapping

_TAGS = (("amenity", "restaurant"), ("amenity", "cafe"), ("amenity", "pharmacy"),
         ("shop", "bakery"), ("shop", "supermarket"), ("shop", "hairdresser"),
         ("tourism", "hotel"), ("craft", "tailor"))
_WORDS = ("الأطلس", "الزيتونة", "النخيل", "الأندلس", "الياسمين", "المدينة", "Atlas", "Oasis")
_HOURS = ("Mo-Fr 09:00-18:00; Sa 09:00-13:00", "24/7", "Mo-Sa 08:00-22:00", "09:00-19:00",
          "Mo-Fr 09:00-18:00; PH off")


def write_pbf(path, count):
    """``count`` POI nodes, and one unmapped named node in ten."""
    base = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    with osmium.SimpleWriter(str(path)) as writer:
        for number in range(1, count + count // 10 + 1):
            key, value = _TAGS[number % len(_TAGS)] if number <= count else ("amenity", "bench")
            word = _WORDS[number % len(_WORDS)]
            tags = {key: value, "name": f"{word} {number}", "name:ar": f"{word} {number}",
                    "name:fr": f"Établissement {number}", "name:en": f"Business {number}",
                    "addr:city": f"City {number % 60}", "addr:street": "Avenue Mohammed V",
                    "addr:housenumber": str(number % 300), "addr:postcode": str(20000 + number % 900),
                    "phone": f"+212 522 {number % 1000:03d} {number % 997:03d}",
                    "website": f"https://b{number}.example.ma/",
                    "opening_hours": _HOURS[number % len(_HOURS)]}
            writer.add_node(osmium.osm.mutable.Node(
                id=number, version=1, timestamp=base + dt.timedelta(minutes=number),
                location=(-7.6 + number % 1000 / 10000, 33.5 + number // 1000 / 10000),
                tags=tags))


def main(sizes):
    mapping = load_mapping()
    for count in sizes:
        with tempfile.TemporaryDirectory(prefix="dalil-bench-osm-") as folder:
            site = Path(folder)
            (site / "content").mkdir()
            (site / "pelicanconf.py").write_text('PATH = "content"\n', encoding="utf-8")
            source = site / "pois.osm.pbf"
            start = time.perf_counter()
            write_pbf(source, count)
            written = time.perf_counter() - start
            start, cpu = time.perf_counter(), time.process_time()
            report = import_osm(source, site, mapping=mapping)
            first, first_cpu = time.perf_counter() - start, time.process_time() - cpu
            start, cpu = time.perf_counter(), time.process_time()
            again = import_osm(source, site, mapping=mapping)
            second, second_cpu = time.perf_counter() - start, time.process_time() - cpu
            print(f"{count:,} POIs ({source.stat().st_size / 1e6:.1f} MB .osm.pbf, written in "
                  f"{written:.1f} s): import {first:.1f} s, {first_cpu:.1f} CPU-s "
                  f"({len(report.new):,} listings, "
                  f"{len(report.hours_not_converted):,} opening hours not converted); "
                  f"the same file again {second:.1f} s, {second_cpu:.1f} CPU-s "
                  f"({again.unchanged:,} unchanged)")
            sys.stdout.flush()


if __name__ == "__main__":
    main([int(size) for size in sys.argv[1:] or ["100000"]])
