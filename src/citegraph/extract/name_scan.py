"""The words of a text worth a look as names, found without a Python step per word.

Most words of prose are lowercase and name nothing. The offline extractor used to read every
word in a Python loop, which made the entity layer most of an ingest's time. Here regular
expressions (which run in C) find only the places where a name may be: a capital letter, a
software suffix at a word's end ("checkoutservice"), an underscore, a dot before a lowercase
letter ("config.yaml"). Each place is widened to the whole word it is in, the word read as
`WORD` reads words, so the words found are exactly those a word-by-word reading would pick.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

WORD = re.compile(r"[^\W_][\w'’.-]*[^\W_]|[^\W_]")
SOFTWARE_SUFFIXES = (
    "service", "mapper", "api", "db", "svc", "server", "worker", "proxy", "gateway", "client",
    "cache", "queue", "indexer", "scheduler", "controller", "manager", "store", "daemon",
)  # fmt: skip
# Characters that may join the parts of one word ("isn't", "origin-mapper", "a.b", "x_y").
_JOINERS = "_'’.-"


def _capitals() -> str:
    """A character class of the capital letters of the Basic Multilingual Plane: a class
    that starts a pattern lets the engine skip, in C, every place no capital is."""
    ranges: list[tuple[int, int]] = []
    for code in range(0x10000):
        if chr(code).isupper():
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))
    parts = (
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in ranges
    )
    return "[" + "".join(parts) + "]"


_CAPITAL = re.compile(_capitals() + r"[\w'’.-]*")
_SUFFIX = re.compile("(?:" + "|".join(SOFTWARE_SUFFIXES) + r")(?![\w'’.-]*[^\W_])")
_MARK = re.compile(r"_|\.(?=[a-z])")


def _word_start(text: str, index: int) -> int:
    """Where the word holding `text[index]` starts. A word is a run of letters, digits and
    joiners without its joiners at either end, so it starts at the first letter or digit of
    the run around `index`."""
    while index > 0 and (text[index - 1].isalnum() or text[index - 1] in _JOINERS):
        index -= 1
    while index < len(text) and not text[index].isalnum():
        index += 1
    return index


def _starts(pattern: re.Pattern[str], text: str) -> Iterator[int]:
    return (match.start() for match in pattern.finditer(text))


def literal_places(text: str, literals: Iterable[str], pattern: re.Pattern[str]) -> list[int]:
    """Where `pattern` matches at a place one of `literals` is written, in order. Each literal
    is looked for with `str.find` (a scan in C far quicker than trying an alternation of
    words at every place), and each place it is written checked with the pattern."""
    places: list[int] = []
    for literal in literals:
        at = text.find(literal)
        while at >= 0:
            if pattern.match(text, at) is not None:
                places.append(at)
            at = text.find(literal, at + 1)
    places.sort()
    return places


def _suffix_starts(text: str) -> list[int]:
    """Where `_SUFFIX` matches, in order; a word holds at most one match, so the words these
    places lead to are those `_SUFFIX.finditer` leads to."""
    return literal_places(text, SOFTWARE_SUFFIXES, _SUFFIX)


def words_worth_a_look(text: str) -> list[tuple[int, int, str]]:
    """The words of `text` (start, end, word) that hold a capital letter, an underscore, a
    dot before a lowercase letter, or end in a software suffix, in order; every other word
    is skipped."""
    found: dict[int, re.Match[str]] = {}
    for places in (_starts(_CAPITAL, text), _suffix_starts(text), _starts(_MARK, text)):
        end = 0
        for at in places:
            if at < end:
                continue  # in the word just found (long runs are walked once, not per mark)
            inside = at > 0 and (text[at - 1].isalnum() or text[at - 1] in _JOINERS)
            if inside or not text[at].isalnum():  # most often a capital after a space: no walk
                at = _word_start(text, at)
            word = WORD.match(text, at)
            if word is not None:
                found.setdefault(word.start(), word)
                end = word.end()
    return [(start, (m := found[start]).end(), m.group()) for start in sorted(found)]
