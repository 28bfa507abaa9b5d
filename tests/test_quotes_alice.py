"""Worked examples from Alice: quotes typed the way people and models type them."""

from __future__ import annotations

import re

import pytest

from citegraph import NotFoundReason, QuoteMatch, locate

from conftest import dataset


@pytest.fixture(scope="module")
def alice() -> bytes:
    return dataset("alice/pg11_alice_body.txt").read_bytes()


def _found(quote: str, text: bytes) -> QuoteMatch:
    match = locate(quote, text)
    assert isinstance(match, QuoteMatch), (quote, match)
    assert text[match.start_byte : match.end_byte].decode() == match.text
    return match


@pytest.mark.parametrize(
    ("quote", "stored"),
    [
        # straight quotes for the book's curly ones, and a line break typed as a space
        (
            '"and what is the use of a book," thought Alice "without pictures or conversations?"',
            "“and what is the use of a book,” thought Alice\n“without pictures or conversations?”",
        ),
        # without the _emphasis_ marks the book has
        (
            "There was nothing so very remarkable in that",
            "There was nothing so _very_ remarkable in that",
        ),
        # -- typed for an em dash, straight apostrophe for a curly one
        ("curtsey as she spoke--fancy curtseying", "curtsey as she spoke—fancy _curtseying"),
        ('I think--" (for, you see', "I think—” (for, you see"),
        ("Alice's Adventures in Wonderland", "Alice’s Adventures in Wonderland"),
        # with the emphasis marks, as stored
        ("nothing so _very_ remarkable", "nothing so _very_ remarkable"),
    ],
)
def test_forgiven_differences_locate_the_stored_bytes(
    alice: bytes, quote: str, stored: str
) -> None:
    assert _found(quote, alice).text == stored


def test_one_elision(alice: bytes) -> None:
    match = _found("Alice was beginning to get very tired ... by her sister on the bank", alice)
    assert match.text.startswith("Alice was beginning to get very tired of sitting")
    assert match.text.endswith("by her sister on the\nbank")
    assert match.start_byte == alice.index(b"Alice was beginning")


def test_two_elisions_with_the_unicode_ellipsis(alice: bytes) -> None:
    match = _found("So she was considering in her own mind … daisy-chain … White Rabbit", alice)
    assert match.text.startswith("So she was considering in her own mind")
    assert "daisy-chain" in match.text and match.text.endswith("White Rabbit")


def test_the_first_occurrence_is_returned_with_the_count(alice: bytes) -> None:
    match = _found("I beg your pardon", alice)
    # Occurrences across a line break or with emphasis marks count too.
    occurrences = [m.start() for m in re.finditer(rb"I[\s_*]+beg[\s_*]+your[\s_*]+pardon", alice)]
    assert match.start_byte == occurrences[0]
    assert match.count == len(occurrences) == 5


@pytest.mark.parametrize(
    ("quote", "reason"),
    [
        ("Curiouser and curiouser!".lower(), NotFoundReason.NOT_IN_TEXT),  # case
        ("There was nothing so very remarkable in this", NotFoundReason.NOT_IN_TEXT),  # a word
        ("There was nothing very remarkable in that", NotFoundReason.NOT_IN_TEXT),  # dropped
        ("down the rabbit hole", NotFoundReason.NOT_IN_TEXT),  # hyphen missing: not forgiven
        ("Curiouser and curiouser?", NotFoundReason.NOT_IN_TEXT),  # other punctuation
        ("sister on the bank ... Alice was beginning", NotFoundReason.OUT_OF_ORDER),
        ("a ... b ... c ... d", NotFoundReason.TOO_MANY_ELISIONS),
        ("… ...", NotFoundReason.ONLY_ELISIONS),
        ("   ", NotFoundReason.EMPTY),
        ("_*_", NotFoundReason.EMPTY),
    ],
)
def test_near_misses_are_refused_with_a_reason(
    alice: bytes, quote: str, reason: NotFoundReason
) -> None:
    first_chunk = alice[: alice.index(b"\n\n", 1800)]  # about a chunk, as citations use
    match = locate(quote, first_chunk)
    assert not match.found
    assert match.reason is reason  # type: ignore[union-attr]
