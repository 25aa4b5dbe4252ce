"""Parallel and serial builds write the same bytes; rebuilds leave unchanged files alone."""

import json
import os
import re

import pytest
import vobject
from lxml import html

from dalil.core.parallel import MIN_PARALLEL_ITEMS, available_cores
from dalil.directory.sources import SHARDS
from benchmarks.synthetic import generate_files
from tests import sitebuilder as sb

LISTINGS = 240


def synthetic_files():
    return dict(generate_files(LISTINGS))


def tree(output):
    return {path.relative_to(output).as_posix(): path.read_bytes()
            for path in sorted(output.rglob("*")) if path.is_file()}


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    files = synthetic_files()
    serial = sb.build_site(tmp_path_factory.mktemp("serial"), files, DALIL_DIRECTORY_WORKERS=1)
    parallel = sb.build_site(tmp_path_factory.mktemp("parallel"), files, DALIL_DIRECTORY_WORKERS=2)
    assert serial.returncode == 0, serial.log
    assert parallel.returncode == 0, parallel.log
    return serial, parallel


def test_parallel_output_is_byte_identical_to_serial(builds):
    serial, parallel = builds
    assert LISTINGS > MIN_PARALLEL_ITEMS and available_cores() >= 2
    serial_tree, parallel_tree = tree(serial.output), tree(parallel.output)
    assert len(serial_tree) > LISTINGS
    assert sorted(serial_tree) == sorted(parallel_tree)
    different = [path for path in serial_tree if serial_tree[path] != parallel_tree[path]]
    assert different == []


def test_summary_line_counts_each_type(builds):
    serial, _ = builds
    log = " ".join(serial.log.split())
    assert "30 categories, 36 cities" in log
    assert "directory pages" in log and "rendered" in log


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory):
    """A cached build, a rebuild with no change, a rebuild after one edited listing."""
    root = tmp_path_factory.mktemp("incremental")
    files = synthetic_files()
    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True}
    first = sb.build_site(root, files, **settings)
    assert first.returncode == 0, first.log
    stamps = {path: os.stat(path).st_mtime_ns for path in first.output.rglob("*") if path.is_file()}
    second = sb.run_pelican(root)
    assert second.returncode == 0, second.log
    after_second = {path: os.stat(path).st_mtime_ns for path in stamps}
    edited = sorted((root / "content" / "listings").glob("*.md"))[3]
    edited.write_text(edited.read_text(encoding="utf-8") + "\nسطر جديد.\n", encoding="utf-8")
    third = sb.run_pelican(root)
    assert third.returncode == 0, third.log
    after_third = {path: os.stat(path).st_mtime_ns for path in stamps}
    return first, second, third, stamps, after_second, after_third, edited


def test_a_rebuild_without_changes_rewrites_nothing(rebuilt):
    first, second, _, stamps, after_second, _, _ = rebuilt
    assert [path for path in stamps if stamps[path] != after_second[path]] == []
    assert "0 rendered" in " ".join(second.log.split())


def test_an_edit_rewrites_its_page_only(rebuilt):
    first, _, third, _, after_second, after_third, edited = rebuilt
    changed = {path.relative_to(first.output).as_posix() for path in after_second
               if after_second[path] != after_third[path]}
    slug = edited.stem
    assert f"directory/listing/{slug}/index.html" in changed
    page = (first.output / f"directory/listing/{slug}/index.html").read_text(encoding="utf-8")
    assert "سطر جديد." in page
    assert not [path for path in changed if path.startswith("directory/listing/")
                and f"/{slug}/" not in path]
    # The listing's page and the category and city pages that list it.
    rendered = int(re.search(r"directory pages ([\d,]+) rendered", " ".join(third.log.split()))[1]
                   .replace(",", ""))
    assert 1 <= rendered <= 3


