"""The lean reader against Pelican's, and the writer that keeps unchanged files."""

import copy
import datetime as dt
import marshal
import os
import sys
import time
from types import SimpleNamespace

import pytest
from hypothesis import example, given
from markupsafe import Markup
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from markdown import Markdown
from pelican.log import LimitFilter
from pelican.readers import MarkdownReader, RstReader, _filter_discardable_metadata
from pelican.settings import DEFAULT_CONFIG, read_settings
from pelican.writers import FileOverwriteFailedError

from dalil.core.writer import DalilWriter
from dalil.directory.reader import (ContentMarkdownReader, LeanMarkdownReader, plain_paragraphs,
                                   use_for_content)
from dalil.directory.model import (CORE_FIELDS, LISTING_FIELDS, PACKED_FIELDS, TEXT_NOT_LOADED,
                                   Listing, cached_listing)
from dalil.directory.sources import SourceCache, file_stamp
from benchmarks.synthetic import generate_files

SOURCES = {
    "plain.md": "Title: مطعم\nSlug: a\nDate: 2026-01-02\nModified: 2026-01-03 10:30\n\nنص **مهم**.\n",
    "tz.md": "Title: x\nDate: 2026-01-02T10:00:00+01:00\nSummary: سطر *أول*\n    سطر ثان\n\nب\n",
    "other-date.md": "Title: x\nDate: 2026/01/02 10:00\nCategory:  cafes \nStatus:\nSlug:\n\n",
    "bom.md": "\ufeffTitle: x\nName_en: A & B <c>\n\n# h\n\n![](/i.png)\n",
    "dup.md": "Title: x\nTitle: y\nWebsite: https://e.example/\n\n- a\n- b\n",
}


def settings():
    return read_settings(None, override={"TIMEZONE": "UTC"})


@pytest.fixture
def sources(tmp_path):
    files = dict(SOURCES)
    files.update((name.replace("/", "-"), text) for name, text in list(generate_files(20))[70:100]
                 if name.endswith(".md"))
    paths = []
    for name, text in files.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def test_lean_reader_reads_as_pelican_does(sources):
    pelican_reader, lean = MarkdownReader(settings()), LeanMarkdownReader(settings())
    for path in sources * 2:  # twice: a reused Markdown object keeps no state between files
        expected_content, expected = pelican_reader.read(path)
        expected = _filter_discardable_metadata(expected)
        if "category" in expected:
            expected["category"] = str(expected["category"])
        content, metadata = lean.read(path)
        assert content == expected_content, path
        assert metadata == expected, path
        for key in ("date", "modified"):
            if key in expected:
                assert metadata[key].utcoffset() == expected[key].utcoffset(), path


def test_content_reader_gives_what_pelicans_gives_articles(sources, tmp_path, caplog, monkeypatch):
    extra = {"tags.md": "Title: x\nTags: أ, ب\nAuthors: ج; د\nCategory: أخبار\n"
                        "Date: 2026-01-02_10:30:15.5\nModified:  2026-01-02T10:00 \n\nنص\n",
             "dup-date.md": "Title: x\nDate: 2026-01-02\nDate: 2026-01-03\n\nنص\n",
             "bad-date.md": "Title: x\nDate: 2026-02-30\n\nنص\n"}
    for name, text in extra.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    paths = [*sources, str(tmp_path / "tags.md"), str(tmp_path / "dup-date.md")]
    pelican_reader, content_reader = MarkdownReader(settings()), ContentMarkdownReader(settings())
    warned = set()
    for path in paths * 2:  # twice: a reused Markdown object keeps no state between files
        # Pelican logs a message once a process: each reader gets to log it here.
        monkeypatch.setattr(LimitFilter, "_raised_messages", set())
        caplog.clear()
        expected_content, expected = pelican_reader.read(path)
        expected = _filter_discardable_metadata(expected)
        expected_warnings = caplog.messages[:]
        monkeypatch.setattr(LimitFilter, "_raised_messages", set())
        caplog.clear()
        content, metadata = content_reader.read(path)
        assert caplog.messages == expected_warnings, path
        assert content == expected_content, path
        assert metadata == expected, path
        assert {key: type(value) for key, value in metadata.items()} == {
            key: type(value) for key, value in expected.items()}, path
        warned.update(os.path.basename(path) for _ in expected_warnings)
    assert warned == {"dup-date.md"}
    bad = str(tmp_path / "bad-date.md")
    with pytest.raises(ValueError) as pelican_error:
        pelican_reader.read(bad)
    with pytest.raises(ValueError) as our_error:
        content_reader.read(bad)
    assert str(our_error.value) == str(pelican_error.value)


def test_content_reader_replaces_only_pelicans_markdown_reader():
    class OwnReader(MarkdownReader):
        pass

    readers = SimpleNamespace(reader_classes={"md": MarkdownReader, "markdown": MarkdownReader,
                                              "mdown": OwnReader, "rst": RstReader})
    use_for_content(readers)
    assert readers.reader_classes == {"md": ContentMarkdownReader, "markdown": ContentMarkdownReader,
                                      "mdown": OwnReader, "rst": RstReader}


def test_lean_reader_drops_empty_slug_and_status(tmp_path):
    path = tmp_path / "x.md"
    path.write_text(SOURCES["other-date.md"], encoding="utf-8")
    _, metadata = LeanMarkdownReader(settings()).read(str(path))
    assert "slug" not in metadata and "status" not in metadata
    assert metadata["category"] == "cafes"


class FakeTemplate:
    def __init__(self, text):
        self.text = text

    def render(self, context):
        return self.text


def test_writer_leaves_identical_files_alone(tmp_path):
    config = dict(DEFAULT_CONFIG, OUTPUT_PATH=str(tmp_path))
    target = tmp_path / "a" / "index.html"
    DalilWriter(str(tmp_path), settings=config).write_file("a/index.html", FakeTemplate("نص"), {})
    os.utime(target, ns=(1, 1))
    writer = DalilWriter(str(tmp_path), settings=config)
    writer.write_file("a/index.html", FakeTemplate("نص"), {})
    assert target.stat().st_mtime_ns == 1 and (writer.changed, writer.unchanged) == (0, 1)
    writer = DalilWriter(str(tmp_path), settings=config)
    writer.write_file("a/index.html", FakeTemplate("نص آخر"), {})
    assert target.read_text(encoding="utf-8") == "نص آخر" and writer.changed == 1
    with pytest.raises(FileOverwriteFailedError):
        writer.write_file("a/index.html", FakeTemplate("ثالث"), {})
    assert [p.name for p in target.parent.iterdir()] == ["index.html"]  # no temporary file left


@hypothesis_settings(max_examples=500, deadline=None, derandomize=True)
@given(st.text(alphabet="a./\\é", max_size=12), st.sampled_from(["/srv/out", "/srv/out/", "/srv/x/../out", "/"]))
@example("directory/listing/a/index.html", "/srv/out")
@example(".well-known/security.txt", "/srv/out")
def test_output_paths_joined_by_concatenation_are_those_normalising_gives(relpath, root):
    """The concatenation shortcut of ``output_file_path`` and ``OutputFiles.path_for``."""
    from pelican.utils import sanitised_join

    from dalil.core.output import OutputFiles, UnsafeOutputPath
    from dalil.core.files import is_plain_relpath
    from dalil.core.files import output_file_path

    try:
        expected = sanitised_join(root, relpath)
    except RuntimeError:  # outside the folder: Pelican's own refusal, kept
        with pytest.raises(RuntimeError):
            output_file_path(root, relpath)
    else:
        assert output_file_path(root, relpath) == expected
    files = OutputFiles(root)
    try:
        target = files.path_for(relpath)
    except UnsafeOutputPath:
        assert not is_plain_relpath(relpath) or "\\" in relpath
    else:
        assert target == os.path.normpath(os.path.join(files.root, relpath))
        assert target.startswith(files.root.rstrip("/") + "/")


@hypothesis_settings(max_examples=500, deadline=None, derandomize=True)
@given(st.lists(st.text(alphabet="a./\\\x00é", max_size=8), max_size=5),
       st.sampled_from(["/srv/out", "/srv/out/", "/srv/x/../out"]))
@example(["listing/a/index.html", "listing/b/index.html"], "/srv/out")
@example(["a", "a\x00/b"], "/srv/out")
def test_paths_checked_together_are_those_checked_one_by_one(relpaths, root):
    """``all_plain_relpaths`` (one test of the paths joined) against ``is_plain_relpath``
    of each, and the batch forms ``OutputFiles.paths_for`` and ``output_file_paths``
    against ``path_for`` and ``output_file_path`` of each."""
    from dalil.core.output import OutputFiles, UnsafeOutputPath
    from dalil.core.files import all_plain_relpaths, is_plain_relpath
    from dalil.core.files import output_file_path, output_file_paths

    plain = all(is_plain_relpath(relpath) and "\\" not in relpath and "\x00" not in relpath
                for relpath in relpaths)
    assert all_plain_relpaths(relpaths) is plain
    assert all_plain_relpaths(tuple(relpaths)) is plain
    files = OutputFiles(root)
    try:
        one_by_one = [files.path_for(relpath) for relpath in relpaths]
    except UnsafeOutputPath:
        with pytest.raises(UnsafeOutputPath):
            files.paths_for(relpaths)
    else:
        assert files.paths_for(relpaths) == one_by_one
    try:
        one_by_one = [output_file_path(root, relpath) for relpath in relpaths]
    except RuntimeError:  # Pelican's refusal
        with pytest.raises(RuntimeError):
            output_file_paths(root, relpaths)
    else:
        assert output_file_paths(root, relpaths) == one_by_one
    assert all_plain_relpaths(["a", 1]) is False


