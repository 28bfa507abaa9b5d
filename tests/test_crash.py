"""Acceptance: kill -9 of FalkorDB or of the Python process mid-ingest never leaves half a
document; earlier documents stay intact and tiled."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest

import citegraph
from citegraph import Scope

from conftest import assert_tiles
from helpers import alive, spawn, wait_until

BIG = b"A sentence that repeats to make a large document. " * 400_000  # about 20 MB
V1 = b"Version one of the document that gets replaced.\n" * 2000


def _raw_chunks(scope: Scope) -> int:
    return int(scope.graph.ro_query("MATCH (c:Chunk) RETURN count(c)")[0][0])


def _assert_clean(scope: Scope) -> None:
    """No staging left, and every chunk belongs to a committed document."""
    scope.documents()  # opening the scope drops abandoned staging
    leftovers = scope.graph.ro_query(
        "MATCH (n) WHERE n:IngestLease OR n:StagingDocument RETURN count(n)"
    )
    assert leftovers == [[0]]
    orphans = scope.graph.ro_query(
        "MATCH (c:Chunk) WHERE NOT (c)-[:PART_OF]->(:Document) RETURN count(c)"
    )
    assert orphans == [[0]]


def _seed(scope: Scope) -> None:
    scope.ingest(V1, name="replaced.txt")
    scope.ingest(b"An earlier document that must stay as it is.\n" * 300, name="earlier.txt")


def _check_after(scope: Scope) -> None:
    _assert_clean(scope)
    assert_tiles(scope, "replaced.txt", expected=V1)
    assert_tiles(
        scope, "earlier.txt", expected=b"An earlier document that must stay as it is.\n" * 300
    )
    names = {d.name for d in scope.documents()}
    assert names == {"replaced.txt", "earlier.txt"} or "new-big.txt" in names
    if "new-big.txt" in names:  # the commit won the race: then it must be whole
        assert_tiles(scope, "new-big.txt", expected=BIG)


@pytest.mark.slow
def test_kill_9_of_falkordb_mid_ingest(tmp_path: Path) -> None:
    ws = citegraph.open(tmp_path)
    scope = ws.scope("crash")
    _seed(scope)
    base = _raw_chunks(scope)
    errors: list[BaseException] = []

    def ingest() -> None:
        try:
            scope.ingest(BIG, name="new-big.txt")
            scope.ingest(BIG + b"changed", name="replaced.txt")
        except BaseException as exc:
            errors.append(exc)

    worker = threading.Thread(target=ingest)
    worker.start()
    wait_until(lambda: _raw_chunks(scope) > base + 2000, what="staged chunks")
    pid = ws.server_pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    worker.join(timeout=120)
    assert len(errors) == 1 and isinstance(errors[0], citegraph.StoreUnavailable), errors
    ws.close()

    with citegraph.open(tmp_path) as again:
        assert again.server_pid() != pid
        _check_after(again.scope("crash"))


@pytest.mark.slow
def test_kill_9_of_python_mid_ingest(tmp_path: Path) -> None:
    with citegraph.open(tmp_path) as ws:
        scope = ws.scope("crash")
        _seed(scope)
        base = _raw_chunks(scope)
        big_file = tmp_path / "big.txt"
        big_file.write_bytes(BIG)
        child = spawn(
            "import sys, citegraph\n"
            "ws = citegraph.open(sys.argv[1])\n"
            "ws.scope('crash').ingest(sys.argv[2], name='replaced.txt')\n",
            str(tmp_path),
            str(big_file),
        )
        wait_until(lambda: _raw_chunks(scope) > base + 2000, what="staged chunks")
        child.kill()
        child.wait()
        assert not alive(child.pid)
        _check_after(ws.scope("crash"))  # a fresh Scope object, as a new reader would open
