"""Folding text so that exactly the forgiven differences disappear, with a way back to offsets.

A quote matches a span of stored text when the two are equal after folding, and folding forgives
only: runs of whitespace (any run becomes one space), quotation marks and apostrophes (any becomes
`'`), runs of hyphens and dashes (any run becomes one `-`), and the emphasis marks `_` and `*`
(removed wherever they stand). Nothing else changes: no case folding, no Unicode normalisation.

Folding is built from C-speed `str` methods (`in`, `replace`, `find`), each a linear scan, and two
regular expressions that match runs of one repeated character (which cannot backtrack). The map
from folded positions back to the original is built only when a match needs it, from the few
places where the length changed.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cached_property

# Every character for which str.isspace() is true (a test keeps this list complete).
WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
DASHES = "-\u00ad\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212\ufe58\ufe63\uff0d"
# Straight and typographic quotation marks and apostrophes, primes and low marks.
QUOTES = "'\"\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u2032\u2033\u2035\u2036"
EMPHASIS = "_*"

_UNIFY = (
    [(ch, " ") for ch in WHITESPACE if ch != " "]
    + [(ch, "-") for ch in DASHES if ch != "-"]
    + [(ch, "'") for ch in QUOTES if ch != "'"]
)

_UNIFY_ASCII = [(char, replacement) for char, replacement in _UNIFY if char.isascii()]


def _drop_emphasis(text: str) -> str:
    if "_" in text:
        text = text.replace("_", "")
    if "*" in text:
        text = text.replace("*", "")
    return text


def _unify(text: str) -> str:
    """Every whitespace character to a space, dash to `-`, quotation mark to `'` (1 for 1)."""
    for char, replacement in _UNIFY_ASCII if text.isascii() else _UNIFY:
        if char in text:
            text = text.replace(char, replacement)
    return text


# A run of one repeated character: such a pattern cannot backtrack.
_SPACE_RUN = re.compile(" {2,}")
_DASH_RUN = re.compile("-{2,}")


def _collapse(text: str) -> str:
    """Runs of spaces, and runs of `-`, to one."""
    if "  " in text:
        text = _SPACE_RUN.sub(" ", text)
    if "--" in text:
        text = _DASH_RUN.sub("-", text)
    return text


def fold(text: str) -> str:
    """The folded form of `text` (same rules for stored text and quotes)."""
    return _collapse(_unify(_drop_emphasis(text)))


def _runs(text: str, chars: str, start_with: str = "") -> list[tuple[int, int]]:
    """Spans of runs of any of `chars` (beginning with `start_with` if given), in order, found
    with str.find: fast where runs are rare, as in prose."""
    needles = [start_with] if start_with else list(chars)
    starts = sorted(position for needle in needles for position in _positions(text, needle))
    spans: list[tuple[int, int]] = []
    for start in starts:
        if spans and start < spans[-1][1]:
            continue  # inside the run already recorded
        end = start + 1
        while end < len(text) and text[end] in chars:
            end += 1
        spans.append((start, end))
    return spans


def _positions(text: str, needle: str) -> list[int]:
    found: list[int] = []
    position = text.find(needle)
    while position >= 0:
        found.append(position)
        position = text.find(needle, position + 1)
    return found


@dataclass(frozen=True)
class _Stage:
    """Where one folding step changed lengths: input spans replaced by `width` output chars."""

    out_starts: list[int]
    in_starts: list[int]
    in_ends: list[int]
    width: int

    @staticmethod
    def of(spans: list[tuple[int, int]], width: int) -> _Stage:
        out_starts: list[int] = []
        shrink = 0
        for start, end in spans:
            out_starts.append(start - shrink)
            shrink += end - start - width
        return _Stage(out_starts, [s for s, _ in spans], [e for _, e in spans], width)

    def back(self, index: int) -> tuple[int, int]:
        """The input span [lo, hi) that produced output character `index`."""
        k = bisect.bisect_right(self.out_starts, index) - 1
        if k < 0:
            return index, index + 1
        offset = index - self.out_starts[k]
        if offset < self.width:
            return self.in_starts[k], self.in_ends[k]
        position = self.in_ends[k] + offset - self.width
        return position, position + 1


# Byte offsets are counted from checkpoints this many characters apart.
_CHECKPOINT = 4096


class FoldedText:
    """A text prepared for many quote look-ups: fold once, locate many times."""

    def __init__(self, text: str):
        self.text = text

    # Folded when first searched: a caller that only needs byte offsets never folds.
    @cached_property
    def _unified(self) -> str:
        return _unify(_drop_emphasis(self.text))

    @cached_property
    def folded(self) -> str:
        return _collapse(self._unified)

    @cached_property
    def _emphasis(self) -> _Stage:
        return _Stage.of(_runs(self.text, EMPHASIS), 0)

    @cached_property
    def _collapsed(self) -> _Stage:
        spans = _runs(self._unified, " ", start_with="  ") + _runs(self._unified, "-", "--")
        return _Stage.of(sorted(spans), 1)

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Character span [start, end) of the folded text as a span of the original text.

        It runs from the first original character behind `folded[start]` to the last one behind
        `folded[end - 1]`: emphasis marks just outside are not included, those inside are.
        """
        lo, _ = self._collapsed.back(start)
        _, hi = self._collapsed.back(end - 1)
        first, _ = self._emphasis.back(lo)
        _, last = self._emphasis.back(hi - 1)
        return first, last

    @cached_property
    def _byte_checkpoints(self) -> list[int] | None:
        if self.text.isascii():
            return None
        offsets = [0]
        for start in range(0, len(self.text), _CHECKPOINT):
            offsets.append(offsets[-1] + len(self.text[start : start + _CHECKPOINT].encode()))
        return offsets

    def byte_offset(self, index: int) -> int:
        """UTF-8 byte offset of character `index` of the original text."""
        checkpoints = self._byte_checkpoints
        if checkpoints is None:
            return index
        base = index // _CHECKPOINT
        return checkpoints[base] + len(self.text[base * _CHECKPOINT : index].encode())
