"""Locating a quote in stored text: the exact byte span, or a reason why not.

    match = locate("what is the use of a book", chunk_text)
    if match.found:
        stored = chunk_bytes[match.start_byte : match.end_byte]

The quote matches a span when both fold to the same text (see `fold.py` for what is forgiven)
after the quote's leading and trailing whitespace is dropped. A quote may hold at most two
elisions (`...` or `…`), which split it into parts that must appear in that order, without
overlapping, in the same text; an elision at the very start or end elides nothing to check and
is not counted. The quote, and each part of an elided one, must start and end at word
boundaries of the stored text: "approved" is not found in "disapproved" (a citation that cuts
a word can flip its meaning). Matching is `str.find` on folded text: linear time, no
backtracking.
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
    MID_WORD = "mid-word"


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


# Scripts written without spaces between words: a span edge between two of their characters
# is a word boundary as far as this rule can tell.
_UNSPACED = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x2E80, 0xA4CF),  # CJK radicals and symbols, kana, bopomofo, CJK ideographs, Yi
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # halfwidth katakana
    (0x20000, 0x3FFFF),  # CJK extensions
)


def is_word_char(ch: str) -> bool:
    """A letter or digit of a script that separates its words."""
    if not ch.isalnum():
        return False
    if ch.isascii():
        return True
    code = ord(ch)
    return not any(lo <= code <= hi for lo, hi in _UNSPACED)


def span_at_word_edges(text: bytes, start: int, end: int) -> bool:
    """Does the byte span [start, end) of UTF-8 `text` start and end at word boundaries? (For
    checking a citation's span as given, without locating its quote again.)"""

    def char_before(at: int) -> str:
        return text[max(0, at - 4) : at].decode("utf-8", "ignore")[-1:]

    def char_after(at: int) -> str:
        return text[at : at + 4].decode("utf-8", "ignore")[:1]

    first, last = char_after(start), char_before(end)
    if start > 0 and first and is_word_char(first) and is_word_char(char_before(start) or " "):
        return False
    nxt = char_after(end)
    return not (end < len(text) and last and nxt and is_word_char(last) and is_word_char(nxt))


def _whole_words(target: FoldedText, begin: int, end: int) -> bool:
    """Does folded[begin:end] stand for a span of the stored text that starts and ends at word
    boundaries (no letter or digit on both sides of either edge)?"""
    text = target.text
    start, stop = target.original_span(begin, end)
    if start > 0 and is_word_char(text[start]) and is_word_char(text[start - 1]):
        return False
    return not (stop < len(text) and is_word_char(text[stop - 1]) and is_word_char(text[stop]))


def _find(target: FoldedText, part: str, position: int, whole: bool) -> int:
    folded = target.folded
    while True:
        found = folded.find(part, position)
        if found < 0 or not whole or _whole_words(target, found, found + len(part)):
            return found
        position = found + 1


def _search(
    target: FoldedText, parts: tuple[str, ...], start: int, whole: bool = True
) -> tuple[int, int] | int:
    """Leftmost match of the parts in order from `start`, each at word boundaries (unless not
    `whole`): (begin, end), or the index of the first part that is missing."""
    position = start
    begin = -1
    for index, part in enumerate(parts):
        found = _find(target, part, position, whole)
        if found < 0:
            return index
        if index == 0:
            begin = found
        position = found + len(part)
    return begin, position


def _count(target: FoldedText, parts: tuple[str, ...], after: int) -> int:
    count = 1
    while True:
        hit = _search(target, parts, after)
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
    hit = _search(target, parsed.parts, 0)
    if not isinstance(hit, tuple):
        missing = hit
        if isinstance(_search(target, parsed.parts, 0, whole=False), tuple):
            return QuoteNotFound(
                NotFoundReason.MID_WORD,
                "the quote is in the text only where it starts or ends inside a word",
            )
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
        count=_count(target, parsed.parts, end),
    )


def locate(quote: str, text: str | bytes) -> QuoteMatch | QuoteNotFound:
    """Locate `quote` in `text` (str, or UTF-8 bytes): its exact span, or why not."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return locate_in(quote, FoldedText(text))
