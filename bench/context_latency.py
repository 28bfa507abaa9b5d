"""Latency of `context` as the store grows: p50 and p95 at 1k, 10k and 100k chunks.

The corpus is SQuAD dev-16's paragraphs, copied with a numbered suffix until the scope holds
the wanted number of chunks (entities extracted as usual; no embeddings). Questions are SQuAD's,
asked after a warm-up. Target: p95 at most 50 ms at 100k chunks.

    python bench/context_latency.py [--sizes 1000,10000,100000] [--questions 200]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import citegraph

import squad

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--questions", type=int, default=200)
    args = parser.parse_args()
    try:
        items, loaded = squad.load(args.datasets)
    except FileNotFoundError as exc:
        print(exc)
        return 1
    paragraphs = [(name, text.decode(), title) for name, text, title in items]
    questions = [q.text for q in loaded]
    questions = questions[:: max(1, len(questions) // args.questions)][: args.questions]
    sizes = sorted(int(s) for s in args.sizes.split(","))
    print(f"{'chunks':>8} {'ingest s':>9} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    rows = []
    with tempfile.TemporaryDirectory() as home, citegraph.open(home) as ws:
        scope = ws.scope("latency")
        copy = 0
        chunks = 0
        for size in sizes:
            started = time.perf_counter()
            while chunks < size:
                batch = [
                    (f"{name} copy {copy}", f"{text} [copy {copy}]".encode(), title)
                    for name, text, title in paragraphs
                ]
                chunks += sum(r.document.chunk_count for r in scope.ingest_many(batch))
                copy += 1
            ingest_s = time.perf_counter() - started
            for question in questions[:20]:
                scope.context(question)  # warm-up: caches and the server's page cache
            times = []
            for question in questions:
                started = time.perf_counter()
                scope.context(question)
                times.append((time.perf_counter() - started) * 1000)
            times.sort()
            p50 = statistics.median(times)
            p95 = times[int(0.95 * (len(times) - 1))]
            rows.append((chunks, p50, p95))
            print(
                f"{chunks:>8} {ingest_s:>9.1f} {p50:>8.1f} {p95:>8.1f} {times[-1]:>8.1f}",
                flush=True,
            )
    if len(rows) > 1:
        (c0, _, q0), (c1, _, q1) = rows[0], rows[-1]
        print(
            f"p95 grew {q1 / q0:.1f}x while the store grew {c1 / c0:.0f}x "
            f"(target: p95 <= 50 ms at 100k chunks: {'met' if q1 <= 50 else 'missed'})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
