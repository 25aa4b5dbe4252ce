"""``dalil-quickstart [DIR]``: write a new Dalil site, ready to build.

Like ``pelican-quickstart``, it asks for what it needs (site name, URL, time zone,
security contact) or takes it from options, for scripts; answers piped in are read
one a line, in the order it asks. It writes
``pelicanconf.py``, ``publishconf.py``, ``tasks.py``, ``.gitignore`` and a
``content/`` folder with one category, city, listing and news item, and the about,
contact and open-data pages. It never overwrites a file: if any exists, it writes none.
"""

import argparse
import re
import sys
import zoneinfo
from importlib.resources import files
from pathlib import Path
from string import Template
from urllib.parse import urlsplit

from dalil import __version__
from dalil.core.dates import build_time
from dalil.core.files import replace_atomically

SKELETON = files("dalil.quickstart") / "site"
# Skeleton files whose name ends in .tmpl are written without it (.gitignore has a dot).
RENAMED = {"gitignore": ".gitignore"}
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


class QuickstartError(Exception):
    pass


def check_name(value):
    if not value.strip():
        raise QuickstartError("the site name is empty")
    return value.strip()


def check_url(value):
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise QuickstartError(f"{value!r} is not an http(s) address such as https://example.com")
    return value.strip().rstrip("/")


def check_timezone(value):
    try:
        zoneinfo.ZoneInfo(value.strip())
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise QuickstartError(f"{value!r} is not a time zone such as Africa/Casablanca") from None
    return value.strip()


def check_contact(value):
    value = value.strip()
    if EMAIL.fullmatch(value) or value.startswith(("mailto:", "https://", "tel:")):
        return value
    raise QuickstartError(f"{value!r} is not an e-mail address or a mailto:, https: or tel: URI")


# (option, question, default from the answers so far, check)
QUESTIONS = [
    ("name", "Site name", lambda answers: "دليل", check_name),
    ("url", "Address of the published site", lambda answers: "https://example.com", check_url),
    ("timezone", "Time zone of the site", lambda answers: "Africa/Casablanca", check_timezone),
    ("security_contact", "Security contact (e-mail)",
     lambda answers: "security@" + (urlsplit(answers["url"]).hostname or "example.com"),
     check_contact),
]


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="dalil-quickstart", description="Write a new Dalil directory site into DIR.")
    parser.add_argument("directory", nargs="?", default=".", metavar="DIR",
                        help="folder of the new site (default: the current folder)")
    parser.add_argument("--name", help="the site's name (SITENAME)")
    parser.add_argument("--url", help="the published site's address (SITEURL of publishconf.py)")
    parser.add_argument("--timezone", help="the site's time zone, such as Africa/Casablanca")
    parser.add_argument("--security-contact", help="e-mail address for security.txt")
    parser.add_argument("-y", "--defaults", action="store_true",
                        help="ask nothing: take the default of every value not given")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser.parse_args(argv)


def ask(question, default, check, read=input):
    """Ask until the answer passes ``check``; an empty answer takes the default."""
    while True:
        answer = read(f"> {question} [{default}] ").strip() or default
        try:
            return check(answer)
        except QuickstartError as error:
            print(f"  {error}", file=sys.stderr)


def take_default(question, default, check):
    return check(default)


class PipedAnswers:
    """Answers piped in, one a line in the order the questions are asked (an empty line
    takes the default). A wrong answer stops it: asking again would take the next line.
    Once the input ends, each question left takes its default, said on stderr."""

    def __init__(self, stream):
        self.stream = stream
        self.line = 0
        self.ended = False

    def _read_line(self):
        if self.stream is None or self.ended:
            return ""
        try:
            text = self.stream.readline()
            text.encode("utf-8")  # a byte the stream could not decode is a lone surrogate
            return text
        except UnicodeError:
            raise QuickstartError(f"line {self.line + 1} of the input is not "
                                  f"{self.stream.encoding} text") from None

    def __call__(self, question, default, check):
        text = self._read_line()
        if not text:
            if not self.ended:
                self.ended = True
                reason = "the input ended" if self.stream is not None else "there is no input"
                print(f"dalil-quickstart: {reason} before the answer to {question!r}; it and "
                      "the questions left take their defaults:", file=sys.stderr)
            print(f"  {question}: {default}", file=sys.stderr)
            return check(default)
        self.line += 1
        try:
            return check(text.strip() or default)
        except QuickstartError as error:
            raise QuickstartError(f"line {self.line} of the input ({question}): {error}") from None


def collect_answers(arguments, answer):
    """Each value from its option, else from ``answer(question, default, check)``."""
    answers = {}
    for option, question, default, check in QUESTIONS:
        given = getattr(arguments, option)
        if given is not None:
            answers[option] = check(given)
        else:
            answers[option] = answer(question, default(answers), check)
    return answers


def skeleton_files(answers, today):
    """``(relative path, text)`` of every file of the new site."""
    values = {"sitename": repr(answers["name"]), "siteurl": repr(answers["url"]),
              "timezone": repr(answers["timezone"]),
              "security_contact": repr(answers["security_contact"])}
    # Values that Markdown files hold as text, not as Python literals.
    text_values = {"today": today,
                   "contact_email": "contact@" + (urlsplit(answers["url"]).hostname or "")}

    def walk(folder, prefix=""):
        for entry in sorted(folder.iterdir(), key=lambda entry: entry.name):
            relpath = prefix + entry.name
            if entry.is_dir():
                yield from walk(entry, relpath + "/")
            elif relpath.endswith(".tmpl"):
                name = relpath.removesuffix(".tmpl")
                yield RENAMED.get(name, name), Template(entry.read_text("utf-8")).substitute(values)
            else:
                yield relpath, Template(entry.read_text("utf-8")).safe_substitute(text_values)

    return list(walk(SKELETON))


def write_site(directory, answers, today=None):
    """Write the site into ``directory``; refuse, writing nothing, if a file exists."""
    # The build's date in the site's zone (SOURCE_DATE_EPOCH when set): the first build
    # publishes the welcome news, never waiting for its date (WITH_FUTURE_DATES is off).
    zone = zoneinfo.ZoneInfo(answers["timezone"])
    today = today or build_time().astimezone(zone).date().isoformat()
    site = skeleton_files(answers, today)
    existing = [relpath for relpath, _ in site if (directory / relpath).exists()]
    if existing:
        raise QuickstartError(f"{directory} already has {', '.join(existing)}: nothing written "
                              "(dalil-quickstart never overwrites a file)")
    for relpath, text in site:
        replace_atomically(str(directory / relpath), text.encode("utf-8"))
    return [relpath for relpath, _ in site]


def main(argv=None):
    arguments = parse_arguments(argv)
    directory = Path(arguments.directory).resolve()
    if arguments.defaults:
        answer = take_default
    elif sys.stdin is not None and sys.stdin.isatty():
        answer = ask
    else:
        answer = PipedAnswers(sys.stdin)
    try:
        answers = collect_answers(arguments, answer)
        written = write_site(directory, answers)
    except QuickstartError as error:
        print(f"dalil-quickstart: {error}", file=sys.stderr)
        return 2
    except (EOFError, KeyboardInterrupt):
        print("\ndalil-quickstart: stopped; nothing written", file=sys.stderr)
        return 1
    print(f"dalil-quickstart: wrote {len(written)} files into {directory}")
    print("Next: cd into it, run `pelican content`, then `invoke serve` and open "
          "http://localhost:8000/")
    return 0
