"""``/build-info.json``: which build is live, so a deployment can be checked against it."""

import platform
import re
import subprocess

from pelican import __version__ as pelican_version

from dalil.core.dates import rfc3339_millis
from dalil.core.text import plain_text
from dalil.directory.model import CONTEXT_KEY as DIRECTORY_KEY

_COMMIT = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def git_commit(path):
    """The commit checked out where the content lives, or ``""`` outside git."""
    try:
        completed = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "--verify", "--quiet", "HEAD"],
            capture_output=True, text=True, timeout=30, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    commit = completed.stdout.strip()
    return commit if completed.returncode == 0 and _COMMIT.fullmatch(commit) else ""


def content_counts(context):
    directory = context.get(DIRECTORY_KEY)
    articles = context.get("articles", [])

    def articles_in(slug):
        return sum(1 for article in articles if article.category.slug == slug)

    return {
        "listings": len(directory.listings) if directory else 0,
        "categories": len(directory.categories) if directory else 0,
        "cities": len(directory.cities) if directory else 0,
        "news": articles_in("news"),
        "blog": articles_in("blog"),
        "pages": len(context.get("pages", [])),
    }


def build_info(context, settings, built_at):
    """The seed's four fields first, then Dalil's extras; no field depends on the machine's clock
    when ``SOURCE_DATE_EPOCH`` is set."""
    info = {
        "builtAt": rfc3339_millis(built_at),
        "nodeVersion": f"python-{platform.python_version()}",
        "site": settings.get("SITEURL", ""),
        "name": plain_text(settings.get("SITENAME", "")),
        "pelicanVersion": pelican_version,
    }
    commit = git_commit(settings["PATH"])
    if commit:
        info["commit"] = commit
    info["counts"] = content_counts(context)
    return info
