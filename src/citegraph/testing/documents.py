"""Answer documents made up for tests and benchmarks of the check: what its cost and its caps
are measured on."""

from __future__ import annotations

from typing import Any


def answer_with_citations(sentence: str, repeats: int, citations: int) -> dict[str, Any]:
    """A citegraph-answer/1 document whose one evidence item is `sentence` repeated `repeats`
    times, cited `citations` times by the sentence's first word, spread evenly over the item
    (each citation a whole word at a sentence start)."""
    text = sentence * repeats
    word = sentence.split()[0]
    step = repeats // citations * len(sentence)
    cited = [
        {
            "evidence": "E1", "documentId": "doc_1", "chunkId": "doc_1-0",
            "startByte": n * step, "endByte": n * step + len(word.encode()), "quote": word,
            "grounding": "source", "page": None, "endPage": None, "textOrigin": None,
        }
        for n in range(citations)
    ]  # fmt: skip
    item = {
        "id": "E1", "documentId": "doc_1", "documentName": "a.txt", "chunkId": "doc_1-0",
        "startByte": 0, "endByte": len(text.encode()), "text": text, "score": 1.0,
        "retrievers": ["keyword"], "page": None, "endPage": None, "textOrigin": None,
        "citable": True,
    }  # fmt: skip
    return {
        "format": "citegraph-answer/1", "version": "0.1.0",
        "createdAt": "2026-11-30T00:00:00+00:00", "question": "Is all well?",
        "disposition": "answered", "text": "All is well.", "reason": None, "detail": "",
        "problems": [],
        "receipt": {"answerer": "scripted", "chatCalls": 1, "inputTokens": None,
                    "outputTokens": None, "retrievalMs": 1.0, "answerMs": 1.0},
        "claims": [{"text": "All is well.", "citations": cited}],
        "evidence": {"items": [item], "context": [],
                     "verdict": {"state": "grounded", "uncovered": [], "matchedNames": [],
                                 "stage": None, "detail": ""},
                     "contentWords": ["well"]},
    }  # fmt: skip