def _last_cards(tmp_path):
    """``(files, expected)``: a card kept, one changed and one gone since the last build."""
    from dalil.core.output import OutputFiles

    out = tmp_path / "out"
    (out / "b").mkdir(parents=True)
    (out / "b" / "kept.vcf").write_bytes(b"abc")
    (out / "b" / "changed.vcf").write_bytes(b"abcd")
    return OutputFiles(out), [("b/kept.vcf", 3), ("b/changed.vcf", 3), ("b/gone.vcf", 0)]


def test_files_kept_unchanged_are_those_still_there_with_their_size(tmp_path):
    files, expected = _last_cards(tmp_path)
    assert files.keep_unchanged(expected) == [True, False, False]
    assert files.counts() == (0, 1)


def test_files_found_changed_ahead_are_not_stamped_again(tmp_path):
    files, expected = _last_cards(tmp_path)
    assert files.stale_files(expected) == ["b/changed.vcf", "b/gone.vcf"]
    assert files.stale_files([]) == []
    # What a check ahead found stands: "gone" was there when it looked.
    assert files.keep_unchanged(expected, changed={"b/changed.vcf"}) == [True, False, True]
    assert files.counts() == (0, 2)


def _in_child(function):
    """Run ``function()`` in a forked child and wait for it."""
    pid = os.fork()
    if not pid:
        try:
            function()
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def test_a_handoff_is_taken_whole_once_sent_and_never_waited_for():
    from dalil.core.parallel import Handoff

    handoff = Handoff()
    _in_child(lambda: handoff.send({"vcards": ["a/b.vcf"], "n": 3}))
    assert handoff.take() == {"vcards": ["a/b.vcf"], "n": 3}
    assert handoff.take() == {"vcards": ["a/b.vcf"], "n": 3}  # taken once, kept
    handoff.close()

    early = Handoff()
    started = time.perf_counter()
    assert early.take() is None  # nothing sent yet: not waited for
    assert time.perf_counter() - started < 5
    _in_child(lambda: early.send([1]))
    assert early.take() is None  # asked before it came: the taker did the work itself
    early.close()

    large = Handoff()
    _in_child(lambda: large.send("x" * (1 << 17)))  # more than a pipe holds at once
    assert large.take() is None
    large.close()
    assert large.take() is None


def _niceness(state):
    return os.nice(0)


def test_work_submitted_nicer_runs_in_a_worker_at_a_lower_priority():
    from dalil.core.parallel import Pool

    own = os.nice(0)
    with Pool(None, 2) as pool:
        assert pool.submit(_niceness, niceness=5).get() == min(own + 5, 19)
    with Pool(None, 1) as pool:  # one worker: it runs here, at this process's priority
        assert pool.submit(_niceness, niceness=5).get() == own
    assert os.nice(0) == own


def _process_ids(state, chunk):
    return [(item, os.getpid()) for item in chunk]


def test_a_pool_with_items_per_worker_replaces_its_workers_and_keeps_the_order():
    from dalil.core.parallel import Pool

    items = list(range(400))
    with Pool(None, 2, items_per_worker=64) as pool:
        results = list(pool.map(_process_ids, items, chunk_size=32))
    assert [item for item, _ in results] == items
    assert [result[0] for _, result in results] == items
    workers = {pid for _, (_, pid) in results}
    # 13 chunks of 32, two per worker: at least seven workers, none of them this process.
    assert len(workers) >= 7 and os.getpid() not in workers
    with Pool(None, 2) as pool:  # without it, its two workers (or one) take every chunk
        assert len({pid for _, (_, pid) in pool.map(_process_ids, items, chunk_size=32)}) <= 2


def test_checks_ahead_reach_a_writer_forked_after_them(tmp_path, monkeypatch):
    from dalil.core import output
    from dalil.core.output import OutputFiles

    monkeypatch.setattr(output, "_AHEAD_CHECKS", {})
    out = tmp_path / "out"
    (out / "b").mkdir(parents=True)
    (out / "b" / "c.vcf").write_bytes(b"ab")
    files = OutputFiles(out)
    files.start_checking_ahead()
    assert files.checked_ahead("cards") is None  # no check: nothing to take

    output.check_ahead_with("cards", lambda files: files.stale_files([("b/c.vcf", 2),
                                                                      ("b/d.vcf", 1)]))
    output.check_ahead_with("broken", lambda files: 1 / 0)
    files = OutputFiles(out)
    files.start_checking_ahead()
    _in_child(files.check_ahead)  # the worker, forked first
    found = os.pipe()

    def writer():  # forked after it, as the exports' writer is
        os.write(found[1], marshal.dumps((files.checked_ahead("cards"),
                                          files.checked_ahead("broken"))))

    _in_child(writer)
    os.close(found[1])
    with os.fdopen(found[0], "rb") as pipe:
        assert marshal.loads(pipe.read()) == (["b/d.vcf"], None)
    files.save_memo()  # closes the pipe
    assert files.checked_ahead("cards") is None


def test_output_files_keep_unchanged_files_and_memoised_ones(tmp_path):
    from dalil.core.output import DuplicateOutput, OutputFiles, UnsafeOutputPath

    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True,
                "CACHE_PATH": str(tmp_path / "cache"), "SITEURL": "https://x.test"}
    out = tmp_path / "out"
    files = OutputFiles(out, settings=settings)
    assert files.write("a.txt", "أ") is True
    assert files.keep_if_current("b/c.vcf", ("key", 1)) is False
    assert files.write_keyed("b/c.vcf", ("key", 1), "ب") is True
    with pytest.raises(DuplicateOutput):
        files.write("a.txt", "x")
    for bad in ("../x", "/etc/passwd", "a/../../x"):
        with pytest.raises(UnsafeOutputPath):
            files.write(bad, "x")
    files.save_memo()
    os.utime(out / "a.txt", ns=(1, 1))
    os.utime(out / "b" / "c.vcf", ns=(1, 1))

    files = OutputFiles(out, settings=settings)
    assert files.write("a.txt", "أ") is False
    assert files.keep_if_current("b/c.vcf", ("key", 1)) is True
    with pytest.raises(DuplicateOutput):  # kept counts as written
        files.write_keyed("b/c.vcf", ("key", 1), "ب")
    assert (out / "a.txt").stat().st_mtime_ns == (out / "b" / "c.vcf").stat().st_mtime_ns == 1
    assert files.counts() == (0, 2)
    files.save_memo()

    files = OutputFiles(out, settings=settings)
    assert files.keep_if_current("b/c.vcf", ("key", 2)) is False
    assert files.write_keyed("b/c.vcf", ("key", 2), "ج") is True
    assert (out / "b" / "c.vcf").read_text(encoding="utf-8") == "ج"
    assert [p.name for p in (out / "b").iterdir()] == ["c.vcf"]
    files.save_memo()

    # A file changed behind the build's back is made again.
    (out / "b" / "c.vcf").write_text("جج", encoding="utf-8")
    files = OutputFiles(out, settings=settings)
    assert files.keep_if_current("b/c.vcf", ("key", 2)) is False

    # Many at once: only the files as the last build left them, from the same keys.
    files = OutputFiles(out, settings=settings)
    for name in "defg":
        files.write_keyed(f"b/{name}.vcf", name, name)
    files.save_memo()
    (out / "b" / "e.vcf").unlink()
    (out / "b" / "f.vcf").write_text("ff", encoding="utf-8")
    files = OutputFiles(out, settings=settings)
    keyed = [("b/d.vcf", "d"), ("b/e.vcf", "e"), ("b/f.vcf", "f"), ("b/g.vcf", "another"),
             ("b/h.vcf", "h")]
    assert files.keep_current(keyed) == keyed[1:]
    assert files.counts() == (0, 1)
    assert OutputFiles(tmp_path / "none", settings=settings).keep_current(keyed) == keyed

    # A file streamed with its key (``open(..., key=)``) is kept as one written whole.
    files = OutputFiles(out, settings=settings)
    with files.open("b/index.json", "wb", key=("index", 1)) as handle:
        handle.write("[1,".encode("utf-8"))
        handle.write("2]".encode("utf-8"))
    files.save_memo()
    files = OutputFiles(out, settings=settings)
    assert files.keep_if_current("b/index.json", ("index", 1)) is True
    assert files.keep_if_current("b/index.json", ("index", 2)) is False
    (out / "b" / "index.json").write_bytes(b"[1]")  # cut short behind the build's back
    files = OutputFiles(out, settings=settings)
    assert files.keep_if_current("b/index.json", ("index", 1)) is False


class _Marks:
    def __init__(self):
        self.marks = []

    def mark(self, relpath, count=1):
        self.marks.append(relpath)


def test_files_written_in_a_forked_process_are_taken_in_at_join(tmp_path, caplog):
    import logging

    from dalil.core.background import BACKGROUND_NICENESS
    from dalil.core.output import OutputFiles

    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True,
                "CACHE_PATH": str(tmp_path / "cache")}
    out = tmp_path / "out"
    observer = _Marks()
    files = OutputFiles(out, observer=observer, settings=settings)

    def write():
        files.write("a.txt", "أ")
        files.write_keyed("b.vcf", ("key", 1), "ب")
        files.write("niceness.txt", str(os.nice(0)))
        logging.getLogger("dalil.test").warning("written in the child")

    files.in_background(write)
    files.write("c.txt", "ج")  # the parent goes on meanwhile
    with caplog.at_level(logging.INFO):
        assert files.counts() == (4, 0)
    # The child yields the cores to the parent, whose work the build waits for.
    assert int((out / "niceness.txt").read_text(encoding="utf-8")) == min(
        19, os.nice(0) + BACKGROUND_NICENESS)
    assert ("dalil.test", logging.WARNING, "written in the child") in caplog.record_tuples
    assert sorted(observer.marks) == ["a.txt", "b.vcf", "c.txt", "niceness.txt"]
    assert (out / "a.txt").read_text(encoding="utf-8") == "أ"
    files.save_memo()
    # The child's cache keys reached the parent's memo.
    assert OutputFiles(out, settings=settings).keep_if_current("b.vcf", ("key", 1)) is True


