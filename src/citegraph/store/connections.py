"""The clients behind one store address: who takes writes (the server, the cluster, the
current primary), who may take reads, and how each node is doing.

Writes, and reads of a graph this process wrote in the last READ_YOUR_WRITES_S seconds, go
to the primary (in a cluster, the graph's master). Other reads go to a replica only when the
address allows stale reads (`read=replicas`). When a primary stops answering, the nodes the
address names are asked who is primary now (ROLE), so a promoted replica is found without a
restart; a cluster's own client does the same from the cluster's slot table.
"""

from __future__ import annotations

import itertools
import threading
import time
from typing import Any

import falkordb
import redis
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.retry import Retry

from ..errors import ConfigError, StoreUnavailable
from .address import Node, StoreAddress
from .hang_watch import InFlight
from .health import NodeHealth
from .nodes import cluster_nodes, node_health
from .replica_ack import ReplicaAck, acknowledged_by_replica

READ_YOUR_WRITES_S = 5.0
NODE_PROBE_S = 2.0

# Errors that mean "this node, or the cluster's view of it, is changing": worth asking who
# the primary is now. RedisClusterException is not a RedisError.
FAILOVER_ERRORS: tuple[type[BaseException], ...] = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    redis.exceptions.ReadOnlyError,
    redis.exceptions.ClusterDownError,
    redis.exceptions.TryAgainError,
    redis.exceptions.RedisClusterException,
    redis.exceptions.AskError,  # MOVED too: a write sent to a master the slot has left
)
# Anything the store's client raises for a failed command.
STORE_ERRORS: tuple[type[BaseException], ...] = (redis.exceptions.RedisError, *FAILOVER_ERRORS)


