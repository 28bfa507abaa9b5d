"""Sentence spans: where quotes, co-mentions and offline relations begin and end."""

from __future__ import annotations

from citegraph.text.sentences import sentence_spans


def _sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


def test_prose_ends_at_a_period_and_not_after_an_abbreviation_or_an_initial() -> None:
    text = "Charles W. Eliot led it, e.g. in 1869. It grew! Did it? Yes.\n\nA new paragraph"
    assert _sentences(text) == [
        "Charles W. Eliot led it, e.g. in 1869.",
        "It grew!",
        "Did it?",
        "Yes.",
        "A new paragraph",
    ]


def test_each_list_item_is_a_sentence_without_its_marker() -> None:
    # Items often end without a period: before, the four items below were one sentence.
    text = (
        "Services:\n"
        "- The cart service keeps carts in memory\n"
        "* Checkout calls the payment service\n"
        "  + nested, it continues\n"
        "  on a second line\n"
        "1. First step\n"
        "12) Twelfth step\n"
        "• a bullet\n"
    )
    assert _sentences(text) == [
        "Services:",
        "The cart service keeps carts in memory",
        "Checkout calls the payment service",
        "nested, it continues\n  on a second line",
        "First step",
        "Twelfth step",
        "a bullet",
    ]


def test_a_heading_is_a_sentence_of_its_own() -> None:
    text = "## Cart Service\nThe cart service stores carts in Redis.\n# Next"
    assert _sentences(text) == ["Cart Service", "The cart service stores carts in Redis.", "Next"]


def test_markers_inside_a_line_are_words() -> None:
    text = "It is cold - minus 5 - and 2. place goes to Ada. Then #3 left."
    assert _sentences(text) == ["It is cold - minus 5 - and 2. place goes to Ada.", "Then #3 left."]


def test_spans_hold_exactly_the_text_they_name() -> None:
    text = "* One item\n   - two. Three\n#### Four\n"
    for start, end in sentence_spans(text):
        assert text[start:end] == text[start:end].strip()
        assert not text[start:end].startswith(("*", "-", "#"))
