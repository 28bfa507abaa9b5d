"""Sentence spans in a text: simple, predictable, linear."""

from __future__ import annotations

import functools
import re

# A sentence ends at . ! ? or … (with closing quotes or brackets) before whitespace, or at a
# blank line. One pass with finditer; the patterns cannot backtrack more than a character run.
_END = re.compile(r"[.!?…]+[\"'”’)\]]*(?=\s)|\n\s*\n")


# A period after these (or after a lone capital, an initial: "Charles W. Eliot") ends no
# sentence; nor does one followed by a lowercase word ("ca. 2 million", "i.e. the").
_ABBREVIATIONS = frozenset(
    "ca c approx e.g eg i.e ie etc vs cf al fl mr mrs ms dr st jr sr prof gen col lt sgt capt "
    "no nos vol pp fig figs dept est inc ltd co corp mt ft u.s u.k a.d b.c".split()
)
_WORD_BEFORE = re.compile(r"([\w.]+)\.$")


def _ends_here(text: str, match: re.Match[str]) -> bool:
    if not match.group().startswith(".") or match.group() != ".":
        return True  # ! ? …, a closing quote or bracket, or a blank line
    before = _WORD_BEFORE.search(text, max(0, match.start() - 12), match.end())
    if before is not None:
        word = before.group(1)
        if word.casefold() in _ABBREVIATIONS or (len(word) == 1 and word.isupper()):
            return False
    following = text[match.end() : match.end() + 3].lstrip()
    return not (following[:1].islower())


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of `text`, leading whitespace trimmed, in order."""
    return list(_spans(text))


# Extraction asks for the sentences of one chunk several times (names linked, relations read).
@functools.lru_cache(maxsize=16)
def _spans(text: str) -> tuple[tuple[int, int], ...]:
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _END.finditer(text):
        if not _ends_here(text, match):
            continue
        end = match.end()
        _append(text, start, end, spans)
        start = end
    _append(text, start, len(text), spans)
    return tuple(spans)


def _append(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        spans.append((start, end))
