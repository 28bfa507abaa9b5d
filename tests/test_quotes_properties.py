"""Property-based tests of quote matching against an independent, literal reading of the rule:
a quote matches when some span of the text equals it once the forgiven differences are set
aside, and that span starts and ends at word boundaries. The oracle below folds character by
character and tries every span."""

from __future__ import annotations

import sys

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from citegraph.text.fold import WHITESPACE
from citegraph.text.quotes import locate

SPACES = [" ", "\n", "\t", "\r\n", "\u00a0", "  ", "\n\n"]
SINGLE = ["'", "‘", "’", "‚", "‛", "′"]
DOUBLE = ['"', "“", "”", "„", "‟", "″"]
DASH_CHARS = "-‐‑‒–—―−"
LETTERS = list("abcdeABCDEéßü中文𝔘")


def slow_fold(s: str) -> str:
    """The rule, written out plainly and independently of the library's folding."""
    out: list[str] = []
    for ch in s:
        if ch in "_*":
            continue
        if ch.isspace():
            c = " "
        elif ch in DASH_CHARS or ch in "\u00ad\u2043\ufe58\ufe63\uff0d":
            c = "-"
        elif ch in "".join(SINGLE + DOUBLE) or ch in "\u2035\u2036":
            c = "'"
        else:
            c = ch
        if c in " -" and out and out[-1] == c:
            continue
        out.append(c)
    return "".join(out)


def wordy(ch: str) -> bool:
    """A letter or digit of a script that puts spaces between words (not CJK, Thai...)."""
    unspaced = ("\u0e00" <= ch <= "\u0eff" or "\u1000" <= ch <= "\u109f"
                or "\u1780" <= ch <= "\u17ff" or "\u2e80" <= ch <= "\ua4cf"
                or "\uf900" <= ch <= "\ufaff" or "\uff66" <= ch <= "\uff9f"
                or "\U00020000" <= ch <= "\U0003ffff")  # fmt: skip
    return ch.isalnum() and not unspaced


def at_word_edges(text: str, i: int, j: int) -> bool:
    """Does text[i:j], without the emphasis marks and whitespace at its ends, start and end at
    word boundaries (no letter or digit on both sides of an edge)?"""
    while i < j and (text[i] in "_*" or text[i].isspace()):
        i += 1
    while j > i and (text[j - 1] in "_*" or text[j - 1].isspace()):
        j -= 1
    if i == j:
        return False
    left = i > 0 and wordy(text[i - 1]) and wordy(text[i])
    right = j < len(text) and wordy(text[j - 1]) and wordy(text[j])
    return not left and not right


def oracle(quote: str, text: str) -> bool:
    """Is there a span of `text` equal to `quote` after forgiving, at word boundaries? (no
    elisions here)"""
    target = slow_fold(quote.strip()).strip(" ")
    if not target:
        return False
    n = len(text)
    return any(
        slow_fold(text[i:j]) == target and at_word_edges(text, i, j)
        for i in range(n)
        for j in range(i + 1, n + 1)
    )


token = st.one_of(
    st.sampled_from(LETTERS),
    st.sampled_from(SPACES),
    st.sampled_from(SINGLE + DOUBLE),
    st.sampled_from([*DASH_CHARS, "--"]),
    st.sampled_from(["_", "*", ",", "!", "?"]),
)
texts = st.lists(token, min_size=1, max_size=40).map("".join)


def test_whitespace_list_is_complete() -> None:
    expected = "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace())
    assert set(WHITESPACE) == set(expected)


@st.composite
def forgiven_perturbation(draw: st.DrawFn, text: str, i: int, j: int) -> str:
    """Re-type text[i:j] changing only what is forgiven."""
    out: list[str] = [draw(st.sampled_from(["", " ", "\n  "]))]
    k = i
    sub = text
    while k < j:
        ch = sub[k]
        if ch.isspace():
            while k < j and sub[k].isspace():
                k += 1
            out.append(draw(st.sampled_from(SPACES)))
            continue
        if ch in DASH_CHARS:
            while k < j and sub[k] in DASH_CHARS:
                k += 1
            out.append(draw(st.sampled_from(["-", "--", "—", "–", "---"])))
            continue
        if ch in "".join(SINGLE + DOUBLE):
            out.append(draw(st.sampled_from(SINGLE + DOUBLE)))
        elif ch in "_*":
            if draw(st.booleans()):
                out.append(ch)
        else:
            out.append(ch)
        if draw(st.integers(0, 9)) == 0:
            out.append(draw(st.sampled_from(["_", "*", "__"])))
        k += 1
    out.append(draw(st.sampled_from(["", " ", "\t"])))
    return "".join(out)


