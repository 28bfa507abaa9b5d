"""The offline extractive answerer on SQuAD 2.0 dev-16: what it answers, how well, how fast.

- coverage: the share of answerable questions answered;
- precision: the share of answered (answerable) questions where a gold answer lies inside a
  cited span;
- the refusal rate on unanswerable questions, with counts per refusal reason;
- ms per question of the whole `ask` path (retrieval, answer, verification);
- the precision-coverage curve: the same evidence answered again as the answerer's
  `min_coverage` moves (the default is marked).

The same measurements as `citegraph eval` (src/citegraph/evaluate/), printed here.
Targets (issue 15): precision >= 0.90 at coverage >= 0.60, and >= 0.60 of unanswerable
questions refused. The dev-16 articles are the development set: expect lower on others.

    python bench/answers.py [--datasets ../shared/datasets] [--limit N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

import citegraph
from citegraph.evaluate.questions import load
from citegraph.evaluate.runner import run

ROOT = Path(__file__).resolve().parent.parent
SQUAD = Path("squad2") / "squad2-dev-16.json"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--limit", type=int, default=None, help="only every Nth question")
    args = parser.parse_args()
    path = args.datasets / SQUAD
    if not path.exists():
        print(f"SQuAD not found at {path}")
        return 1
    questions = load(path, "squad")
    asked = list(questions.questions)[:: args.limit or 1]
    with tempfile.TemporaryDirectory() as home, citegraph.open(home) as ws:
        scope = ws.scope("answers")
        scope.ingest_many(list(questions.corpus), media_type="text/plain")
        result = run(scope.ask, asked, k=8)
    print(f"answerable questions: {result.answerable}")
    print(f"  coverage (answered): {result.coverage or 0:.3f} ({result.answered})")
    print(f"  precision (a gold answer inside a cited span): {result.precision or 0:.3f}")
    print(f"unanswerable questions: {result.unanswerable}")
    print(
        f"  refused: {result.refused_rate or 0:.3f} ({result.refused_unanswerable}); all "
        "refusals by reason: " + ", ".join(f"{k} {v}" for k, v in result.refusals.most_common())
    )
    print(
        f"ask: {statistics.mean(result.latencies_ms):.1f} ms per question on average, "
        f"p50 {result.latency_p50 or 0:.1f}, p95 {result.latency(0.95) or 0:.1f}"
    )
    if result.not_asked:
        print("not asked: " + ", ".join(f"{k}: {v}" for k, v in result.not_asked.items()))
    print("\nprecision-coverage curve (same evidence, the answerer's min_coverage moved):")
    print(f"{'min_coverage':>12} {'coverage':>9} {'precision':>9} {'unanswerable refused':>21}")
    for p in result.curve:
        mark = "  (default)" if p.default else ""
        print(
            f"{p.min_coverage:>12.2f} {p.coverage:>9.3f} {p.precision:>9.3f}"
            f" {p.refused_unanswerable:>21.3f}{mark}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
