"""`citegraph repair`: check a scope's graph, rebuild what can be rebuilt, say what was done.

Written for a scope whose housekeeping fails: lease records that cannot be read, staging left
by writers that are gone, chunks that belong to no document, indexes that went missing. Every
step works from node ids first and reads properties one node at a time, so that one damaged
node is removed on its own instead of failing the whole repair.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass, field

from ..errors import StoreError
from .graph import GraphHandle
from .processes import pid_alive
from .queries.repair import (
    CHUNK_COUNTS,
    DROP_LEASE,
    LEASE,
    LEASE_IDS,
    ORPHAN_CHUNKS,
    UNLEASED_STAGING,
)
from .schema import INDEXES, ensure_indexes, wait_for_indexes


@dataclass
class RepairReport:
    scope: str
    indexes_created: int = 0
    leases_dropped: int = 0
    staging_chunks_dropped: int = 0
    unleased_staging_dropped: int = 0
    orphan_chunks_dropped: int = 0
    leases_kept: list[str] = field(default_factory=list)  # writers still alive, and why kept
    problems: list[str] = field(default_factory=list)  # what could not be repaired

    def lines(self) -> list[str]:
        said = [
            f"indexes created: {self.indexes_created}",
            f"abandoned staging removed: {self.leases_dropped} lease(s), "
            f"{self.staging_chunks_dropped} staged chunk(s)",
            f"staged documents without a lease removed: {self.unleased_staging_dropped}",
            f"chunks belonging to no document removed: {self.orphan_chunks_dropped}",
        ]
        said += [f"kept: {kept}" for kept in self.leases_kept]
        said += [f"problem: {problem}" for problem in self.problems]
        return said


def _lease_owner_alive(
    host: object, pid: object, start: object, expired: object, here: str
) -> bool | None:
    """True or False for a writer on this machine, or a lease past its deadline; None when
    it cannot be told (another machine's writer, its lease still running)."""
    if expired is True:
        return False
    if host != here:
        return None
    if not isinstance(pid, int):
        return False  # a damaged record: no process can own it
    if pid == os.getpid():
        return False  # repair runs no ingest of its own
    return pid_alive(pid, start if isinstance(start, str) else None)


def repair_graph(
    graph: GraphHandle,
    scope: str,
    index_timeout_s: float,
    force: bool = False,
    here: str | None = None,
) -> RepairReport:
    """Repair one scope's graph. `force` also drops leases whose writer cannot be checked
    (another machine's) or is alive: only when no ingest into this scope is running."""
    report = RepairReport(scope)
    here = here or socket.gethostname()
    report.indexes_created = ensure_indexes(graph)
    try:
        wait_for_indexes(graph, index_timeout_s, INDEXES)
    except Exception as exc:  # reported; the rest of the repair does not need them
        report.problems.append(str(exc))
    for (lease_id,) in graph.ro_query(LEASE_IDS):
        try:
            rows = graph.ro_query(LEASE, {"id": lease_id})
            key, host, pid, start, expired = rows[0] if rows else (None,) * 5
            alive = _lease_owner_alive(host, pid, start, expired, here)
        except StoreError as exc:
            key, alive = None, False
            report.problems.append(f"lease node {lease_id} could not be read ({exc}); removed")
        if alive is not False and not force:
            who = f"pid {pid} on {host}" if alive else f"a writer on {host} (cannot be checked)"
            report.leases_kept.append(f"staging {key} of {who}; --force removes it")
            continue
        [[chunks]] = graph.query(DROP_LEASE, {"id": lease_id}) or [[0]]
        report.leases_dropped += 1
        report.staging_chunks_dropped += int(chunks or 0)
    for staged, chunks in graph.query(UNLEASED_STAGING):
        report.unleased_staging_dropped += int(staged or 0)
        report.orphan_chunks_dropped += int(chunks or 0)
    for (orphans,) in graph.query(ORPHAN_CHUNKS):
        report.orphan_chunks_dropped += int(orphans or 0)
    for name, expected, stored in graph.ro_query(CHUNK_COUNTS):
        report.problems.append(
            f"document {name!r} lists {expected} chunks but {stored} are stored; "
            "ingest it again to rebuild it"
        )
    return report