def test_a_rebuild_remakes_the_vcards_whose_data_changed_and_keeps_the_rest(tmp_path):
    files = sb.base_files()
    files.update(sb.category("cafes", "مقاه"))
    files.update(sb.listing("zaytouna", "مطعم الزيتونة", Phone="+212 522 000 000"))
    files.update(sb.listing("qahwa", "مقهى القهوة", category="cafes"))
    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True}
    first = sb.build_site(tmp_path, files, **settings)
    assert first.returncode == 0, first.log
    cards = {slug: first.output / f"directory/listing/{slug}/contact.vcf"
             for slug in ("zaytouna", "qahwa")}
    stamps = {slug: os.stat(path).st_mtime_ns for slug, path in cards.items()}
    # The card shows the category's name: renaming the category changes its cards only.
    sb.write_site(tmp_path, sb.category("cafes", "مقاهٍ ومشروبات"), **settings)
    second = sb.run_pelican(tmp_path)
    assert second.returncode == 0, second.log
    read = {slug: vobject.readOne(path.read_text(encoding="utf-8")) for slug, path in cards.items()}
    assert read["qahwa"].org.value == ["مقاهٍ ومشروبات"]
    assert os.stat(cards["qahwa"]).st_mtime_ns != stamps["qahwa"]
    assert read["zaytouna"].org.value == ["مطاعم"] and read["zaytouna"].tel.value == "+212 522 000 000"
    assert os.stat(cards["zaytouna"]).st_mtime_ns == stamps["zaytouna"]
    # A card whose listing is unchanged is not made again (a same-size stand-in stays,
    # which only a kept card can leave); one gone from the output is made again.
    originals = {slug: path.read_bytes() for slug, path in cards.items()}
    cards["zaytouna"].write_bytes(b"x" * len(originals["zaytouna"]))
    cards["qahwa"].unlink()
    third = sb.run_pelican(tmp_path)
    assert third.returncode == 0, third.log
    assert cards["zaytouna"].read_bytes() == b"x" * len(originals["zaytouna"])
    assert cards["qahwa"].read_bytes() == originals["qahwa"]


def test_a_rebuild_remakes_the_vcards_deleted_or_changed_since_the_last(tmp_path):
    files = sb.base_files()
    files.update(sb.listing("zaytouna", "مطعم الزيتونة", Phone="+212 522 000 000"))
    files.update(sb.listing("qahwa", "مقهى القهوة"))
    files.update(sb.listing("atlas", "مطعم الأطلس"))
    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True}
    first = sb.build_site(tmp_path, files, **settings)
    assert first.returncode == 0, first.log
    cards = {slug: first.output / f"directory/listing/{slug}/contact.vcf"
             for slug in ("zaytouna", "qahwa", "atlas")}
    made = {slug: path.read_bytes() for slug, path in cards.items()}
    cards["zaytouna"].unlink()
    cards["qahwa"].write_bytes(b"BEGIN:VCARD\r\n")
    stamp = os.stat(cards["atlas"]).st_mtime_ns
    second = sb.run_pelican(tmp_path)
    assert second.returncode == 0, second.log
    assert {slug: path.read_bytes() for slug, path in cards.items()} == made
    assert vobject.readOne(cards["zaytouna"].read_text(encoding="utf-8")).tel.value == "+212 522 000 000"
    assert os.stat(cards["atlas"]).st_mtime_ns == stamp


def test_a_rebuild_remakes_the_search_index_in_parts_when_the_index_changed(tmp_path):
    files = sb.base_files()
    files.update(sb.listing("zaytouna", "مطعم الزيتونة"))
    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True, "DALIL_SEARCH_PART_SIZE": 1}
    first = sb.build_site(tmp_path / "site", files, **settings)
    assert first.returncode == 0, first.log
    folder = first.output / "search/index"
    assert "الزيتونة" in (folder / "head.json").read_text(encoding="utf-8")
    renamed = sb.listing("zaytouna", "مطعم الأطلس", Phone="0522-998713")
    sb.write_site(tmp_path / "site", renamed, **settings)
    second = sb.run_pelican(tmp_path / "site")
    assert second.returncode == 0, second.log
    clean = sb.build_site(tmp_path / "clean", {**files, **renamed}, DALIL_DIRECTORY_WORKERS=1,
                          DALIL_SEARCH_PART_SIZE=1)
    assert clean.returncode == 0, clean.log
    head = json.loads((folder / "head.json").read_text(encoding="utf-8"))
    assert "الأطلس" in head["tokens"] and "الزيتونة" not in head["tokens"]
    assert "0522998713" in (folder / "phones.json").read_text(encoding="utf-8")
    for name in ["head", *head["parts"]]:
        for suffix in ("", ".gz", ".br"):
            relpath = f"search/index/{name}.json{suffix}"
            assert (first.output / relpath).read_bytes() == (clean.output / relpath).read_bytes()


