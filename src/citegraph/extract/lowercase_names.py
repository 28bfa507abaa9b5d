"""Names written in lower case by their makers ("etcd", "k6", "pprof", "containerd"): English
capitalises a sentence's first word, so a word in lower case opening a paragraph (a sentence
inside one opens in lower case only after an abbreviation; a list's items are often written
so, and are left out), as the subject of a verb, is a name spelled so. Offsets are character
offsets in the text."""

from __future__ import annotations

import re

from ..text.fences import code_blocks
from ..text.words import STOPWORDS
from .verbs import VERBS

# A verb after the word, in the third person or after an auxiliary: the word is its subject
# ("etcd uses gRPC", "k6 is a load testing suite", "etcd v3 uses"); a noun after it ("deleting
# messages", "sampler configs") makes it no subject.
_FINITE = sorted(
    {v.phrase.split()[0] for v in VERBS if not v.passive and v.phrase.split()[0].endswith("s")}
    | set(
        "is are was were has have can cannot will does should must may also now then still "
        "provides supports exposes runs implements offers keeps creates allows lets".split()
    )
)
_SUBJECT_AT = re.compile(
    r"([a-z][a-z0-9+_-]*[a-z0-9])"
    r"(?:[ \t]+v?\d+(?:\.(?:\d+|x))*)?"  # its version ("etcd v3 uses")
    r"[ \t]+(?:" + "|".join(_FINITE) + r")(?![\w'’-])"
)
_VERSION_WORD = re.compile(r"v\d")
# A line opening in lower case (spaces aside), and a Markdown heading's line.
_LINE_IN_LOWER_CASE = re.compile(r"^[ \t]*([a-z])", re.M)
_HEADING_LINE = re.compile(r"[ \t]{0,3}#{1,6}[ \t]")


def names_opening_sentences(text: str) -> list[tuple[str, int]]:
    """Words in lower case opening a paragraph of `text` (after a blank line or a heading's
    line, or opening the text) as a verb's subject, outside fenced code: no stopword, no verb
    in -ing, no version ("v2 addresses")."""
    blocks: list[tuple[int, int]] | None = None
    found: list[tuple[str, int]] = []
    for opening in _LINE_IN_LOWER_CASE.finditer(text):
        start = opening.start(1)
        line_start = opening.start()
        if line_start > 0:
            previous = text[text.rfind("\n", 0, line_start - 1) + 1 : line_start - 1]
            if previous.strip() and not _HEADING_LINE.match(previous):
                continue  # a line going on (a paragraph wrapped by hand)
        match = _SUBJECT_AT.match(text, start)
        if match is None:
            continue
        word = match.group(1)
        if word in STOPWORDS or word.endswith("ing") or _VERSION_WORD.match(word):
            continue
        if blocks is None:
            blocks = code_blocks(text)[0] if ("```" in text or "~~~" in text) else []
        if not any(a <= start < b for a, b in blocks):
            found.append((word, start))
    return found
