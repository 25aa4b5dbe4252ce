"""Operator tasks: ``invoke --list`` shows them all."""

import os
import shlex
import shutil
import sys
from pathlib import Path

from invoke import Exit, task

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "plugins"))

CONFIG = {
    "settings_base": "pelicanconf.py",
    "settings_publish": "publishconf.py",
    "host": os.environ.get("DALIL_HOST", "localhost"),
    "port": int(os.environ.get("DALIL_PORT", "8000")),
}


def site_settings(settings_file):
    """Pelican's settings with their defaults, as a build with ``settings_file`` sees them."""
    from pelican.settings import read_settings

    return read_settings(str(ROOT / settings_file))


def output_path(settings_file=CONFIG["settings_base"]):
    return Path(site_settings(settings_file)["OUTPUT_PATH"])


def pelican_run(c, *arguments):
    """Run Pelican with ``--fatal errors``: a content error fails the build."""
    command = [sys.executable, "-m", "pelican", "--fatal", "errors", *arguments]
    c.run(shlex.join(command), pty=False)


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
    """Build from a clean output folder."""
    pelican_run(c, "-d", "-s", CONFIG["settings_base"])


@task
def regenerate(c):
    """Rebuild whenever a file changes."""
    pelican_run(c, "-r", "-s", CONFIG["settings_base"])


@task
def serve(c):
    """Serve the output folder at http://$DALIL_HOST:$DALIL_PORT/ (localhost:8000)."""
    from pelican.server import ComplexHTTPRequestHandler, RootedHTTPServer

    class Server(RootedHTTPServer):
        allow_reuse_address = True

    server = Server(str(output_path()), (CONFIG["host"], CONFIG["port"]), ComplexHTTPRequestHandler)
    sys.stderr.write("Serving at http://{host}:{port}/ ...\n".format(**CONFIG))
    server.serve_forever()


@task
def reserve(c):
    """Build, then serve."""
    build(c)
    serve(c)


@task
def preview(c):
    """Build the site with the publishing settings."""
    pelican_run(c, "-s", CONFIG["settings_publish"])


@task
def livereload(c):
    """Serve the site and rebuild and reload the browser tab when a file changes."""
    from livereload import Server

    settings = site_settings(CONFIG["settings_base"])

    def cached_build():
        pelican_run(c, "-s", CONFIG["settings_base"], "-e", "CACHE_CONTENT=true",
                    "LOAD_CONTENT_CACHE=true")

    cached_build()
    server = Server()
    for pattern in (CONFIG["settings_base"], f"{settings['THEME']}/**/*",
                    f"{settings['PATH']}/**/*", "plugins/**/*"):
        server.watch(pattern, cached_build)
    server.serve(host=CONFIG["host"], port=CONFIG["port"], root=settings["OUTPUT_PATH"])


@task
def publish(c):
    """Build with the publishing settings and rsync the site to SSH_HOST:SSH_TARGET_DIR."""
    settings = site_settings(CONFIG["settings_publish"])
    host = required_setting(settings, "SSH_HOST", "example.org")
    target = required_setting(settings, "SSH_TARGET_DIR", "/var/www/dalil")
    user = settings.get("SSH_USER")
    port = int(settings.get("SSH_PORT") or 22)
    preview(c)
    destination = f"{user}@{host}:{target}" if user else f"{host}:{target}"
    source = str(Path(settings["OUTPUT_PATH"])).rstrip("/") + "/"
    c.run(shlex.join(["rsync", "--delete", "--exclude", ".DS_Store", "-pthrvz", "-c",
                      "-e", f"ssh -p {port}", source, destination]))


@task
def gh_pages(c):
    """Build with the publishing settings and push the site to GitHub Pages (ghp-import)."""
    settings = site_settings(CONFIG["settings_publish"])
    branch = settings.get("GITHUB_PAGES_BRANCH") or "gh-pages"
    if shutil.which("ghp-import") is None:
        raise Exit("ghp-import is not installed: pip install ghp-import", code=2)
    preview(c)
    c.run(shlex.join(["ghp-import", "-b", branch, "--no-jekyll", "-m", "Publish site",
                      "-p", settings["OUTPUT_PATH"]]))
