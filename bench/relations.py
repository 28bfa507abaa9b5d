"""Offline relation extraction on Online Boutique, scored against the dependency edges
derived from its manifests.

Ingests the dataset folder (its docs, READMEs and release manifest; the derived edge file
itself is left out) into a fresh embedded store with the default offline extractor, then
compares the stored `calls` relations that are affirmed and actual with
`DERIVED_dependency_edges_from_manifests.json` (17 edges). Names are compared with case,
spaces, hyphens and underscores set aside ("redis-cart" = "rediscart"). Every found edge's
quote is read back from the stored text at its byte span. Targets: recall and precision of
at least 0.9.

    python bench/relations.py [--datasets ../shared/datasets] [--show]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import citegraph

ROOT = Path(__file__).resolve().parent.parent
DATASET = Path("engineering_docs") / "google_microservices-demo"
GOLD = "DERIVED_dependency_edges_from_manifests.json"
PLAIN = ("affirmed", "actual")


def canonical(name: str) -> str:
    return re.sub(r"[\s_-]+", "", name.casefold())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--show", action="store_true", help="print every relation found")
    args = parser.parse_args()
    source = args.datasets / DATASET
    gold = {
        (canonical(e["from"]), canonical(e["to"])) for e in json.loads((source / GOLD).read_text())
    }
    # The store is thrown away with its folder: stop its server at once, no linger.
    os.environ["CITEGRAPH_STORE_LINGER"] = "0"
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        shutil.copytree(source, corpus, ignore=shutil.ignore_patterns(GOLD, "LICENSE"))
        with citegraph.open(Path(tmp) / "home") as ws:
            scope = ws.scope("boutique")
            started = time.perf_counter()
            results = scope.ingest(corpus)
            took = time.perf_counter() - started
            relations = scope.relations(limit=100_000)
            texts = {d.id: scope.stored_text(d.id) for d in scope.documents()}
            names = {d.id: d.name for d in scope.documents()}
    typed = [r for r in relations if not r.weak]
    calls = [r for r in typed if r.type == "calls" and (r.polarity, r.modality) == PLAIN]
    found: dict[tuple[str, str], list[str]] = {}
    unlocated = 0
    for r in calls:
        assert r.document_id is not None and r.start_byte is not None and r.end_byte is not None
        stored = texts[r.document_id][r.start_byte : r.end_byte].decode()
        if stored != r.quote:
            unlocated += 1
        edge = (canonical(r.source), canonical(r.target))
        found.setdefault(edge, []).append(f"{names[r.document_id]}: {r.quote!r}")
    hits = gold & found.keys()
    recall = len(hits) / len(gold)
    precision = len(hits) / len(found) if found else 0.0
    print(f"Online Boutique: {len(results)} documents ingested in {took:.1f} s (offline)")
    print(f"typed relations stored: {len(typed)} ({len(calls)} affirmed, actual `calls`)")
    print(f"calls edges found: {len(found)}, gold edges: {len(gold)}, both: {len(hits)}")
    print(f"recall {recall:.3f}  precision {precision:.3f}  (targets >= 0.9 each)")
    print(f"quotes not equal to the stored bytes at their span: {unlocated}")
    for edge in sorted(gold - found.keys()):
        print(f"  missed: {edge[0]} -> {edge[1]}")
    for edge in sorted(found.keys() - gold):
        print(f"  not in the manifest edges: {edge[0]} -> {edge[1]}: {found[edge][0]}")
    if args.show:
        for r in typed:
            print(f"  {r.source} -[{r.type} {r.polarity}/{r.modality}]-> {r.target}: {r.quote!r}")
    return 0 if recall >= 0.9 and precision >= 0.9 and unlocated == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