def test_a_rebuild_keeps_the_sitemaps_while_their_urls_and_dates_stand(tmp_path):
    files = sb.base_files()
    for number in range(5):
        files.update(sb.listing(f"shop-{number}", f"متجر {number}", Date=f"2026-0{number + 1}-01"))
    # Undated: its <lastmod> is the site's newest date, which the third build moves.
    files.update(sb.listing("undated", "متجر بلا تاريخ"))
    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True, "DALIL_SITEMAPS_MAX_URLS": 3}
    first = sb.build_site(tmp_path / "site", files, **settings)
    assert first.returncode == 0, first.log
    maps = sorted(first.output.glob("sitemap-*.xml"))
    assert len(maps) >= 3
    for path in maps:
        os.utime(path, ns=(1, 1))
    # A body edited: no URL or date moves, so no sitemap is made again.
    body = sb.listing("shop-2", "متجر 2", Date="2026-03-01", body="نص جديد.")
    sb.write_site(tmp_path / "site", body, **settings)
    second = sb.run_pelican(tmp_path / "site")
    assert second.returncode == 0, second.log
    assert [os.stat(path).st_mtime_ns for path in maps] == [1] * len(maps)
    # A date moved: that listing's <lastmod> and the index's follow.
    dated = sb.listing("shop-2", "متجر 2", Date="2026-03-01", Modified="2026-11-20 08:00",
                       body="نص جديد.")
    sb.write_site(tmp_path / "site", dated, **settings)
    third = sb.run_pelican(tmp_path / "site")
    assert third.returncode == 0, third.log
    # 08:00 in Africa/Casablanca (the sample settings' zone) is 07:00 UTC.
    assert "2026-11-20T07:00:00Z" in "".join(path.read_text(encoding="utf-8") for path in maps)
    clean = sb.build_site(tmp_path / "clean", {**files, **dated}, DALIL_SITEMAPS_MAX_URLS=3)
    assert clean.returncode == 0, clean.log
    for name in [path.name for path in maps] + ["sitemap-index.xml", "robots.txt"]:
        assert (first.output / name).read_bytes() == (clean.output / name).read_bytes(), name
    # A listing gone, one new, one renamed (a new URL for its unchanged date).
    (tmp_path / "site/content/listings/shop-4.md").unlink()
    moved = {**sb.listing("shop-5", "متجر 5", Date="2026-10-01"),
             **sb.listing("shop-one", "متجر 1", Date="2026-02-01", filename="shop-1")}
    sb.write_site(tmp_path / "site", moved, **settings)
    fourth = sb.run_pelican(tmp_path / "site")
    assert fourth.returncode == 0, fourth.log
    final = {name: data for name, data in {**files, **dated, **moved}.items()
             if name != "listings/shop-4.md"}
    clean = sb.build_site(tmp_path / "clean-again", final, DALIL_SITEMAPS_MAX_URLS=3)
    assert clean.returncode == 0, clean.log
    made = sorted(path.name for path in clean.output.glob("sitemap*.xml"))
    assert made == sorted(path.name for path in first.output.glob("sitemap*.xml"))
    for name in made + ["robots.txt"]:
        assert (first.output / name).read_bytes() == (clean.output / name).read_bytes(), name
    assert any("/directory/listing/shop-one/<" in (first.output / name).read_text(encoding="utf-8")
               for name in made)