def test_a_forked_writer_s_failure_and_duplicate_are_raised_in_the_parent(tmp_path):
    from dalil.core.background import BackgroundError
    from dalil.core.output import DuplicateOutput, OutputFiles

    files = OutputFiles(tmp_path)

    def fail():
        raise ValueError("bad row in the exports")

    files.in_background(fail)
    with pytest.raises(BackgroundError, match="bad row in the exports"):
        files.join()

    files.in_background(lambda: files.write("a.txt", "x"))
    files.start_background()  # as the build's output starts, before the parent writes
    files.write("a.txt", "x")
    with pytest.raises(DuplicateOutput, match="a.txt"):
        files.join()


def test_forked_writers_take_the_next_function_as_they_finish(tmp_path, monkeypatch):
    """Two processes for three functions: the first waits for the files of the other two,
    which the second process writes one after the other, as a process takes the next
    function when it is free (a fixed share, 0 and 2 in one process, would never end)."""
    from dalil.core import output

    monkeypatch.setattr(output, "available_cores", lambda: 2)
    files = output.OutputFiles(tmp_path)

    def waits_for_the_others():
        deadline = time.monotonic() + 20
        while not all((tmp_path / name).exists() for name in ("1.txt", "2.txt")):
            assert time.monotonic() < deadline, "the other functions did not run beside it"
            time.sleep(0.01)
        files.write("0.txt", str(os.getpid()))

    files.in_background(waits_for_the_others)
    for number in (1, 2):
        files.in_background(lambda number=number: files.write(f"{number}.txt", str(os.getpid())))
    assert not any(tmp_path.iterdir())  # started together, as the output starts
    files.start_background()
    assert files.counts() == (3, 0)
    pids = [(tmp_path / f"{number}.txt").read_text() for number in range(3)]
    assert str(os.getpid()) not in pids
    assert pids[1] == pids[2] != pids[0]


def test_held_writers_fork_once_released_the_one_asked_to_start_now_first(tmp_path, monkeypatch):
    """While the build holds its writers (its process is about to touch most of the
    model), none forks, not even one asked to start now, nor as the output starts; once
    released, one process takes that one first."""
    from dalil.core import output

    monkeypatch.setattr(output, "available_cores", lambda: 1)
    out, order = tmp_path / "out", tmp_path / "order"
    files = output.OutputFiles(out)

    def noting(name):
        def write():
            with open(order, "a", encoding="utf-8") as file:
                file.write(name + "\n")
            files.write(f"{name}.txt", str(os.getpid()))
        return write

    files.hold_background()
    files.in_background(noting("ranked"), rank=1)
    files.in_background(noting("now"), now=True)
    files.start_background()  # as the build's output starts
    time.sleep(0.5)
    assert not order.exists()
    files.release_background()
    assert files.counts() == (2, 0)
    assert order.read_text(encoding="utf-8").split() == ["now", "ranked"]
    assert (out / "now.txt").read_text() == (out / "ranked.txt").read_text() != str(os.getpid())


def _wait_for(path, seconds=20):
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} did not appear"
        time.sleep(0.01)


def test_the_build_runs_the_functions_no_forked_writer_has_taken(tmp_path, monkeypatch):
    """One process for three functions, the first waiting for the file of the third: the
    build's own process, done with its work, takes the two left, one after the other."""
    from dalil.core import output

    monkeypatch.setattr(output, "available_cores", lambda: 1)
    files = output.OutputFiles(tmp_path / "out")
    marks = tmp_path / "marks"
    marks.mkdir()

    def waits_for_the_last():
        (marks / "taken").touch()
        _wait_for(tmp_path / "out" / "2.txt")
        files.write("0.txt", str(os.getpid()))

    files.in_background(waits_for_the_last)
    for number in (1, 2):
        files.in_background(lambda number=number: files.write(f"{number}.txt", str(os.getpid())))
    files.start_background()
    _wait_for(marks / "taken")  # the forked writer has the first
    files.run_untaken()
    assert files.counts() == (3, 0)
    pids = [(tmp_path / "out" / f"{number}.txt").read_text() for number in range(3)]
    assert pids[1] == pids[2] == str(os.getpid()) != pids[0]

    # A function that fails here raises its own error, once the writers are joined.
    def blocks_until_the_failure():
        (marks / "blocking").touch()
        _wait_for(marks / "failed")
        files.write("3.txt", "x")

    def fails():
        (marks / "failed").touch()
        raise ValueError("bad row in the sitemap")

    files.in_background(blocks_until_the_failure)
    files.in_background(fails)
    files.start_background()
    _wait_for(marks / "blocking")
    with pytest.raises(ValueError, match="bad row in the sitemap"):
        files.run_untaken()
    assert (tmp_path / "out" / "3.txt").read_text() == "x"
    assert files.counts() == (4, 0)


def test_a_page_written_in_a_forked_process_is_known_to_pelican_s_writer(tmp_path):
    from dalil.core.output import OutputFiles

    config = dict(DEFAULT_CONFIG, OUTPUT_PATH=str(tmp_path))
    writer = DalilWriter(str(tmp_path), settings=config)
    files = OutputFiles(tmp_path)
    files.in_background(lambda: writer.write_file("map/index.html", FakeTemplate("خريطة"), {}),
                        writer=writer)
    files.join()
    assert (tmp_path / "map" / "index.html").read_text(encoding="utf-8") == "خريطة"
    assert (writer.changed, writer.unchanged) == (1, 0)
    with pytest.raises(FileOverwriteFailedError):
        writer.write_file("map/index.html", FakeTemplate("ثانية"), {})


def test_without_fork_the_writer_runs_at_once(tmp_path):
    from dalil.core.output import OutputFiles

    files, pids = OutputFiles(tmp_path), []
    files.in_background(lambda: pids.append(os.getpid()) or files.write("a.txt", "x"),
                        forked=False)
    assert pids == [os.getpid()] and files.counts() == (1, 0)


