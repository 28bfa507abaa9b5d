"""The GraphStore seam and its FalkorDB implementation (embedded or server, same code)."""

from __future__ import annotations

import time
from typing import Any, Protocol

import redis
import redis.exceptions

from ..errors import StoreError, StoreLoading, StoreUnavailable, UsageError
from .address import Node, StoreAddress, parse_graph_url
from .connections import FAILOVER_ERRORS, STORE_ERRORS, Connections
from .hang_watch import InFlight
from .health import NodeHealth
from .params import header

Rows = list[list[Any]]


class GraphHandle(Protocol):
    """One named graph."""

    name: str

    def query(self, cypher: str, params: dict[str, Any] | None = None) -> Rows: ...

    def ro_query(
        self, cypher: str, params: dict[str, Any] | None = None, timeout_ms: int | None = None
    ) -> Rows: ...

    def explain(self, cypher: str) -> list[str]:
        """The store's plan for `cypher`, a line per operation; runs nothing."""
        ...

    def read_table(self, cypher: str, timeout_ms: int) -> tuple[list[str], Rows]:
        """A read-only query's column names and rows, with nodes, edges and paths as plain
        values (store/plain.py); refused by the store if it would write."""
        ...

    def delete(self) -> None: ...


class GraphStore(Protocol):
    """A place that holds named graphs."""

    def graph(self, name: str) -> GraphHandle: ...

    def list_graphs(self) -> list[str]: ...

    def ping(self, timeout_s: float | None = None) -> None: ...

    def unsaved_writes(self, written: bool = False) -> str | None:
        """Why the store holds writes it could not save to disk; None when it saves them.
        `written`: the caller just wrote, and waits until the store has put it in its file."""
        ...

    def query_memory_cap(self) -> int | None:
        """The most memory one query may use, in bytes; None when the store sets no cap."""
        ...

    def close(self) -> None: ...


def names_a_missing_graph(message: str) -> bool:
    """Whether the store's error says the graph does not exist (nothing was ever written to
    it, or it was deleted)."""
    said = message.lower()
    return "empty key" in said or "invalid graph" in said


def _translate(exc: BaseException, what: str, hung: str | None = None) -> Exception:
    # BusyLoadingError is a ConnectionError in redis-py: test it first.
    if isinstance(exc, redis.exceptions.BusyLoadingError):
        return StoreLoading(f"the graph store is still loading its data ({what})")
    if hung is not None and isinstance(exc, redis.exceptions.ConnectionError):
        return StoreUnavailable(f"{hung}; {what} was cut off and not acknowledged")
    if isinstance(exc, redis.exceptions.TimeoutError):
        return StoreUnavailable(f"the graph store gave no answer in time during {what}: {exc}")
    if isinstance(exc, redis.exceptions.ConnectionError):
        return StoreUnavailable(f"the graph store went away during {what}: {exc}")
    if isinstance(exc, redis.exceptions.ReadOnlyError):
        return StoreUnavailable(
            f"the node that took {what} has become a replica; the primary is looked up again "
            f"for the next request: {exc}"
        )
    if isinstance(exc, FAILOVER_ERRORS):  # the cluster is down or switching a master over
        return StoreUnavailable(f"the graph cluster cannot serve {what} now: {exc}")
    return StoreError(f"the graph store refused {what}: {exc}")


def _unencodable() -> UsageError:
    return UsageError("text that is not valid Unicode (a lone surrogate) cannot be stored")


