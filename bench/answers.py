"""The offline extractive answerer on SQuAD 2.0 dev-16: measurements to improve on.

- coverage: the share of answerable questions answered;
- precision: the share of answered (answerable) questions where a gold answer lies inside a
  cited span;
- the refusal rate on unanswerable questions, with counts per refusal reason.

    python bench/answers.py [--datasets ../shared/datasets] [--limit N]
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

import citegraph
from citegraph import Disposition

import squad

ROOT = Path(__file__).resolve().parent.parent


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
    with tempfile.TemporaryDirectory() as home, citegraph.open(home) as ws:
        scope = ws.scope("answers")
        scope.ingest_many(items, media_type="text/plain")
        for question, gold, impossible in questions:
            try:
                answer = scope.ask(question)
            except citegraph.InvalidQuestion as exc:
                errors[str(exc).split(" (")[0]] += 1
                continue
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
    if errors:
        print("not asked (invalid question): " + ", ".join(f"{k}: {v}" for k, v in errors.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
