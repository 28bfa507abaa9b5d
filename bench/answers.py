"""The offline extractive answerer on SQuAD 2.0 dev-16: what it answers, how well, how fast.

- coverage: the share of answerable questions answered;
- precision: the share of answered (answerable) questions where a gold answer lies inside a
  cited span;
- the refusal rate on unanswerable questions, with counts per refusal reason;
- ms per question of the whole `ask` path (retrieval, answer, verification);
- the precision-coverage curve: the same evidence answered again as the answerer's
  `min_coverage` moves (the default is marked).

Targets (issue 15): precision >= 0.90 at coverage >= 0.60, and >= 0.60 of unanswerable
questions refused. The dev-16 articles are the development set: expect lower on others.

    python bench/answers.py [--datasets ../shared/datasets] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

import citegraph
from citegraph import Disposition
from citegraph.answer.extractive import MIN_COVERAGE, ExtractiveAnswerer

import squad

ROOT = Path(__file__).resolve().parent.parent
THRESHOLDS = (0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9)


def _quotes(reply: str) -> list[str] | None:
    found = json.loads(reply)
    if "declined" in found:
        return None
    return [c["quote"] for claim in found["claims"] for c in claim["citations"]]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--limit", type=int, default=None, help="only every Nth question")
    args = parser.parse_args()
    try:
        items, loaded = squad.load(args.datasets)
    except FileNotFoundError as exc:
        print(exc)
        return 1
    questions = [(q.text, q.answers, q.impossible) for q in loaded]
    if args.limit:
        questions = questions[:: args.limit]
    answerable = answered = precise = 0
    unanswerable = 0
    refusals: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    timings: list[float] = []
    asked: list[tuple[str, tuple[str, ...], bool, citegraph.Evidence]] = []
    with tempfile.TemporaryDirectory() as home, citegraph.open(home) as ws:
        scope = ws.scope("answers")
        scope.ingest_many(items, media_type="text/plain")
        for question, gold, impossible in questions:
            started = time.perf_counter()
            try:
                answer = scope.ask(question)
            except citegraph.InvalidQuestion as exc:
                errors[str(exc).split(" (")[0]] += 1
                continue
            timings.append((time.perf_counter() - started) * 1000)
            asked.append((question, gold, impossible, answer.evidence))
            if impossible:
                unanswerable += 1
                if answer.disposition is Disposition.REFUSED and answer.reason is not None:
                    refusals[answer.reason.value] += 1
                continue
            answerable += 1
            if answer.disposition is Disposition.ANSWERED:
                answered += 1
                quotes = [c.quote for c in answer.citations]
                precise += any(g in q for g in gold for q in quotes)
    refused = sum(refusals.values())
    print(f"answerable questions: {answerable}")
    print(f"  coverage (answered): {answered / answerable:.3f} ({answered})")
    print(f"  precision (a gold answer inside a cited span): {precise / max(1, answered):.3f}")
    print(f"unanswerable questions: {unanswerable}")
    print(
        f"  refused: {refused / unanswerable:.3f} ({refused}): "
        + ", ".join(f"{k} {v}" for k, v in refusals.most_common())
    )
    timings.sort()
    print(
        f"ask: {statistics.mean(timings):.1f} ms per question on average, "
        f"p50 {statistics.median(timings):.1f}, p95 {timings[int(0.95 * (len(timings) - 1))]:.1f}"
    )
    if errors:
        print("not asked (invalid question): " + ", ".join(f"{k}: {v}" for k, v in errors.items()))
    print("\nprecision-coverage curve (same evidence, the answerer's min_coverage moved):")
    print(f"{'min_coverage':>12} {'coverage':>9} {'precision':>9} {'unanswerable refused':>21}")
    for threshold in THRESHOLDS:
        answerer = ExtractiveAnswerer(min_coverage=threshold)
        n_ans = n_answered = n_precise = n_un = n_refused = 0
        for question, gold, impossible, evidence in asked:
            quotes = _quotes(answerer.reply(question, evidence))
            if impossible:
                n_un += 1
                n_refused += quotes is None
                continue
            n_ans += 1
            if quotes is not None:
                n_answered += 1
                n_precise += any(g in q for g in gold for q in quotes)
        mark = "  (default)" if threshold == MIN_COVERAGE else ""
        print(
            f"{threshold:>12.2f} {n_answered / n_ans:>9.3f} {n_precise / max(1, n_answered):>9.3f}"
            f" {n_refused / max(1, n_un):>21.3f}{mark}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
