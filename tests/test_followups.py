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


@pytest.mark.parametrize(
    ("question", "answer", "follow_up", "expected"),
    [
        # it: what the last question was about, never the "It’s" of the Duchess's speech.
        (
            "Who is the Cheshire Cat?",
            "“It’s a Cheshire cat,” said the Duchess, “and that’s why.”",
            "Why does it grin?",
            "Why does Cheshire Cat grin?",
        ),
        # he: a person, with an initial in the name; not the university of the answer.
        (
            "What did Charles W. Eliot do at Harvard?",
            "Eliot's long tenure transformed Harvard University into a research university.",
            "When did he leave?",
            "When did Charles W. Eliot leave?",
        ),
        # she: the person, not the city or the university named after her.
        (
            "Where did Marie Curie work?",
            "Marie Curie worked in Paris at the Sorbonne.",
            "What did she discover?",
            "What did Marie Curie discover?",
        ),
        (
            "Who were the Normans?",
            "The Normans were the people who gave their name to Normandy.",
            "Where did they settle?",
            "Where did Normans settle?",
        ),
        (
            "What does the checkoutservice do?",
            "It retrieves the user's cart and orchestrates the payment.",
            "What is its language?",
            "What is checkoutservice's language?",
        ),
    ],
)
def test_pronouns_are_resolved_offline_to_what_the_conversation_was_about(
    question: str, answer: str, follow_up: str, expected: str
) -> None:
    from citegraph.answer.followup import rewrite

    result, _ = rewrite(follow_up, [Turn(question, answer)], None)
    assert (result.question, result.outcome) == (expected, RewriteOutcome.REWRITTEN)


def test_a_pronoun_with_nothing_to_mean_is_asked_as_is_and_said() -> None:
    from citegraph.answer.followup import rewrite

    turns = [Turn("What is the weather like?", "it rains a lot here")]
    result, _ = rewrite("Why does it happen?", turns, None)
    assert result.question == "Why does it happen?"
    assert result.outcome is RewriteOutcome.UNRESOLVED
    speech = [Turn("What did the Hatter say?", "“I’m late, I’m late,” it said.")]
    quoted, _ = rewrite("Why was he late?", speech, None)
    assert "I’m" not in quoted.question
