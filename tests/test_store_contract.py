"""One contract, every store: the embedded FalkorDB and a FalkorDB server by URL pass the
shipped StoreContract (citegraph.testing.contracts) through the workspace API. A new backend
joins by adding itself to `BACKENDS`."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

import citegraph
from citegraph import Scope, Workspace
from citegraph.testing.contracts import StoreContract

from helpers import falkordb_on_port, free_port

BACKENDS = ["embedded", "server"]
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
    port = free_port()
    proc = falkordb_on_port(port, base / "data")
    try:
        with citegraph.open(url=f"redis://127.0.0.1:{port}") as ws:
            assert not ws.embedded
            yield ws
    finally:
        proc.terminate()
        proc.wait(30)


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