def test_a_link_left_at_a_temporary_name_is_not_written_through(tmp_path):
    """A killed build may leave its temporary name behind; a link planted there must not
    carry the next write outside the output folder."""
    import threading

    from dalil.core.output import OutputFiles
    from dalil.core.files import replace_atomically

    outside = tmp_path / "outside.txt"
    outside.write_text("untouched", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    suffix = f"{os.getpid()}-{threading.get_native_id()}.tmp"
    (out / f".dalil-a.txt.{suffix}").symlink_to(outside)
    (out / f".dalil-b.txt.{suffix}").symlink_to(outside)
    OutputFiles(out).write("a.txt", "أ")
    replace_atomically(str(out / "b.txt"), "ب".encode("utf-8"))
    assert outside.read_text(encoding="utf-8") == "untouched"
    assert (out / "a.txt").read_text(encoding="utf-8") == "أ"
    assert (out / "b.txt").read_text(encoding="utf-8") == "ب"
    assert sorted(path.name for path in out.iterdir()) == ["a.txt", "b.txt"]


def test_a_file_written_in_pieces_is_replaced_only_when_its_bytes_change(tmp_path):
    from dalil.core.files import write_pieces_if_changed

    path = tmp_path / "sitemap" / "index.html"
    pieces = ["<ul>", *(f"<li>{number} مطعم</li>" for number in range(5000)), "</ul>"]
    whole = "".join(pieces).encode("utf-8")
    assert write_pieces_if_changed(str(path), (piece.encode("utf-8") for piece in pieces))
    assert path.read_bytes() == whole
    inode = path.stat().st_ino
    assert not write_pieces_if_changed(str(path), iter([whole[:100], whole[100:]]))
    assert path.stat().st_ino == inode  # the same file, left as it was
    assert write_pieces_if_changed(str(path), iter([whole[:-1], b"!"]))  # same size, other bytes
    assert path.read_bytes() == whole[:-1] + b"!"

    def failing():
        yield b"half"
        raise ValueError("the template failed")

    with pytest.raises(ValueError):
        write_pieces_if_changed(str(path), failing())
    assert path.read_bytes() == whole[:-1] + b"!"
    assert sorted(item.name for item in path.parent.iterdir()) == ["index.html"]


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_written_files_are_readable_by_all_whatever_the_umask(tmp_path, umask):
    """Files are 0644 under any umask, also over a file a killed build left at the
    temporary name (the umask is read as the module loads: a process of its own)."""
    import subprocess

    out = tmp_path / "out"
    out.mkdir()
    script = (
        "import os, threading\n"
        f"os.umask({umask})\n"
        "from dalil.core.files import replace_atomically\n"
        "left = f'.dalil-b.txt.{os.getpid()}-{threading.get_native_id()}.tmp'\n"
        "path = os.path.join(os.environ['OUT'], left)\n"
        "open(path, 'w').close(); os.chmod(path, 0o600)\n"
        "replace_atomically(os.path.join(os.environ['OUT'], 'a.txt'), b'a')\n"
        "replace_atomically(os.path.join(os.environ['OUT'], 'b.txt'), b'b')\n")
    # This worktree's package, not an installed one.
    from tests import sitebuilder as sb

    subprocess.run([sys.executable, "-c", script], check=True,
                   env=dict(os.environ, OUT=str(out), PYTHONPATH=str(sb.PACKAGE_SOURCE)))
    assert sorted(path.name for path in out.iterdir()) == ["a.txt", "b.txt"]
    for name in ("a.txt", "b.txt"):
        assert (out / name).stat().st_mode & 0o777 == 0o644


def test_precompressed_copies_follow_their_file(tmp_path):
    import gzip

    import brotli

    from dalil.core.output import DuplicateOutput, OutputFiles

    data = ("مطعم الزيتونة، الدار البيضاء " * 200).encode("utf-8")
    files = OutputFiles(tmp_path)
    with pytest.raises(ValueError):
        files.precompress("index.json")  # not written by this build
    files.write("index.json", data)
    files.precompress("index.json")
    assert brotli.decompress((tmp_path / "index.json.br").read_bytes()) == data
    assert gzip.decompress((tmp_path / "index.json.gz").read_bytes()) == data
    with pytest.raises(DuplicateOutput):
        files.write("index.json.gz", b"x")
    copies = {suffix: (tmp_path / f"index.json{suffix}").read_bytes() for suffix in (".br", ".gz")}

    # Unchanged file, newer copies: kept as they are, without compressing again.
    for path in tmp_path.iterdir():
        os.utime(path, ns=(5, 5 if path.suffix == ".json" else 6))
    files = OutputFiles(tmp_path)
    files.write("index.json", data)
    files.precompress("index.json")
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == {
        "index.json": 5, "index.json.br": 6, "index.json.gz": 6}

    # Copies older than their file (a build stopped between the two): made again.
    os.utime(tmp_path / "index.json.gz", ns=(4, 4))
    (tmp_path / "index.json.gz").write_bytes(b"stale")
    os.utime(tmp_path / "index.json.gz", ns=(4, 4))
    files = OutputFiles(tmp_path)
    files.write("index.json", data)
    files.precompress("index.json")
    assert {suffix: (tmp_path / f"index.json{suffix}").read_bytes()
            for suffix in (".br", ".gz")} == copies  # and the same bytes: reproducible


def test_several_files_are_precompressed_in_one_call(tmp_path):
    import gzip

    from dalil.core.output import OutputFiles

    files = OutputFiles(tmp_path)
    files.write("a.json", b"[1]")
    files.write("b.csv", "أ,ب\r\n")
    files.precompress("a.json", "b.csv")
    assert gzip.decompress((tmp_path / "a.json.gz").read_bytes()) == b"[1]"
    assert gzip.decompress((tmp_path / "b.csv.gz").read_bytes()) == "أ,ب\r\n".encode()
    assert files.counts() == (6, 0)

    files = OutputFiles(tmp_path)
    files.write("a.json", b"[1]")  # unchanged, its copies newer: kept
    files.write("b.csv", b"x")
    files.precompress("a.json", "b.csv")
    assert files.counts() == (3, 3)
    assert gzip.decompress((tmp_path / "b.csv.gz").read_bytes()) == b"x"


@pytest.mark.parametrize("size", [0, 1, 65_535, 65_536, 200_001, 2_500_000])
def test_precompressed_copies_decompress_to_their_file(tmp_path, size):
    import gzip
    import random
    import zlib

    import brotli

    from dalil.core.compression import GZIP_LEVEL, compressed
    from dalil.core.output import OutputFiles

    words = ["مطعم", "الزيتونة", "الدار", "البيضاء", "restaurant", "0612345678", "\n"]
    rng = random.Random(size)
    data = " ".join(rng.choice(words) for _ in range(size // 4 + 1)).encode("utf-8")[:size]
    files = OutputFiles(tmp_path)
    files.write("index.json", data)
    files.precompress("index.json")
    gz = (tmp_path / "index.json.gz").read_bytes()
    br = (tmp_path / "index.json.br").read_bytes()
    assert gzip.decompress(gz) == data and brotli.decompress(br) == data
    member = zlib.decompressobj(wbits=31)
    assert member.decompress(gz) == data and member.eof and not member.unused_data  # one member
    assert gz[:10] == gzip.compress(b"", compresslevel=GZIP_LEVEL, mtime=0)[:10]  # no name, no time
    assert len(gz) <= len(gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)) * 1.01 + 8
    assert compressed(data, ".br") == br and compressed(data, ".gz") == gz
@pytest.mark.parametrize("suffix", [".gz", ".br"])
def test_a_copy_compresses_again_only_the_parts_an_edit_touched(tmp_path, monkeypatch, suffix):
    import gzip
    import random

    import brotli

    from dalil.core import compression
    from dalil.core.compression import compressed
    from dalil.core.output import OutputFiles

    rng = random.Random(7)
    words = ["شارع", "الحسن", "الثاني", "الرباط", "مقهى", "حي", "الرياض", "رقم"]
    records = [f'{{"name":"مطعم {rng.randrange(10**6)}","phone":"06{rng.randrange(10**8):08d}",'
               f'"address":"{" ".join(rng.choices(words, k=rng.randrange(10, 30)))}"}}'
               for _ in range(40_000)]
    # A long run with no place to cut: parts end at the size limit there.
    data = ("[\n" + ",\n".join(records[:20_000]) + "x" * 5_000_000
            + ",\n".join(records[20_000:]) + "\n]\n").encode("utf-8")
    edited = data.replace(records[30_000].encode(), b'{"name":"edited"}')
    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True,
                "CACHE_PATH": str(tmp_path / "cache")}
    compressions = []
    if suffix == ".gz":
        original = compression.zlib.compressobj
        monkeypatch.setattr(compression.zlib, "compressobj",
                            lambda *args, **kwargs: compressions.append(1) or original(*args, **kwargs))
        decompress, parts = gzip.decompress, 20
    else:
        encode = compression._part_encoder()
        assert encode is not None  # the brotli package's module exports its encoder
        monkeypatch.setattr(compression, "_part_encoder",
                            lambda: lambda *args: compressions.append(1) or encode(*args))
        decompress, parts = brotli.decompress, 4

    def build(text, extra_settings=()):
        compressions.clear()
        files = OutputFiles(tmp_path / "out", settings={**settings, **dict(extra_settings)})
        files.write("export.json", text)
        files.precompress("export.json")
        return (tmp_path / "out" / f"export.json{suffix}").read_bytes(), len(compressions)

    first, made = build(data)
    assert decompress(first) == data and made > parts
    copy, compressed_again = build(edited)
    assert copy == compressed(edited, suffix)  # the bytes of a build without the memo
    assert decompress(copy) == edited and 1 <= compressed_again <= 3
    # Another salt (settings or code) or no content cache: nothing is taken from the memo.
    assert build(data, {"SITEURL": "https://other.example"})[1] > parts
    (tmp_path / "out" / "export.json").unlink()
    settings["CACHE_CONTENT"] = False
    assert build(data) == (first, made)


def test_brotli_parts_join_into_one_stream_a_little_larger_than_one_compression():
    import random

    import brotli

    from dalil.core.compression import BROTLI_LGWIN, BROTLI_QUALITY, brotli_parts

    rng = random.Random(3)
    data = "\n".join(f'{{"city":"الرباط","name":"مقهى {rng.randrange(10**5)}"}},'
                     for _ in range(120_000)).encode("utf-8")
    parts = list(brotli_parts(data))
    assert len(parts) > 4  # several parts and the closing block
    stream = b"".join(parts)
    decoder = brotli.Decompressor()
    assert decoder.process(stream) == data and decoder.is_finished()
    one = brotli.compress(data, quality=BROTLI_QUALITY, lgwin=BROTLI_LGWIN)
    assert len(one) < len(stream) <= len(one) * 1.02
    assert brotli.decompress(b"".join(brotli_parts(b""))) == b""


def test_export_rows_are_made_again_only_for_the_part_of_a_listing_whose_digest_changed(
        tmp_path, monkeypatch):
    import dataclasses
    import hashlib

    from benchmarks.exports import synthetic_directory
    from dalil.core.output import OutputFiles
    from dalil.directory.model import listing_parts
    from dalil.exports import writers
    from dalil.exports.settings import ExportSettings

    made = []
    original = writers.export_record
    monkeypatch.setattr(writers, "export_record",
                        lambda listing, siteurl: made.append(listing.slug) or original(listing, siteurl))
    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True,
                "CACHE_PATH": str(tmp_path / "cache"), "SITEURL": "https://x.test"}
    directory = synthetic_directory(1200)
    directory.digests = {listing: hashlib.blake2b(listing.slug.encode(), digest_size=16).digest()
                         for listing in directory.listings}
    names = ("export.json", "export.csv", "export.geojson")

    def build(directory, out, extra_settings=(), **config):
        made.clear()
        files = OutputFiles(tmp_path / out, settings={**settings, **dict(extra_settings)})
        writers.write_exports(files, directory, ExportSettings(**config), "https://x.test")
        files.save_memo()
        return {name: (tmp_path / out / "directory" / name).read_bytes() for name in names
                if (tmp_path / out / "directory" / name).exists()}, list(made)

    def part_of(slug):
        return next(slugs for slugs in ([listing.slug for listing in listings] for listings, _
                                        in listing_parts(directory.listings, directory.digests))
                    if slug in slugs)

    first, made_first = build(directory, "out")
    assert len(made_first) == 1200
    # One listing renamed, with a new digest: the rows of its part alone are made again.
    renamed = dataclasses.replace(directory.listings[700], name="اسم جديد")
    old_digest = directory.digests[directory.listings[700]]
    directory.listings[700] = renamed
    directory.digests[renamed] = old_digest[:-1] + bytes([old_digest[-1] ^ 1])
    second, made_second = build(directory, "out")
    assert made_second == part_of(renamed.slug) and 0 < len(made_second) < 600
    without_memo, _ = build(directory, "clean", {"CACHE_CONTENT": False})
    assert second == without_memo and second != first
    assert "اسم جديد" in second["export.csv"].decode("utf-8")
    # A listing removed or added: the rows of the part it leaves or joins are made again.
    removed = directory.listings.pop(300)
    neighbour = directory.listings[300].slug
    third, made_third = build(directory, "out")
    assert made_third == part_of(neighbour) and 0 < len(made_third) < 600
    assert removed.slug not in third["export.csv"].decode("utf-8")
    directory.listings.insert(300, removed)
    fourth, made_fourth = build(directory, "out")
    assert made_fourth == part_of(removed.slug) and fourth == second
    # A digest that did not change keeps its rows, whatever the listing holds now.
    directory.listings[3] = dataclasses.replace(directory.listings[3], name="لم يتغير مفتاحه")
    directory.digests[directory.listings[3]] = hashlib.blake2b(
        directory.listings[3].slug.encode(), digest_size=16).digest()
    assert "لم يتغير مفتاحه" not in build(directory, "out")[0]["export.json"].decode("utf-8")
    # Other settings (a salt of their own) or files (another set of rows): all made again.
    assert len(build(directory, "out", {"SITEURL": "https://other.test"})[1]) == 1200
    assert len(build(directory, "out", csv_save_as="")[1]) == 1200


