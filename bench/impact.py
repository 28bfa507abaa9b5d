"""Impact analysis: accuracy on Online Boutique, and latency on a large graph.

1. Online Boutique (the dataset's docs, READMEs and release manifest; the derived edge file
   left out), offline extraction: for each of its 11 services, `impact(service,
   "dependents", max_hops=5)` against the transitive callers in
   `DERIVED_dependency_edges_from_manifests.json`. The affected set is the entities reached
   by a supported or inferred path (insufficient ones are shown to a user, greyed, but are
   not "affected"). Recall and precision over all services (targets >= 0.9), the share of
   hops in each grade, and every supported hop's quote read back from the stored text.
2. Latency: a synthetic engineering corpus of `--chunks` one-paragraph chunks (default
   100,000) naming `--services` services, about a third of the paragraphs stating a relation
   ("The svc-0042-service calls the svc-0107-service ..."), ingested with the offline
   extractor; then `impact` at 3 hops from `--samples` random services: p50, p95, max
   (target p95 < 100 ms).

    python bench/impact.py [--datasets ../shared/datasets] [--chunks 100000] [--skip-latency]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import citegraph
from citegraph.values.paths import Grade

ROOT = Path(__file__).resolve().parent.parent
DATASET = Path("engineering_docs") / "google_microservices-demo"
GOLD = "DERIVED_dependency_edges_from_manifests.json"
NOT_SERVICES = {"loadgenerator", "redis-cart"}  # in the edges, but not among the 11 services


def canonical(name: str) -> str:
    return re.sub(r"[\s_-]+", "", name.casefold())


def _callers(edges: set[tuple[str, str]], service: str) -> set[str]:
    found: set[str] = set()
    todo = [service]
    while todo:
        callee = todo.pop()
        for caller, target in edges:
            if target == callee and caller not in found and caller != service:
                found.add(caller)
                todo.append(caller)
    return found


def boutique(datasets: Path) -> bool:
    source = datasets / DATASET
    raw = json.loads((source / GOLD).read_text())
    edges = {(canonical(e["from"]), canonical(e["to"])) for e in raw}
    services = sorted(({e["from"] for e in raw} | {e["to"] for e in raw}) - NOT_SERVICES)
    grades: Counter[str] = Counter()
    hits = gold_total = found_total = unverified = 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        shutil.copytree(source, corpus, ignore=shutil.ignore_patterns(GOLD, "LICENSE"))
        with citegraph.open(Path(tmp) / "home") as ws:
            scope = ws.scope("boutique")
            scope.ingest(corpus)
            texts = {d.id: scope.stored_text(d.id) for d in scope.documents()}
            for service in services:
                result = scope.impact(service, direction="dependents", max_hops=5)
                affected = {
                    canonical(a.entity.name)
                    for a in result.affected
                    if a.grade is not Grade.INSUFFICIENT
                }
                for a in result.affected:
                    for path in a.paths:
                        for hop in path.hops:
                            grades[hop.grade.value] += 1
                            if hop.grade is Grade.SUPPORTED:
                                e = hop.evidence
                                if (
                                    e is None
                                    or texts[e.document_id][e.start_byte : e.end_byte]
                                    != e.quote.encode()
                                ):
                                    unverified += 1
                gold = _callers(edges, canonical(service))
                hits += len(gold & affected)
                gold_total += len(gold)
                found_total += len(affected)
                rows.append((service, result.status, len(gold), len(affected), gold ^ affected))
    recall = hits / gold_total if gold_total else 1.0
    precision = hits / found_total if found_total else 1.0
    print("Online Boutique, offline extraction, impact(service, dependents, max_hops=5):")
    print(f"{'service':28} {'status':8} {'callers':>7} {'found':>5}  differences")
    for service, status, gold_n, found_n, diff in rows:
        print(f"{service:28} {status:8} {gold_n:>7} {found_n:>5}  {sorted(diff) or ''}")
    total = sum(grades.values()) or 1
    shares = ", ".join(f"{g.value} {grades[g.value] / total:.2f}" for g in Grade)
    print(f"recall {recall:.3f}  precision {precision:.3f}  (targets >= 0.9 each)")
    print(f"hops shown: {sum(grades.values())} ({shares})")
    print(f"supported hops whose quote is not the stored bytes at its span: {unverified}")
    return recall >= 0.9 and precision >= 0.9 and unverified == 0


def _paragraph(rng: random.Random, services: int, n: int) -> str:
    a, b = rng.randrange(services), rng.randrange(services)
    filler = (
        "Requests carry a two second deadline and are retried twice on timeout; the owning "
        "team reviews the error budget every week and pages on sustained failures."
    )
    if n % 3 == 0 and a != b:
        verb = rng.choice(["calls the", "depends on the", "reads from the", "sends orders to the"])
        return f"The svc-{a:05d}-service {verb} svc-{b:05d}-service on every request. {filler}"
    return f"The svc-{a:05d}-service keeps its own configuration in version control. {filler}"


def latency(chunks: int, services: int, samples: int) -> bool:
    rng = random.Random(7)
    os.environ["CITEGRAPH_CHUNK_BYTES"] = "400"  # one paragraph per chunk
    per_doc = 1000
    docs = []
    for d in range(0, chunks, per_doc):
        paragraphs = [_paragraph(rng, services, n) for n in range(d, min(d + per_doc, chunks))]
        docs.append((f"services-{d // per_doc:04d}.md", "\n\n".join(paragraphs).encode()))
    with tempfile.TemporaryDirectory() as tmp, citegraph.open(Path(tmp) / "home") as ws:
        scope = ws.scope("large")
        started = time.perf_counter()
        results = scope.ingest_many(docs, media_type="text/markdown")
        took = time.perf_counter() - started
        stored = sum(r.document.chunk_count for r in results)
        relations = len(scope.relations(limit=1_000_000))
        names = [f"svc-{rng.randrange(services):05d}-service" for _ in range(samples)]
        for name in names[:10]:
            scope.impact(name)  # warm up
        times, sizes = [], []
        for name in names:
            began = time.perf_counter()
            result = scope.impact(name, max_hops=3)
            times.append((time.perf_counter() - began) * 1000)
            sizes.append(len(result.affected))
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(
        f"\nlarge graph: {stored} chunks, {relations} relations (co-mentions included), "
        f"{services} services; ingested in {took:.0f} s"
    )
    print(
        f"impact at 3 hops, {samples} services: p50 {statistics.median(times):.1f} ms, "
        f"p95 {p95:.1f} ms, max {times[-1]:.1f} ms (target p95 < 100 ms); "
        f"entities affected: median {statistics.median(sizes):.0f}, max {max(sizes)}"
    )
    return p95 < 100


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--services", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--skip-latency", action="store_true")
    args = parser.parse_args()
    os.environ["CITEGRAPH_STORE_LINGER"] = "0"  # stores are thrown away with their folders
    ok = True
    if (args.datasets / DATASET).exists():
        ok = boutique(args.datasets) and ok
    else:
        print(f"{args.datasets / DATASET} not found: accuracy part skipped", file=sys.stderr)
    if not args.skip_latency:
        ok = latency(args.chunks, args.services, args.samples) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
