"""Model extraction's wall time with calls asked ahead (extract/ahead.py), against one call at
a time, in the same run: a book extracted through the local OpenAI-compatible stub, which
waits `--latency` seconds before each reply (a model's answer time), at several concurrency
settings. Also checks that every setting makes the same calls and keeps and drops the same.

    python bench/extract_ahead.py [--text ../shared/datasets/alice/pg11_alice_body.txt]
                                  [--latency 0.3] [--concurrency 1,2,4,8]
    python bench/extract_ahead.py --paragraphs 200   # SQuAD dev-16 paragraphs, a file each
    python bench/extract_ahead.py --gleanings 1      # and a gleaning round after each call

A book is one document of many windows; paragraphs are many documents of one window each,
read ahead across documents.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import citegraph
from citegraph.config import load_settings
from citegraph.extract.llm import LLMExtractor
from citegraph.testing import OpenAIStubServer

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--text", type=Path,
        default=ROOT.parent / "shared" / "datasets" / "alice" / "pg11_alice_body.txt",
    )  # fmt: skip
    parser.add_argument(
        "--paragraphs", type=int, default=0,
        help="extract this many SQuAD dev-16 paragraphs, a document each, instead of --text",
    )  # fmt: skip
    parser.add_argument("--latency", type=float, default=0.3)
    parser.add_argument(
        "--gleanings", type=int, default=0, help="gleaning rounds after each call (each one more)"
    )
    parser.add_argument("--concurrency", default="1,2,4,8")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.paragraphs:
        squad = ROOT.parent / "shared" / "datasets" / "squad2" / "squad2-dev-16.json"
        data = json.loads(squad.read_text())
        contexts = [p["context"] for a in data["data"] for p in a["paragraphs"]]
        items = [(f"p{n}.txt", c.encode()) for n, c in enumerate(contexts[: args.paragraphs])]
        label = f"{len(items)} SQuAD dev-16 paragraphs"
    else:
        items = [(args.text.name, args.text.read_bytes())]
        label = args.text.name
    size = sum(len(data) for _, data in items)

    def respond(messages: list[dict[str, str]]) -> str:
        """After the latency, the capitalised words of the passage as entities."""
        time.sleep(args.latency)
        if "Passage:\n" not in messages[-1]["content"]:
            return '{"entities": [], "relations": []}'  # a gleaning round: nothing missed
        passage = messages[-1]["content"].split("Passage:\n", 1)[-1]
        names = sorted(set(re.findall(r"\b[A-Z][a-z]{3,}\b", passage)))[:8]
        return json.dumps({"entities": [{"name": n, "type": "concept"} for n in names]})

    rows: list[dict[str, Any]] = []
    with OpenAIStubServer(respond) as server:
        for n in (int(x) for x in args.concurrency.split(",")):
            with tempfile.TemporaryDirectory() as home:
                settings = replace(load_settings(home=Path(home)), extract=False)
                with citegraph.Workspace(settings) as ws:
                    scope = ws.scope("book")
                    scope.ingest_many(items)
                    chat = citegraph.OpenAIChat("stub", base_url=server.url, api_key="x")
                    started = time.perf_counter()
                    run = scope.extract(LLMExtractor(chat, concurrency=n, gleanings=args.gleanings))
                    seconds = time.perf_counter() - started
                    stored = (run.mentions, run.relations, sorted(run.dropped.items()))
            rows.append({"concurrency": n, "calls": run.calls, "mentions": run.mentions,
                         "seconds": round(seconds, 2), "stored": stored})  # fmt: skip
    base = rows[0]
    for row in rows:
        row["speedup"] = round(base["seconds"] / row["seconds"], 2)
        row["same_as_one_at_a_time"] = (row["calls"], row["stored"]) == (
            base["calls"],
            base["stored"],
        )
    if args.json:
        for row in rows:
            print(json.dumps({k: v for k, v in row.items() if k != "stored"}))
    else:
        print(f"{label}: {size / 2**20:.3f} MB, stub latency {args.latency} s a call")
        print(f"{'concurrency':>11}{'calls':>7}{'mentions':>10}{'seconds':>9}{'speedup':>9}  same")
        for r in rows:
            print(f"{r['concurrency']:>11}{r['calls']:>7}{r['mentions']:>10}{r['seconds']:>9}"
                  f"{r['speedup']:>9}  {r['same_as_one_at_a_time']}")  # fmt: skip
    return 0 if all(r["same_as_one_at_a_time"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