def _noting_pids(tmp_path, monkeypatch, module, *names):
    """Patch ``module``'s functions ``names`` to note the process that calls them (a
    forked worker's calls included): a function that gives the pids noted since it was
    last called."""
    import os

    noted = tmp_path / "pids"
    noted.write_text("", encoding="utf-8")

    def noting(original):
        def call(*args):
            with open(noted, "a", encoding="utf-8") as file:
                file.write(f"{os.getpid()}\n")
            return original(*args)
        return call

    for name in names:
        monkeypatch.setattr(module, name, noting(getattr(module, name)))

    def pids():
        found = set(map(int, noted.read_text(encoding="utf-8").split()))
        noted.write_text("", encoding="utf-8")
        return found
    return pids


def test_exports_made_in_workers_replaced_as_they_read_are_the_exports_made_here(
        tmp_path, monkeypatch):
    import os

    from benchmarks.exports import synthetic_directory
    from dalil.core import parallel
    from dalil.core.output import OutputFiles
    from dalil.exports import writers
    from dalil.exports.settings import ExportSettings

    directory = synthetic_directory(1200)
    pids = _noting_pids(tmp_path, monkeypatch, writers, "export_record", "listing_vcard")

    def build(out):
        writers.write_exports(OutputFiles(tmp_path / out), directory, ExportSettings(),
                              "https://x.test")
        made = sorted(path.relative_to(tmp_path / out) for path in (tmp_path / out).rglob("*")
                      if path.is_file())
        return {path: (tmp_path / out / path).read_bytes() for path in made}, pids()

    here, here_pids = build("here")
    assert here_pids == {os.getpid()}
    monkeypatch.setattr(parallel, "ITEMS_PER_FRESH_WORKER", 300)
    forked, forked_pids = build("forked")
    assert forked == here and len(here) == 1200 + 9  # the cards, three exports and copies
    # 1,200 listings' rows (one part) in one worker, then their cards, 256 at a time, in
    # workers that read 300 listings at most: one chunk each.
    assert os.getpid() not in forked_pids and len(forked_pids) == 1 + 5


def test_export_rows_are_copied_from_the_last_files_as_a_clean_build_writes_them(
        tmp_path, monkeypatch):
    import hashlib
    import os

    from benchmarks.exports import synthetic_directory
    from dalil.core.output import OutputFiles
    from dalil.directory.model import listing_parts
    from dalil.exports import writers
    from dalil.exports.settings import ExportSettings

    settings = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True,
                "CACHE_PATH": str(tmp_path / "cache"), "SITEURL": "https://x.test"}
    directory = synthetic_directory(1200)
    directory.digests = {listing: hashlib.blake2b(listing.slug.encode(), digest_size=16).digest()
                         for listing in directory.listings}
    names = ("export.json", "export.csv", "export.geojson")
    copied = []
    original_copy = writers.copy_range
    monkeypatch.setattr(writers, "copy_range",
                        lambda *args: copied.append(args[3]) or original_copy(*args))

    def build(out, extra_settings=()):
        copied.clear()
        files = OutputFiles(tmp_path / out, settings={**settings, **dict(extra_settings)})
        writers.write_exports(files, directory, ExportSettings(), "https://x.test")
        files.save_memo()
        return {name: (tmp_path / out / "directory" / name).read_bytes() for name in names}

    def same_as_clean():
        """This build's files are a clean build's: how many bytes it copied."""
        built, count = build("out"), sum(copied)
        assert built == build("clean", {"CACHE_CONTENT": False})
        return count

    build("out")
    first_part = listing_parts(directory.listings, directory.digests)[0][0]
    assert b'"coordinates"' in build("clean", {"CACHE_CONTENT": False})["export.geojson"]
    # The first part gone: the second, copied, opens the JSON arrays now.
    del directory.listings[:len(first_part)]
    assert same_as_clean() > 100_000
    # Back: the part that opened them follows it again.
    directory.listings[:0] = first_part
    assert same_as_clean() > 100_000
    # Without copy_file_range (another system), the same bytes, read and written.
    monkeypatch.delattr(os, "copy_file_range", raising=False)
    directory.listings.pop(600)
    assert same_as_clean() > 100_000
    # A file changed behind the build's back, to the same size: nothing is copied from it.
    csv_path = tmp_path / "out" / "directory" / "export.csv"
    csv_path.write_bytes(csv_path.read_bytes().replace("\r\n".encode(), b"\n\n"))
    directory.listings.pop(10)
    assert same_as_clean() == 0


def test_sitemap_lines_are_made_again_only_for_the_part_of_a_listing_whose_digest_changed(
        monkeypatch):
    import dataclasses
    import hashlib
    import marshal

    from benchmarks.exports import synthetic_directory
    from dalil.core.dates import rfc3339
    from dalil.directory.model import listing_parts
    from dalil.sitemaps import generator
    from dalil.sitemaps.documents import Location, url_lines

    made = []
    monkeypatch.setattr(generator, "url_lines", lambda locations: made.extend(
        location.loc for location in locations) or url_lines(locations))
    site_date = dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.timezone.utc)

    def locations(entries):
        return [Location("https://x.test/" + url, lastmod) for url, lastmod in entries]

    def lines(directory, known=None, used=None, lastmod=site_date):
        made.clear()
        return generator.listing_lines(directory, locations, lastmod, known, used), list(made)

    def part_of(directory, slug):
        return next(["https://x.test/" + listing.url for listing in listings]
                    for listings, _ in listing_parts(directory.listings, directory.digests)
                    if slug in [listing.slug for listing in listings])

    directory = synthetic_directory(1200)
    directory.digests = {listing: hashlib.blake2b(listing.slug.encode(), digest_size=16).digest()
                         for listing in directory.listings}
    used = {}
    first, made_first = lines(directory, None, used)
    assert len(made_first) == 1200 == len(first[0])
    assert first[0] == ["https://x.test/" + listing.url for listing in directory.listings]
    assert first[1] == [rfc3339(listing.last_modified or site_date) for listing in directory.listings]
    assert len(used) == len(listing_parts(directory.listings, directory.digests)) > 2
    # One listing renamed (a new URL), with a new digest: its part's lines alone are made again.
    renamed = dataclasses.replace(directory.listings[700], url="directory/listing/new-name/")
    old_digest = directory.digests[directory.listings[700]]
    directory.listings[700] = renamed
    directory.digests[renamed] = old_digest[:-1] + bytes([old_digest[-1] ^ 1])  # the same part ends
    again = {}
    # The memo is marshal data: each part's columns, by the part's key.
    second, made_second = lines(directory, marshal.loads(marshal.dumps(used)), again)
    assert made_second == part_of(directory, renamed.slug) and 0 < len(made_second) < 600
    assert second == lines(directory)[0] and second != first
    assert "https://x.test/directory/listing/new-name/" in second[0]
    assert set(again) == {key for _, key in listing_parts(directory.listings, directory.digests)}
    # A listing removed: the part it leaves is made again.
    directory.listings.pop(300)
    neighbour = directory.listings[300].slug
    third, made_third = lines(directory, again)
    assert made_third == part_of(directory, neighbour) and third == lines(directory)[0]
    # An undated listing shows the site's date: its part alone follows that date.
    undated = dataclasses.replace(directory.listings[900], modified=None, date=None)
    old_digest = directory.digests[directory.listings[900]]
    directory.listings[900] = undated
    directory.digests[undated] = old_digest[:-1] + bytes([old_digest[-1] ^ 1])
    kept = {}
    lines(directory, again, kept)
    later = site_date + dt.timedelta(days=1)
    fourth, made_fourth = lines(directory, kept, lastmod=later)
    assert made_fourth == part_of(directory, undated.slug)
    assert fourth == lines(directory, lastmod=later)[0]
    assert fourth[1][fourth[0].index("https://x.test/" + undated.url)] == rfc3339(later)


