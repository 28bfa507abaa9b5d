"""Adopting a LightRAG working directory (issue 19, first slice). The fixture is LightRAG's
own output (lightrag-hku 1.5.7, run by tests/fixtures/make_lightrag_fixture.py against the
scripted OpenAI-compatible stub) over three notes written for the test; its "model" named an
entity no note holds and a relation whose ends no sentence names together.

Every `grounding: source` citation is the stored (and source file's) bytes at its span, every
`grounding: chunk` citation the adopted chunk's text; the planted entity is `unsupported`,
the relation with no shared sentence `inferred`; ask and impact work on the adopted scope and
`check` verifies their export; adopting twice adds nothing; a damaged file is refused by name
and leaves the scope as it was."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import citegraph
from citegraph import Scope, Workspace
from citegraph.audit.store_check import check_against_store
from citegraph.errors import AdoptionError
from citegraph.values.documents import Grounding
from citegraph.values.paths import WalkPolicy

from helpers import cli

FIXTURE = Path(__file__).parent / "fixtures" / "lightrag"
SOURCES = Path(__file__).parent / "fixtures" / "lightrag_sources"
_n = iter(range(1000))


def _scope(workspace: Workspace) -> Scope:
    return workspace.scope(f"adopt{next(_n)}")


def _counts(scope: Scope) -> tuple[int, int]:
    nodes = scope.graph.ro_query("MATCH (n) RETURN count(n)")[0][0]
    edges = scope.graph.ro_query("MATCH ()-[r]->() RETURN count(r)")[0][0]
    return int(nodes), int(edges)


def _adopted_relations(scope: Scope) -> dict[tuple[str, str], object]:
    return {
        (r.source, r.target): r
        for r in scope.relations(limit=1000)
        if r.origin == "adopted:lightrag"
    }


def test_adopted_passages_entities_and_relations(workspace: Workspace) -> None:
    scope = _scope(workspace)
    report = scope.adopt(FIXTURE)
    assert (report.tool, report.chunks, report.chunks_in_source) == ("lightrag", 3, 3)
    assert report.chunks_as_own_text == 0 and report.documents == 3
    assert report.entities == 6 and report.entities_located == 5
    assert report.entities_unsupported == ["Quantum Billing Engine (service)"]
    assert (report.relations, report.relations_supported, report.relations_inferred) == (5, 3, 2)
    # The documents are LightRAG's copies of the notes (which it trimmed), byte for byte.
    kept = json.loads((FIXTURE / "kv_store_full_docs.json").read_text())
    for doc in kept.values():
        assert scope.stored_text(doc["file_path"]) == doc["content"].encode()
    # The planted entity is kept, marked, and never mentioned.
    [fabricated] = scope.entities("Quantum Billing Engine")
    assert fabricated.mentions == 0
    rows = scope.graph.ro_query(
        "MATCH (e:Entity {norm: 'quantum billing engine'}) RETURN e.unsupported, e.description"
    )
    assert rows == [[True, "Bills freight by quantum pricing."]]
    # Supported relations quote the sentence that names both ends, read back from the bytes.
    relations = _adopted_relations(scope)
    supported = [r for r in relations.values() if r.citable]  # type: ignore[attr-defined]
    assert len(supported) == 3
    for relation in supported:
        doc = scope.document(relation.document_id)  # type: ignore[attr-defined]
        stored = scope.stored_text(doc.id)
        span = (relation.start_byte, relation.end_byte)  # type: ignore[attr-defined]
        assert stored[span[0] : span[1]].decode() == relation.quote  # type: ignore[attr-defined]
        # ... and the source file's bytes at the same span.
        assert (SOURCES / doc.name).read_bytes()[span[0] : span[1]] == stored[span[0] : span[1]]
        assert relation.source.lower() in relation.quote.lower()  # type: ignore[attr-defined]
    # LightRAG's edges are undirected: which end it wrote first is its own choice.
    inferred = {frozenset(k) for k, r in relations.items() if not r.citable}  # type: ignore[attr-defined]
    assert inferred == {
        frozenset(("Ledger Service", "Quantum Billing Engine")),
        frozenset(("Harbor Portal", "Ledger Service")),
    }
    for relation in relations.values():
        assert relation.quote is None or "Shows balances" not in relation.quote  # type: ignore[attr-defined]


def test_ask_impact_and_check_on_the_adopted_scope(workspace: Workspace) -> None:
    scope = _scope(workspace)
    scope.adopt(FIXTURE)
    answer = scope.ask("What does the Ledger Service write to Journal DB?")
    assert answer.disposition.value == "answered", answer
    for citation in answer.citations:
        assert citation.grounding is Grounding.SOURCE
        stored = scope.stored_text(citation.document_id)
        assert stored[citation.start_byte : citation.end_byte] == citation.quote.encode()
    exported = citegraph.from_json(citegraph.to_json(answer))
    assert citegraph.check(exported) == []
    assert check_against_store(exported, scope) == []  # the stored bytes, read again
    # LightRAG's relations are undirected: walked both ways, under a policy that says so.
    policy = WalkPolicy(follow=(("RELATED", "both"),), name="adopted")
    found = scope.impact("Journal DB", "dependents", max_hops=1, policy=policy)
    assert found.status == "ok"
    graded = {(a.entity.name, a.grade.value) for a in found.affected}
    assert ("Ledger Service", "supported") in graded
    assert ("Audit Worker", "supported") in graded
    for affected in found.affected:
        for path in affected.paths:
            for hop in path.hops:
                if hop.evidence is not None:
                    stored = scope.stored_text(hop.evidence.document_id)
                    span = stored[hop.evidence.start_byte : hop.evidence.end_byte]
                    assert span == hop.evidence.quote.encode()


def test_without_the_tools_documents(workspace: Workspace, tmp_path: Path) -> None:
    bare = tmp_path / "bare"
    shutil.copytree(FIXTURE, bare)
    (bare / "kv_store_full_docs.json").unlink()
    # Given the source files, every chunk is found in its file: grounding source.
    with_sources = _scope(workspace)
    report = with_sources.adopt(bare, sources=SOURCES)
    assert report.chunks_in_source == 3 and report.chunks_as_own_text == 0
    for source in SOURCES.iterdir():
        assert with_sources.stored_text(source.name) == source.read_bytes()
    # Without them, each chunk is stored as its own text, and cites with grounding chunk.
    alone = _scope(workspace)
    report = alone.adopt(bare)
    assert report.chunks_in_source == 0 and report.chunks_as_own_text == 3
    chunks = json.loads((FIXTURE / "kv_store_text_chunks.json").read_text())
    answer = alone.ask("What does the Ledger Service write to Journal DB?")
    assert answer.disposition.value == "answered", answer
    for citation in answer.citations:
        assert citation.grounding is Grounding.CHUNK
        whole = alone.stored_text(citation.document_id).decode()
        assert whole in {c["content"] for c in chunks.values()}
        assert whole.encode()[citation.start_byte : citation.end_byte] == citation.quote.encode()
    exported = citegraph.from_json(citegraph.to_json(answer))
    assert citegraph.check(exported) == []
    assert check_against_store(exported, alone) == []


def test_adopting_twice_adds_nothing(workspace: Workspace) -> None:
    scope = _scope(workspace)
    scope.adopt(FIXTURE)
    before = _counts(scope)
    again = scope.adopt(FIXTURE)
    assert _counts(scope) == before
    assert again.relations_supported == 3


def _newer_run(tmp_path: Path) -> Path:
    """The fixture as a later LightRAG run might leave it: the invented entity and its
    relation gone, the Harbor Portal relation gone, one description reworded."""
    newer = tmp_path / "newer"
    shutil.copytree(FIXTURE, newer)
    graphml = newer / "graph_chunk_entity_relation.graphml"
    text = graphml.read_text()
    for start, end in (
        ('<node id="Quantum Billing Engine">', "</node>"),
        ('<edge source="Ledger Service" target="Quantum Billing Engine">', "</edge>"),
        ('<edge source="Ledger Service" target="Harbor Portal">', "</edge>"),
    ):
        at = text.index(start)
        text = text[:at] + text[text.index(end, at) + len(end) :]
    graphml.write_text(text.replace("Posts charges.", "Posts every charge."))
    return newer


def test_a_newer_run_replaces_the_older(workspace: Workspace, tmp_path: Path) -> None:
    scope = _scope(workspace)
    first = scope.adopt(FIXTURE)
    assert first.replaced_run is None and first.run.startswith("lightrag:")
    scope.ingest(b"The Ledger Service depends on Vault.", name="note.txt")  # our own
    kept_by_us = {(r.source, r.target) for r in scope.relations() if r.origin != "adopted:lightrag"}
    assert ("Ledger Service", "Vault") in kept_by_us
    newer = scope.adopt(_newer_run(tmp_path))
    assert newer.replaced_run == first.run and newer.run != first.run
    assert newer.removed == {"entities": 1, "relations": 2}
    assert scope.entities("Quantum Billing Engine") == []
    relations = _adopted_relations(scope)
    assert {frozenset(k) for k in relations} == {
        frozenset(("Audit Worker", "Journal DB")),
        frozenset(("Journal DB", "Ledger Service")),
        frozenset(("Ledger Service", "Billing API")),
    }
    described = scope.graph.ro_query(
        "MATCH ()-[x:RELATES {source: 'adopted:lightrag'}]->() RETURN collect(x.description)"
    )[0][0]
    assert "Posts every charge." in described and "Posts charges." not in described
    assert {(r.source, r.target) for r in scope.relations() if r.origin != "adopted:lightrag"} == (
        kept_by_us
    )
    # The newer run again: nothing changes; the older one again replaces it back.
    before = _counts(scope)
    again = scope.adopt(_newer_run(tmp_path / "again"))
    assert again.replaced_run is None and again.removed == {} and _counts(scope) == before
    back = scope.adopt(FIXTURE)
    assert back.replaced_run == newer.run and len(_adopted_relations(scope)) == 5
    assert [e.mentions for e in scope.entities("Quantum Billing Engine")] == [0]


def test_a_replacement_that_fails_leaves_the_older_run(
    workspace: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import citegraph.store.queries.adopt as queries

    scope = _scope(workspace)
    scope.adopt(FIXTURE)
    before = _counts(scope), set(_adopted_relations(scope))
    # The store fails at the very end of the replacing query, after every write in it.
    failing = queries.ADOPT_RUN.replace("size(orphans) AS", "size(orphans) / 0 AS")
    monkeypatch.setattr(queries, "ADOPT_RUN", failing)
    with pytest.raises(citegraph.StoreError):
        scope.adopt(_newer_run(tmp_path))
    assert (_counts(scope), set(_adopted_relations(scope))) == before
    assert len(scope.entities("Quantum Billing Engine")) == 1


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda d: (d / "kv_store_text_chunks.json").write_text('{"chunk-1": {"content": '),
         "kv_store_text_chunks.json: not valid JSON at line 1"),
        (lambda d: (d / "graph_chunk_entity_relation.graphml").write_text("<graphml><graph>"),
         "graph_chunk_entity_relation.graphml: not a whole GraphML file"),
        (lambda d: (d / "kv_store_full_docs.json").write_text('{"doc-1": {"text": 3}}'),
         "record 'doc-1' has no text field 'content'"),
    ],
)  # fmt: skip
def test_a_damaged_output_is_refused_and_changes_nothing(
    workspace: Workspace, tmp_path: Path, damage: object, said: str
) -> None:
    scope = _scope(workspace)
    scope.ingest(b"Something stored before.", name="before.txt")
    before = _counts(scope)
    broken = tmp_path / "broken"
    shutil.copytree(FIXTURE, broken)
    damage(broken)  # type: ignore[operator]
    with pytest.raises(AdoptionError, match=said):
        scope.adopt(broken)
    assert _counts(scope) == before
    assert [d.name for d in scope.documents()] == ["before.txt"]


def test_what_is_not_an_output_is_named(workspace: Workspace, tmp_path: Path) -> None:
    scope = _scope(workspace)
    with pytest.raises(AdoptionError, match="neither a LightRAG working directory"):
        scope.adopt(tmp_path)
    (tmp_path / "kv_store_text_chunks.json").write_text("{}")  # half a LightRAG directory
    with pytest.raises(AdoptionError, match="neither a LightRAG working directory"):
        scope.adopt(tmp_path)
    with pytest.raises(AdoptionError, match="--from must be one of lightrag, graphrag"):
        scope.adopt(tmp_path, tool="haystack")


def test_the_adopt_command(tmp_path: Path) -> None:
    home = str(tmp_path / "home")
    done = cli("adopt", str(FIXTURE), "--scope", "lr", "--home", home, "--json")
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["tool"] == "lightrag" and body["entitiesUnsupported"] == [
        "Quantum Billing Engine (service)"
    ]
    text = cli("adopt", str(FIXTURE), "--scope", "lr", "--home", home).stdout
    assert "unsupported" in text and "Quantum Billing Engine" in text
    bad = cli("adopt", str(tmp_path), "--scope", "lr", "--home", home)
    assert bad.returncode == 2 and "neither a LightRAG" in " ".join(bad.stderr.split())
