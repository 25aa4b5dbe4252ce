"""Latin words in brackets set apart in Arabic text: the Python-Markdown extension
``dalil.core.bidi``.

In an Arabic paragraph, "الصيغة (Content-Type)" broken over two lines reads
"Content-)" then "(Type": the brackets take the paragraph's direction and each line is
ordered on its own. A bracketed run of Latin text in a block with Arabic letters is put
in ``<span dir="ltr">`` with its brackets: it keeps its own order, isolated from the
Arabic around it, and reads "(Content-" then "Type)". Code is left to the theme's CSS.
"""

import re
import xml.etree.ElementTree as etree

from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufefc]")
# "(" and a Latin letter, then no Arabic letter, bracket, line end or Markdown placeholder
# (\x02…\x03), to the ")".
BRACKETED_LATIN = re.compile(
    "\\([A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]"
    "[^()\n\x02\x03\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufefc]*\\)")
BLOCKS = frozenset(("p", "li", "td", "th", "dt", "dd", "caption", "figcaption",
                    "h1", "h2", "h3", "h4", "h5", "h6"))
CODE = frozenset(("code", "pre", "kbd", "samp", "script", "style"))


def isolate_in_text(text):
    """``text`` (HTML text without markup) with its bracketed Latin runs in
    ``<span dir="ltr">``, when it has Arabic letters."""
    if not ARABIC.search(text):
        return text
    return BRACKETED_LATIN.sub(lambda match: f'<span dir="ltr">{match.group()}</span>', text)


def _pieces(text):
    """``text`` split at its bracketed Latin runs: text, run, text, run, …, text."""
    pieces, start = [], 0
    for match in BRACKETED_LATIN.finditer(text):
        pieces += [text[start:match.start()], match.group()]
        start = match.end()
    return pieces + [text[start:]]


def _spans(runs_and_texts):
    """Spans for the runs of ``[run, text, run, text, …]``, each text as its span's tail."""
    spans = []
    for run, tail in zip(runs_and_texts[::2], runs_and_texts[1::2]):
        span = etree.Element("span", {"dir": "ltr"})
        span.text, span.tail = run, tail or None
        spans.append(span)
    return spans


class BracketedLatinIsolator(Treeprocessor):
    def run(self, root):
        for block in list(root.iter()):
            if (block.tag in BLOCKS and "dir" not in block.attrib
                    and ARABIC.search("".join(block.itertext()))):
                self._isolate(block)

    def _isolate(self, element):
        """The runs in ``element``'s own text and its inline children's, not in code or in
        a block of its own (isolated when its turn comes)."""
        children = list(element)
        if element.text and BRACKETED_LATIN.search(element.text):
            first, *rest = _pieces(element.text)
            element.text = first or None
            for index, span in enumerate(_spans(rest)):
                element.insert(index, span)
        for child in children:
            if child.tag not in CODE and child.tag not in BLOCKS and "dir" not in child.attrib:
                self._isolate(child)
            if child.tail and BRACKETED_LATIN.search(child.tail):
                first, *rest = _pieces(child.tail)
                child.tail = first or None
                position = list(element).index(child) + 1
                for offset, span in enumerate(_spans(rest)):
                    element.insert(position + offset, span)


class BidiExtension(Extension):
    def extendMarkdown(self, md):
        # After the inline patterns (20) have made the text's elements, before the
        # placeholders of escaped characters are put back (0).
        md.treeprocessors.register(BracketedLatinIsolator(md), "dalil_bidi", 5)


def makeExtension(**kwargs):  # Markdown's name for an extension module's entry point
    return BidiExtension(**kwargs)
