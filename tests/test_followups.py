"""Follow-up questions, after the seed note's Artemis II example."""

from __future__ import annotations

import json

import pytest

from citegraph import RewriteOutcome, Scope, ScriptedChat, Turn
from citegraph.values.answers import Disposition

PASSAGE = (
    b"Reid Wiseman commands Artemis II, the first crewed flight of the program. "
    b"Wiseman works for NASA, the space organization of the United States."
)


@pytest.fixture
def artemis(scope: Scope) -> Scope:
    scope.ingest(PASSAGE, name="artemis.md")
    return scope


def _answer(item: str, quote: str) -> str:
    return json.dumps({
        "answer": quote,
        "claims": [{"text": quote, "citations": [{"evidence": item, "quote": quote}]}],
    })  # fmt: skip


def test_a_follow_up_is_rewritten_by_the_model_and_answered_with_a_citation(
    artemis: Scope,
) -> None:
    first = artemis.ask(
        "Who commands Artemis II?",
        model=ScriptedChat([_answer("E1", "Reid Wiseman commands Artemis II")]),
    )
    assert first.disposition is Disposition.ANSWERED
    history = [Turn("Who commands Artemis II?", first.text or "")]
    model = ScriptedChat([
        json.dumps({"question": "Which organization does Reid Wiseman work for?"}),
        _answer("E1", "Wiseman works for NASA, the space organization of the United States."),
    ])  # fmt: skip
    answer = artemis.ask("Which organization does he work for?", history, model=model)
    assert answer.rewrite is not None
    assert answer.rewrite.outcome is RewriteOutcome.REWRITTEN
    assert "Reid Wiseman" in answer.rewrite.question
    assert answer.question == "Which organization does he work for?"
    assert answer.disposition is Disposition.ANSWERED
    assert answer.receipt.chat_calls == 2
    assert "NASA" in answer.citations[0].quote


def test_the_same_follow_up_works_offline(artemis: Scope) -> None:
    first = artemis.ask("Who commands Artemis II?")
    assert first.disposition is Disposition.ANSWERED, first.detail
    history = [Turn("Who commands Artemis II?", first.text or "")]
    answer = artemis.ask("Which organization does he work for?", history)
    assert answer.rewrite is not None
    assert answer.rewrite.question == "Which organization does Reid Wiseman work for?"
    assert answer.disposition is Disposition.ANSWERED, answer.detail
    assert any("NASA" in c.quote for c in answer.citations)
    assert answer.receipt.chat_calls == 0


def test_an_unreadable_rewrite_asks_the_question_as_it_was(artemis: Scope) -> None:
    model = ScriptedChat(["Sure! He means Reid.", _answer("E1", "Reid Wiseman")])
    answer = artemis.ask(
        "What does he command?", [Turn("Who commands Artemis II?", "Reid Wiseman")], model=model
    )
    assert answer.rewrite is not None and answer.rewrite.outcome is RewriteOutcome.UNREADABLE
    assert answer.rewrite.question == "What does he command?"


def test_only_the_newest_six_turns_are_used(artemis: Scope) -> None:
    history = [Turn(f"Question {i}?", "x" * 5000) for i in range(9)]
    model = ScriptedChat([json.dumps({"question": "Who commands Artemis II?"}),
                          _answer("E1", "Reid Wiseman commands Artemis II")])  # fmt: skip
    answer = artemis.ask("And who commands it?", history, model=model)
    assert answer.rewrite is not None and answer.rewrite.turns_used == 6
    assert "history" in answer.limits_reached
    sent = model.calls[0][1].content
    assert "Question 2?" not in sent and "Question 3?" in sent
    assert "x" * 1001 not in sent
