"""Answers: every quote verified against the item it names, or a refusal with its reason."""

from __future__ import annotations

import json

import pytest

from citegraph import Scope
from citegraph.models.chat import ScriptedChat
from citegraph.values.answers import Disposition, RefusalReason

NOTES = (
    b"The checkout service calls the \xe2\x80\x9cpayment gateway\xe2\x80\x9d to capture the "
    b"card. When the gateway times out, checkout releases the reserved stock\xe2\x80\x94and "
    b"tells the customer that _nothing_ was charged.\n\n"
    b"The pricing service keeps a pool of 64 database connections."
)
QUESTION = "What does checkout do when the payment gateway times out?"


@pytest.fixture
def notes(scope: Scope) -> Scope:
    scope.ingest(NOTES, name="checkout.md")
    scope.ingest(b"Unrelated: the office plants are watered on Fridays.", name="plants.md")
    return scope


def _reply(*claims: tuple[str, str, str], answer: str = "It releases the stock.") -> str:
    return json.dumps(
        {
            "answer": answer,
            "claims": [
                {"text": text, "citations": [{"evidence": item, "quote": quote}]}
                for text, item, quote in claims
            ],
        }
    )


def _ask(scope: Scope, reply: str) -> tuple[object, ScriptedChat]:
    model = ScriptedChat([reply])
    return scope.ask(QUESTION, model=model), model


def test_a_verified_answer_keeps_the_stored_bytes(notes: Scope) -> None:
    quote = (
        "When the gateway times out, checkout releases the reserved stock--and tells the "
        "customer that nothing was charged."
    )
    answer, model = _ask(notes, "```json\n" + _reply(("Stock is released.", "E1", quote)) + "\n```")
    assert answer.disposition is Disposition.ANSWERED, answer
    [citation] = answer.citations
    stored = notes.stored_text("checkout.md")
    assert stored[citation.start_byte : citation.end_byte].decode() == citation.quote
    assert "—and" in citation.quote and "_nothing_" in citation.quote
    assert answer.receipt.chat_calls == 1 and answer.receipt.answerer == "scripted"
    assert len(model.calls) == 1


MISBEHAVIOUR = {
    "fabricated quote": (
        _reply(("x", "E1", "checkout refunds the card twice")),
        RefusalReason.CITATION_NOT_FOUND,
    ),
    "item not given": (
        _reply(("x", "E9", "The checkout service")),
        RefusalReason.CITATION_NOT_FOUND,
    ),
    "context passage": (
        _reply(("x", "C1", "The checkout service")),
        RefusalReason.CITATION_NOT_FOUND,
    ),
    "no citations": (
        json.dumps({"answer": "It releases stock.", "claims": []}),
        RefusalReason.NO_CITATIONS,
    ),
    "one claim uncited": (
        json.dumps(
            {
                "answer": "a",
                "claims": [
                    {
                        "text": "a",
                        "citations": [{"evidence": "E1", "quote": "The checkout service"}],
                    },
                    {"text": "b", "citations": []},
                ],
            }
        ),
        RefusalReason.NO_CITATIONS,
    ),
    "one real, one fabricated": (
        json.dumps(
            {
                "answer": "a",
                "claims": [
                    {
                        "text": "a",
                        "citations": [
                            {"evidence": "E1", "quote": "The checkout service"},
                            {"evidence": "E1", "quote": "refunds twice"},
                        ],
                    },
                ],
            }
        ),
        RefusalReason.CITATION_NOT_FOUND,
    ),
    "prose": ("Checkout releases the stock, as the notes say.", RefusalReason.UNREADABLE_RESPONSE),
    "wrong types": (
        json.dumps({"answer": 42, "claims": "E1"}),
        RefusalReason.UNREADABLE_RESPONSE,
    ),
    "one megabyte": ("x" * 1_000_000, RefusalReason.UNREADABLE_RESPONSE),
    "declined": (json.dumps({"declined": "not in the evidence"}), RefusalReason.MODEL_DECLINED),
}


@pytest.mark.parametrize("case", sorted(MISBEHAVIOUR))
def test_misbehaving_models_are_refused_with_the_right_reason(notes: Scope, case: str) -> None:
    reply, reason = MISBEHAVIOUR[case]
    answer, _ = _ask(notes, reply)
    assert answer.disposition is Disposition.REFUSED
    assert answer.reason is reason, (answer.reason, answer.detail)
    assert answer.text is None and answer.claims == ()


def test_no_evidence_refuses_without_a_chat_call(notes: Scope) -> None:
    model = ScriptedChat([])
    answer = notes.ask("Who won the chess tournament in Reykjavik?", model=model)
    assert answer.reason is RefusalReason.NO_EVIDENCE
    assert model.calls == [] and answer.receipt.chat_calls == 0


def test_the_offline_answerer_quotes_and_verifies(notes: Scope) -> None:
    answer = notes.ask(QUESTION)
    assert answer.disposition is Disposition.ANSWERED, answer.detail
    assert answer.receipt.answerer == "extractive" and answer.receipt.chat_calls == 0
    assert any("releases the reserved stock" in c.quote for c in answer.citations)
    stored = notes.stored_text("checkout.md")
    for citation in answer.citations:
        assert stored[citation.start_byte : citation.end_byte].decode() == citation.quote


def test_the_offline_answerer_declines_what_is_not_covered(notes: Scope) -> None:
    answer = notes.ask("What does checkout do when the payment gateway catches fire?")
    assert answer.disposition is Disposition.REFUSED
    assert answer.reason is RefusalReason.MODEL_DECLINED
    assert "fire" in answer.detail
