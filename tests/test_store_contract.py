"""One contract, every store: the embedded FalkorDB and a FalkorDB server by URL must behave
the same through the workspace API. A new backend joins by adding itself to `BACKENDS`."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

import citegraph
from citegraph import EntityFact, Facts, IngestStatus, Passage, Scope, Workspace

from conftest import assert_tiles
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


def test_documents_are_stored_whole_replaced_and_deleted(space: Scope) -> None:
    text = ("A line about the harbour wall, with “quotes” and ünïcödé.\n" * 200).encode()
    [created] = space.ingest(text, name="wall.txt")
    assert created.status is IngestStatus.CREATED
    assert_tiles(space, created.document.id, text)
    [same] = space.ingest(text, name="wall.txt")
    assert same.status is IngestStatus.UNCHANGED
    [replaced] = space.ingest(text + b"One more line.\n", name="wall.txt")
    assert replaced.status is IngestStatus.REPLACED
    assert space.stored_text("wall.txt") == text + b"One more line.\n"
    assert [d.name for d in space.documents()] == ["wall.txt"]
    space.delete_document("wall.txt")
    assert space.documents() == []
    with pytest.raises(citegraph.DocumentNotFound):
        space.document("wall.txt")


def test_verdicts_are_the_same(space: Scope) -> None:
    space.remember(
        "ticket",
        Facts(entities=(EntityFact("Northwind Retail", "Company"),)),
        [Passage(NORTHWIND, ("Northwind Retail",))],
    )
    grounded = space.context("What does Northwind Retail report about the invoice export?")
    assert grounded.verdict.state == "grounded"
    assert any("currency column" in item.text for item in grounded.items)
    related = space.context("What does Northwind Retail report about the export deadline?")
    assert related.verdict.state == "related" and "deadline" in related.verdict.uncovered
    assert space.context("What does Contoso say about payroll?").verdict.state != "grounded"


def test_answers_are_verified_or_refused(space: Scope) -> None:
    space.ingest(NORTHWIND.encode(), name="ticket.txt")
    answer = space.ask("What does Northwind Retail report about the invoice export?")
    assert answer.disposition.value == "answered"
    for citation in answer.citations:
        stored = space.stored_text(citation.document_id)
        assert stored[citation.start_byte : citation.end_byte] == citation.quote.encode()
    refusal = space.ask("What does Contoso say about payroll?")
    assert refusal.disposition.value == "refused" and refusal.reason is not None


def test_bad_input_changes_nothing(space: Scope) -> None:
    space.ingest(b"Kept.", name="kept.txt")
    for bad in (b"\xff\xfe\xfa not utf-8", b"", b"\x89PNG\r\n\x1a\n\x00\x00"):
        with pytest.raises(citegraph.InvalidDocument):
            space.ingest(bad, name="bad.txt")
    with pytest.raises(citegraph.UsageError, match="NUL"):
        space.ingest(b"text", name="nul\x00name.txt")
    assert [d.name for d in space.documents()] == ["kept.txt"]


def test_scopes_are_separate_graphs(store: Workspace) -> None:
    a, b = store.scope(f"contract{next(_n)}"), store.scope(f"contract{next(_n)}")
    a.ingest(b"Only in A: the lighthouse keeper's log.", name="a.txt")
    assert b.documents() == []
    assert b.context("What does the lighthouse keeper log?").verdict.state == "nothing_stored"
    assert a.name in store.scopes() and b.name not in store.scopes()
    store.drop_scope(a.name)
    assert a.name not in store.scopes()


def test_readers_and_a_writer_at_once(space: Scope) -> None:
    space.ingest_many([(f"n{i}.txt", f"Note {i} on the tide gauge.".encode()) for i in range(30)])

    def read(_: int) -> str:
        return space.context("What do the notes say about the tide gauge?").verdict.state.value

    def write(i: int) -> None:
        space.ingest(f"Later note {i} on the tide gauge.".encode(), name=f"later{i}.txt")

    with ThreadPoolExecutor(6) as pool:
        writes = [pool.submit(write, i) for i in range(6)]
        states = list(pool.map(read, range(30)))
        for w in writes:
            w.result()
    assert set(states) == {"grounded"}
    assert len(space.documents()) == 36


def test_index_states_are_reported(space: Scope) -> None:
    space.ingest(b"Anything at all.", name="a.txt")
    states = space.index_states()
    assert states and set(states.values()) == {"OPERATIONAL"}, states
