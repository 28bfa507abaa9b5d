"""Folding text so that exactly the forgiven differences disappear, with a way back to offsets.

A quote matches a span of stored text when the two are equal after folding, and folding forgives
only: runs of whitespace (any run becomes one space), quotation marks and apostrophes (any becomes
`'`), runs of hyphens and dashes (any run becomes one `-`), and the emphasis marks `_` and `*`
(removed wherever they stand). Nothing else changes: no case folding, no Unicode normalisation.

Folding runs at C speed (`str.translate`, `str.replace`, one linear regex); the map from folded
positions back to the original is built only when a match needs it, from the places where the
length changed.
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

_TABLE = str.maketrans(
    {**dict.fromkeys(WHITESPACE, " "), **dict.fromkeys(DASHES, "-"), **dict.fromkeys(QUOTES, "'")}
)
_EMPHASIS_RUN = re.compile(r"[_*]+")
_COLLAPSIBLE_RUN = re.compile(r"([ -])\1+")


def fold(text: str) -> str:
    """The folded form of `text` (same rules for stored text and quotes)."""
    return _COLLAPSIBLE_RUN.sub(r"\1", text.translate(_TABLE).replace("_", "").replace("*", ""))


@dataclass(frozen=True)
class _Stage:
    """Where one folding step changed lengths: input spans replaced by `width` output chars."""

    out_starts: list[int]
    in_starts: list[int]
    in_ends: list[int]
    width: int

    @staticmethod
    def of(pattern: re.Pattern[str], text: str, width: int) -> _Stage:
        out_starts: list[int] = []
        in_starts: list[int] = []
        in_ends: list[int] = []
        shrink = 0
        for match in pattern.finditer(text):
            start, end = match.span()
            out_starts.append(start - shrink)
            in_starts.append(start)
            in_ends.append(end)
            shrink += end - start - width
        return _Stage(out_starts, in_starts, in_ends, width)

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


class FoldedText:
    """A text prepared for many quote look-ups: fold once, locate many times."""

    def __init__(self, text: str):
        self.text = text
        self._translated = text.translate(_TABLE)
        self._unemphasised = self._translated.replace("_", "").replace("*", "")
        self.folded = _COLLAPSIBLE_RUN.sub(r"\1", self._unemphasised)

    @cached_property
    def _emphasis(self) -> _Stage:
        return _Stage.of(_EMPHASIS_RUN, self._translated, 0)

    @cached_property
    def _runs(self) -> _Stage:
        return _Stage.of(_COLLAPSIBLE_RUN, self._unemphasised, 1)

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Character span [start, end) of the folded text as a span of the original text.

        It runs from the first original character behind `folded[start]` to the last one behind
        `folded[end - 1]`: emphasis marks just outside are not included, those inside are.
        """
        lo, _ = self._runs.back(start)
        _, hi = self._runs.back(end - 1)
        first, _ = self._emphasis.back(lo)
        _, last = self._emphasis.back(hi - 1)
        return first, last

    @cached_property
    def _ascii(self) -> bool:
        return self.text.isascii()

    def byte_offset(self, index: int) -> int:
        """UTF-8 byte offset of character `index` of the original text."""
        if self._ascii:
            return index
        return len(self.text[:index].encode("utf-8"))
