"""The listings' HTML kept on disk while a build runs (``dalil.directory.spill``)."""

import multiprocessing
import os

from dalil.directory.spill import SpilledTexts, TextSpill

from tests.sitebuilder import build_site, category, city, listing

SITE = {**category("restaurants", "مطاعم"), **city("rabat", "الرباط")}
for _number in range(80):  # more than a worker pool's minimum: read in workers
    SITE.update(listing(f"l{_number}", f"مطعم {_number}", "restaurants", "rabat",
                        body=f"وصف المطعم {_number} **المميز**."))


def _put_in_child(spill, values, places):
    places.put([spill.put(value) for value in values])


def test_what_forked_processes_put_is_read_back_by_another_then_removed():
    spill = TextSpill()  # made before the processes fork, as the build makes it
    values = [("<p>ملخص</p>", "<p>" + "نص " * 500 + "</p>"), "بطاقة", ("", "")]
    context = multiprocessing.get_context("fork")
    places = context.SimpleQueue()
    children = [context.Process(target=_put_in_child, args=(spill, part, places))
                for part in (values[:2], values[2:])]
    for child in children:
        child.start()
    found = [places.get() for _ in children]
    for child in children:
        child.join()
    assert all(child.exitcode == 0 for child in children)
    places = {tuple(spill.get(place) if isinstance(place, SpilledTexts) else None
                    for place in chunk) for chunk in found}
    assert places == {tuple(values[:2]), tuple(values[2:])}
    folder = spill.folder
    assert len(os.listdir(folder)) == 2  # a file for each process that put something
    spill.remove()
    assert not os.path.exists(folder)


def test_a_place_holds_its_process_offset_and_length():
    place = SpilledTexts.of(4_194_303, (1 << 40) + 7, (1 << 32) - 1)
    assert place.parts() == (4_194_303, (1 << 40) + 7, (1 << 32) - 1)


def _spills(folder):
    return [name for name in os.listdir(folder) if name.startswith("dalil-texts-")]


def test_a_build_leaves_no_spill_behind_and_its_pages_hold_the_html(tmp_path):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    result = build_site(tmp_path / "site", SITE, env={"TMPDIR": str(temporary)},
                        DALIL_DIRECTORY_WORKERS=2)
    assert result.returncode == 0, result.log
    page = result.read("directory/listing/l42/index.html")
    assert "وصف المطعم 42 <strong>المميز</strong>." in page
    card_page = result.read("directory/category/restaurants/index.html")
    assert 'href="https://dalil.test/directory/listing/l1/"' in card_page
    assert _spills(temporary) == []


def test_a_failed_build_leaves_no_spill_behind(tmp_path):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    broken = {**SITE, **listing("bad", "مطعم", "restaurants", "nowhere")}
    result = build_site(tmp_path / "site", broken, env={"TMPDIR": str(temporary)},
                        DALIL_DIRECTORY_WORKERS=2)
    assert result.returncode != 0 and "nowhere" in result.log
    assert _spills(temporary) == []
