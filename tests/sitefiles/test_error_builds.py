"""The publishing tasks (preview, publish, gh-pages, s3-publish) never publish a build that
logged an error, whether the build stopped for it or something caught the stop; they show
the errors and leave the output folder as it was. Run through the task functions, in a
project's folder, with invoke's own Context."""

import pytest
from invoke import Config, Context
from invoke.exceptions import Exit

import dalil
from dalil import tasks
from tests import sitebuilder as sb

from .fixture import fixture_files

# A plugin that logs an error and catches the exception ``--fatal errors`` raises for it:
# the build ends with status 0, its error logged.
SWALLOWING_PLUGIN = '''\
import logging

from pelican import signals

logger = logging.getLogger(__name__)


def finalized(pelican_object):
    try:
        logger.error("swallowing: an error this plugin caught itself")
    except RuntimeError:
        pass


def register():
    signals.finalized.connect(finalized)
'''


class RecordingContext(Context):
    """invoke's Context, noting every command it runs."""

    def __init__(self, config):
        super().__init__(config)
        self._set(commands=[])

    def run(self, command, **kwargs):
        self.commands.append(command)
        return super().run(command, **kwargs)


def context():
    environment = {"SOURCE_DATE_EPOCH": sb.DEFAULT_EPOCH, "PYTHONPATH": str(sb.PACKAGE_SOURCE)}
    return RecordingContext(Config(overrides={"run": {"env": environment, "hide": True,
                                                         "in_stream": False}}))


def snapshot(folder):
    return {path.relative_to(folder).as_posix(): (path.read_bytes(), path.stat().st_mtime_ns)
            for path in sorted(folder.rglob("*")) if path.is_file()}


def write_project(root, files, **settings):
    sb.write_site(root, files, **settings)
    publish = {"SSH_HOST": "publish.test", "SSH_TARGET_DIR": str(root / "target"),
               "GITHUB_PAGES_BRANCH": "gh-pages", "S3_BUCKET": "published", **settings}
    (root / "publishconf.py").write_text(sb.settings_module(root, root / "output", publish),
                                         encoding="utf-8")


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project built once with ``invoke preview``; the tasks run in its folder."""
    root = tmp_path / "project"
    write_project(root, fixture_files())
    monkeypatch.chdir(root)
    tasks.preview(context())
    assert (root / "output" / "directory" / "listing" / "zaytouna" / "index.html").is_file()
    return root


def refused(task, monkeypatch):
    """Run ``task``; the Exit it stops with, and the commands it ran."""
    uploads = []
    monkeypatch.setattr("dalil.sitefiles.publishing.s3_sync",
                        lambda *args, **kwargs: uploads.append(args))
    monkeypatch.setattr("dalil.sitefiles.publishing.s3_client", lambda *args: None)
    c = context()
    with pytest.raises(Exit) as stopped:
        task(c)
    assert uploads == []
    return stopped.value, c.commands


@pytest.mark.parametrize("task", [tasks.preview, tasks.publish, tasks.gh_pages, tasks.s3_publish],
                         ids=lambda task: task.__name__)
def test_a_content_error_is_shown_and_nothing_is_published(project, task, monkeypatch):
    before = snapshot(project / "output")
    (project / "content/listings/broken.md").write_text(
        sb.metadata_file("x", Title="خطأ", Slug="broken", Category="nowhere", City="casablanca"),
        encoding="utf-8")
    stopped, commands = refused(task, monkeypatch)
    assert stopped.code == 1
    assert "nothing is published" in stopped.message
    assert "content/listings/broken.md: names unknown category 'nowhere'" in stopped.message
    assert len(commands) == 1 and " pelican " in commands[0]  # no rsync, no ghp-import
    assert snapshot(project / "output") == before
    assert not any(path.name.startswith(".output") for path in project.iterdir())


def test_an_error_the_build_did_not_stop_for_is_refused_too(project, monkeypatch):
    before = snapshot(project / "output")
    plugins = project / "local_plugins"
    plugins.mkdir()
    (plugins / "swallowing.py").write_text(SWALLOWING_PLUGIN, encoding="utf-8")
    write_project(project, {}, PLUGIN_PATHS=[str(plugins)],
                  PLUGINS=[*dalil.PLUGINS, "swallowing"])
    stopped, commands = refused(tasks.publish, monkeypatch)
    assert "the build logged errors" in stopped.message
    assert "swallowing: an error this plugin caught itself" in stopped.message
    assert len(commands) == 1
    assert snapshot(project / "output") == before