def test_a_rebuild_redraws_the_pages_whose_menu_changed(tmp_path):
    """The theme's menu lists the site's pages: renaming one is seen on every listing page."""
    files = sb.base_files()
    files.update(sb.listing("zaytouna", "مطعم الزيتونة"))
    files["pages/about.md"] = sb.metadata_file("من نحن.", Title="من نحن", Slug="about")
    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True}
    first = sb.build_site(tmp_path, files, **settings)
    assert first.returncode == 0, first.log
    unchanged = sb.run_pelican(tmp_path)
    assert "directory pages 0 rendered" in " ".join(unchanged.log.split()), unchanged.log
    sb.write_site(tmp_path, {"pages/about.md": sb.metadata_file("من نحن.", Title="عن الدليل",
                                                                 Slug="about")}, **settings)
    renamed = sb.run_pelican(tmp_path)
    assert renamed.returncode == 0, renamed.log
    menu = [link.text_content() for link in
            html.parse(str(first.output / "directory/listing/zaytouna/index.html"))
            .iter("a") if "about" in link.get("href", "")]
    assert "عن الدليل" in menu and "من نحن" not in menu


def test_the_incremental_builds_equal_a_serial_clean_build(rebuilt, tmp_path):
    """After the cached rebuilds (pages skipped, vCards kept, templates reused), the
    output is the bytes a serial build without any cache writes from the same content."""
    first, *_ = rebuilt
    content = first.root / "content"
    files = {path.relative_to(content).as_posix(): path.read_bytes()
             for path in content.rglob("*") if path.is_file()}
    clean = sb.build_site(tmp_path, files, DALIL_DIRECTORY_WORKERS=1)
    assert clean.returncode == 0, clean.log
    incremental_tree, clean_tree = tree(first.output), tree(clean.output)
    assert sorted(incremental_tree) == sorted(clean_tree)
    assert [path for path in clean_tree if clean_tree[path] != incremental_tree[path]] == []


def test_writers_that_read_in_workers_replaced_every_60_listings_write_the_same_bytes(tmp_path):
    """The exports, search index, sitemaps and source cache as a million-listing build
    writes them, their listings read in workers replaced every 10,000 (here every 60): the
    bytes of a build that reads them in its writers, and a source cache that a rebuild
    takes whole."""
    files = synthetic_files()
    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True, "DALIL_DIRECTORY_WORKERS": 2}
    counting = ("import os\nos.register_at_fork(after_in_child=lambda: open({!r}, 'a')"
                ".write('fork\\n'))\n")
    builds = {}
    for name, extra in (("here", ""), ("fresh", "import dalil.core.parallel\n"
                                                "dalil.core.parallel.ITEMS_PER_FRESH_WORKER = 60\n")):
        root, forks = tmp_path / name, tmp_path / f"{name}.forks"
        sb.write_site(root, files, **settings)
        with open(root / "pelicanconf.py", "a", encoding="utf-8") as conf:
            conf.write(counting.format(str(forks)) + extra)
        built = sb.run_pelican(root)
        assert built.returncode == 0, built.log
        builds[name] = (tree(built.output), forks.read_text(encoding="utf-8").count("fork"))
        assert "; 0 sources read;" in " ".join(sb.run_pelican(root).log.split())
    (here, here_forks), (fresh, fresh_forks) = builds["here"], builds["fresh"]
    assert sorted(fresh) == sorted(here)
    assert [path for path in here if here[path] != fresh[path]] == []
    # A worker for each 60 listings of the exports' rows and cards, the search entries,
    # the sitemap lines and the source cache's records.
    assert fresh_forks >= here_forks + 4 * LISTINGS // 60


def test_a_rebuild_loads_the_html_of_the_listings_it_renders_again_only(tmp_path):
    """Cached listings come without their HTML, loaded for a page rendered again; if the
    cache lost it, the listing's file is read again. Any other read of it would fail."""
    first = sb.build_site(tmp_path, synthetic_files(), CACHE_CONTENT=True, LOAD_CONTENT_CACHE=True)
    assert first.returncode == 0, first.log
    root, output = first.root, first.output
    slugs = sorted(path.stem for path in (root / "content" / "listings").glob("*.md"))[10:12]
    pages = {slug: output / f"directory/listing/{slug}/index.html" for slug in slugs}
    before = tree(output)
    pages[slugs[0]].unlink()
    rebuild = sb.run_pelican(root)
    assert rebuild.returncode == 0, rebuild.log
    assert tree(output) == before
    texts = sorted((root / "cache").rglob("*.texts.marshal"))
    assert 0 < len(texts) <= SHARDS
    for path in texts:
        path.write_bytes(b"lost")
    pages[slugs[1]].unlink()
    rebuild = sb.run_pelican(root)
    assert rebuild.returncode == 0, rebuild.log
    assert tree(output) == before


