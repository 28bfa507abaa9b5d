"""How long `check` takes against citations x item size, with the least work it must do as the
baseline, measured in the same run.

An exported answer with one evidence item of S MB and C citations of "All" (each at its own
whole-word span), checked offline with `citegraph.check`. The baseline encodes the item once
and compares each citation's bytes at its span: what any check must do at least. Linear means
the time follows S + C, not S x C (before, each citation folded the whole item again: 15 ms a
citation on a 1 MB item). Target: a 4 MB item with 5,000 citations in under 2 s.

    python bench/check.py
"""

from __future__ import annotations

import json
import time
from typing import Any

from citegraph.audit.check import check
from citegraph.audit.export import from_json

SENTENCE = "All is well in the harbour. "
MB = 1024 * 1024


def export(size_mb: float, citations: int) -> str:
    text = SENTENCE * int(size_mb * MB / len(SENTENCE))
    step = len(text) // citations // len(SENTENCE) * len(SENTENCE)
    cited: list[dict[str, Any]] = [
        {
            "evidence": "E1",
            "documentId": "doc_1",
            "chunkId": "doc_1-0",
            "startByte": n * step,
            "endByte": n * step + 3,
            "quote": "All",
            "grounding": "source",
            "page": None,
            "endPage": None,
            "textOrigin": None,
        }
        for n in range(citations)
    ]
    item = {
        "id": "E1", "documentId": "doc_1", "documentName": "harbour.txt", "chunkId": "doc_1-0",
        "startByte": 0, "endByte": len(text), "text": text, "score": 1.0,
        "retrievers": ["keyword"], "page": None, "endPage": None, "textOrigin": None,
        "citable": True,
    }  # fmt: skip
    document = {
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
    return json.dumps(document)


def main() -> None:
    print(f"{'item MB':>8} {'citations':>10} {'check s':>9} {'baseline s':>11} {'ratio':>7}")
    for size_mb, citations in ((0.25, 500), (1, 500), (1, 5000), (4, 500), (4, 5000)):
        answer = from_json(export(size_mb, citations))
        started = time.perf_counter()
        problems = check(answer)
        took = time.perf_counter() - started
        assert problems == [], problems[:3]
        started = time.perf_counter()
        [item] = answer.evidence.items
        raw = item.text.encode("utf-8")
        for c in answer.citations:
            assert raw[c.start_byte : c.end_byte] == c.quote.encode("utf-8")
        baseline = time.perf_counter() - started
        print(
            f"{size_mb:>8g} {citations:>10,} {took:>9.3f} {baseline:>11.3f} "
            f"{took / baseline:>7.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
