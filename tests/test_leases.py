"""Ingest staging leases across machines (issue 18): a writer killed with kill -9 mid-ingest on
"machine" A leaves staging that a writer on "machine" B (another process, another home,
another CITEGRAPH_HOST_ID, so B cannot check A's process) removes once the lease has passed
its deadline, and not before; a live writer's lease is renewed, so B never removes staging
that is still being written. The store is a real FalkorDB server on a loopback port."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import citegraph
from citegraph.testing.servers import ServerProcess, start_server

from helpers import ROOT, wait_until

TTL_S = 2.0
BIG = b"A sentence that repeats to make a large document. " * 300_000  # about 15 MB
V1 = b"Version one of the document, which must survive whole.\n" * 500

WRITE = """
import sys, citegraph
ws = citegraph.open(url=sys.argv[1])
scope = ws.scope("shared")
if sys.argv[2] == "big":
    scope.ingest(sys.stdin.buffer.read(), name="doc.txt")
    print("committed", flush=True)
else:
    scope.ingest(sys.argv[2].encode(), name=sys.argv[3])
staging = scope.graph.ro_query("MATCH (n) WHERE n:IngestLease OR n:StagingDocument RETURN count(n)")
print("staging", staging[0][0], flush=True)
"""


def _machine(name: str, home: Path, ttl_s: float = TTL_S) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITEGRAPH_")}
    env.update(
        CITEGRAPH_HOME=str(home),
        CITEGRAPH_HOST_ID=name,
        CITEGRAPH_LEASE_TTL=str(ttl_s),
        CITEGRAPH_EXTRACT="0",
        PYTHONPATH=str(ROOT / "src"),
    )
    return env


def _writer(url: str, env: dict[str, str], *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITE, url, *args],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _staged_chunks(scope: citegraph.Scope) -> int:
    rows = scope.graph.ro_query("MATCH (:StagingDocument)<-[:PART_OF]-(c:Chunk) RETURN count(c)")
    return int(rows[0][0])


def _leftovers(scope: citegraph.Scope) -> int:
    rows = scope.graph.ro_query(
        "MATCH (n) WHERE n:IngestLease OR n:StagingDocument OR "
        "(n:Chunk AND NOT (n)-[:PART_OF]->(:Document)) RETURN count(n)"
    )
    return int(rows[0][0])


@pytest.fixture
def server(tmp_path: Path) -> ServerProcess:
    proc = start_server(tmp_path / "data")
    yield proc  # type: ignore[misc]
    proc.stop()


def _start_big(url: str, env: dict[str, str], data: bytes = BIG) -> subprocess.Popen[bytes]:
    writer = _writer(url, env, "big")
    assert writer.stdin is not None
    writer.stdin.write(data)
    writer.stdin.close()
    writer.stdin = None  # written whole: communicate() must not flush it again
    return writer


def test_a_killed_writers_staging_is_removed_by_another_machine_after_its_lease(
    server: ServerProcess, tmp_path: Path
) -> None:
    with citegraph.open(url=server.url) as ws:
        scope = ws.scope("shared")
        scope.ingest(V1, name="doc.txt")
        a = _start_big(server.url, _machine("machine-a", tmp_path / "home-a"))
        wait_until(lambda: _staged_chunks(scope) > 500, 120, "machine A staging chunks")
        os.kill(a.pid, signal.SIGKILL)
        a.wait(30)
        killed_at = time.monotonic()
        assert _leftovers(scope) > 0
        # A's lease ends at its last renewal's deadline, which may come before killed_at +
        # TTL_S (a renewal is made ahead of time): read it from the store, in its own clock.
        left_ms = scope.graph.ro_query(
            "MATCH (l:IngestLease) RETURN max(l.deadline) - timestamp()"
        )[0][0]
        lease_ends = time.monotonic() + float(left_ms) / 1000

        # Machine B at once: A's lease still runs, and B cannot see A's processes: kept.
        b_env = _machine("machine-b", tmp_path / "home-b")
        early = _writer(server.url, b_env, "an early note", "early.txt")
        out, err = early.communicate(timeout=120)
        assert early.returncode == 0, err.decode()
        if time.monotonic() < lease_ends:  # B ran within the lease: it kept the staging
            assert b"staging 0" not in out, out
        # Once the lease has passed its deadline, the next writer on B removes it.
        time.sleep(max(0.0, TTL_S + 0.5 - (time.monotonic() - killed_at)))
        late = _writer(server.url, b_env, "a later note", "late.txt")
        out, err = late.communicate(timeout=120)
        assert late.returncode == 0, err.decode()
        assert b"staging 0" in out, out

        assert _leftovers(scope) == 0
        assert hashlib.sha256(scope.stored_text("doc.txt")).hexdigest() == (
            hashlib.sha256(V1).hexdigest()
        )
        chunks = list(scope.chunks(scope.document("doc.txt").id))
        assert b"".join(c.text.encode() for c in chunks) == V1
        assert {d.name for d in scope.documents()} == {"doc.txt", "early.txt", "late.txt"}


def test_a_live_writers_lease_is_renewed_and_never_taken(
    server: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ttl = 0.3
    monkeypatch.setenv("CITEGRAPH_HOST_ID", "machine-b")
    monkeypatch.setenv("CITEGRAPH_LEASE_TTL", str(ttl))
    with citegraph.open(url=server.url) as ws:
        scope = ws.scope("shared")
        scope.documents()
        # Big enough that A writes for several lifetimes of its lease on a fast machine too
        # (15 MB took 0.8 s here, under the 3 lifetimes the check below waits for).
        bigger = BIG * 4
        a = _start_big(server.url, _machine("machine-a", tmp_path / "home-a", ttl), bigger)
        wait_until(lambda: _staged_chunks(scope) > 0, 120, "machine A staging chunks")
        staged_at = time.monotonic()
        # While A writes, lifetimes of its lease pass; B's cleanup (what B's next writer
        # runs) finds the lease renewed each time and removes nothing.
        checked_late = 0
        while a.poll() is None:
            assert scope._repo.drop_abandoned_staging() == 0
            if time.monotonic() - staged_at > 3 * ttl and a.poll() is None:
                checked_late += 1
            time.sleep(ttl / 2)
        out, err = a.communicate(timeout=300)
        assert a.returncode == 0, err.decode()
        assert checked_late, "machine A finished before its lease had to be renewed"
        assert b"committed" in out
        assert scope.stored_text("doc.txt") == bigger
        assert _leftovers(scope) == 0
