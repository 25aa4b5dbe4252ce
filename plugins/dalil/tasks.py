"""A Dalil site's tasks: build, serve, validate, import and publish.

A site's ``tasks.py`` holds ``from dalil.tasks import *``; ``invoke --list`` shows
them. They run in the site's folder (where ``pelicanconf.py`` is).
"""

import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from invoke import Exit, task

__all__ = ["build", "clean", "gh_pages", "import_listings", "import_osm", "livereload", "preview",
           "publish", "rebuild", "regenerate", "reserve", "s3_publish", "serve", "validate"]

PACKAGE = Path(__file__).resolve().parent

CONFIG = {
    "settings_base": "pelicanconf.py",
    "settings_publish": "publishconf.py",
    "host": os.environ.get("DALIL_HOST", "localhost"),
    "port": int(os.environ.get("DALIL_PORT", "8000")),
}


def site_settings(settings_file):
    """Pelican's settings with their defaults, as a build with ``settings_file`` sees them."""
    from pelican.settings import read_settings

    return read_settings(str(Path.cwd() / settings_file))


def output_path(settings_file=CONFIG["settings_base"]):
    return Path(site_settings(settings_file)["OUTPUT_PATH"])


def pelican_run(c, *arguments, env=None):
    """Run Pelican with ``--fatal errors``: a content error fails the build."""
    command = [sys.executable, "-m", "pelican", "--fatal", "errors", *arguments]
    # Pelican imports the same ``dalil`` as these tasks, installed or a source checkout.
    path = os.pathsep.join(filter(None, [str(PACKAGE.parent), os.environ.get("PYTHONPATH")]))
    c.run(shlex.join(command), pty=False, env={**(env or {}), "PYTHONPATH": path})


class BuildLoggedErrors(Exception):
    """A build that logged an error, whether or not it stopped for it."""


def staged_build(c, settings_file):
    """Build into a staging folder that replaces the output folder only if the build
    succeeded without logging an error; else stop with the errors it logged."""
    from invoke.exceptions import UnexpectedExit

    from dalil.core.errors import ERRORS_FILE_ENV
    from dalil.sitefiles.publishing import staged_output

    output = output_path(settings_file)
    with tempfile.TemporaryDirectory(prefix="dalil-build-") as folder:
        errors_file = Path(folder) / "errors.log"
        try:
            with staged_output(output) as staging:
                pelican_run(c, "-s", settings_file, "-o", str(staging),
                            env={ERRORS_FILE_ENV: str(errors_file)})
                if errors_file.exists() and errors_file.stat().st_size:
                    raise BuildLoggedErrors
        except (UnexpectedExit, BuildLoggedErrors) as failure:
            errors = errors_file.read_text(encoding="utf-8").splitlines() \
                if errors_file.exists() else []
            stopped = (f"the build failed (exit status {failure.result.exited})"
                       if isinstance(failure, UnexpectedExit) else "the build logged errors")
            raise Exit("\n".join([
                f"dalil: {stopped}: nothing is published, and {output} is as it was.",
                *(f"  {line}" for line in errors)]), code=1) from None


def required_setting(settings, name, example):
    value = settings.get(name)
    if value in (None, ""):
        raise Exit(f"{name} is not set: add it to {CONFIG['settings_publish']}, "
                   f"for example {name} = {example!r}", code=2)
    return value


@task
def clean(c):
    """Remove the generated site."""
    path = output_path()
    if path.is_dir():
        shutil.rmtree(path)


@task
def build(c):
    """Build the site for local use."""
    pelican_run(c, "-s", CONFIG["settings_base"])


@task
def rebuild(c):
    """Build from scratch in a staging folder, which replaces the output folder on success."""
    staged_build(c, CONFIG["settings_base"])


@task
def regenerate(c):
    """Rebuild whenever a file changes."""
    pelican_run(c, "-r", "-s", CONFIG["settings_base"])


@task
def serve(c):
    """Serve the output folder at http://$DALIL_HOST:$DALIL_PORT/ (localhost:8000)."""
    from dalil.sitefiles.headers import header_policy
    from dalil.sitefiles.serving import make_server

    # Every file with its INTERFACE.md type and the headers of the host header files.
    settings = site_settings(CONFIG["settings_base"])
    server = make_server(settings["OUTPUT_PATH"], CONFIG["host"], CONFIG["port"],
                         header_policy(settings))
    sys.stderr.write("Serving at http://{host}:{port}/ ...\n".format(**CONFIG))
    server.serve_forever()


