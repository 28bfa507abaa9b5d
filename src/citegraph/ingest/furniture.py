"""Page furniture of a PDF: the lines a publisher repeats on every page (running headers and
footers, page numbers, print-shop codes), found by repetition.

"...takeoff from Soekarno- VerDate Sep<11>2014 16:21 Aug 05, 2020 Jkt 250001 ... Hatta
International Airport" is what a quote across a page break holds otherwise. Furniture is kept
byte for byte (the chunks still tile the stored text) but in chunks of its own, marked so:
never ranked or quoted as evidence, never read for entities.

A line is furniture when it is among the first or last FURNITURE_LINES non-blank lines of its
page and, with its numbers set aside, the same line stands there on at least half of the pages
(and on two at least); a line that is only a number there is a page number.
"""

from __future__ import annotations

import re
from collections import Counter

FURNITURE_LINES = 3
_DIGITS = re.compile(r"\d+")
_SPACES = re.compile(r"\s+")


def _shape(line: bytes) -> str:
    """The line with its numbers left out (page numbers move from one side to the other on
    facing pages): "#" for a line that is only a number."""
    text = line.decode("utf-8", errors="replace")
    shape = _SPACES.sub(" ", _DIGITS.sub("", text)).strip()
    return shape or "#"


def _edge_lines(text: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of the first and last FURNITURE_LINES non-blank lines in [start, end)."""
    lines: list[tuple[int, int]] = []
    position = start
    while position < end:
        newline = text.find(b"\n", position, end)
        stop = end if newline < 0 else newline
        if text[position:stop].strip() and text[position:stop].strip() != b"\f":
            lines.append((position, stop))
        position = stop + 1
    if len(lines) <= 2 * FURNITURE_LINES:
        return lines
    return lines[:FURNITURE_LINES] + lines[-FURNITURE_LINES:]


def furniture_spans(text: bytes, page_starts: tuple[int, ...]) -> list[tuple[int, int]]:
    """Byte spans of the furniture lines of a PDF's stored text, in order."""
    if len(page_starts) < 2:
        return []
    bounds = [*page_starts, len(text)]
    edges = [_edge_lines(text, bounds[i], bounds[i + 1]) for i in range(len(page_starts))]
    counts: Counter[str] = Counter()
    for lines in edges:
        counts.update({_shape(text[a:b]) for a, b in lines})
    needed = max(2, (len(page_starts) + 1) // 2)
    common = {shape for shape, n in counts.items() if n >= needed and shape != "#"}
    spans: list[tuple[int, int]] = []
    for lines in edges:
        for a, b in lines:
            shape = _shape(text[a:b])
            if shape in common or shape == "#":
                spans.append((a, b))
                continue
            glued = _glued(text, a, b, common)
            if glued is not None:
                spans.append((glued, b))
    return spans


def _glued(text: bytes, start: int, end: int, common: set[str]) -> int | None:
    """Where a furniture line begins inside the line [start, end), when the text layer glued
    it to the last word of the page ("Soekarno-VerDate Sep<11>2014 ..."); None otherwise."""
    line = text[start:end]
    for shape in common:
        first = shape.split(" ", 1)[0].encode()
        if len(first) < 4:
            continue  # too short to anchor on
        position = line.find(first, 1)
        while position > 0:
            if _shape(line[position:]) == shape:
                return start + position
            position = line.find(first, position + 1)
    return None