def test_a_rebuild_renders_again_only_the_articles_whose_inputs_changed(tmp_path):
    """Pelican's articles and pages: one whose source, links and templates' values stand
    is not rendered again (a same-size stand-in for its file stays, which only a skipped
    page can leave); a moved link target makes the article that links it again."""
    files = sb.base_files()
    files.update(sb.listing("zaytouna", "مطعم الزيتونة"))
    files["news/souk.md"] = sb.metadata_file("سوق جديد في المدينة.", Title="سوق جديد",
                                             Slug="souk", Date="2026-11-01 09:00")
    files["news/festival.md"] = sb.metadata_file(
        "انظر أيضا [السوق]({filename}/news/souk.md).", Title="مهرجان", Slug="festival",
        Date="2026-11-02 09:00")
    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True}
    first = sb.build_site(tmp_path / "site", files, **settings)
    assert first.returncode == 0, first.log
    pages = {name: first.output / name for name in
             ("news/souk/index.html", "news/festival/index.html", "about/index.html")}
    originals = {name: path.read_bytes() for name, path in pages.items()}
    for name, path in pages.items():
        path.write_bytes(b"x" * len(originals[name]))
    unchanged = sb.run_pelican(tmp_path / "site")
    assert unchanged.returncode == 0, unchanged.log
    assert {name: path.read_bytes() for name, path in pages.items()} == {
        name: b"x" * len(data) for name, data in originals.items()}

    for name, path in pages.items():
        path.write_bytes(originals[name])
    moved = {"news/souk.md": files["news/souk.md"].replace("Slug: souk", "Slug: souk-jadid")}
    sb.write_site(tmp_path / "site", moved, **settings)
    second = sb.run_pelican(tmp_path / "site")
    assert second.returncode == 0, second.log
    festival = pages["news/festival/index.html"].read_text(encoding="utf-8")
    assert "/news/souk-jadid/" in festival and "/news/souk/" not in festival
    clean = sb.build_site(tmp_path / "clean", {**files, **moved}, DALIL_DIRECTORY_WORKERS=1)
    assert clean.returncode == 0, clean.log
    for name in ("news/festival/index.html", "news/souk-jadid/index.html", "about/index.html"):
        assert (first.output / name).read_bytes() == (clean.output / name).read_bytes(), name


def test_rebuilds_in_one_process_do_not_keep_the_builds_before_them(tmp_path):
    """``invoke livereload`` builds again in its own process: each build's content and
    directory are let go once it is done (Pelican memoizes content on its class)."""
    import subprocess
    import sys
    import textwrap

    files = sb.base_files()
    files["news/souk.md"] = sb.metadata_file("سوق جديد.", Title="سوق", Slug="souk",
                                             Date="2026-11-01 09:00")
    for number in range(20):
        files.update(sb.listing(f"shop-{number}", f"متجر {number}"))
    sb.write_site(tmp_path, files, CACHE_CONTENT=True, LOAD_CONTENT_CACHE=True)
    script = textwrap.dedent("""
        import gc
        from pelican.contents import Article
        from dalil.directory.model import Listing
        from dalil.tasks import CachedBuilds

        builds = CachedBuilds(None, "pelicanconf.py")
        for _ in range(3):
            builds.build()
            gc.unfreeze()  # what the next build does first (the objects of this one, frozen)
            gc.collect()
            alive = gc.get_objects()
            print("alive:", sum(isinstance(o, Listing) for o in alive),
                  sum(isinstance(o, Article) for o in alive))
    """)
    completed = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, text=True,
                               capture_output=True, timeout=300,
                               env={**os.environ, "PYTHONPATH": str(sb.PACKAGE_SOURCE)})
    assert completed.returncode == 0, completed.stderr
    alive = [line for line in completed.stdout.splitlines() if line.startswith("alive:")]
    assert alive == ["alive: 0 0"] * 3, completed.stdout


