"""Verification of a reply against the evidence it was given, item by item."""

from __future__ import annotations

import json

from citegraph.answer.verify import Refusal, Verified, verify
from citegraph.values.answers import RefusalReason
from citegraph.values.evidence import Evidence, EvidenceItem, Verdict, VerdictState

A = "“Curiouser and curiouser!” cried Alice—she was so _much_ surprised.\n"
B = "The pricing service keeps a pool of 64 database connections."
C = "A context passage that may be read but never cited."


def _item(item_id: str, text: str, start: int, citable: bool = True) -> EvidenceItem:
    return EvidenceItem(
        id=item_id, document_id="doc_a", document_name="a.md", chunk_id=f"doc_a-x-{item_id}",
        start_byte=start, end_byte=start + len(text.encode()), text=text, score=1.0,
        retrievers=("keyword",), citable=citable,
    )  # fmt: skip


EVIDENCE = Evidence(
    question="q",
    items=(_item("E1", A, 100), _item("E2", B, 100 + len(A.encode()))),
    context=(_item("C1", C, 0, citable=False),),
    verdict=Verdict(VerdictState.GROUNDED),
    content_words=("q",),
)


def _one(item: str, quote: str) -> str:
    claim = {"text": "t", "citations": [{"evidence": item, "quote": quote}]}
    return json.dumps({"answer": "t", "claims": [claim]})


def test_forgiven_differences_verify_and_keep_the_stored_bytes() -> None:
    result = verify(_one("E1", '"Curiouser and curiouser!" cried Alice--she was so much'), EVIDENCE)
    assert isinstance(result, Verified)
    [citation] = result.claims[0].citations
    assert citation.quote == "“Curiouser and curiouser!” cried Alice—she was so _much"
    assert citation.start_byte == 100
    elided = verify(_one("E1", "Curiouser ... so much surprised"), EVIDENCE)
    assert isinstance(elided, Verified)


def test_real_text_from_another_item_is_not_found() -> None:
    result = verify(_one("E1", "a pool of 64 database connections"), EVIDENCE)
    assert isinstance(result, Refusal) and result.reason is RefusalReason.CITATION_NOT_FOUND


def test_a_quote_across_two_items_is_not_found() -> None:
    for item in ("E1", "E2"):
        result = verify(_one(item, "so much surprised. The pricing service"), EVIDENCE)
        assert isinstance(result, Refusal) and result.reason is RefusalReason.CITATION_NOT_FOUND


def test_citing_a_context_passage_is_named_as_such() -> None:
    result = verify(_one("C1", "A context passage"), EVIDENCE)
    assert isinstance(result, Refusal) and result.reason is RefusalReason.CITATION_NOT_FOUND
    assert "context passage" in result.detail


def test_a_code_fence_is_tolerated_and_nothing_else() -> None:
    good = _one("E2", "64 database connections")
    assert isinstance(verify(f"```json\n{good}\n```", EVIDENCE), Verified)
    assert isinstance(verify(f"```\n{good}\n```", EVIDENCE), Verified)
    for wrapped in (f"Here you go: {good}", f"{good}\nHope this helps", f"```json\n{good}"):
        result = verify(wrapped, EVIDENCE)
        assert isinstance(result, Refusal) and result.reason is RefusalReason.UNREADABLE_RESPONSE
