"""Questions about the graph (Text2Cypher) on a large store: what the gate, the schema and the
bounded run cost, and that the bounds hold at that size.

A synthetic engineering corpus of `--chunks` one-paragraph chunks (default 100,000, about
25 MB; the paragraphs of bench/impact.py) is ingested with the offline extractor. A scripted
model then writes each query below; for each: the time to read the schema, the gate, and the
whole question (median of `--repeat`), the rows, and whether the bounds cut them. A query that
would take the store minutes must stop at the 2 s timeout; one that asks for a million rows
gets 50.

    python bench/graph_query.py [--chunks 100000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from impact import _paragraph

import citegraph
from citegraph import ScriptedChat
from citegraph.graphq.gate import check
from citegraph.graphq.schema import read_schema

QUERIES = [
    ("count documents", "MATCH (d:Document) RETURN count(d)"),
    (
        "one service's relations, cited",
        "MATCH (a:Entity {name: 'svc-00042-service'})-[r:RELATES]->(b:Entity) "
        "WHERE r.weak = false RETURN b.name, r",
    ),
    (
        "most mentioned entities",
        "MATCH (e:Entity)-[m:MENTIONED_IN]->(:Chunk) RETURN e.name, count(m) AS n "
        "ORDER BY n DESC LIMIT 10",
    ),
    ("a million rows asked", "MATCH (c:Chunk) RETURN c LIMIT 1000000"),
    (
        "chunks naming one service, cited",
        "MATCH (e:Entity {name: 'svc-00042-service'})-[:MENTIONED_IN]->(c:Chunk) RETURN c",
    ),
    (
        "two hops from one service",
        "MATCH (a:Entity {name: 'svc-00042-service'})-[:RELATES*1..2]->(b:Entity) "
        "RETURN DISTINCT b.name",
    ),
    ("a cross product (must time out)", "MATCH (a:Chunk), (b:Chunk) RETURN count(*)"),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--services", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    os.environ["CITEGRAPH_STORE_LINGER"] = "0"
    os.environ["CITEGRAPH_CHUNK_BYTES"] = "400"
    rng = random.Random(7)
    docs = []
    for d in range(0, args.chunks, 1000):
        paragraphs = [
            _paragraph(rng, args.services, n) for n in range(d, min(d + 1000, args.chunks))
        ]
        docs.append((f"services-{d // 1000:04d}.md", "\n\n".join(paragraphs).encode()))
    megabytes = sum(len(text) for _, text in docs) / 2**20
    reply = {"text": ""}
    with tempfile.TemporaryDirectory() as tmp:
        ws = citegraph.open(Path(tmp) / "home", chat=ScriptedChat(lambda m: reply["text"]))
        ws.settings = replace(ws.settings, text2cypher=True)
        scope = ws.scope("large")
        started = time.perf_counter()
        scope.ingest_many(docs, media_type="text/markdown")
        took = time.perf_counter() - started
        print(f"{args.chunks} chunks, {megabytes:.1f} MB, ingested in {took:.0f} s")
        schema_ms = []
        for _ in range(args.repeat):
            began = time.perf_counter()
            schema = read_schema(scope.graph)
            schema_ms.append((time.perf_counter() - began) * 1000)
        print(f"schema read: median {statistics.median(schema_ms):.0f} ms")
        print(f"{'query':34} {'gate ms':>8} {'total ms':>9} {'rows':>5} {'cited':>5}  outcome")
        ok = True
        for name, query in QUERIES:
            gate_ms, total_ms = [], []
            answer = None
            for _ in range(args.repeat if "time out" not in name else 1):
                began = time.perf_counter()
                check(query, schema)
                gate_ms.append((time.perf_counter() - began) * 1000)
                reply["text"] = query
                began = time.perf_counter()
                answer = scope.ask_graph(name)
                total_ms.append((time.perf_counter() - began) * 1000)
            assert answer is not None
            outcome = answer.disposition.value
            if answer.reason is not None:
                outcome += f" ({answer.reason.value}: {answer.detail[:60]})"
            if answer.limits_reached:
                outcome += f" cut: {', '.join(answer.limits_reached)}"
            print(
                f"{name:34} {statistics.median(gate_ms):>8.2f} "
                f"{statistics.median(total_ms):>9.0f} {len(answer.rows):>5} "
                f"{len(answer.citations):>5}  {outcome}"
            )
            if "time out" in name:
                ok = ok and answer.reason is not None and max(total_ms) < 3000 + max(schema_ms)
            if "million" in name:
                ok = ok and len(answer.rows) == 50
        ws.close()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
