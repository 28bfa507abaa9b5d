"""N scopes x M clients against the embedded store, one FalkorDB server and a 3-master cluster
(with a replica), in the same run, on this machine.

The SQuAD dev-16 paragraphs are dealt out to N scopes (a few paragraphs of one article each).
Ingest: M client processes ingest the scopes in parallel (MB/s per backend). Reads: M client
processes, each with its own workspace, ask `context` with SQuAD's questions of the scope that
holds their paragraph, for S seconds: questions per second, p50 and p95 per backend, and the
errors raised (which must be 0). On one machine a cluster is not faster (every master shares
the same cores); what it costs is the point.

    python bench/scale.py [--scopes 50] [--clients 8] [--seconds 20] [--datasets DIR]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from service_load import percentile

import citegraph
from citegraph.testing.servers import start_cluster, start_server

import squad

ROOT = Path(__file__).resolve().parent.parent


def _open(target: dict[str, str]) -> citegraph.Workspace:
    if target.get("url"):
        return citegraph.open(url=target["url"])
    return citegraph.open(target["home"])


def _ingest(
    target: dict[str, str], jobs: list[tuple[str, list[tuple[str, bytes]]]]
) -> tuple[int, float]:
    with _open(target) as ws:
        started = time.perf_counter()
        size = 0
        for scope, docs in jobs:
            ws.scope(scope).ingest_many(docs, media_type="text/plain")
            size += sum(len(d) for _, d in docs)
        return size, time.perf_counter() - started


def _read(
    target: dict[str, str], questions: list[tuple[str, str]], seconds: float, seed: int
) -> tuple[list[float], list[str]]:
    rng = random.Random(seed)
    latencies: list[float] = []
    errors: list[str] = []
    with _open(target) as ws:
        scopes = {}
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            scope, question = rng.choice(questions)
            s = scopes.setdefault(scope, ws.scope(scope))
            started = time.perf_counter()
            try:
                s.context(question)
            except citegraph.CitegraphError as exc:
                errors.append(f"{scope}: {exc}")
                continue
            latencies.append((time.perf_counter() - started) * 1000)
    return latencies, errors


def measure(
    name: str,
    target: dict[str, str],
    scopes: dict[str, list[tuple[str, bytes]]],
    questions: list[tuple[str, str]],
    clients: int,
    seconds: float,
) -> dict[str, object]:
    names = sorted(scopes)
    shares = [[(s, scopes[s]) for s in names[i::clients]] for i in range(clients)]
    with multiprocessing.Pool(clients) as pool:
        started = time.perf_counter()
        ingested = pool.starmap(_ingest, [(target, share) for share in shares])
        ingest_s = time.perf_counter() - started
        results = pool.starmap(_read, [(target, questions, seconds, i) for i in range(clients)])
    latencies = [ms for lat, _ in results for ms in lat]
    errors = [e for _, errs in results for e in errs]
    mb = sum(size for size, _ in ingested) / 2**20
    return {
        "backend": name,
        "scopes": len(scopes),
        "clients": clients,
        "ingest_MB": round(mb, 2),
        "ingest_s": round(ingest_s, 2),
        "ingest_MB_per_s": round(mb / ingest_s, 3),
        "questions": len(latencies),
        "questions_per_s": round(len(latencies) / seconds, 1),
        "p50_ms": round(statistics.median(latencies), 1) if latencies else None,
        "p95_ms": round(percentile(latencies, 95), 1) if latencies else None,
        "errors": len(errors),
        "first_error": errors[0] if errors else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--scopes", type=int, default=50)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--json", action="store_true", help="print JSON lines only")
    args = parser.parse_args()
    try:
        paragraphs, all_questions = squad.load(args.datasets)
    except FileNotFoundError as exc:
        print(exc, file=sys.stderr)
        return 2
    scopes: dict[str, list[tuple[str, bytes]]] = {}
    home_of: dict[str, str] = {}
    for i, (name, text, _) in enumerate(paragraphs):
        scope = f"s{i * args.scopes // len(paragraphs):03d}"
        scopes.setdefault(scope, []).append((name, text))
        home_of[name] = scope
    questions = [(home_of[q.paragraph], q.text) for q in all_questions if not q.impossible]

    results = []
    with tempfile.TemporaryDirectory() as base:
        root = Path(base)
        server = start_server(root / "server")
        cluster = start_cluster(root / "cluster", masters=3, replicas=1)
        try:
            targets = [
                ("embedded", {"home": str(root / "home")}),
                ("server", {"url": server.url}),
                ("cluster (3 masters + 1 replica)", {"url": cluster.url}),
            ]
            for name, target in targets:
                result = measure(name, target, scopes, questions, args.clients, args.seconds)
                results.append(result)
                if args.json:
                    print(json.dumps(result), flush=True)
        finally:
            server.stop()
            cluster.stop()
    if not args.json:
        print(
            f"{'backend':34} {'ingest MB/s':>11} {'questions/s':>11} {'p50 ms':>7} "
            f"{'p95 ms':>7} {'errors':>6}"
        )
        for r in results:
            print(
                f"{r['backend']!s:34} {r['ingest_MB_per_s']:>11} {r['questions_per_s']:>11} "
                f"{r['p50_ms']!s:>7} {r['p95_ms']!s:>7} {r['errors']:>6}"
            )
        base_rate = float(results[0]["questions_per_s"])  # type: ignore[arg-type]
        for r in results[1:]:
            ratio = float(r["questions_per_s"]) / base_rate if base_rate else 0.0  # type: ignore[arg-type]
            print(f"{r['backend']}: {ratio:.2f}x the embedded store's questions per second")
        print(
            f"{args.scopes} scopes, {args.clients} client processes, {args.seconds:g} s of "
            "questions per backend, on this machine"
        )
    return 1 if any(r["errors"] for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
