"""Content errors: each names its source file; the build stops cleanly, never with a traceback."""

import logging
import os
import sys

logger = logging.getLogger(__name__)

# Set by the tasks that publish (``dalil.tasks.staged_build``): a file where the build
# writes every error it logs, so that a build that logged one is never published, even
# if something caught the exception with which ``--fatal errors`` stops the build.
ERRORS_FILE_ENV = "DALIL_BUILD_ERRORS_FILE"


class ContentErrors:
    """Collects the content errors of one generator run and reports them together."""

    def __init__(self):
        self.messages = []

    def add(self, source_path, message, *args):
        self.messages.append((str(source_path), message % args if args else message))

    def __bool__(self):
        return bool(self.messages)

    def report(self, log=logger):
        """Log every error; under ``pelican --fatal errors`` stop the build after them.

        Pelican's fatal logger raises on the first error and its ``main`` then
        prints a traceback; catching that per message lets every error be shown,
        and ``SystemExit`` ends the build with a one-line summary instead.
        """
        fatal = False
        for source_path, message in sorted(self.messages):
            try:
                log.error("%s: %s", source_path, message)
            except RuntimeError:
                fatal = True
        if fatal:
            raise SystemExit(
                f"dalil: build stopped: {len(self.messages)} content error(s), listed above"
            )


class _ReasonFilter(logging.Filter):
    """Pelican logs "Could not process news/x.md" and keeps the reason (a bad date, a
    bad encoding) for its debug traceback; the operator needs the reason on that line."""

    def filter(self, record):
        error = sys.exc_info()[1]
        if record.msg == "Could not process %s" and error is not None:
            record.msg, record.args = "Could not process %s: %s", (*record.args, error)
        return True


class _FatalWithoutTraceback(logging.Filter):
    """Under ``--fatal``, Pelican's logger raises on the first error and ``main`` logs
    that exception with a traceback: the error itself, naming its file, is already
    logged, so the traceback only hides it."""

    def filter(self, record):
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, RuntimeError) and str(error) == "Warning or error encountered":
            record.msg, record.args, record.exc_info = (
                "dalil: build stopped by the problem above (--fatal)", (), None)
        return True


class _ErrorsFile(logging.FileHandler):
    """Writes each error the build logs to the file ``ERRORS_FILE_ENV`` names."""

    def __init__(self, path):
        super().__init__(path, mode="a", encoding="utf-8", delay=True)
        self.setLevel(logging.ERROR)
        self.setFormatter(logging.Formatter("%(message)s"))


def install_log_filters():
    """Content errors reported by Pelican itself name their file and their reason, and
    stop a fatal build without a traceback; with ``ERRORS_FILE_ENV`` set, every error
    logged goes to that file too (idempotent)."""
    for name, filter_class in (("pelican.generators", _ReasonFilter),
                               ("pelican", _FatalWithoutTraceback)):
        target = logging.getLogger(name)
        if not any(isinstance(existing, filter_class) for existing in target.filters):
            target.addFilter(filter_class())
    errors_file = os.environ.get(ERRORS_FILE_ENV)
    root = logging.getLogger()
    if errors_file and not any(isinstance(handler, _ErrorsFile) for handler in root.handlers):
        root.addHandler(_ErrorsFile(errors_file))