@task
def reserve(c):
    """Build, then serve."""
    build(c)
    serve(c)


@task
def preview(c):
    """Build the site with the publishing settings (staged: a failed build changes nothing)."""
    staged_build(c, CONFIG["settings_publish"])


class CachedBuilds:
    """Rebuilds with the content cache inside this process, as ``pelican -r`` does:
    Python, Pelican, the plugins and the settings stay loaded from one build to the
    next, so a saved listing costs only its rebuild. A change to the settings file
    reads them again; a change to Dalil's code runs a fresh ``pelican`` process
    (this one keeps the code it started with)."""

    OVERRIDE = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True}

    def __init__(self, c, settings_file):
        import logging

        from pelican.log import init as init_logging

        self.c, self.settings_file = c, settings_file
        init_logging(logging.INFO, fatal="errors")  # as pelican_run's --fatal errors
        self.pelican = None

    def load(self):
        from pelican import Pelican
        from pelican.settings import read_settings

        from dalil.core.settings import BUILD_MEMORY_KEY

        settings = read_settings(str(Path.cwd() / self.settings_file), override=self.OVERRIDE)
        settings[BUILD_MEMORY_KEY] = {}
        self.pelican = Pelican(settings)

    def build(self):
        if self.pelican is None:
            self.load()
        try:
            self.pelican.run()
        except (Exception, SystemExit) as error:  # a content error ends the build, not the server
            sys.stderr.write(f"livereload: the build failed: {error}\n")

    def settings_changed(self):
        self.pelican = None
        self.build()

    def code_changed(self):
        pelican_run(self.c, "-s", self.settings_file, "-e", "CACHE_CONTENT=true",
                    "LOAD_CONTENT_CACHE=true")


@task
def livereload(c):
    """Serve the site and rebuild and reload the browser tab when a file changes."""
    from livereload import Server

    from dalil.sitefiles.headers import header_policy
    from dalil.sitefiles.serving import ChangeWatcher, live_reload_handler

    settings = site_settings(CONFIG["settings_base"])
    builds = CachedBuilds(c, CONFIG["settings_base"])
    builds.build()
    server = Server(watcher=ChangeWatcher())
    server.SFH = live_reload_handler(header_policy(settings))  # INTERFACE.md's types
    server.watch(CONFIG["settings_base"], builds.settings_changed)
    for pattern in (f"{settings['THEME']}/**/*", f"{settings['PATH']}/**/*"):
        server.watch(pattern, builds.build)
    # The package's templates and static files, then its code.
    server.watch(f"{PACKAGE}/**/*", builds.build, ignore=lambda path: path.endswith((".py", ".pyc")))
    server.watch(f"{PACKAGE}/**/*.py", builds.code_changed)
    server.serve(host=CONFIG["host"], port=CONFIG["port"], root=settings["OUTPUT_PATH"])


@task
def publish(c):
    """Build with the publishing settings and rsync the site to SSH_HOST:SSH_TARGET_DIR."""
    from dalil.core.record import RECORD_NAME

    settings = site_settings(CONFIG["settings_publish"])
    host = required_setting(settings, "SSH_HOST", "example.org")
    target = required_setting(settings, "SSH_TARGET_DIR", "/var/www/dalil")
    user = settings.get("SSH_USER")
    port = int(settings.get("SSH_PORT") or 22)
    preview(c)
    destination = f"{user}@{host}:{target}" if user else f"{host}:{target}"
    source = str(Path(settings["OUTPUT_PATH"])).rstrip("/") + "/"
    # The build's record of its files is not the site.
    c.run(shlex.join(["rsync", "--delete", "--exclude", ".DS_Store",
                      "--exclude", f"/{RECORD_NAME}", "-pthrvz", "-c", "-e", f"ssh -p {port}",
                      source, destination]))


@task
def gh_pages(c):
    """Build with the publishing settings and push the site to GitHub Pages (ghp-import)."""
    from dalil.sitefiles.publishing import without_record

    settings = site_settings(CONFIG["settings_publish"])
    branch = settings.get("GITHUB_PAGES_BRANCH") or "gh-pages"
    if shutil.which("ghp-import") is None:
        raise Exit("ghp-import is not installed: pip install ghp-import", code=2)
    preview(c)
    with without_record(settings["OUTPUT_PATH"]) as site:
        c.run(shlex.join(["ghp-import", "-b", branch, "--no-jekyll", "-m", "Publish site",
                          "-p", str(site)]))


