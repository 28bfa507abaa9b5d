"""Sentence spans in a text: simple, predictable, linear."""

from __future__ import annotations

import functools
import re

# A sentence ends at . ! ? or … (with closing quotes or brackets) before whitespace, at a
# blank line, or at a line break before a list item ("* ", "- ", "1. ") or a Markdown heading:
# items of a list often end without a period, and each says something of its own. One pass
# with finditer; the patterns cannot backtrack more than a character run.
# (Every alternative opens with one of a few characters, which the engine scans for in C; a
# heading's own line end is found in `_append`.)
_END = re.compile(
    r"[.!?…]+[\"'”’)\]]*(?=\s)|\n(?:\s*\n|(?=[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]|#{1,6} ))"
)
# A list item's number ("\n2. The next step"): no sentence's end.
_ITEM_NUMBER = re.compile(r"(?:^|\n)[ \t]*\d{1,3}\.$")


# A period after these (or after a lone capital, an initial: "Charles W. Eliot") ends no
# sentence; nor does one followed by a lowercase word ("ca. 2 million", "i.e. the").
_ABBREVIATIONS = frozenset(
    "ca c approx e.g eg i.e ie etc vs cf al fl mr mrs ms dr st jr sr prof gen col lt sgt capt "
    "no nos vol pp fig figs dept est inc ltd co corp mt ft u.s u.k a.d b.c".split()
)
_WORD_BEFORE = re.compile(r"([\w.]+)\.$")


def _ends_here(text: str, match: re.Match[str]) -> bool:
    if not match.group().startswith(".") or match.group() != ".":
        return True  # ! ? …, a closing quote or bracket, a blank line, a list item or heading
    if (
        match.start() > 0
        and text[match.start() - 1].isdigit()
        and _ITEM_NUMBER.search(text, max(0, match.start() - 8), match.end()) is not None
    ):
        return False
    before = _WORD_BEFORE.search(text, max(0, match.start() - 12), match.end())
    if before is not None:
        word = before.group(1)
        if word.casefold() in _ABBREVIATIONS or (len(word) == 1 and word.isupper()):
            return False
    following = text[match.end() : match.end() + 3].lstrip()
    return not (following[:1].islower())


_HEADING_MARKS = re.compile(r"[ \t]*#{1,6}[ \t]+")
# Code written in backticks, inline (Markdown's code span): no words of the prose around it.
CODE_SPAN = re.compile(r"`[^`\n]+`")


def is_heading(text: str, start: int) -> bool:
    """Whether the sentence starting at `start` is a Markdown heading (its marks, which the
    span leaves out, open its line)."""
    line_start = text.rfind("\n", 0, start) + 1
    return _HEADING_MARKS.fullmatch(text, line_start, start) is not None


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


# What opens a list item or a heading, set aside from its sentence: not the item's words.
_MARKER = re.compile(r"(?:[-*+•]|\d{1,3}[.)]|#{1,6})[ \t]+")


_MARKER_FIRST = frozenset("-*+•#0123456789")


def _append(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    while start < end and text[start].isspace():
        start += 1
    if start < end and text[start] in _MARKER_FIRST:
        line_start = text.rfind("\n", 0, start) + 1
        marker = _MARKER.match(text, start, end)
        if marker is not None and (line_start == start or text[line_start:start].isspace()):
            if text[start] == "#":  # a heading is its line; what follows is a sentence
                newline = text.find("\n", marker.end(), end)
                if newline >= 0:
                    _append(text, marker.end(), newline, spans)
                    _append(text, newline, end, spans)
                    return
            start = marker.end()
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        spans.append((start, end))
