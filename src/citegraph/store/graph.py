"""The GraphStore seam and its FalkorDB implementation (embedded or server, same code)."""

from __future__ import annotations

from typing import Any, Protocol

import falkordb
import redis
import redis.exceptions

from ..errors import StoreError, StoreLoading, StoreUnavailable, UsageError

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

    def unsaved_writes(self) -> str | None:
        """Why the store holds writes it could not save to disk; None when it saves them."""
        ...

    def query_memory_cap(self) -> int | None:
        """The most memory one query may use, in bytes; None when the store sets no cap."""
        ...

    def close(self) -> None: ...


def _translate(exc: Exception, what: str) -> Exception:
    # BusyLoadingError is a ConnectionError in redis-py: test it first.
    if isinstance(exc, redis.exceptions.BusyLoadingError):
        return StoreLoading(f"the graph store is still loading its data ({what})")
    if isinstance(exc, redis.exceptions.TimeoutError):
        return StoreUnavailable(f"the graph store gave no answer in time during {what}: {exc}")
    if isinstance(exc, redis.exceptions.ConnectionError):
        return StoreUnavailable(f"the graph store went away during {what}: {exc}")
    return StoreError(f"the graph store refused {what}: {exc}")


def _check_text(value: Any) -> None:
    """FalkorDB cannot take a NUL inside a parameter, nor text that is not valid Unicode: say so
    as the caller's mistake rather than let the store refuse the query."""
    if isinstance(value, str):
        if "\x00" in value:
            raise UsageError("text with a NUL character cannot be stored or looked up")
    elif isinstance(value, dict):
        for item in value.values():
            _check_text(item)
    elif isinstance(value, list | tuple):
        for item in value:
            _check_text(item)


def _unencodable() -> UsageError:
    return UsageError("text that is not valid Unicode (a lone surrogate) cannot be stored")


class FalkorGraph:
    def __init__(self, graph: Any, name: str):
        self._graph = graph
        self.name = name

    def query(self, cypher: str, params: dict[str, Any] | None = None) -> Rows:
        _check_text(params)
        try:
            return list(self._graph.query(cypher, params).result_set)
        except UnicodeEncodeError:
            raise _unencodable() from None
        except redis.exceptions.RedisError as exc:
            raise _translate(exc, "a write") from exc

    def ro_query(
        self, cypher: str, params: dict[str, Any] | None = None, timeout_ms: int | None = None
    ) -> Rows:
        _check_text(params)
        return list(self._read(cypher, params, timeout_ms).result_set)

    def _read(self, cypher: str, params: dict[str, Any] | None, timeout_ms: int | None) -> Any:
        try:
            return self._graph.ro_query(cypher, params, timeout=timeout_ms)
        except UnicodeEncodeError:
            raise _unencodable() from None
        except redis.exceptions.RedisError as exc:
            raise _translate(exc, "a read") from exc

    def explain(self, cypher: str) -> list[str]:
        try:
            plan = self._graph.explain(cypher)
        except redis.exceptions.RedisError as exc:
            raise _translate(exc, "a query plan") from exc
        return [line for line in str(plan).splitlines() if line.strip()]

    def read_table(self, cypher: str, timeout_ms: int) -> tuple[list[str], Rows]:
        from .plain import plain

        result = self._read(cypher, None, timeout_ms)
        columns = [str(column[1]) for column in result.header]
        return columns, [[plain(v) for v in row] for row in result.result_set]

    def delete(self) -> None:
        try:
            self._graph.delete()
        except redis.exceptions.ResponseError as exc:
            if "empty key" in str(exc).lower() or "invalid graph" in str(exc).lower():
                return  # nothing was ever written to it
            raise _translate(exc, "deleting a graph") from exc
        except redis.exceptions.RedisError as exc:
            raise _translate(exc, "deleting a graph") from exc


class FalkorStore:
    """FalkorDB through the official client, over a unix socket or a redis:// URL."""

    def __init__(
        self,
        *,
        unix_socket: str | None = None,
        url: str | None = None,
        timeout_s: float | None = None,
    ):
        if (unix_socket is None) == (url is None):
            raise ValueError("give exactly one of unix_socket and url")
        # A store that stops answering (FalkorDB 4.16.3 was seen to deadlock once, in the
        # tests) must end in an error after `timeout_s`, not hang its caller forever.
        try:
            if url is not None:
                self._db = falkordb.FalkorDB.from_url(url, socket_timeout=timeout_s)
            else:
                self._db = falkordb.FalkorDB(unix_socket_path=unix_socket, socket_timeout=timeout_s)
        except (redis.exceptions.RedisError, ValueError) as exc:
            raise StoreUnavailable(f"cannot connect to the graph store: {exc}") from exc
        self.where = url if url is not None else f"unix://{unix_socket}"
        self._probe: redis.Redis | None = None

    def graph(self, name: str) -> FalkorGraph:
        return FalkorGraph(self._db.select_graph(name), name)

    def list_graphs(self) -> list[str]:
        try:
            return list(self._db.list_graphs())
        except redis.exceptions.RedisError as exc:
            raise _translate(exc, "listing graphs") from exc

    def ping(self, timeout_s: float | None = None) -> None:
        """PING the store; with `timeout_s`, on a connection of its own that gives up after
        that long (a health check must not wait out the query timeout of a hung store)."""
        try:
            if timeout_s is None:
                self._db.connection.ping()
            else:
                self._prober(timeout_s).ping()
        except redis.exceptions.RedisError as exc:
            raise _translate(exc, "a health check") from exc

    def unsaved_writes(self) -> str | None:
        # FalkorDB keeps a write whose append to its file failed (a full disk) in memory, and
        # refuses further writes until the append succeeds; it says so in INFO persistence.
        try:
            info = self._db.connection.info("persistence")
        except redis.exceptions.RedisError as exc:
            raise _translate(exc, "a persistence check") from exc
        if info.get("aof_enabled") and info.get("aof_last_write_status") == "err":
            return (
                f"the graph store at {self.where} cannot write to its append-only file "
                "(a full disk, or a file it may not write)"
            )
        return None

    def query_memory_cap(self) -> int | None:
        try:
            reply = self._db.connection.execute_command("GRAPH.CONFIG", "GET", "QUERY_MEM_CAPACITY")
        except redis.exceptions.RedisError as exc:
            raise _translate(exc, "reading the store's settings") from exc
        value = int(reply[1]) if isinstance(reply, list | tuple) and len(reply) == 2 else 0
        return value or None

    def _prober(self, timeout_s: float) -> redis.Redis:
        if self._probe is None:
            pool = self._db.connection.connection_pool
            kwargs = dict(pool.connection_kwargs)
            kwargs.update(socket_timeout=timeout_s, socket_connect_timeout=timeout_s)
            self._probe = redis.Redis(
                connection_pool=redis.ConnectionPool(
                    connection_class=pool.connection_class, max_connections=4, **kwargs
                )
            )
        return self._probe

    def close(self) -> None:
        if self._probe is not None:
            self._probe.close()
        self._db.close()