def _search_parts(directory):
    from dalil.search import index

    return index.index_parts(directory, [], [])


def _sitemap_lines(directory):
    from dalil.sitemaps import generator
    from dalil.sitemaps.documents import Location

    return generator.listing_lines(directory, lambda entries: [
        Location("https://x.test/" + url, lastmod) for url, lastmod in entries],
        dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.timezone.utc))


@pytest.mark.parametrize("module, reads_a_listing, make", [
    ("dalil.search.index", "listing_entry", _search_parts),
    ("dalil.sitemaps.generator", "listing_entries", _sitemap_lines)])
def test_data_made_in_workers_replaced_as_they_read_is_the_data_made_here(
        tmp_path, monkeypatch, module, reads_a_listing, make):
    import hashlib
    import importlib
    import os

    from benchmarks.exports import synthetic_directory
    from dalil.core import parallel

    directory = synthetic_directory(1200)
    directory.digests = {listing: hashlib.blake2b(listing.slug.encode(), digest_size=16).digest()
                         for listing in directory.listings}
    pids = _noting_pids(tmp_path, monkeypatch, importlib.import_module(module), reads_a_listing)
    here = make(directory)
    assert here and pids() == {os.getpid()}
    monkeypatch.setattr(parallel, "ITEMS_PER_FRESH_WORKER", 300)
    assert make(directory) == here
    forked_pids = pids()
    assert os.getpid() not in forked_pids and len(forked_pids) >= 1200 // 300


def test_a_once_part_is_rendered_once_per_set_of_values_and_gives_the_same_bytes():
    import jinja2

    from dalil.core.templates import RenderOnce

    part = ('<a href="{{ SITEURL }}/">{{ name }}</a>{% for url, title in links %}'
            '<a href="{{ url }}">{{ title }}</a>{% endfor %}{{ site.title }}{{ missing }}{{ count() }}')
    source = "<p>{{ page }}</p>{% once %}" + part + "{% endonce %}<p>{{ page }}</p>"
    cached = jinja2.Environment(autoescape=True, extensions=[RenderOnce]).from_string(source)
    plain = jinja2.Environment(autoescape=True).from_string(source.replace("{% once %}", "")
                                                                  .replace("{% endonce %}", ""))
    renders = []

    class Site:
        title = "<دليل>"

    site = Site()
    shared = {"SITEURL": "https://x.test", "name": "مطعم & مقهى", "links": [("/a/", "أ")],
              "site": site, "count": lambda: renders.append(1) or ""}
    pages = [dict(shared, page=1), dict(shared, page=2, links=[("/a/", "أ")]),
             dict(shared, page=3, SITEURL="https://y.test"), dict(shared, page=4, links=[("/b/", "<b>")]),
             dict(shared, page=5, site=Site()), dict(shared, page=6)]
    for variables in pages:
        assert cached.render(variables) == plain.render(variables)
    # Made again for another SITEURL, other links, another object; equal values share it.
    assert len(renders) - len(pages) == 4


def test_compiled_templates_are_reused_only_under_the_same_options(tmp_path):
    from jinja2 import DictLoader, Environment

    from dalil.core.templates import _CompiledTemplates

    loader = DictLoader({"t.html": "{% if x %}\n  <b>{{ y }}</b>\n{% endif %}\n"})

    def environment(**options):
        env = Environment(loader=loader, **options)
        env.bytecode_cache = _CompiledTemplates(str(tmp_path))
        return env

    plain = environment().get_template("t.html").render(x=True, y="<")
    assert plain == "\n  <b><</b>\n"
    # The same source under other options: not the code compiled above.
    trimmed = environment(trim_blocks=True, lstrip_blocks=True, autoescape=True)
    assert trimmed.get_template("t.html").render(x=True, y="<") == "  <b>&lt;</b>\n"
    assert len(list(tmp_path.iterdir())) == 2
    # Under the first options again, the stored code is loaded, not compiled.
    reused = environment()
    reused.compile = None  # would fail if called
    assert reused.get_template("t.html").render(x=True, y="<") == plain


def test_source_records_come_back_from_the_cache_as_they_went_in(tmp_path):
    source = tmp_path / "a.md"
    source.write_text("Title: مطعم\n\nنص\n", encoding="utf-8")
    config = settings() | {"CACHE_PATH": str(tmp_path / "cache"), "CACHE_CONTENT": True,
                           "LOAD_CONTENT_CACHE": True}
    content = "<p>" + "نص عربي طويل " * 50 + "</p>"
    values = dict.fromkeys(LISTING_FIELDS, "")
    values.update(name="مطعم", summary="<p>ملخص</p>", content=content, category="cafes",
                  city="rabat", date="2026-01-02T10:30:00.000250+00:00", modified=None,
                  latitude=33.5, longitude=None, opening_ranges=((0, 480, 1020),),
                  hours="Mo 08:00-17:00")
    record = ("content/listings/a.md", ["x"], b"d", b"\x00\x01",
              tuple(values[name] for name in LISTING_FIELDS), None)
    term = {"where": "content/cities/rabat.md", "problems": [], "removed": [],
            "sort_key": b"\x02", "fields": {"kind": "city", "name": "الرباط", "description": "<p>م</p>"}}
    # No cache folder yet: the files need no stamps.
    assert SourceCache(config, "records").may_hold_records() is False
    stale = tmp_path / "cache" / "records" / "00.pickle"  # an earlier format's shard
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"old")
    cache = SourceCache(config, "records")
    cache.load()
    assert cache.get_all(["a.md"], [file_stamp(str(source))])[0] is None
    cache.put("a.md", record, file_stamp(str(source)))
    assert cache.get_all(["rabat.md"], [file_stamp(str(source))])[0] is None
    cache.put("rabat.md", term, file_stamp(str(source)))
    size_before = sys.getsizeof(content)
    cache.save()
    # Saving attaches no UTF-8 copy to the text it stores (pickle would: twice the memory).
    assert sys.getsizeof(content) == size_before
    assert record[4][LISTING_FIELDS.index("content")] is content  # the record in use is as it was
    assert not stale.exists()

    cache = SourceCache(config, "records")
    assert cache.may_hold_records() is True
    assert cache.get_all(["a.md"], [file_stamp(str(source))])[0] is None  # not loaded yet
    cache.load()
    assert cache.get_all(["a.md"], [None])[0] is None  # a file that could not be stamped
    reloaded = cache.get_all(["a.md"], [file_stamp(str(source))])[0]
    # The HTML is kept apart, loaded only for the pages made again, by the record's digest;
    # the fields a build reads of every listing come as values, the others packed.
    assert reloaded[:5] == (*record[:4], tuple(values[name] for name in CORE_FIELDS))
    assert marshal.loads(reloaded[5]) == tuple(values[name] for name in PACKED_FIELDS)
    assert set(CORE_FIELDS) | set(PACKED_FIELDS) | {"summary", "content"} == set(LISTING_FIELDS)
    assert cache.get_all(["rabat.md"], [file_stamp(str(source))])[0] == term
    assert cache.texts.get("a.md", b"d") == ("<p>ملخص</p>", content)
    assert cache.texts.get("a.md", b"another digest") is None

    source.write_text("Title: مقهى\n\nنص\n", encoding="utf-8")  # another size: another stamp
    cache = SourceCache(config, "records")
    cache.load()
    assert cache.get_all(["a.md"], [file_stamp(str(source))])[0] is None


def test_a_packed_listing_unpacks_its_fields_for_the_listing_read_last_and_keeps_none():
    """A listing made from its packed record (from the cache, or read in a cold build) is
    made with its core fields; the others are unpacked when read, equal to those of the
    listing made whole, and set on no listing: a process that reads every listing (a
    forked writer) keeps no copy of their fields. No other attribute (such as the
    ``__html__`` markupsafe looks for) unpacks them."""
    values = {name: f"{name} نص" for name in LISTING_FIELDS}
    values.update(latitude=33.5, longitude=-7.25, opening_ranges=((0, 480, 1020),),
                  date="2026-01-02T10:30:00+00:00", modified=None,
                  date_modified_text="2026-01-02T10:30:00Z")
    stored = tuple(values[name] for name in CORE_FIELDS)
    category, city = object(), object()
    values.update(category=category, city=city, date=dt.datetime.fromisoformat(values["date"]))
    whole = Listing(*(values[name] for name in LISTING_FIELDS))
    packed = tuple(values[name] for name in PACKED_FIELDS)
    listing = cached_listing(stored, category, city, marshal.dumps(packed))
    other = cached_listing(stored, category, city, marshal.dumps(
        tuple(value + " آخر" if isinstance(value, str) else value for value in packed)))
    assert [getattr(listing, name) for name in CORE_FIELDS] == [
        getattr(whole, name) for name in CORE_FIELDS]
    assert not hasattr(listing, "__html__") and not hasattr(listing, "missing")
    assert listing.geo_uri == "geo:33.5,-7.25"
    assert other.street == "street نص آخر"  # the other's, not the one read before
    assert {name: getattr(listing, name) for name in PACKED_FIELDS} == {
        name: getattr(whole, name) for name in PACKED_FIELDS}
    for name in PACKED_FIELDS:  # set on neither: only unpacked
        for item in (listing, other):
            with pytest.raises(AttributeError):
                object.__getattribute__(item, name)
    assert listing.packed is not None and other.packed is not None
    assert listing.summary is TEXT_NOT_LOADED and listing.content is TEXT_NOT_LOADED


