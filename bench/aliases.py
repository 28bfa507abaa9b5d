"""Acronym definitions read as aliases, on a realistic store: SQuAD dev-16 (646 paragraphs),
HotpotQA dev-50 (500 paragraphs), the PDFs and Online Boutique, ingested offline into one
scope (about 1 MB of text, 1,200 documents).

For every `alias-of` relation stored: its quote is read back from the stored bytes at its
span; `scope.entities(acronym)` lists the long form among the aliases; a question that names
only the acronym is seeded with the long form too. Prints the counts, the failures (no bad
quote and no missing alias is the target; a question's words are letters and digits, so an
acronym written with "&" or dots is not read as a name in it), the time per look-up, and
with --show every definition, to check by eye.

    python bench/aliases.py [--datasets ../shared/datasets] [--show]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import citegraph

ROOT = Path(__file__).resolve().parent.parent


def corpora(datasets: Path) -> dict[str, list[tuple[str, bytes]]]:
    squad = json.loads((datasets / "squad2" / "squad2-dev-16.json").read_text())
    hotpot = json.loads((datasets / "hotpotqa" / "hotpot-dev-distractor-50.json").read_text())
    boutique = datasets / "engineering_docs" / "google_microservices-demo"
    return {
        "SQuAD dev-16": [
            (f"squad/{a['title']}/{i}", p["context"].encode())
            for a in squad["data"]
            for i, p in enumerate(a["paragraphs"])
        ],
        "HotpotQA dev-50": list(
            {
                f"hotpot/{title}": "".join(sentences).encode()
                for q in hotpot
                for title, sentences in q["context"]
            }.items()
        ),
        "Online Boutique": [
            (f"boutique/{p.relative_to(boutique)}", p.read_bytes())
            for p in sorted(boutique.rglob("*.md"))
        ],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--show", action="store_true", help="print every definition stored")
    args = parser.parse_args()
    if not args.datasets.exists():
        print(f"data sets not found at {args.datasets}", file=sys.stderr)
        return 2
    os.environ["CITEGRAPH_STORE_LINGER"] = "0"
    with tempfile.TemporaryDirectory() as home, citegraph.open(home) as ws:
        scope = ws.scope("aliases")
        size = 0
        started = time.perf_counter()
        for docs in corpora(args.datasets).values():
            scope.ingest_many(docs, media_type="text/plain")
            size += sum(len(data) for _, data in docs)
        for pdf in sorted((args.datasets / "pdfs").glob("*.pdf")):
            scope.ingest(pdf)
            size += pdf.stat().st_size
        took = time.perf_counter() - started
        documents = {d.id: d for d in scope.documents()}
        print(f"{len(documents)} documents, {size / 2**20:.2f} MB ingested in {took:.1f} s")
        aliases = [r for r in scope.relations(limit=100_000) if r.type == "alias-of"]
        bad_quotes = not_listed = 0
        not_seeded: list[str] = []
        lookups: list[float] = []
        for r in aliases:
            assert r.document_id is not None
            stored = scope.stored_text(r.document_id)
            if stored[r.start_byte : r.end_byte].decode() != r.quote:
                bad_quotes += 1
            started = time.perf_counter()
            identities = scope.entities(r.source)
            lookups.append(time.perf_counter() - started)
            if not any(r.target in e.aliases for e in identities):
                not_listed += 1
            evidence = scope.context(f"What does {r.source} do?", hops=0)
            if r.target not in evidence.seeds:
                not_seeded.append(r.source)
            if args.show:
                print(f"  {r.source} = {r.target}    ({documents[r.document_id].name})")
        print(f"alias-of relations stored: {len(aliases)}")
        print(f"quotes not equal to the stored bytes at their span: {bad_quotes}")
        print(f"long form not among the acronym's aliases: {not_listed}")
        # A question's words are letters and digits: "C&DS" or "G.R.C" is not read as a name.
        print(
            f"questions naming the acronym not seeded with the long form: {len(not_seeded)}"
            + (f" ({', '.join(not_seeded)})" if not_seeded else "")
        )
        if lookups:
            print(f"scope.entities look-up: median {statistics.median(lookups) * 1000:.1f} ms")
    return 0 if aliases and bad_quotes == not_listed == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
