"""Acceptance: a 50 MB text file ingests with bounded memory (measured in a fresh process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import python

MEASURE = """
import json, resource, sys, time
import citegraph
home, path = sys.argv[1], sys.argv[2]
baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
with citegraph.open(home) as ws:
    [result] = ws.scope("big").ingest(path)
    info = ws.store._db.connection.info("memory")
    seconds = time.perf_counter() - started
    print(json.dumps({
        "chunks": result.document.chunk_count,
        "bytes": result.document.size_bytes,
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
    # The file is read once (50 MB); chunk batches are bounded. Anything near a few copies of
    # the file would mean the whole document is held as objects.
    assert figures["python_peak_mb"] - figures["python_before_mb"] < 200, figures
