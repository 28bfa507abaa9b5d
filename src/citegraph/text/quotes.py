"""Locating a quote in stored text: the exact byte span, or a reason why not.

    match = locate("what is the use of a book", chunk_text)
    if match.found:
        stored = chunk_bytes[match.start_byte : match.end_byte]

The quote matches a span when both fold to the same text (see `fold.py` for what is forgiven)
after the quote's leading and trailing whitespace is dropped. A quote may hold at most two
elisions (`...` or `…`), which split it into parts that must appear in that order, without
overlapping, in the same text; an elision at the very start or end elides nothing to check and
is not counted. Matching is `str.find` on folded text: linear time, no backtracking.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from .fold import EMPHASIS, FoldedText, fold

MAX_ELISIONS = 2
_ELISION = re.compile(r"(?:\.\.\.+|…)+")


class NotFoundReason(StrEnum):
    EMPTY = "empty-quote"
    ONLY_ELISIONS = "only-elisions"
    TOO_MANY_ELISIONS = "too-many-elisions"
    NOT_TEXT = "not-text"
    NOT_IN_TEXT = "not-in-text"
    OUT_OF_ORDER = "parts-out-of-order"


@dataclass(frozen=True)
class QuoteMatch:
    """Where the quote is: byte span of the text, the stored text of that span, occurrences."""

    start_byte: int
    end_byte: int
    start_char: int
    end_char: int
    text: str
    count: int
    found: bool = True


@dataclass(frozen=True)
class QuoteNotFound:
    reason: NotFoundReason
    detail: str
    found: bool = False


@dataclass(frozen=True)
class _Quote:
    parts: tuple[str, ...]
    leading_emphasis: bool
    trailing_emphasis: bool


def _parse(quote: str) -> _Quote | QuoteNotFound:
    if not quote.isascii():
        try:
            quote.encode("utf-8")
        except UnicodeEncodeError:
            return QuoteNotFound(
                NotFoundReason.NOT_TEXT,
                "the quote holds characters that cannot occur in UTF-8 text (lone surrogates)",
            )
    stripped = quote.strip()
    has_elision = "..." in stripped or "…" in stripped
    raw_parts = _ELISION.split(stripped) if has_elision else [stripped]
    # An elision at either end elides nothing that could be checked.
    inner = raw_parts[:]
    while inner and not inner[0].strip():
        inner.pop(0)
    while inner and not inner[-1].strip():
        inner.pop()
    if not stripped:
        return QuoteNotFound(NotFoundReason.EMPTY, "the quote is empty")
    if not inner:
        return QuoteNotFound(NotFoundReason.ONLY_ELISIONS, "the quote is only elisions")
    elisions = len(inner) - 1
    if elisions > MAX_ELISIONS:
        return QuoteNotFound(
            NotFoundReason.TOO_MANY_ELISIONS,
            f"the quote has {elisions} elisions; at most {MAX_ELISIONS} are allowed",
        )
    parts = tuple(p for p in (fold(part).strip(" ") for part in inner) if p)
    if not parts:
        return QuoteNotFound(
            NotFoundReason.EMPTY, "nothing is left of the quote once forgiven marks are set aside"
        )
    first, last = inner[0].strip(), inner[-1].strip()
    return _Quote(parts, first[:1] in EMPHASIS, last[-1:] in EMPHASIS)


def _search(folded: str, parts: tuple[str, ...], start: int) -> tuple[int, int] | int | None:
    """Leftmost match of the parts in order from `start`: (begin, end), or the index of the
    first part that is missing."""
    position = start
    begin = -1
    for index, part in enumerate(parts):
        found = folded.find(part, position)
        if found < 0:
            return index
        if index == 0:
            begin = found
        position = found + len(part)
    return begin, position


def _count(folded: str, parts: tuple[str, ...], after: int) -> int:
    if len(parts) == 1:
        return 1 + folded.count(parts[0], after)
    count = 1
    while True:
        hit = _search(folded, parts, after)
        if not isinstance(hit, tuple):
            return count
        count += 1
        after = hit[1]


def _widen(text: str, start: int, end: int, quote: _Quote) -> tuple[int, int]:
    """Take in emphasis marks just outside the span on a side where the quote has them too."""
    if quote.leading_emphasis:
        while start > 0 and text[start - 1] in EMPHASIS:
            start -= 1
    if quote.trailing_emphasis:
        while end < len(text) and text[end] in EMPHASIS:
            end += 1
    return start, end


def locate_in(quote: str, target: FoldedText) -> QuoteMatch | QuoteNotFound:
    """Locate `quote` in a prepared text (use this to look up many quotes in one text)."""
    parsed = _parse(quote)
    if isinstance(parsed, QuoteNotFound):
        return parsed
    hit = _search(target.folded, parsed.parts, 0)
    if not isinstance(hit, tuple):
        missing = hit if isinstance(hit, int) else 0
        if len(parsed.parts) > 1 and all(target.folded.find(p) >= 0 for p in parsed.parts):
            return QuoteNotFound(
                NotFoundReason.OUT_OF_ORDER,
                "each part of the quote is in the text, but not in this order",
            )
        what = "the quote" if len(parsed.parts) == 1 else f"part {missing + 1} of the quote"
        return QuoteNotFound(NotFoundReason.NOT_IN_TEXT, f"{what} is not in the text")
    begin, end = hit
    start_char, end_char = target.original_span(begin, end)
    start_char, end_char = _widen(target.text, start_char, end_char, parsed)
    text = target.text[start_char:end_char]
    start_byte = target.byte_offset(start_char)
    return QuoteMatch(
        start_byte=start_byte,
        end_byte=start_byte + (len(text) if text.isascii() else len(text.encode("utf-8"))),
        start_char=start_char,
        end_char=end_char,
        text=text,
        count=_count(target.folded, parsed.parts, end),
    )


def locate(quote: str, text: str | bytes) -> QuoteMatch | QuoteNotFound:
    """Locate `quote` in `text` (str, or UTF-8 bytes): its exact span, or why not."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return locate_in(quote, FoldedText(text))
