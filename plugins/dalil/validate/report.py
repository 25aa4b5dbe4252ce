"""The validation report: problems by file, and what was checked."""

from collections import Counter


class Report:
    def __init__(self):
        self.problems = []  # (relpath, message)
        self.checked = Counter()  # kind of check -> number of files

    def problem(self, relpath, message, *args):
        self.problems.append((relpath, message % args if args else message))

    def count(self, kind, number=1):
        self.checked[kind] += number

    @property
    def ok(self):
        return not self.problems

    def lines(self):
        """The report as text lines: one per problem, then a summary."""
        lines = [f"FAIL {relpath}: {message}" for relpath, message in self.problems]
        checked = ", ".join(f"{number} {kind}" for kind, number in sorted(self.checked.items()))
        verdict = "OK" if self.ok else f"{len(self.problems)} problem(s)"
        lines.append(f"validate: {verdict}; checked {checked or 'nothing'}")
        return lines