@task(help={"file": "an export.json or export.csv (ours, or shaped like it)",
            "force": "replace listings that already exist",
            "settings": "the Pelican settings file that names the content folder"})
def import_listings(c, file, force=False, settings=CONFIG["settings_base"]):
    """Import listings (and missing categories and cities) from a JSON or CSV export into content/."""
    from dalil.exports.importer import ImportFailed
    from dalil.exports.importer import import_listings as run_import

    try:
        report = run_import(file, site_settings(settings), force=force)
    except ImportFailed as error:
        raise Exit(f"import-listings: {error}", code=2) from None
    for line in report.lines():
        print(f"import-listings: {line}")
    if report.skipped:
        raise Exit(code=1)


@task(help={"file": "an OpenStreetMap file: .osm.pbf, .osm or .osm.bz2",
            "site": "the site's folder, with pelicanconf.py (default: the current folder)",
            "bbox": "only objects inside W,S,E,N (degrees)",
            "map": "a TOML file of tags and categories that overrides or extends the default",
            "city": "the city of objects without addr:city",
            "dry_run": "print the report, write nothing",
            "hide_gone": "mark listings no longer in the file Status: hidden"})
def import_osm(c, file, site=".", bbox=None, map=None, city="", dry_run=False, hide_gone=False):
    """Import listings (and missing categories and cities) from OpenStreetMap: dalil-import-osm."""
    from dalil.osm.cli import run

    arguments = [file, "--site", site, "--city", city]
    arguments += ["--bbox", bbox] if bbox else []
    arguments += ["--map", map] if map else []
    arguments += ["--dry-run"] if dry_run else []
    arguments += ["--hide-gone"] if hide_gone else []
    status = run(arguments)
    if status:
        raise Exit(code=status)


@task(help={"output": "the built site's folder (default: OUTPUT_PATH of the settings)",
            "settings": "the settings file that built it (default: pelicanconf.py)"})
def validate(c, output=None, settings=CONFIG["settings_base"]):
    """Check a built site before publishing; exits non-zero on any problem."""
    from dalil.validate import validate_site

    pelican_settings = site_settings(settings)
    report = validate_site(output or pelican_settings["OUTPUT_PATH"], pelican_settings)
    print("\n".join(report.lines()))
    if not report.ok:
        raise Exit(code=1)


@task(help={"force": "upload every file, changed or not (after a change of the header rules)",
            "keep": "keep objects that the site no longer has (default: delete them)"})
def s3_publish(c, force=False, keep=False):
    """Build with the publishing settings and upload the site to an S3-compatible bucket.

    S3_BUCKET, S3_ENDPOINT_URL, S3_REGION and S3_PREFIX come from the environment
    (DALIL_S3_BUCKET, ...) or publishconf.py; credentials from boto3's usual sources.
    """
    from botocore.exceptions import BotoCoreError, ClientError

    from dalil.sitefiles.headers import header_policy
    from dalil.sitefiles.publishing import s3_client, s3_sync

    settings = site_settings(CONFIG["settings_publish"])

    def setting(name):
        return os.environ.get(f"DALIL_{name}") or settings.get(name) or ""

    bucket = setting("S3_BUCKET")
    if not bucket:
        raise Exit("S3_BUCKET is not set: set DALIL_S3_BUCKET or add it to "
                   f"{CONFIG['settings_publish']}, for example S3_BUCKET = 'dalil-site'", code=2)
    preview(c)
    try:
        report = s3_sync(s3_client(setting("S3_ENDPOINT_URL"), setting("S3_REGION")), bucket,
                         settings["OUTPUT_PATH"], header_policy(settings),
                         prefix=setting("S3_PREFIX"), delete=not keep, force=force)
    except (BotoCoreError, ClientError) as error:
        raise Exit(f"s3-publish: {error}", code=1) from None
    print(f"s3-publish: s3://{bucket}/{setting('S3_PREFIX').strip('/')}: "
          f"{len(report.uploaded)} uploaded, {len(report.unchanged)} unchanged, "
          f"{len(report.deleted)} deleted")