def test_files_stamped_in_their_folder_have_the_stamps_of_their_paths(tmp_path):
    from dalil.directory.sources import file_stamps

    relpaths = ["a.md", "listings/b.md", "listings/c.md", "listings/gone.md",
                "listings/deeper/d.md", "missing/e.md"]
    for number, relpath in enumerate(relpaths):
        if "gone" not in relpath and "missing" not in relpath:
            (tmp_path / relpath).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / relpath).write_text("x" * number, encoding="utf-8")
            os.utime(tmp_path / relpath, ns=(number, 10**9 * number))
    assert file_stamps(str(tmp_path), relpaths) == [
        file_stamp(str(tmp_path / relpath)) if (tmp_path / relpath).exists() else None
        for relpath in relpaths]
    # Modification time (ns) and size, one number: the size in the low 64 bits.
    assert file_stamps(str(tmp_path), relpaths)[2] == (2 * 10**9) << 64 | 2


def test_large_freed_buffers_go_back_to_the_system_under_glibc():  # Debian, as CI
    from dalil.core.memory import return_large_buffers

    assert return_large_buffers() is True


# Letters, marks, digits, every ASCII punctuation, kinds of whitespace and line ends.
MARKDOWN_ALPHABET = ("مطعمال" "ًٌّ" "ab" "٠1" " " * 6 + "\n" * 6 + "\t\r\u00a0\u2028\u200b\ufeff"
                     + "".join(chr(code) for code in range(0x21, 0x7f)))


def _markdown_texts():
    """Metadata headers, then lines of plain words among which single characters of
    every kind, and Markdown's own syntax, are mixed: mostly text either way."""
    plain = st.text("مطعمالب", min_size=1, max_size=6)
    word = st.one_of(plain, plain, plain, plain, plain, plain,
                     st.text(MARKDOWN_ALPHABET, min_size=1, max_size=2),
                     st.sampled_from(["*م*", "_م_", "**م**", "`م`", "<b>", "&amp;", "&", "[م](ب)",
                                      "![م](ب)", "<http://a.b>", "م  ", "1.", "١.", "-", "+", "#",
                                      ">", ":", "|", "---", "===", "~~~", "```", "*[م]: ب",
                                      "[^1]", "{: #x}", "\\*", "    ", "(Content-Type)", "(a b)",
                                      "(ab", "a)", "(م)", "(a م)"]))
    line = st.lists(word, min_size=1, max_size=6).map(" ".join)
    separator = st.sampled_from(["", "", " ", "  ", "\t"])
    body = st.lists(st.one_of(line, line, line, separator), max_size=8)
    header = st.lists(st.sampled_from(["Title: مطعم", "Summary: نص", "    تتمة", "---",
                                       "Key:", "bad line", ""]), max_size=4)
    return st.tuples(header, body).map(lambda parts: "\n".join(parts[0] + parts[1]))


@given(text=_markdown_texts())
@example(text="Title: x\n\n1. مطعم")
@example(text="١. مطعم\n\nب")
@example(text="مطعم\n===")
@example(text="مطعم  \nب")
@example(text="مطعم\n- ب")
@example(text="Title: x\n    تتمة\n\nمطعم: ب.\n\n\nفقرة")
@example(text="Title: x\n   \nب")
@example(text="title: a\nTitle:  b \u2028\nKey-x_1:\n\nب")
@example(text="1key: v\n_k: w\n\nب")
@example(text="Title: x\n---\nب")
@example(text="Title: x\n:y\n\nب")
@example(text="Title: x")
@example(text="\nTitle: x\n\nب")
@example(text="Key:\tv\n\nب")
@example(text="الصيغة (Content-Type)\nو(RFC 9116) (م)")
@hypothesis_settings(max_examples=1500, deadline=None, derandomize=True)
@pytest.mark.parametrize("markdown", ["pelican", "dalil"])
def test_plain_paragraphs_are_what_markdown_makes_of_them(markdown, text):
    from dalil import conf

    lean = LeanMarkdownReader(settings() if markdown == "pelican" else read_settings(
        None, override={"TIMEZONE": "UTC", "MARKDOWN": copy.deepcopy(conf.MARKDOWN)}))
    for kept, config in ((lean._document, lean.settings["MARKDOWN"]),
                         (lean._fields, {**lean.settings["MARKDOWN"], "extensions": [
                             ext for ext in lean.settings["MARKDOWN"]["extensions"]
                             if ext != "markdown.extensions.meta"]})):
        reference = Markdown(**copy.deepcopy(config))
        assert lean.convert(kept, text) == reference.convert(text), repr(text)
        assert getattr(kept, "Meta", None) == getattr(reference, "Meta", None), repr(text)


@hypothesis_settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "\r", "\n", "\r\n", "\ufeff", "\u062f", "\x00", "\udc80", "é"]),
                max_size=12).map("".join))
@example("\ufeff\ufeffx\r")
def test_read_text_gives_what_pelican_open_gives(tmp_path_factory, text):
    from pelican.utils import pelican_open

    from dalil.directory.reader import read_text

    path = tmp_path_factory.mktemp("read") / "listing.md"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))  # a lone surrogate: not UTF-8
    try:
        with pelican_open(str(path)) as expected:
            pass
    except UnicodeDecodeError as error:
        with pytest.raises(UnicodeDecodeError) as raised:
            read_text(str(path))
        assert str(raised.value) == str(error)
    else:
        assert read_text(str(path)) == expected


@hypothesis_settings(max_examples=500, deadline=None)
@given(st.datetimes(min_value=dt.datetime(1, 1, 2), max_value=dt.datetime(9999, 12, 30)),
       st.sampled_from(["UTC", "Africa/Casablanca", "Asia/Kolkata", "America/St_Johns"]))
def test_the_reader_s_date_modified_text_is_rfc3339_of_the_date(when, timezone):
    from dalil.core.dates import rfc3339, to_utc
    from dalil.directory.sources import _iso, rfc3339_of_iso

    utc = to_utc(when, timezone)
    assert rfc3339_of_iso(_iso(utc)) == rfc3339(utc)
    assert rfc3339_of_iso(None) == ""


@hypothesis_settings(max_examples=1000, deadline=None, derandomize=True)
@given(st.text(st.characters(max_codepoint=127)))
@example(" a \t b ")
@example("x&amp;y<b>z")
@example("<&A")
@example("0<![")
def test_plain_text_of_ascii_text_is_what_the_general_path_gives(value):
    from dalil.core.text import plain_text

    # Around "é" the text is not ASCII: plain_text takes its general path for it.
    general = plain_text("é " + value + " é")
    assert plain_text(value) == (general[2:-2] if general != "é é" else "")


def test_markup_html_parser_rejects_is_text_not_a_traceback():
    """html.parser gives up on "<![" followed by more text (bs4's ParserRejectedMarkup):
    a name keeps it as text, and HTML holding it is shown as text, with a note."""
    from dalil.core.sanitize import sanitize_html
    from dalil.core.text import plain_text

    assert plain_text("مطعم <![ الأطلس") == "مطعم <![ الأطلس"
    assert plain_text("a <&B") == "a <&B"  # a trailing "&" is kept, as in the middle
    clean, removed = sanitize_html("<p>a <![ b</p>")
    assert clean == "&lt;p&gt;a &lt;![ b&lt;/p&gt;" and removed


def test_listings_of_plain_paragraphs_skip_markdown_passes():
    lean = LeanMarkdownReader(settings())
    texts = [text for name, text in generate_files(40) if name.startswith("listings/")]
    assert texts
    for text in texts:
        assert plain_paragraphs(lean._document, text) is not None
    assert plain_paragraphs(lean._document, "Title: x\n\n*مهم*\n") is None
    assert lean._plain_allowed
    other = dict(settings(), MARKDOWN={**settings()["MARKDOWN"],
                                       "extensions": ["markdown.extensions.smarty"]})
    assert not LeanMarkdownReader(other)._plain_allowed


def test_data_files_start_once_every_context_is_made_and_only_for_their_own_build():
    from pelican import signals

    from dalil.core.background import when_contexts_done

    calls = []
    ours, other = object(), object()
    when_contexts_done(ours, lambda: calls.append("ours"))
    signals.all_generators_finalized.send([other])  # a later build: an earlier one failed
    assert calls == []
    signals.all_generators_finalized.send([ours])  # disconnected: never for another build
    assert calls == []

    when_contexts_done(ours, lambda: calls.append("ours"))
    signals.all_generators_finalized.send([other, ours])
    signals.all_generators_finalized.send([other, ours])
    assert calls == ["ours"]


def test_work_waiting_for_the_writer_starts_when_dalil_s_writer_is_made(tmp_path):
    from pelican import signals

    from dalil.core.background import when_writer_made

    calls = []
    when_writer_made(calls.append)
    writer = DalilWriter(str(tmp_path), settings=settings())
    assert calls == [writer]
    DalilWriter(str(tmp_path), settings=settings())  # once only
    assert calls == [writer]
    # Left waiting by a build that failed before its writer: dropped as the next starts.
    when_writer_made(calls.append)
    signals.get_generators.send(object())
    DalilWriter(str(tmp_path), settings=settings())
    assert calls == [writer]


