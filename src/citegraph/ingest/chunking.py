"""Cutting stored text into chunks on paragraph and sentence boundaries within a byte budget.

Chunks tile the text: the first starts at 0, each starts where the previous one ended, the last
ends at the end of the text. Every cut falls on a UTF-8 character boundary. A cut is looked for
in the last three quarters of the budget, preferring, in order: the end of a blank-line run (a
paragraph break) that does not follow a Markdown heading, the end of a sentence, any whitespace,
and, failing all, the last character boundary before the budget.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence

from .mapped import TextBuffer

_PARAGRAPH = re.compile(rb"\n[ \t\r\f\v]*\n[ \t\r\n\f\v]*")
_SENTENCE = re.compile(
    rb"(?:[.!?]|\xe2\x80\xa6)(?:[\"')\]]|\xe2\x80[\x99\x9d])*[ \t\r\n\f\v]+"
    rb"|(?:\xe3\x80\x82|\xef\xbc[\x81\x9f])[ \t\r\n\f\v]*"
)
_SPACE = re.compile(rb"[ \t\r\n\f\v]+")


_HEADING = re.compile(rb"#{1,6}[ \t]")


def _paragraph_cut(data: TextBuffer, floor: int, limit: int) -> int | None:
    """The last paragraph break, except one that would leave a Markdown heading at the end of
    the chunk, cut off from the text it heads."""
    breaks = list(_PARAGRAPH.finditer(data, floor, limit))
    for match in reversed(breaks):
        line_start = data.rfind(b"\n", 0, match.start()) + 1
        if not _HEADING.match(data, line_start):
            return match.end()
    return None


def _last_cut(pattern: re.Pattern[bytes], data: TextBuffer, floor: int, limit: int) -> int | None:
    cut = None
    for match in pattern.finditer(data, floor, limit):
        cut = match.end()
    return cut


def _char_boundary(data: TextBuffer, limit: int) -> int:
    cut = limit
    while 0xC0 > data[cut] >= 0x80:  # a continuation byte: step back to the character's start
        cut -= 1
    return cut


def _segments(data: TextBuffer, breaks: Sequence[int]) -> list[tuple[int, int]]:
    """Split at forced breaks (PDF pages); a whitespace-only piece joins the piece before it."""
    bounds = [0, *sorted(b for b in set(breaks) if 0 < b < len(data)), len(data)]
    pieces: list[tuple[int, int]] = []
    for start, end in itertools.pairwise(bounds):
        if (pieces and not data[start:end].strip()) or (
            pieces and not data[pieces[-1][0] : pieces[-1][1]].strip()
        ):
            pieces[-1] = (pieces[-1][0], end)
        else:
            pieces.append((start, end))
    return pieces


_LINE = re.compile(rb"\n([ \t]*)(?=[^ \t\r\n])")


def _outline_cut(data: TextBuffer, floor: int, limit: int) -> int | None:
    """In configuration: before the least indented line (the last such), so that a setting's
    lines (`- name: X` and its `value:`) stay in one chunk."""
    best: tuple[int, int] | None = None  # (indent, cut)
    for match in _LINE.finditer(data, floor, limit):
        indent = len(match.group(1))
        if best is None or indent <= best[0]:
            best = (indent, match.start() + 1)
    return best[1] if best is not None else None


def chunk_spans(
    data: TextBuffer, budget: int, breaks: Sequence[int] = (), outline: bool = False
) -> Iterator[tuple[int, int]]:
    """Yield (start_byte, end_byte) spans that tile `data`, each at most `budget` bytes.
    `outline`: the text is configuration (YAML, JSON, TOML): cut by indentation first."""
    if budget < 4:
        raise ValueError("the chunk budget must be at least 4 bytes (one UTF-8 character)")
    for seg_start, seg_end in _segments(data, breaks):
        pos = seg_start
        while pos < seg_end:
            if seg_end - pos <= budget:
                yield pos, seg_end
                break
            limit = pos + budget
            floor = pos + budget // 4
            cut = (
                (_outline_cut(data, floor, limit) if outline else None)
                or _paragraph_cut(data, floor, limit)
                or _last_cut(_SENTENCE, data, floor, limit)
                or _last_cut(_SPACE, data, floor, limit)
                or _char_boundary(data, limit)
            )
            yield pos, cut
            pos = cut
