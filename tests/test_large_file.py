"""A 50 MB text file ingests with bounded memory (measured in a fresh process). bench/
ingest_memory.py measures the same at 200 MB."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from helpers import python

MEASURE = """
import json, resource, sys, time
import citegraph
home, path = sys.argv[1], sys.argv[2]
with citegraph.open(home) as ws:
    scope = ws.scope("big")
    # Everything an ingest imports and caches is loaded first, so growth is the document's.
    scope.ingest(b"Warm up: the Harbour Archive opened in 1821.", name="warm.txt")
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    [result] = scope.ingest(path)
    seconds = time.perf_counter() - started
    info = ws.store.connection.info("memory")
    print(json.dumps({
        "chunks": result.document.chunk_count,
        "bytes": result.document.size_bytes,
        "sha256": result.document.sha256,
        "seconds": seconds,
        "python_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "python_before_mb": baseline / 1024,
        "falkordb_peak_mb": info["used_memory_peak"] / 2**20,
    }))
"""

SIZE = 50 * 2**20


def write_corpus(path: Path, size: int) -> None:
    paragraph = (
        "The archive keeps every ledger of the harbour since 1821. Clerks copied each entry "
        "twice, and the second copy went to the customs house. When the river flooded in "
        "1867, only the second copies survived; historians still argue about the gaps.\n\n"
    )
    with path.open("w", encoding="utf-8") as out:
        written, n = 0, 0
        while written < size:
            line = f"Entry {n}. {paragraph}"
            out.write(line)
            written += len(line.encode())
            n += 1


@pytest.mark.slow
def test_fifty_megabytes_with_bounded_memory(tmp_path: Path) -> None:
    corpus = tmp_path / "big.txt"
    write_corpus(corpus, SIZE)
    done = python(MEASURE, str(tmp_path / "home"), str(corpus), timeout=600)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    print(figures)
    assert figures["bytes"] == corpus.stat().st_size
    assert figures["sha256"] == hashlib.sha256(corpus.read_bytes()).hexdigest()
    # The file is mapped and its pages given back as each pass moves on; chunk batches and
    # mention flushes are bounded. Holding the text alone would be 50 MB.
    assert figures["python_peak_mb"] - figures["python_before_mb"] < 40, figures