READING_PROBE = '''
"""Logs each source a directory worker reads; when the articles generator starts its
context, waits for every listing to be read and says whether they all were."""
import os, time
from pelican import signals
from dalil.directory import reading

LOG, RESULT, EXPECTED = {log!r}, {result!r}, {expected!r}
read_chunk = reading._read_chunk


def logged_read_chunk(state, jobs):
    with open(LOG, "a", encoding="utf-8") as log:
        log.write("".join(relpath + "\\n" for _, relpath in jobs))
    return read_chunk(state, jobs)


# Pickled by name for the workers: the name now leads to this function.
logged_read_chunk.__module__, logged_read_chunk.__qualname__ = reading.__name__, "_read_chunk"
reading._read_chunk = logged_read_chunk


def articles_begin(articles_generator):
    if os.path.exists(RESULT):  # the first articles generator's context only
        return
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with open(LOG, "a+", encoding="utf-8") as log:
            log.seek(0)
            read = sum(1 for line in log if line.startswith("listings"))
        if read >= EXPECTED:
            break
        time.sleep(0.05)
    with open(RESULT, "w", encoding="utf-8") as result:
        result.write(str(read))


def register():
    signals.article_generator_preread.connect(articles_begin)
'''


@pytest.mark.skipif(available_cores() < 2, reason="needs two cores for two workers")
def test_the_workers_read_the_listings_while_the_articles_make_their_context(tmp_path):
    """Reading starts as the directory generator is made: a probe that holds the articles
    generator's context until every listing is read finds them all read (if reading
    began only in the directory's own context, after the articles', it would wait 20 s
    and find none)."""
    files = synthetic_files()
    expected = sum(1 for relpath in files if relpath.startswith("listings/"))
    plugins = tmp_path / "probe"
    plugins.mkdir()
    log, result = tmp_path / "read.log", tmp_path / "result.txt"
    (plugins / "reading_probe.py").write_text(
        READING_PROBE.format(log=str(log), result=str(result), expected=expected), encoding="utf-8")
    from dalil import PLUGINS
    build = sb.build_site(tmp_path / "site", files, DALIL_DIRECTORY_WORKERS=2,
                          PLUGIN_PATHS=[str(plugins)], PLUGINS=[*PLUGINS, "reading_probe"])
    assert build.returncode == 0, build.log
    assert int(result.read_text(encoding="utf-8")) == expected
    assert sorted(log.read_text(encoding="utf-8").split()) == sorted(
        relpath for relpath in files if relpath.startswith(("listings/", "categories/", "cities/")))


ORDER_PROBE = '''
"""Logs, in the main process, each forked writer as it starts and the articles generator
as it starts its context."""
from pelican import signals
from dalil.core import background

LOG = {log!r}
start = background.start


def note(event):
    with open(LOG, "a", encoding="utf-8") as log:
        log.write(event + "\\n")


def logged_start(*args, **kwargs):
    note("fork")
    return start(*args, **kwargs)


background.start = logged_start


def register():
    signals.article_generator_preread.connect(lambda generator: note("articles"), weak=False)
'''


@pytest.mark.skipif(available_cores() < 2, reason="needs two cores for a forked writer")
def test_a_cached_rebuild_starts_the_exports_before_the_articles_make_their_context(tmp_path):
    """With nothing to read, the model is made as the directory generator is, and the
    exports' process starts then; a cold build starts its writers with the output. A
    rebuild writes Pelican's article output in one more forked writer."""
    plugins = tmp_path / "probe"
    plugins.mkdir()
    log = tmp_path / "order.log"
    (plugins / "order_probe.py").write_text(ORDER_PROBE.format(log=str(log)), encoding="utf-8")
    from dalil import PLUGINS
    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True, "DALIL_DIRECTORY_WORKERS": 2,
                "PLUGIN_PATHS": [str(plugins)], "PLUGINS": [*PLUGINS, "order_probe"]}
    first = sb.build_site(tmp_path / "site", synthetic_files(), **settings)
    assert first.returncode == 0, first.log
    cold = log.read_text(encoding="utf-8").split()
    log.unlink()
    again = sb.run_pelican(tmp_path / "site")
    assert again.returncode == 0, again.log
    cached = log.read_text(encoding="utf-8").split()
    assert cold[0] == "articles" and "fork" in cold, cold
    assert cached[0] == "fork" and cached.count("fork") == cold.count("fork") + 1, cached
    assert cached.index("articles") == 1, cached


