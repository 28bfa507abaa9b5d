"""Sentence spans in a text: simple, predictable, linear."""

from __future__ import annotations

import re

# A sentence ends at . ! ? or … (with closing quotes or brackets) before whitespace, or at a
# blank line. One pass with finditer; the patterns cannot backtrack more than a character run.
_END = re.compile(r"[.!?…]+[\"'”’)\]]*(?=\s)|\n\s*\n")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of `text`, leading whitespace trimmed, in order."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _END.finditer(text):
        end = match.end()
        _append(text, start, end, spans)
        start = end
    _append(text, start, len(text), spans)
    return spans


def _append(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        spans.append((start, end))