class FalkorGraph:
    def __init__(self, connections: Connections, name: str):
        self._connections = connections
        self.name = name

    def query(self, cypher: str, params: dict[str, Any] | None = None) -> Rows:
        text = header(params) + cypher
        graph, _ = self._connections.graph(self.name, read=False)
        try:
            with self._connections.in_flight.call():
                return list(graph.query(text).result_set)
        except UnicodeEncodeError:
            raise _unencodable() from None
        except STORE_ERRORS as exc:
            # Never retried: a write cut off may have been applied. The next call goes to
            # the primary found now.
            self._connections.failed(exc)
            raise _translate(exc, "a write", self._connections.hung) from exc
        finally:
            self._connections.wrote(self.name)

    def ro_query(
        self, cypher: str, params: dict[str, Any] | None = None, timeout_ms: int | None = None
    ) -> Rows:
        return list(self._read(header(params) + cypher, timeout_ms).result_set)

    def _read(self, text: str, timeout_ms: int | None) -> Any:
        """`text`: the query with its parameters' header."""
        for attempt in (1, 2):
            graph, from_replica = self._connections.graph(self.name, read=True)
            try:
                with self._connections.in_flight.call():
                    return graph.ro_query(text, timeout=timeout_ms)
            except UnicodeEncodeError:
                raise _unencodable() from None
            except STORE_ERRORS as exc:
                # A read may be asked again once, of the primary found now (or, after a
                # replica failed, of the primary).
                changed = self._connections.failed(exc)
                if attempt == 1 and isinstance(exc, FAILOVER_ERRORS) and (changed or from_replica):
                    if from_replica:
                        self._connections.wrote(self.name)  # the primary, for a while
                    continue
                raise _translate(exc, "a read", self._connections.hung) from exc
        raise AssertionError("unreachable")

    def explain(self, cypher: str) -> list[str]:
        graph, _ = self._connections.graph(self.name, read=False)
        try:
            with self._connections.in_flight.call():
                plan = graph.explain(cypher)
        except STORE_ERRORS as exc:
            raise _translate(exc, "a query plan", self._connections.hung) from exc
        return [line for line in str(plan).splitlines() if line.strip()]

    def read_table(self, cypher: str, timeout_ms: int) -> tuple[list[str], Rows]:
        from .plain import plain

        result = self._read(cypher, timeout_ms)
        columns = [str(column[1]) for column in result.header]
        return columns, [[plain(v) for v in row] for row in result.result_set]

    def delete(self) -> None:
        graph, _ = self._connections.graph(self.name, read=False)
        try:
            with self._connections.in_flight.call():
                graph.delete()
        except redis.exceptions.ResponseError as exc:
            if names_a_missing_graph(str(exc)):
                return  # nothing was ever written to it
            raise _translate(exc, "deleting a graph") from exc
        except STORE_ERRORS as exc:
            self._connections.failed(exc)
            raise _translate(exc, "deleting a graph", self._connections.hung) from exc
        finally:
            self._connections.wrote(self.name)


# Redis puts off an append for at most 2 s while an fsync runs; then it writes.
_APPEND_WAIT_S = 3.0


def append_state(infos: list[dict[str, Any]]) -> tuple[bool, bool]:
    """From each primary's INFO persistence: whether an append to its file failed, and
    whether writes it answered wait in memory for their append (`aof_buffer_length`)."""
    failed = pending = False
    for info in infos:
        if not info.get("aof_enabled"):
            continue
        failed = failed or info.get("aof_last_write_status") == "err"
        pending = pending or int(info.get("aof_buffer_length", 0) or 0) > 0
    return failed, pending