@settings(max_examples=400, deadline=None)
@given(st.data(), texts)
def test_forgiven_perturbations_are_located(data: st.DataObject, text: str) -> None:
    i = data.draw(st.integers(0, len(text) - 1))
    j = data.draw(st.integers(i + 1, len(text)))
    assume(slow_fold(text[i:j]).strip(" "))
    assume(at_word_edges(text, i, j))
    quote = data.draw(forgiven_perturbation(text, i, j))
    match = locate(quote, text)
    assert match.found, (quote, text)
    assert slow_fold(match.text) == slow_fold(quote.strip()).strip(" ")
    assert text.encode()[match.start_byte : match.end_byte].decode() == match.text
    assert match.count >= 1
    assert locate(quote, text) == match  # deterministic


@st.composite
def unforgiven_perturbation(draw: st.DrawFn, text: str, i: int, j: int) -> str:
    sub = text[i:j]
    kind = draw(st.sampled_from(["letter", "case", "drop", "add"]))
    positions = [k for k, ch in enumerate(sub) if ch in LETTERS]
    if kind in ("letter", "case") and positions:
        k = draw(st.sampled_from(positions))
        ch = sub[k]
        if kind == "case" and ch.swapcase() != ch:
            new = ch.swapcase()
        else:
            new = draw(st.sampled_from([c for c in LETTERS if c != ch]))
        return sub[:k] + new + sub[k + 1 :]
    words = sub.split(" ")
    if kind == "drop" and len(words) > 1:
        k = draw(st.integers(0, len(words) - 1))
        return " ".join(words[:k] + words[k + 1 :])
    k = draw(st.integers(0, len(words)))
    return " ".join([*words[:k], draw(st.sampled_from(["xyz", "Q", "中"])), *words[k:]])


@settings(max_examples=400, deadline=None)
@given(st.data(), texts)
def test_unforgiven_changes_are_located_only_when_truly_present(
    data: st.DataObject, text: str
) -> None:
    i = data.draw(st.integers(0, len(text) - 1))
    j = data.draw(st.integers(i + 1, len(text)))
    quote = data.draw(unforgiven_perturbation(text, i, j))
    match = locate(quote, text)
    assert match.found == oracle(quote, text), (quote, text)
    if match.found:
        assert slow_fold(match.text) == slow_fold(quote.strip()).strip(" ")


@settings(max_examples=300, deadline=None)
@given(st.data(), texts, texts)
def test_a_quote_stitched_from_two_chunks_is_not_located_in_either(
    data: st.DataObject, first: str, second: str
) -> None:
    i = data.draw(st.integers(0, len(first) - 1))
    j = data.draw(st.integers(1, len(second)))
    quote = first[i:] + second[:j]
    for chunk in (first, second):
        assert locate(quote, chunk).found == oracle(quote, chunk)


def _splits_a_run(text: str, cut: int) -> bool:
    """Does a cut here fall inside a whitespace or dash run (emphasis marks set aside)?"""
    left = text[:cut].rstrip("_*")
    right = text[cut:].lstrip("_*")
    if not left or not right:
        return False
    a, b = left[-1], right[0]
    return (a.isspace() and b.isspace()) or (a in DASH_CHARS and b in DASH_CHARS)


@settings(max_examples=300, deadline=None)
@given(st.data(), st.lists(token, min_size=6, max_size=60).map("".join))
def test_elided_quotes_are_located_in_order(data: st.DataObject, text: str) -> None:
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), min_size=4, max_size=6)))
    # A run of whitespace or dashes is one unit: an elision may not split one.
    assume(not any(_splits_a_run(text, c) for c in cuts))
    spans = [(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False)]
    spans = [(a, b) for a, b in spans if slow_fold(text[a:b]).strip(" ")]
    assume(all(at_word_edges(text, a, b) for a, b in spans))
    parts = [text[a:b] for a, b in spans]
    assume(1 <= len(parts) <= 3)
    elision = data.draw(st.sampled_from(["...", "…", " ... ", " … "]))
    quote = elision.join(parts)
    match = locate(quote, text)
    assert match.found, (quote, text)
    folded = slow_fold(match.text)
    position = 0
    for part in (slow_fold(p).strip(" ") for p in parts):
        found = folded.find(part, position)
        assert found >= 0
        position = found + len(part)
    assert folded.startswith(slow_fold(parts[0]).strip(" "))
    assert folded.endswith(slow_fold(parts[-1]).strip(" "))
