"""Retrieval quality: citegraph's `context` against a BM25 baseline (bm25s) over the same chunks.

- SQuAD 2.0 dev-16: all 16 articles in one scope, each paragraph a document. Recall@8: the
  share of answerable questions whose paragraph is among the documents of the top 8 items.
  Also the verdicts: the share of answerable questions that are `grounded`, and of
  unanswerable ones that are not (a measurement, not a target).
- HotpotQA dev-50 (distractor): all 500 paragraphs in one scope, each a document named and
  titled with its title. The share of questions with both supporting paragraphs in the top 8.

The baseline ranks the very same chunk texts (read back from the store) with bm25s and takes
the top 8. Targets: at least the baseline on SQuAD, clearly above it on HotpotQA.

    python bench/retrieval.py [--datasets ../shared/datasets] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

import bm25s

import citegraph
from citegraph.models.embeddings import embedder_from_setting
from citegraph.text.words import STOPWORDS, tokens

import squad

ROOT = Path(__file__).resolve().parent.parent
TOP = 8


def _bm25(scope: citegraph.Scope) -> tuple[bm25s.BM25, list[str]]:
    names: list[str] = []
    texts: list[str] = []
    for doc in scope.documents():
        for chunk in scope.chunks(doc.id):
            names.append(doc.name)
            texts.append(chunk.text)
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False)
    return retriever, names


def _bm25_top(retriever: bm25s.BM25, names: list[str], question: str) -> list[str]:
    query = bm25s.tokenize([question], stopwords="en", show_progress=False)
    if not query.vocab:
        return []
    results, _ = retriever.retrieve(query, k=min(TOP, len(names)), show_progress=False)
    return [names[i] for i in results[0]]


def squad_recall(ws: citegraph.Workspace, datasets: Path, limit: int | None) -> None:
    scope = ws.scope("bench_squad")
    ws.drop_scope(scope.name)
    scope = ws.scope(scope.name)
    items, loaded = squad.load(datasets)
    questions = [(q.text, q.paragraph, q.impossible) for q in loaded]
    started = time.perf_counter()
    scope.ingest_many(items, media_type="text/plain")
    print(
        f"\nSQuAD dev-16: {len(items)} paragraphs ingested in {time.perf_counter() - started:.1f} s"
    )
    retriever, names = _bm25(scope)
    if limit:
        questions = questions[:limit]
    ours_hits = base_hits = answerable = 0
    verdicts: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
    latencies: list[float] = []
    for question, gold, impossible in questions:
        if not any(w.casefold() not in STOPWORDS for w in tokens(question)):
            continue
        started = time.perf_counter()
        evidence = scope.context(question, k=TOP)
        latencies.append(time.perf_counter() - started)
        verdicts[impossible][evidence.verdict.state.value] += 1
        if impossible:
            continue
        answerable += 1
        ours_hits += gold in {item.document_name for item in evidence.items}
        base_hits += gold in _bm25_top(retriever, names, question)
    print(
        f"  answerable questions: {answerable}; recall@{TOP}: citegraph "
        f"{ours_hits / answerable:.3f}, bm25s {base_hits / answerable:.3f}"
    )
    for impossible, label in ((False, "answerable"), (True, "unanswerable")):
        counts = verdicts[impossible]
        total = sum(counts.values())
        grounded = counts["grounded"] / total if total else 0.0
        shown = ", ".join(f"{k} {v}" for k, v in counts.most_common())
        print(f"  {label}: {total} questions, grounded {grounded:.3f} ({shown})")
    print(
        f"  context latency: p50 {statistics.median(latencies) * 1000:.1f} ms, "
        f"p95 {sorted(latencies)[int(0.95 * len(latencies))] * 1000:.1f} ms"
    )


def hotpot(ws: citegraph.Workspace, datasets: Path, limit: int | None) -> None:
    data = json.loads((datasets / "hotpotqa" / "hotpot-dev-distractor-50.json").read_text())
    if limit:
        data = data[:limit]
    scope = ws.scope("bench_hotpot")
    ws.drop_scope(scope.name)
    scope = ws.scope(scope.name)
    paragraphs: dict[str, str] = {}
    for example in data:
        for title, sentences in example["context"]:
            paragraphs.setdefault(title, "".join(sentences))
    scope.ingest_many(
        [(title, text.encode(), title) for title, text in paragraphs.items()],
        media_type="text/plain",
    )
    retriever, names = _bm25(scope)
    ours = base = 0
    for example in data:
        gold = {title for title, _ in example["supporting_facts"]}
        evidence = scope.context(example["question"], k=TOP)
        ours += gold <= {item.document_name for item in evidence.items}
        base += gold <= set(_bm25_top(retriever, names, example["question"]))
    print(
        f"\nHotpotQA dev-50: {len(paragraphs)} paragraphs, {len(data)} questions; both "
        f"supporting paragraphs in the top {TOP}: citegraph {ours / len(data):.3f}, "
        f"bm25s {base / len(data):.3f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions")
    parser.add_argument("--only", choices=["squad", "hotpot"], default=None)
    parser.add_argument(
        "--embed",
        default=None,
        help="also search by meaning with this embedding model (CITEGRAPH_EMBED_MODEL syntax)",
    )
    args = parser.parse_args()
    embedder = embedder_from_setting(args.embed)
    if embedder is not None:
        print(f"search by meaning with {embedder.name}")
    if not args.datasets.exists():
        print(f"data sets not found at {args.datasets}")
        return 1
    with tempfile.TemporaryDirectory() as home, citegraph.open(home, embedder=embedder) as ws:
        if args.only in (None, "hotpot"):
            hotpot(ws, args.datasets, args.limit)
        if args.only in (None, "squad"):
            squad_recall(ws, args.datasets, args.limit)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