class FalkorStore:
    """FalkorDB through the official client: over a unix socket, or at a graph URL naming a
    server, a cluster, or a primary with replicas (store/address.py)."""

    def __init__(
        self,
        *,
        unix_socket: str | None = None,
        url: str | None = None,
        timeout_s: float | None = None,
    ):
        if (unix_socket is None) == (url is None):
            raise ValueError("give exactly one of unix_socket and url")
        if url is not None:
            self.address = parse_graph_url(url)
        else:
            self.address = StoreAddress(
                "server", "unix", (Node("localhost", 0),), socket_path=unix_socket
            )
        # A store that stops answering (FalkorDB 4.16.3 was seen to deadlock once, in the
        # tests) must end in an error after `timeout_s`, not hang its caller forever.
        self._connections = Connections(self.address, timeout_s)
        self.where = self.address.shown()

    @property
    def kind(self) -> str:
        """server, cluster or replicated (a primary with read replicas)."""
        return self._connections.kind

    def describe(self) -> str:
        """What the store is, in words: the kind and how it was known."""
        kind = self._connections.kind
        if kind == "cluster":
            said = "detected behind the URL" if self._connections.detected else "seed nodes"
            return f"a FalkorDB cluster ({said})"
        if kind == "replicated":
            reads = "replicas may serve reads" if self.address.stale_reads else "reads on primary"
            return f"a FalkorDB primary with {len(self.address.replicas)} replica(s) ({reads})"
        return "a FalkorDB server"

    @property
    def in_flight(self) -> InFlight:
        """The calls waiting on the store now (store/hang_watch.py)."""
        return self._connections.in_flight

    def mark_hung(self, why: str | None) -> None:
        """Calls cut off from now on say `why` (a hung server was killed); None: no more."""
        self._connections.hung = why

    @property
    def connection(self) -> Any:
        """The client of the primary (or the cluster), for tests and benchmarks."""
        return self._connections.writer.connection

    def graph(self, name: str) -> FalkorGraph:
        return FalkorGraph(self._connections, name)

    def list_graphs(self) -> list[str]:
        try:
            with self._connections.in_flight.call():
                replies = self._connections.on_primaries("GRAPH.LIST")
        except STORE_ERRORS as exc:
            self._connections.failed(exc)
            raise _translate(exc, "listing graphs", self._connections.hung) from exc
        return sorted({str(name) for reply in replies for name in reply or []})

    def ping(self, timeout_s: float | None = None) -> None:
        """PING the store (every primary of a cluster); with `timeout_s`, on a connection of
        its own that gives up after that long (a health check must not wait out the query
        timeout of a hung store)."""
        try:
            self._connections.ping(timeout_s)
        except STORE_ERRORS as exc:
            self._connections.failed(exc)
            raise _translate(exc, "a health check") from exc

    def nodes(self) -> list[NodeHealth]:
        """Each node of the store, asked directly (never raises: a node down says so)."""
        return self._connections.nodes()

    def unsaved_writes(self, written: bool = False) -> str | None:
        # FalkorDB keeps a write whose append to its file failed (a full disk) in memory, and
        # refuses further writes until the append succeeds; it says so in INFO persistence.
        # With fsync `everysec` it may also answer a write before appending it (while an
        # fsync is still running, for up to 2 s): a caller that just wrote waits for that.
        deadline = time.monotonic() + _APPEND_WAIT_S
        while True:
            try:
                with self._connections.in_flight.call():
                    infos = self._connections.primaries_info("persistence")
            except STORE_ERRORS as exc:
                self._connections.failed(exc)
                raise _translate(exc, "a persistence check", self._connections.hung) from exc
            failed, pending = append_state(infos)
            if failed:
                return (
                    f"the graph store at {self.where} cannot write to its append-only file "
                    "(a full disk, or a file it may not write)"
                )
            if not (written and pending):
                return None
            if time.monotonic() >= deadline:
                return (
                    f"the graph store at {self.where} has not written its append-only file "
                    f"for {_APPEND_WAIT_S:g} s (a slow or stalled disk)"
                )
            time.sleep(0.01)

    def query_memory_cap(self) -> int | None:
        try:
            with self._connections.in_flight.call():
                replies = self._connections.on_primaries(
                    "GRAPH.CONFIG", "GET", "QUERY_MEM_CAPACITY"
                )
        except STORE_ERRORS as exc:
            self._connections.failed(exc)
            raise _translate(exc, "reading the store's settings", self._connections.hung) from exc
        caps = [
            int(reply[1]) if isinstance(reply, list | tuple) and len(reply) == 2 else 0
            for reply in replies
        ]
        return None if not caps or 0 in caps else min(caps)

    def close(self) -> None:
        self._connections.close()
