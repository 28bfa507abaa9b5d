"""Writes acknowledged by a replica before they are acknowledged to the caller.

Replication is asynchronous: a primary lost a moment after it answered may take its last
writes with it, and the promoted replica never had them. Where the graph's primary has a
replica, each write is followed by WAIT 1 on the same connection (a pipeline of the two), so
an acknowledged write is on two machines. A replica that does not confirm within
ACK_TIMEOUT_MS leaves the write on the primary only: it is logged, and writes stop waiting
for NO_REPLICA_PAUSE_S (a lost replica must not slow every write by the timeout).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("citegraph")

ACK_TIMEOUT_MS = 1000
NO_REPLICA_PAUSE_S = 10.0


class ReplicaAck:
    def __init__(self) -> None:
        self._pause_until: dict[str, float] = {}
        self._lock = threading.Lock()
        self.unconfirmed = 0  # writes no replica confirmed in time

    def waits(self, node: str) -> bool:
        with self._lock:
            return time.monotonic() >= self._pause_until.get(node, 0.0)

    def confirmed(self, node: str, acks: int) -> None:
        if acks >= 1:
            return
        with self._lock:
            self.unconfirmed += 1
            self._pause_until[node] = time.monotonic() + NO_REPLICA_PAUSE_S
        log.warning(
            "graph store %s: no replica confirmed a write within %d ms; it is on the primary "
            "only, and writes there stop waiting for a replica for %g s",
            node,
            ACK_TIMEOUT_MS,
            NO_REPLICA_PAUSE_S,
        )


# Who takes a graph's writes now: the client of its primary, the primary's name, and whether
# it has a replica to wait for (None when the store cannot say: the write goes without).
Route = Callable[[], tuple[Any, str, bool] | None]


def acknowledged_by_replica(
    route: Route, fallback: Callable[..., Any], ack: ReplicaAck
) -> Callable[..., Any]:
    """An execute_command for a falkordb Graph's writes: through the graph's primary and then
    WAIT 1 on the same connection, where that primary has a replica. The primary is looked up
    at each call, so writes follow a failover as soon as the client's view has."""

    def execute(*args: Any) -> Any:
        found = route()
        if found is None or not found[2] or not ack.waits(found[1]):
            return fallback(*args)
        client, node, _ = found
        with client.pipeline(transaction=False) as pipe:
            pipe.execute_command(*args)
            pipe.execute_command("WAIT", 1, ACK_TIMEOUT_MS)
            reply, acks = pipe.execute(raise_on_error=False)
        if isinstance(reply, Exception):
            raise reply
        ack.confirmed(node, int(acks) if isinstance(acks, int) else 0)
        return reply

    return execute
