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

from citegraph.audit.check import check
from citegraph.audit.export import from_json
from citegraph.testing.documents import answer_with_citations

SENTENCE = "All is well in the harbour. "
MB = 1024 * 1024


def export(size_mb: float, citations: int) -> str:
    repeats = int(size_mb * MB / len(SENTENCE))
    return json.dumps(answer_with_citations(SENTENCE, repeats, citations))


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
