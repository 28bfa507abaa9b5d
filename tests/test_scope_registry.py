"""Scopes and nodes on stores beyond one machine (issue 18): the scope registry lists scopes on
every backend (a cluster client cannot route GRAPH.LIST); a store written before the registry
is registered from its graphs once; each scope is one graph key, on one master of a cluster;
health names every node with its role (and a master's slots), in the API and the command."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import falkordb
import pytest

import citegraph
from citegraph.scope import GRAPH_PREFIX
from citegraph.service.shapes import health_shape
from citegraph.store.registry import REGISTRY_GRAPH
from citegraph.testing.servers import LocalCluster, start_cluster, start_server

from helpers import cli


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    procs = start_cluster(tmp_path_factory.mktemp("registry-cluster"), masters=3, replicas=1)
    yield procs
    procs.stop()


def test_a_store_from_before_the_registry_is_registered_once(tmp_path: Path) -> None:
    server = start_server(tmp_path / "data")
    try:
        raw = falkordb.FalkorDB(host="127.0.0.1", port=server.port)
        raw.select_graph(GRAPH_PREFIX + "legacy").query("CREATE (:Document {name: 'old'})")
        raw.select_graph("someone-elses-graph").query("CREATE (:Thing)")
        with citegraph.open(url=server.url) as ws:
            assert ws.scopes() == ["legacy"]
            assert REGISTRY_GRAPH in raw.list_graphs()
            ws.scope("fresh").ingest(b"A new note.", name="n.txt")
            assert ws.scopes() == ["fresh", "legacy"]
            ws.scope("typo").documents()  # read, never written: registered, not listed
            assert ws.scopes() == ["fresh", "legacy"]
            ws.drop_scope("legacy")
            assert ws.scopes() == ["fresh"]
        # A graph created after seeding (outside citegraph) is not re-read from GRAPH.LIST.
        raw.select_graph(GRAPH_PREFIX + "sneaked").query("CREATE (:Document {name: 'x'})")
        with citegraph.open(url=server.url) as ws:
            assert ws.scopes() == ["fresh"]
        raw.close()
    finally:
        server.stop()


def test_scopes_spread_over_a_cluster_one_master_each(cluster: LocalCluster) -> None:
    names = [f"tenant{i}" for i in range(8)]
    with citegraph.open(url=cluster.url) as ws:
        assert ws.store_kind == "cluster"
        for name in names:
            ws.scope(name).ingest(f"Notes of {name}.".encode(), name="notes.txt")
        assert set(names) <= set(ws.scopes())
    holders = {
        name: [m.port for m in cluster.masters if GRAPH_PREFIX + name in m.command("KEYS", "*")]
        for name in names
    }
    assert all(len(ports) == 1 for ports in holders.values()), holders
    assert len({ports[0] for ports in holders.values()}) >= 2, holders  # spread, not one shard


def test_health_names_every_node(cluster: LocalCluster) -> None:
    with citegraph.open(url=cluster.url) as ws:
        found = ws.health()
    assert found.state.value == "ok" and found.kind == "cluster"
    roles = sorted(n.role for n in found.nodes)
    assert roles == ["primary", "primary", "primary", "replica"]
    assert all(n.state == "ok" and n.ping_ms is not None for n in found.nodes)
    assert all(n.slots for n in found.nodes if n.role == "primary")
    addresses = {n.address for n in found.nodes}
    assert addresses == {p.address for p in cluster.processes()}
    shape = health_shape(found, found.public_detail()).model_dump()
    assert [n["role"] for n in shape["graph"]["nodes"]].count("primary") == 3
    assert "address" not in shape["graph"]["nodes"][0]  # the open route names no hosts

    done = cli("health", "--url", cluster.url, "--json")
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["kind"] == "cluster" and len(body["nodes"]) == 4
    text = " ".join(cli("health", "--url", cluster.url).stdout.split())  # unwrapped
    assert "a FalkorDB cluster (seed nodes)" in text and text.count("primary 127.0.0.1:") == 3


def test_health_says_which_node_is_down(tmp_path: Path) -> None:
    cluster = start_cluster(tmp_path, masters=3, replicas=1)
    try:
        with citegraph.open(url=cluster.url) as ws:
            cluster.replicas[0].kill()
            found = ws.health()
        assert found.state.value == "degraded", found
        down = [n for n in found.nodes if n.state != "ok"]
        assert [n.address for n in down] == [cluster.replicas[0].address]
        assert "1 of 4 nodes" in found.public_detail()
    finally:
        cluster.stop()