RECEIVER_PROBE = '''
"""Another plugin's receiver of ``content_written``: notes each page and whether the
build's own process wrote it."""
import os
from pelican import signals

LOG = {log!r}
BUILD_PROCESS = os.getpid()


def written(path, context):
    with open(LOG, "a", encoding="utf-8") as log:
        folder = os.path.basename(os.path.dirname(path))
        log.write(f"{{os.getpid() == BUILD_PROCESS}} {{folder}}\\n")


def register():
    signals.content_written.connect(written)
'''


@pytest.mark.skipif(available_cores() < 2, reason="needs two cores for a forked writer")
def test_articles_are_written_in_the_build_s_process_for_another_plugin_s_receiver(tmp_path):
    """A receiver of the signals sent as articles are written may keep what it is given:
    with one that is not Dalil's, a rebuild writes the articles in its own process, as a
    first build does, and the receiver is told of each page written again."""
    plugins = tmp_path / "probe"
    plugins.mkdir()
    log = tmp_path / "written.log"
    (plugins / "receiver_probe.py").write_text(RECEIVER_PROBE.format(log=str(log)),
                                               encoding="utf-8")
    from dalil import PLUGINS
    files = sb.base_files()
    files.update(sb.listing("zaytouna", "مطعم الزيتونة"))
    files["news/souk.md"] = sb.metadata_file("سوق جديد في المدينة.", Title="سوق جديد",
                                             Slug="souk", Date="2026-11-01 09:00")
    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True, "DALIL_DIRECTORY_WORKERS": 2,
                "PLUGIN_PATHS": [str(plugins)], "PLUGINS": [*PLUGINS, "receiver_probe"]}
    first = sb.build_site(tmp_path / "site", files, **settings)
    assert first.returncode == 0, first.log
    log.unlink()
    edited = {"news/souk.md": files["news/souk.md"].replace("سوق جديد في", "سوق كبير في")}
    sb.write_site(tmp_path / "site", edited, **settings)
    again = sb.run_pelican(tmp_path / "site")
    assert again.returncode == 0, again.log
    written = log.read_text(encoding="utf-8").split("\n")[:-1]
    assert "True souk" in written, written
    assert all(line.startswith("True ") for line in written), written
    assert "سوق كبير في" in (first.output / "news/souk/index.html").read_text(encoding="utf-8")


CARDS_PROBE = '''
"""Writes, for each category or city page rendered, how many of its listings' cards came
made with the listing's own page and how many listings it shows."""
from dalil.directory import generator

LOG = {log!r}
term_page_context = generator.DirectoryGenerator._term_page_context


def logged(self, term, number, cards=None):
    context = term_page_context(self, term, number, cards)
    made = sum(card is not None for card in context["page_cards"])
    with open(LOG, "a", encoding="utf-8") as log:
        log.write(f"{{made}} {{len(context['page_listings'])}}\\n")
    return context


generator.DirectoryGenerator._term_page_context = logged


def register():
    pass
'''


@pytest.mark.parametrize("workers", [1, 2])
def test_each_card_is_made_once_with_its_listing_s_page(tmp_path, workers):
    """A listing's card is shown on its category's and its city's page: both get it made
    with the listing's page, in whichever process rendered that, not made twice more."""
    files = synthetic_files()
    plugins = tmp_path / "probe"
    plugins.mkdir()
    log = tmp_path / "cards.log"
    (plugins / "cards_probe.py").write_text(CARDS_PROBE.format(log=str(log)), encoding="utf-8")
    from dalil import PLUGINS
    build = sb.build_site(tmp_path / "site", files, DALIL_DIRECTORY_WORKERS=workers,
                          PLUGIN_PATHS=[str(plugins)], PLUGINS=[*PLUGINS, "cards_probe"])
    assert build.returncode == 0, build.log
    pages = [tuple(map(int, line.split())) for line in log.read_text(encoding="utf-8").splitlines()]
    shown = sum(total for _, total in pages)
    published = len(list(build.output.glob("directory/*/*/contact.vcf")))
    assert published > LISTINGS / 2 and shown == 2 * published
    assert [made for made, _ in pages] == [total for _, total in pages]
