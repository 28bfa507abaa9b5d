"""A scope stays readable when its housekeeping fails, health says so, and `citegraph repair`
removes what blocked it and says what it did."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import citegraph

from helpers import cli

NOTE = b"The harbour master keeps the tide tables in the blue ledger.\n"
# A lease whose owner cannot be read (its pid is not a number), with staged work under it: the
# kind of record a writer killed at the wrong moment, or a damaged store, can leave.
DAMAGED_LEASE = """
CREATE (:IngestLease {staging_key: 'k1', owner_host: $host, owner_pid: 'not-a-pid'})
       -[:STAGES]->(s:StagingDocument {id: 'doc_ghost', name: 'ghost.txt'})
CREATE (:Chunk {id: 'doc_ghost-0', document_id: 'doc_ghost', text: 'half written'})-[:PART_OF]->(s)
"""
FOREIGN_LEASE = """
CREATE (:IngestLease {staging_key: 'k2', owner_host: 'another-machine', owner_pid: 4242})
       -[:STAGES]->(:StagingDocument {id: 'doc_far', name: 'far.txt'})
"""
ORPHAN = "CREATE (:Chunk {id: 'lost-0', document_id: 'lost', text: 'belongs to nothing'})"


def _leftovers(ws: citegraph.Workspace) -> list[int]:
    graph = ws.scope("s").graph
    counts = (
        graph.ro_query("MATCH (n) WHERE n:IngestLease OR n:StagingDocument RETURN count(n)")[0][0],
        graph.ro_query("MATCH (c:Chunk) WHERE NOT (c)-[:PART_OF]->() RETURN count(c)")[0][0],
    )
    return list(counts)


def test_failed_housekeeping_never_blocks_reads_and_repair_clears_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with citegraph.open(home) as ws:
        scope = ws.scope("s")
        scope.ingest(NOTE, name="note.txt")
        scope.graph.query(DAMAGED_LEASE, {"host": socket.gethostname()})
        scope.graph.query(FOREIGN_LEASE)
        scope.graph.query(ORPHAN)
    with citegraph.open(home) as ws:
        fresh = ws.scope("s")  # its first use runs the cleanup, which fails on the lease
        assert [d.name for d in fresh.documents()] == ["note.txt"]
        assert (
            fresh.context("Where does the harbour master keep the tide tables?").verdict.state.value
            == "grounded"
        )
        [problem] = ws.health().housekeeping
        assert problem.startswith("s: cleanup of abandoned staging failed")
    done = cli("health", "--home", str(home), "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["housekeeping"], done.stdout

    repaired = cli("repair", "--scope", "s", "--home", str(home), "--json")
    assert repaired.returncode == 0, repaired.stderr
    report = json.loads(repaired.stdout)
    assert report["leasesDropped"] == 1 and report["stagingChunksDropped"] == 1
    assert report["orphanChunksDropped"] == 1
    assert len(report["leasesKept"]) == 1 and "another-machine" in report["leasesKept"][0]
    with citegraph.open(home) as ws:
        assert _leftovers(ws) == [2, 0]  # the other machine's lease and its staged document
        assert ws.health().housekeeping == ()

    forced = cli("repair", "--scope", "s", "--home", str(home), "--force")
    assert forced.returncode == 0 and "1 lease(s)" in forced.stdout, forced.stdout
    with citegraph.open(home) as ws:
        assert _leftovers(ws) == [0, 0]
        assert ws.scope("s").stored_text("note.txt") == NOTE  # documents are never removed
