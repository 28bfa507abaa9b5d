"""Memory of one large document's ingest: peak RSS growth of the ingesting process, against the
document's own size, each size in a fresh process and a fresh store.

The text is Alice in Wonderland repeated (with a numbered heading per copy), so extraction finds
as many names per megabyte as in a real book. Growth is measured from after a warm-up ingest
(imports and caches loaded) to the process's peak (ru_maxrss, which misses nothing). The target
(issue 11) is at most 250 MB of growth for a 200 MB document.

    python bench/ingest_memory.py [--sizes 50,200] [--datasets ../shared/datasets]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MEASURE = """
import json, resource, sys, time
import citegraph
home, path = sys.argv[1], sys.argv[2]
with citegraph.open(home) as ws:
    scope = ws.scope("big")
    scope.ingest(b"Warm up: the Harbour Archive opened in 1821.", name="warm.txt")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    started = time.perf_counter()
    [result] = scope.ingest(path)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    mentions = scope.graph.ro_query("MATCH ()-[m:MENTIONED_IN]->() RETURN count(m)")[0][0]
    info = ws.store.connection.info("memory")
    print(json.dumps({
        "chunks": result.document.chunk_count, "mentions": mentions, "seconds": seconds,
        "before_mb": before, "peak_mb": peak,
        "falkordb_peak_mb": info["used_memory_peak"] / 2**20,
    }))
"""


def write_corpus(path: Path, size: int, datasets: Path) -> None:
    book = (datasets / "alice" / "pg11_alice_body.txt").read_text(encoding="utf-8")
    with path.open("w", encoding="utf-8") as out:
        written, n = 0, 0
        while written < size:
            block = f"\n\n# Copy {n}\n\n{book}"
            out.write(block)
            written += len(block.encode())
            n += 1


def measure(size_mb: int, datasets: Path) -> dict[str, float]:
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        corpus = Path(tmp) / "big.txt"
        write_corpus(corpus, size_mb * 2**20, datasets)
        done = subprocess.run(
            [sys.executable, "-c", MEASURE, str(Path(tmp) / "home"), str(corpus)],
            capture_output=True,
            text=True,
            check=False,
            env={**_env(), "CITEGRAPH_STORE_LINGER": "0"},
        )
        if done.returncode != 0:
            raise SystemExit(done.stderr)
        figures: dict[str, float] = json.loads(done.stdout)
        figures["document_mb"] = corpus.stat().st_size / 2**20
        return figures


def _env() -> dict[str, str]:
    import os

    return dict(os.environ)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="50,200", help="document sizes in MB, comma-separated")
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    args = parser.parse_args()
    print(
        f"{'document':>10} {'chunks':>8} {'mentions':>9} {'time':>8} {'MB/s':>6} "
        f"{'RSS growth':>11} {'growth/size':>12} {'FalkorDB peak':>14}"
    )
    for size in (int(s) for s in args.sizes.split(",")):
        f = measure(size, args.datasets)
        growth = f["peak_mb"] - f["before_mb"]
        print(
            f"{f['document_mb']:>8.0f}MB {f['chunks']:>8.0f} {f['mentions']:>9.0f} "
            f"{f['seconds']:>7.0f}s {f['document_mb'] / f['seconds']:>6.2f} "
            f"{growth:>9.0f}MB {growth / f['document_mb']:>12.2f} "
            f"{f['falkordb_peak_mb']:>12.0f}MB",
            flush=True,
        )


if __name__ == "__main__":
    main()