@pytest.mark.parametrize("ignore_files", [[".#*"], [], ["*.tmp", "draft-?.md", "[!a-z]*"]])
def test_the_directory_chooses_source_files_as_pelican_does(ignore_files):
    from types import SimpleNamespace

    from pelican.generators import Generator

    from dalil.directory.generator import DirectoryGenerator

    names = ["a.md", ".#a.md", "b.markdown", "c.rst", "d.txt", "e.tmp", "draft-1.md", "draft-12.md",
             "Zed.md", "9.md", ".md", "..md", "a..md", ".a.md", "a.", "md", "README", "x.md~",
             "sub/.#y.md", "sub/z.MD", "مطعم.md"]
    for extensions in (None, ("md",), False):
        stub = SimpleNamespace(settings={"IGNORE_FILES": ignore_files}, _ignored=None,
                               readers=SimpleNamespace(extensions={"md": 1, "markdown": 1, "rst": 1}))
        stub._include_name = lambda name, exts, stub=stub: DirectoryGenerator._include_name(stub, name, exts)
        stub._included_names = lambda names, exts, stub=stub: DirectoryGenerator._included_names(
            stub, names, exts)
        ours = [DirectoryGenerator._include_path(stub, name, extensions) for name in names]
        assert ours == [Generator._include_path(stub, name, extensions) for name in names]
        assert True in ours and (False in ours or not ignore_files and extensions is False)


@pytest.mark.parametrize("ignore_files", [[".#*"], ["*.tmp", "skip*"]])
def test_the_directory_lists_source_files_as_pelican_does(tmp_path, ignore_files):
    from types import SimpleNamespace

    from pelican.generators import Generator

    from dalil.directory.generator import DirectoryGenerator

    for relpath in ["listings/a.md", "listings/.#b.md", "listings/c.txt", "listings/sub/d.md",
                    "listings/sub/deeper/e.markdown", "listings/skipped/f.md", "listings/x.tmp/g.md",
                    "listings/old/h.md", "listings/..md", "cities/i.md", "j.md"]:
        (tmp_path / relpath).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relpath).write_text("Title: x\n", encoding="utf-8")
    (tmp_path / "listings" / "linked").symlink_to(tmp_path / "cities")
    for extensions in (None, ("md",), False):
        for paths, exclude in ((["listings"], None), (["listings", "cities", "j.md"], ["listings/old"]),
                               ("listings", []), ([""], ["cities"])):
            stubs = [SimpleNamespace(settings={"IGNORE_FILES": ignore_files}, _ignored=None,
                                     path=str(tmp_path), readers=SimpleNamespace(
                                         extensions={"md": 1, "markdown": 1, "rst": 1}))
                     for _ in range(2)]
            ours, pelicans = stubs  # each generator's walk with its own rule
            ours._include_path = lambda path, exts: DirectoryGenerator._include_path(ours, path, exts)
            ours._include_name = lambda name, exts: DirectoryGenerator._include_name(ours, name, exts)
            ours._included_names = lambda names, exts: DirectoryGenerator._included_names(
                ours, names, exts)
            pelicans._include_path = lambda path, exts: Generator._include_path(pelicans, path, exts)
            listed = DirectoryGenerator.get_files(ours, paths, exclude, extensions)
            assert listed == Generator.get_files(pelicans, paths, exclude, extensions)
            assert listed


def test_no_collation_entry_joins_a_space_to_another_character():
    """What ``WordCollator`` relies on, checked on the table of the installed pyuca."""
    from pyuca import Collator

    joined, nodes = [], [(Collator().table.root, ())]
    while nodes:
        node, key = nodes.pop()
        if node.value and len(key) > 1 and 0x20 in key:
            joined.append(key)
        nodes.extend((child, (*key, part)) for part, child in (node.children or {}).items())
    assert len(key) >= 1 and not joined


# Arabic letters and marks, Latin letters with and without combining accents, Hangul
# jamo, CJK and Tangut (implicit weights, the latter from the table's @implicitweights),
# spaces, digits: collation's contractions and non-starters.
_COLLATION_ALPHABET = ("مطعمالبصيدلةأإآءئؤىةًٌٍَُِّْٰ "
                       "abcdlLhcHEeo\u0300\u0301\u0308\u0327\u0334\u00b7\u0387 "
                       "\u1100\u1161\u11a8\u4e00\u9fff\u3400\U00017000\U00018aff 019٠١٢ -'")


@given(name=st.text(_COLLATION_ALPHABET, max_size=12))
@example(name="l\u00b7l ch")
@example(name="a \u0301b  c ")
@hypothesis_settings(max_examples=2000, deadline=None, derandomize=True)
def test_word_collator_gives_pyucas_keys(collators, name):
    # One WordCollator for every name: its words' weights are kept from name to name.
    word_collator, collator = collators
    assert word_collator.sort_key(name) == collator.sort_key(name)


@pytest.fixture(scope="module")
def collators():
    from pyuca import Collator

    from dalil.directory.collation import WordCollator

    return WordCollator(), Collator()


def test_a_listing_s_digest_changes_with_any_of_its_fields():
    from dalil.directory.sources import fields_digest

    fields = {"slug": "a", "name": "مطعم", "summary": "<p>ب</p>", "content": "<p>ج</p>",
              "date": "2026-01-02T00:00:00+00:00", "latitude": 34.0,
              "opening_ranges": ((0, 540, 1080),), "phone": None}
    variants = [dict(fields, summary=None), dict(fields, summary=""), dict(fields, content=""),
                dict(fields, summary="<p>ب</p><p>ج</p>", content=""), dict(fields, name="مطعمب"),
                dict(fields, date="2026-01-03T00:00:00+00:00"), dict(fields, date=None),
                dict(fields, latitude=34.000001), dict(fields, phone=""),
                dict(fields, opening_ranges=((0, 540, 1081),))]
    digests = {fields_digest(variant) for variant in variants}
    assert len(digests) == len(variants) and fields_digest(fields) not in digests
    assert fields_digest(dict(fields)) == fields_digest(fields)


_PLAIN_VALUES = st.recursive(
    st.one_of(st.text(max_size=4), st.integers(-3, 3), st.none(), st.booleans(),
              st.builds(Markup, st.text(max_size=3))),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=2), inner, max_size=3)),
    max_leaves=8)


@given(first=_PLAIN_VALUES, second=_PLAIN_VALUES)
@example(first=["1", "a"], second=['1","a'])
@example(first={"a": "b:c"}, second={"a:b": "c"})
@example(first="a", second=Markup("a"))
@example(first=["\0"], second=[""])
@hypothesis_settings(max_examples=1000, deadline=None, derandomize=True)
def test_stable_repr_tells_apart_any_two_values(first, second):
    from dalil.core.pagecache import digest, stable_repr

    def canonical(value):  # dictionaries in key order, everything else with its type
        if isinstance(value, dict):
            return "dict", [(key, canonical(item)) for key, item in sorted(value.items())]
        if isinstance(value, list):
            return "list", [canonical(item) for item in value]
        return type(value).__name__, repr(value)

    assert (stable_repr(first) == stable_repr(second)) == (canonical(first) == canonical(second))
    digest(stable_repr(first))  # any text, lone surrogates too, can be digested


@given(first=st.dictionaries(st.text(max_size=2), _PLAIN_VALUES, max_size=3),
       second=st.dictionaries(st.text(max_size=2), _PLAIN_VALUES, max_size=3))
@example(first={"a": "1"}, second={"a": 1})
@example(first={"a": "x"}, second={"a": Markup("x")})
@example(first={"a": ["x"]}, second={"a": ("x",)})
@hypothesis_settings(max_examples=1000, deadline=None, derandomize=True)
def test_a_content_page_key_tells_apart_what_stable_repr_tells_apart(first, second):
    """An article's key (``_tagged_items`` written by ``marshal``) changes exactly when the
    ``stable_repr`` of its metadata does."""
    import marshal

    from dalil.core.writer import _tagged_items
    from dalil.core.pagecache import stable_repr

    same_key = marshal.dumps(_tagged_items(first), 2) == marshal.dumps(_tagged_items(second), 2)
    assert same_key == (stable_repr(first) == stable_repr(second))


def test_a_content_page_key_reads_a_url_wrapper_as_a_template_does():
    import marshal

    from pelican.settings import DEFAULT_CONFIG
    from pelican.urlwrappers import Category, Tag

    from dalil.core.writer import _tagged_items

    settings = dict(DEFAULT_CONFIG)
    keys = {marshal.dumps(_tagged_items({"category": wrapper}), 2) for wrapper in (
        Category("news", settings), Category("blog", settings), Tag("news", settings),
        Category("news", dict(settings, CATEGORY_URL="c/{slug}/"))) }
    assert len(keys) == 4
    assert marshal.dumps(_tagged_items({"category": Category("news", settings)}), 2) in keys


def test_content_shares_one_url_wrapper_for_each_name():
    from pelican.urlwrappers import Author, Category, Tag

    from dalil.directory.articles import share_url_wrappers

    class Generator:  # a weak reference's target, as Pelican's generators are
        pass

    settings = read_settings(None)
    first, second, other = Generator(), Generator(), Generator()
    metadata = [{"category": Category("أخبار", settings), "author": Author("Salma", settings),
                 "tags": [Tag("خبز", settings), Tag("Café", settings)], "title": "a"}
                for _ in range(3)]
    metadata.append({"category": Category("Blog", settings), "tags": [Tag("خبز", settings)]})
    for item in metadata[:2] + metadata[3:]:
        share_url_wrappers(first, item)
    share_url_wrappers(other, metadata[2])
    one, two, elsewhere, blog = metadata
    assert one["category"] is two["category"] and one["author"] is two["author"]
    assert all(a is b for a, b in zip(one["tags"], two["tags"])) and one["tags"][0] is blog["tags"][0]
    assert blog["category"] is not one["category"] and blog["category"].slug == "blog"
    assert elsewhere["category"] is not one["category"]  # each generator its own
    assert elsewhere["category"] == one["category"] and one["title"] == "a"
    assert one["category"].slug == Category("أخبار", settings).slug
