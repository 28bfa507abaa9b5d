"""Moving a scope between stores (issue 18): embedded -> server -> cluster -> embedded, with the
shared corpora, every document's bytes, chunk span, relation and quote identical field by
field at each step; the source is dropped only after the copy is checked; a target that
already holds the scope is refused and nothing is dropped. Real FalkorDB processes on loopback
ports (citegraph.testing.servers)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import citegraph
from citegraph import Workspace
from citegraph.errors import InvalidRequest
from citegraph.testing.servers import LocalCluster, ServerProcess, start_cluster, start_server

from conftest import dataset
from helpers import cli, everything_in

FIXTURES = Path(__file__).parent / "fixtures"


@dataclass
class Stores:
    embedded: Workspace
    server: Workspace
    cluster: Workspace
    server_proc: ServerProcess
    cluster_procs: LocalCluster


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stores]:
    base = tmp_path_factory.mktemp("move")
    server = start_server(base / "server")
    cluster = start_cluster(base / "cluster", masters=3, replicas=1)
    try:
        with (
            citegraph.open(base / "home") as embedded,
            citegraph.open(url=server.url) as on_server,
            citegraph.open(url=cluster.url) as on_cluster,
        ):
            yield Stores(embedded, on_server, on_cluster, server, cluster)
    finally:
        server.stop()
        cluster.stop()


def test_a_scope_travels_embedded_server_cluster_and_back(stores: Stores) -> None:
    scope = stores.embedded.scope("travel")
    scope.ingest(dataset("engineering_docs/google_microservices-demo"))
    scope.ingest(dataset("pdfs/pdfplumber__federal-register-2020-17221.pdf"))
    scope.ingest(FIXTURES / "harbor")
    sample = scope.audit_sample(2)
    scope.record_audit([(sample[0].id, "wrong")])
    original = everything_in(scope)
    question = "What language is the currency service written in?"
    cited = scope.ask(question).citations

    hops = [
        (stores.embedded, stores.server),
        (stores.server, stores.cluster),
        (stores.cluster, stores.embedded),
    ]
    digests = set()
    for source, target in hops:
        report = source.move_scope("travel", target)
        assert report.source_dropped and report.note is None, report
        assert "travel" not in source.scopes() and "travel" in target.scopes()
        moved = target.scope("travel")
        after = everything_in(moved)
        for key in original:
            assert after[key] == original[key], (target.store_kind, key)
        assert moved.ask(question).citations == cited
        digests.add(report.digest)
    assert len(digests) == 1  # the same records at every step


def test_a_target_that_holds_the_scope_is_refused(stores: Stores) -> None:
    stores.embedded.scope("clash").ingest(b"The embedded copy.", name="a.txt")
    stores.server.scope("clash").ingest(b"Already on the server.", name="b.txt")
    with pytest.raises(InvalidRequest, match="already holds data"):
        stores.embedded.move_scope("clash", stores.server)
    assert [d.name for d in stores.embedded.scope("clash").documents()] == ["a.txt"]
    assert [d.name for d in stores.server.scope("clash").documents()] == ["b.txt"]


def test_the_move_command(stores: Stores, tmp_path: Path) -> None:
    home = tmp_path / "home"
    ingested = cli("ingest", str(FIXTURES / "harbor"), "--home", str(home), "--scope", "cmd")
    assert ingested.returncode == 0, ingested.stderr
    url = stores.server_proc.url
    moved = cli("move", "--scope", "cmd", "--to", url, "--as", "cmd2", "--home", str(home))
    assert moved.returncode == 0, moved.stderr
    assert "moved scope cmd" in moved.stdout
    assert "cmd2" in cli("scopes", "--url", url).stdout.split()
    assert "cmd" not in cli("scopes", "--home", str(home)).stdout.split()
    back = cli("move", "--scope", "cmd2", "--url", url, "--to-home", str(home), "--keep")
    assert back.returncode == 0, back.stderr
    assert "copied scope cmd2" in back.stdout
    assert "cmd2" in cli("scopes", "--url", url).stdout.split()
    neither = cli("move", "--scope", "cmd2", "--home", str(home))
    assert neither.returncode == 2 and "--to" in neither.stderr
