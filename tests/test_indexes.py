"""An index under construction is reported as such, never read as 'no results'."""

from __future__ import annotations

import pytest

import citegraph
from citegraph import Workspace
from citegraph.store.schema import ensure_indexes, index_states, wait_for_indexes


def test_a_new_full_text_index_is_waited_for(workspace: Workspace) -> None:
    graph = workspace.store.graph("citegraph:index_build")
    graph.delete()
    text = "words to index in a chunk that is long enough to take the index some time " * 30
    for _ in range(20):
        graph.query(
            "UNWIND range(1, 2000) AS i CREATE (:Chunk {id: toString(i), text: $t})", {"t": text}
        )
    # The full-text index alone first, so that nothing else runs while it is being built.
    graph.query("CALL db.idx.fulltext.createNodeIndex('Chunk', 'text')")
    states = index_states(graph)
    assert "UNDER CONSTRUCTION" in states[("Chunk", "text", "FULLTEXT")]
    with pytest.raises(citegraph.IndexNotReady, match=r"Chunk\.text"):
        wait_for_indexes(graph, timeout_s=0.001)
    ensure_indexes(graph)
    wait_for_indexes(graph, timeout_s=120)
    assert set(index_states(graph).values()) == {"OPERATIONAL"}
    hits = graph.ro_query(
        "CALL db.idx.fulltext.queryNodes('Chunk', 'index') YIELD node RETURN count(node)"
    )
    assert hits == [[40000]]
    graph.delete()


def test_ingest_reports_success_only_with_an_operational_index(workspace: Workspace) -> None:
    scope = workspace.scope("index_ready")
    scope.ingest(b"The lighthouse keeper logs every ship.", name="log.txt")
    assert set(scope.index_states().values()) == {"OPERATIONAL"}
    hits = scope.graph.ro_query(
        "CALL db.idx.fulltext.queryNodes('Chunk', 'lighthouse') YIELD node RETURN node.id"
    )
    assert len(hits) == 1


def test_indexes_another_writer_created_meanwhile_are_no_error(workspace: Workspace) -> None:
    """Two commands opening a new scope at once both find its indexes missing; the second to
    create one is refused by the store. That is the index being there, not a failed ingest
    (seen: two `citegraph ingest` on a fresh home, one exiting 3 with "Attribute 'id' is
    already indexed"). An index that is still missing after a refusal stays an error."""
    from citegraph.store.queries.schema import LIST_INDEXES

    graph = workspace.store.graph("citegraph:index_race")
    graph.delete()
    assert ensure_indexes(graph) > 0  # the other writer's

    class SeenBeforeTheOtherWriter:
        """The graph as this writer saw it: the first list of indexes from before the other
        writer made them; everything after it as the store answers."""

        def __init__(self) -> None:
            self.stale = True

        def query(self, cypher: str, params: dict[str, object] | None = None) -> list[list[object]]:
            if cypher == LIST_INDEXES and self.stale:
                self.stale = False
                return []
            return graph.query(cypher, params)

    assert ensure_indexes(SeenBeforeTheOtherWriter()) == 0  # type: ignore[arg-type]
    wait_for_indexes(graph, timeout_s=60)
    assert set(index_states(graph).values()) == {"OPERATIONAL"}

    class Refusing:
        """A store that refuses the create and still lacks the index afterwards."""

        def query(self, cypher: str, params: dict[str, object] | None = None) -> list[list[object]]:
            if cypher == LIST_INDEXES:
                return []
            raise citegraph.StoreError("the graph store refused a write: out of memory")

    with pytest.raises(citegraph.StoreError, match="out of memory"):
        ensure_indexes(Refusing())  # type: ignore[arg-type]
    graph.delete()
