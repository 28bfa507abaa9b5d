"""A quote starts and ends at word boundaries of the stored text: a quote cut from inside a
word can say the opposite of its source ("approved" from "disapproved"), so it is refused
with the reason `mid-word` (security review, issue 11, item 1)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from citegraph import Scope, locate
from citegraph.audit.check import check
from citegraph.models.chat import ScriptedChat
from citegraph.text.quotes import NotFoundReason
from citegraph.values.answers import Disposition, RefusalReason

MERGER = "The board disapproved the merger with Contoso."


@pytest.mark.parametrize(
    ("quote", "text"),
    [
        ("approved the merger with Contoso", MERGER),
        ("effective in trials", "The drug was ineffective in trials."),
        ("The defendant is not", "The defendant is notorious for delay."),
        ("board disapproved the merge", MERGER),  # cut at its end
        ("the … with Contos", MERGER),  # one part of an elided quote cut
    ],
)
def test_a_quote_cut_inside_a_word_is_refused(quote: str, text: str) -> None:
    found = locate(quote, text)
    assert not found.found
    assert found.reason is NotFoundReason.MID_WORD


def test_the_first_whole_word_occurrence_is_chosen() -> None:
    text = "It was disapproved at first; later the board approved the merger."
    found = locate("approved the merger", text)
    assert found.found and found.start_char == text.index("approved the merger")
    assert found.count == 1  # "disapproved" is not counted


def test_edges_that_are_not_between_two_letters_still_match() -> None:
    assert locate("disapproved", MERGER).found
    assert locate("merger with Contoso.", MERGER).found  # punctuation at the end
    assert locate("very", "it was _very_ late").found  # emphasis marks are not letters
    assert locate("—and", "stock—and tells").found  # a dash edge
    assert locate("中文", "我们学习中文很好").found  # no spaces between words in Chinese


def _reply(claim: str, quote: str) -> str:
    """A model's answer with one claim citing `quote` in E1."""
    citation = {"evidence": "E1", "quote": quote}
    return json.dumps({"answer": claim, "claims": [{"text": claim, "citations": [citation]}]})


def test_a_model_quoting_inside_a_word_gets_no_answer(scope: Scope) -> None:
    scope.ingest(MERGER.encode(), name="minutes.txt")
    reply = _reply("The merger was approved.", "approved the merger with Contoso")
    answer = scope.ask(
        "Did the board approve the merger with Contoso?", model=ScriptedChat([reply])
    )
    assert answer.disposition is Disposition.REFUSED
    assert answer.reason is RefusalReason.CITATION_NOT_FOUND
    assert "inside a word" in answer.detail


def test_check_refuses_a_forged_citation_cut_inside_a_word(scope: Scope) -> None:
    """An export edited to cite "approved ..." inside "disapproved", though the same words
    also stand whole later in the item: the span itself is checked, not just the words."""
    text = "The board disapproved the merger with Contoso; nobody approved the merger with Contoso."
    scope.ingest(text.encode(), name="minutes.txt")
    reply = _reply("Nobody approved it.", "approved the merger with Contoso")
    answer = scope.ask("Who approved the merger with Contoso?", model=ScriptedChat([reply]))
    assert answer.disposition is Disposition.ANSWERED, answer
    [citation] = answer.citations
    assert citation.start_byte == text.index("approved the merger", text.index("nobody"))
    assert check(answer) == []
    # Move the span onto "approved" inside "disapproved": the same bytes, a word cut in two.
    inside = text.index("approved")
    forged_citation = replace(
        citation, start_byte=inside, end_byte=inside + len(citation.quote.encode())
    )
    forged = replace(answer, claims=(replace(answer.claims[0], citations=(forged_citation,)),))
    assert any("inside a word" in problem for problem in check(forged)), check(forged)
