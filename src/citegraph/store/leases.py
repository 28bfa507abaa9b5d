"""Leases on ingest staging: who writes a staged version, and until when.

A lease carries a deadline on the store's own clock (`timestamp()` in the query, so writers
on machines whose clocks disagree still agree), renewed every third of its time to live while
its writer runs. Any process on any machine may drop staging whose lease has passed its
deadline: its writer is gone or has stalled past the deadline, and a stalled writer's commit
then fails ("a staged document vanished") instead of committing half a document. On the
writer's own machine a dead process is seen at once, without waiting for the deadline.

The machine's name on a lease is CITEGRAPH_HOST_ID, by default the host name: two machines
with one host name (containers) should set it.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass

from .graph import GraphHandle
from .queries.documents import RENEW_LEASES

DEFAULT_TTL_S = 30.0


def host_id(configured: str | None = None) -> str:
    """The machine's name on its leases: CITEGRAPH_HOST_ID, else the host name."""
    return configured or socket.gethostname()


@dataclass
class _Held:
    graph: GraphHandle
    ttl_ms: int


class LeaseKeeper:
    """Renews the leases this process holds, on a thread of its own while it holds any."""

    def __init__(self) -> None:
        self._held: dict[str, _Held] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def hold(self, graph: GraphHandle, keys: list[str], ttl_s: float) -> None:
        with self._lock:
            for key in keys:
                self._held[key] = _Held(graph, max(1, int(ttl_s * 1000)))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="citegraph-leases", daemon=True
                )
                self._thread.start()

    def release(self, keys: list[str]) -> None:
        with self._lock:
            for key in keys:
                self._held.pop(key, None)

    def holds(self, key: str) -> bool:
        with self._lock:
            return key in self._held

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._held:
                    self._thread = None
                    return
                interval = min(h.ttl_ms for h in self._held.values()) / 3000
            time.sleep(interval)
            self.renew()

    def renew(self) -> None:
        """Push every held lease's deadline on (a failure is left to the next round: if the
        store stays away past the deadline, another writer may clean the staging)."""
        with self._lock:
            groups: dict[tuple[int, int], tuple[GraphHandle, list[str]]] = {}
            for key, held in self._held.items():
                group = groups.setdefault((id(held.graph), held.ttl_ms), (held.graph, []))
                group[1].append(key)
        for (_, ttl_ms), (graph, keys) in groups.items():
            try:
                graph.query(RENEW_LEASES, {"keys": keys, "ttl_ms": ttl_ms})
            except Exception:
                continue


KEEPER = LeaseKeeper()
