"""Content errors: each names its source file; the build stops cleanly, never with a traceback."""

import logging

logger = logging.getLogger(__name__)


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