class Connections:
    def __init__(self, address: StoreAddress, timeout_s: float | None):
        self.address = address
        self.timeout_s = timeout_s
        self.kind = address.kind
        self.detected = False  # a cluster found behind a plain server URL
        self.generation = 0
        self.in_flight = InFlight()  # the calls waiting on the store (store/hang_watch.py)
        self.hung: str | None = None  # why a hung server under the calls was killed
        self._lock = threading.Lock()
        self._wrote: dict[str, float] = {}
        self._graphs: dict[tuple[int, str, str], falkordb.Graph] = {}
        self._turn = itertools.count()
        self.ack = ReplicaAck()
        self.primary_node: Node = address.primary
        self._writer = self._connect_writer()
        self._readers: list[falkordb.FalkorDB] = self._connect_readers()

    # -- connecting ---------------------------------------------------------------------

    def _where(self, node: Node) -> dict[str, Any]:
        """How to reach `node`: the unix socket, or its host and port with the URL's
        credentials and TLS."""
        if self.address.socket_path is not None:
            return {"unix_socket_path": self.address.socket_path}
        return {
            "host": node.host,
            "port": node.port,
            "username": self.address.username,
            "password": self.address.password,
            "ssl": self.address.scheme == "rediss",
        }

    def _client(self, node: Node, **extra: Any) -> falkordb.FalkorDB:
        where = self._where(node)
        if "unix_socket_path" in where:
            extra = {}  # a cluster is never behind a unix socket here
        return falkordb.FalkorDB(**where, socket_timeout=self.timeout_s, **extra)

    def _cluster_client(self, read_from_replicas: bool) -> falkordb.FalkorDB:
        seeds = [ClusterNode(n.host, n.port) for n in self.address.nodes]  # type: ignore[no-untyped-call]
        problems = []
        for node in self.address.nodes:  # the first seed that answers introduces the rest
            try:
                db = self._client(node, startup_nodes=seeds, read_from_replicas=read_from_replicas)
            except redis.exceptions.RedisError as exc:
                problems.append(f"{node.address}: {exc}")
                continue
            if not isinstance(db.connection, RedisCluster):
                db.close()
                raise ConfigError(
                    f"{node.address} is not in cluster mode; use redis:// for one server"
                )
            return db
        raise StoreUnavailable("no seed node of the cluster answers: " + "; ".join(problems))

    def _connect_writer(self) -> falkordb.FalkorDB:
        try:
            if self.kind == "cluster":
                return self._cluster_client(read_from_replicas=False)
            if self.kind == "replicated":
                self.primary_node = self._find_primary()
            db = self._client(self.primary_node)
        except (redis.exceptions.RedisError, ValueError) as exc:
            raise StoreUnavailable(f"cannot connect to the graph store: {exc}") from exc
        if isinstance(db.connection, RedisCluster):
            self.kind, self.detected = "cluster", True
        return db

    def _connect_readers(self) -> list[falkordb.FalkorDB]:
        if not self.address.stale_reads:
            return []
        if self.kind == "cluster":
            return [self._cluster_client(read_from_replicas=True)]
        readers = []
        for node in self.address.nodes:
            if node != self.primary_node:
                try:
                    readers.append(self._client(node))
                except redis.exceptions.RedisError:
                    continue  # a replica down at the start is skipped, not fatal
        return readers

    def _role(self, node: Node) -> str:
        probe = self._probe(node)
        try:
            reply = probe.execute_command("ROLE")  # type: ignore[no-untyped-call]
        finally:
            probe.close()
        return "primary" if reply and reply[0] == "master" else "replica"

    def _find_primary(self) -> Node:
        """The node that says it is a master: the one named first, unless it has become a
        replica or is gone and another has been promoted."""
        problems = []
        for node in self.address.nodes:
            try:
                if self._role(node) == "primary":
                    return node
            except redis.exceptions.RedisError as exc:
                problems.append(f"{node.address}: {exc}")
        raise StoreUnavailable(
            "no node of the graph store says it is the primary"
            + (": " + "; ".join(problems) if problems else " (all are replicas)")
        )

    def _probe(self, node: Node, timeout_s: float = NODE_PROBE_S) -> redis.Redis:
        """A client of one node that gives up after `timeout_s`, once (no retries: a health
        check must not wait out several timeouts of a hung node)."""
        return redis.Redis(
            **self._where(node),
            socket_timeout=timeout_s,
            socket_connect_timeout=timeout_s,
            decode_responses=True,
            retry=Retry(NoBackoff(), 0),
        )

    # -- routing ------------------------------------------------------------------------

    @property
    def writer(self) -> falkordb.FalkorDB:
        return self._writer

    def graph(self, name: str, read: bool) -> tuple[falkordb.Graph, bool]:
        """The graph to run on, and whether it is a replica's (stale reads allowed)."""
        use_reader = (
            read
            and bool(self._readers)
            and time.monotonic() - self._wrote.get(name, -1e9) > READ_YOUR_WRITES_S
        )
        with self._lock:
            if use_reader:
                index = next(self._turn) % len(self._readers)
                db, tag = self._readers[index], f"reader{index}"
            else:  # reads on the primary go through the client as it is: only writes wait
                db, tag = self._writer, "primary-read" if read else "writer"
            key = (self.generation, name, tag)
            graph = self._graphs.get(key)
            if graph is None:
                graph = self._graphs[key] = db.select_graph(name)
                if not read:
                    self._acknowledged_writes(graph, name)
            return graph, use_reader

    def _acknowledged_writes(self, graph: falkordb.Graph, name: str) -> None:
        """Where the graph's primary has a replica, its writes wait for it (replica_ack.py)."""
        connection = self._writer.connection
        if self.kind == "replicated":
            node = self.primary_node.address
            graph.execute_command = acknowledged_by_replica(
                lambda: (connection, node, True), connection.execute_command, self.ack
            )
        elif self.kind == "cluster" and isinstance(connection, RedisCluster):
            slot = connection.keyslot(name)  # type: ignore[no-untyped-call]

            def route() -> tuple[Any, str, bool] | None:
                serving = connection.nodes_manager.slots_cache.get(slot) or []
                if not serving:
                    return None
                primary = serving[0]
                return connection.get_redis_connection(primary), primary.name, len(serving) > 1

            graph.execute_command = acknowledged_by_replica(
                route, connection.execute_command, self.ack
            )

    def wrote(self, name: str) -> None:
        self._wrote[name] = time.monotonic()

    def failed(self, exc: BaseException) -> bool:
        """A query failed with `exc`; find the primary again where that may help. True when
        the clients changed (a retry of a read may then succeed)."""
        if not isinstance(exc, FAILOVER_ERRORS):
            return False
        if self.kind == "cluster":
            try:  # the slot table again, from whichever node answers
                self._writer.connection.nodes_manager.initialize()
            except Exception:  # the cluster is mid-switch: the next call tries again
                return False
            with self._lock:
                self.generation += 1
                self._graphs.clear()
            return True
        if self.kind != "replicated":
            return False
        try:
            primary = self._find_primary()
        except StoreUnavailable:
            return False
        if primary == self.primary_node:
            return False
        with self._lock:
            old = self._writer
            self.primary_node = primary
            self._writer = self._client(primary)
            for reader in self._readers:
                reader.close()
            self._readers = self._connect_readers()
            self.generation += 1
            self._graphs.clear()
        old.close()
        return True

    # -- the whole store ----------------------------------------------------------------

    def on_primaries(self, *args: Any) -> list[Any]:
        """Run a command on every primary (one, unless a cluster); their replies."""
        connection = self._writer.connection
        if isinstance(connection, RedisCluster):
            replies = connection.execute_command(*args, target_nodes=connection.get_primaries())  # type: ignore[no-untyped-call]
            return list(replies.values()) if isinstance(replies, dict) else [replies]
        return [connection.execute_command(*args)]

    def primaries_info(self, section: str) -> list[dict[str, Any]]:
        """INFO `section` of every primary that answers. In a cluster, a master that does
        not answer is skipped: queries to its slots fail on their own, and the rest of the
        cluster must not wait for it (nor look as if it held unsaved writes)."""
        connection = self._writer.connection
        if not isinstance(connection, RedisCluster):
            return [connection.info(section)]
        infos = []
        for node in connection.get_primaries():  # type: ignore[no-untyped-call]
            try:
                infos.append(connection.get_redis_connection(node).info(section))
            except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
                continue
        return infos

    def ping(self, timeout_s: float | None) -> None:
        connection = self._writer.connection
        if isinstance(connection, RedisCluster):
            for node in connection.get_primaries():  # type: ignore[no-untyped-call]
                probe = self._probe(Node(node.host, int(node.port)), timeout_s or NODE_PROBE_S)
                try:
                    probe.ping()
                finally:
                    probe.close()
            return
        if timeout_s is None:
            connection.ping()
            return
        probe = self._probe(self.primary_node, timeout_s)
        try:
            probe.ping()
        finally:
            probe.close()

    def nodes(self) -> list[NodeHealth]:
        """Every node this store is made of, each asked directly."""
        if self.kind == "cluster":
            return cluster_nodes(self._writer.connection, self._probe)
        nodes = [self.primary_node] + [n for n in self.address.nodes if n != self.primary_node]
        label = self.address.socket_path
        return [
            node_health(self._probe, node, None, f"unix://{label}" if label else None)
            for node in nodes
        ]

    def close(self) -> None:
        for reader in self._readers:
            reader.close()
        self._writer.close()
