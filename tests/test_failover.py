"""Failover (issue 18), with real FalkorDB processes on loopback ports.

A 3-master cluster with a replica, under load (4 clients reading, 1 writing): the master of
the scope is killed with kill -9 and its replica promoted (by the cluster itself once its
masters mark the lost one failed, else by CLUSTER FAILOVER FORCE). Every write acknowledged
before and after is present afterwards, byte for byte (sha256); a read that fails says so
(StoreUnavailable), never an empty result, and only around the switch;
reads and writes work again without restarting anything. A primary with a replica: the
primary killed, the replica promoted by REPLICAOF NO ONE, and found again by the same
workspace."""

from __future__ import annotations

import contextlib
import hashlib
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from redis.crc import key_slot

import citegraph
from citegraph import StoreUnavailable
from citegraph.scope import GRAPH_PREFIX
from citegraph.testing.servers import SLOTS, LocalCluster, start_cluster, start_replicated

from helpers import wait_until


def _scope_on_first_master(masters: int) -> str:
    """A scope name whose graph key hashes to the first master's slots."""
    for i in range(10_000):
        name = f"fail{i}"
        if key_slot((GRAPH_PREFIX + name).encode()) < SLOTS // masters:
            return name
    raise AssertionError("no such name")


@dataclass
class Load:
    url: str
    scope: str
    stop: threading.Event = field(default_factory=threading.Event)
    acknowledged: dict[str, str] = field(default_factory=dict)  # name -> sha256
    write_errors: list[tuple[float, BaseException]] = field(default_factory=list)
    read_errors: list[tuple[float, BaseException]] = field(default_factory=list)
    reads: list[tuple[float, int]] = field(default_factory=list)  # (when, documents seen)
    writes_done: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def writer(self) -> None:
        with citegraph.open(url=self.url) as ws:
            scope = ws.scope(self.scope)
            i = 0
            while not self.stop.is_set():
                name, text = f"w{i}.txt", f"Write {i}: the tide gauge read {i * 7} cm.\n".encode()
                try:
                    scope.ingest(text * 20, name=name)
                except citegraph.CitegraphError as exc:
                    with self.lock:
                        self.write_errors.append((time.monotonic(), exc))
                    time.sleep(0.05)
                else:
                    with self.lock:
                        self.acknowledged[name] = hashlib.sha256(text * 20).hexdigest()
                        self.writes_done.append(time.monotonic())
                i += 1

    def reader(self) -> None:
        with citegraph.open(url=self.url) as ws:
            scope = ws.scope(self.scope)
            while not self.stop.is_set():
                try:
                    seen = len(scope.documents())
                    state = scope.context("What did the tide gauge read?").verdict.state.value
                    assert state != "nothing_stored", "a read came back empty"
                except citegraph.CitegraphError as exc:
                    with self.lock:
                        self.read_errors.append((time.monotonic(), exc))
                    time.sleep(0.05)
                else:
                    with self.lock:
                        self.reads.append((time.monotonic(), seen))


def _diagnose(load: Load, cluster: LocalCluster, killed: float) -> None:
    """What the clients last met, and each live node's view of the slots (when it failed)."""
    recent = [(round(w - killed, 2), repr(e)[:200]) for w, e in load.read_errors[-2:]]
    recent += [(round(w - killed, 2), repr(e)[:200]) for w, e in load.write_errors[-2:]]
    print("\nlast errors:", recent)
    for server in cluster.processes():
        if server.alive():
            slots = [(r[0], r[1], r[2][1]) for r in server.command("CLUSTER", "SLOTS")]
            print(server.port, "serves", slots)


def test_cluster_failover_under_load(tmp_path: Path) -> None:
    cluster = start_cluster(tmp_path, masters=3, replicas=1)
    try:
        name = _scope_on_first_master(3)
        doomed, heir = cluster.masters[0], cluster.replicas[0]
        with citegraph.open(url=cluster.url) as ws:
            seed = ws.scope(name)
            seed.ingest(b"The tide gauge read 12 cm at dawn.", name="seed.txt")
            keys = doomed.command("KEYS", "*")
            assert GRAPH_PREFIX + name in keys, keys
        load = Load(cluster.url, name)
        # Daemon threads, stopped in `finally`: a failure anywhere below (the cluster not
        # agreeing, say) must not leave them running and the test process unable to exit.
        threads = [threading.Thread(target=load.writer, daemon=True)]
        threads += [threading.Thread(target=load.reader, daemon=True) for _ in range(4)]
        for t in threads:
            t.start()
        killed = time.monotonic()
        try:
            wait_until(lambda: len(load.acknowledged) >= 10 and len(load.reads) >= 20, 60, "load")
            killed = time.monotonic()
            doomed.kill()
            time.sleep(1.5)  # a master lost and not yet replaced: the clients meet the switch
            cluster.promote(heir)
            cluster.wait_ok()
            promoted = time.monotonic()
            before = len(load.acknowledged)
            # Recovered without a restart: the same clients read and write again.
            wait_until(lambda: len(load.acknowledged) >= before + 10, 60, "writes after failover")
            wait_until(
                lambda: sum(1 for when, _ in load.reads if when > promoted + 2) >= 20,
                60,
                "reads after failover",
            )
        except BaseException:
            _diagnose(load, cluster, killed)
            raise
        finally:
            load.stop.set()
            for t in threads:
                t.join(60)

        # Failures were clear errors, and only around the switch.
        assert load.read_errors, "no read met the lost master: the switch was not tested"
        for when, exc in load.read_errors + load.write_errors:
            assert isinstance(exc, StoreUnavailable), repr(exc)
            assert killed - 0.5 <= when <= promoted + 15, (when - killed, exc)
        # Every acknowledged write is there, byte for byte, read through a fresh workspace.
        with citegraph.open(url=cluster.url) as ws:
            scope = ws.scope(name)
            stored = {d.name: d.sha256 for d in scope.documents()}
            for doc, sha in load.acknowledged.items():
                assert stored.get(doc) == sha, doc
                assert hashlib.sha256(scope.stored_text(doc)).hexdigest() == sha
            assert ws.health().state.value in ("ok", "degraded")
        print(
            f"\nfailover: {len(load.acknowledged)} writes acknowledged, {len(load.reads)} reads; "
            f"errors during the switch: {len(load.read_errors)} reads, "
            f"{len(load.write_errors)} writes; switch {promoted - killed:.2f} s"
        )
    finally:
        cluster.stop()


def test_a_promoted_replica_is_found_again(tmp_path: Path) -> None:
    servers = start_replicated(tmp_path, replicas=1)
    try:
        with citegraph.open(url=servers.url) as ws:
            scope = ws.scope("notes")
            scope.ingest(b"Before: the harbour wall was repaired.", name="before.txt")
            nodes = ws.health().nodes
            assert [n.role for n in nodes] == ["primary", "replica"]
            servers.primary.kill()
            servers.replicas[0].command("REPLICAOF", "NO", "ONE")
            # The first call may fail (the primary went away); the next finds the new one.
            with contextlib.suppress(StoreUnavailable):
                scope.documents()
            scope.ingest(b"After: the lighthouse was painted.", name="after.txt")
            assert {d.name for d in scope.documents()} == {"before.txt", "after.txt"}
            health = ws.health()
            assert health.state.value == "degraded"  # the old primary is gone
            roles = {n.address: (n.role, n.state) for n in health.nodes}
            assert roles[servers.replicas[0].address] == ("primary", "ok")
            assert roles[servers.primary.address][1] == "down"
    finally:
        servers.stop()
