"""Adopting Microsoft GraphRAG output (issue 19). The parquet files are written here from
GraphRAG's documented output schema (2.x: `text_units.document_ids`; 3.x:
`text_units.document_id`), not by GraphRAG itself: running it (its install and a stub that
speaks its extraction prompts) was not done. Over the same three notes as the LightRAG
fixture: an overlapping pair of text units, an entity no text unit names, a relation whose
ends no sentence names together, one title with two types, and a community report."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import citegraph
from citegraph import Scope, Workspace
from citegraph.errors import AdoptionError
from citegraph.surfaces.http import TokenFile, create_app
from citegraph.values.documents import Grounding

from helpers import cli

pa = pytest.importorskip("pyarrow")  # a dev dependency: present wherever the suite runs
pq = pytest.importorskip("pyarrow.parquet")

SOURCES = Path(__file__).parent / "fixtures" / "lightrag_sources"
_n = iter(range(1000))


def _unit(text: str) -> str:
    return hashlib.sha512(text.encode()).hexdigest()


def write_output(
    folder: Path, layout: int, summary: str = "The ledger writes to Journal DB."
) -> dict[str, str]:
    """A GraphRAG output folder of the given layout (2 or 3); the text units' ids by name.
    Another `summary` stands for a later run (its community report reworded)."""
    folder.mkdir(parents=True, exist_ok=True)
    notes = {p.name: p.read_text() for p in sorted(SOURCES.iterdir())}
    ledger = notes["ledger.md"]
    half = ledger.index("The Ledger Service writes")
    pieces = {
        "audit": ("audit.md", notes["audit.md"]),
        "billing": ("billing.md", notes["billing.md"]),
        "ledger-1": ("ledger.md", ledger[: half + 40]),  # overlaps the next, as GraphRAG's do
        "ledger-2": ("ledger.md", ledger[half:]),
    }
    ids = {name: _unit(text) for name, (_, text) in pieces.items()}
    docs = [{"id": f"doc-{n}", "human_readable_id": i, "title": n, "text": t}
            for i, (n, t) in enumerate(notes.items())]  # fmt: skip
    units: list[dict[str, Any]] = []
    for i, (name, (doc, text)) in enumerate(pieces.items()):
        row: dict[str, Any] = {"id": ids[name], "human_readable_id": i, "text": text,
                               "n_tokens": len(text.split())}  # fmt: skip
        if layout == 3:
            row["document_id"] = f"doc-{doc}"
        else:
            row["document_ids"] = [f"doc-{doc}"]
        units.append(row)

    def entity(title: str, kind: str, *where: str) -> dict[str, Any]:
        return {"id": hashlib.md5(f"{title}{kind}".encode()).hexdigest(), "title": title,
                "type": kind.upper(), "description": f"{title}, as the model saw it.",
                "text_unit_ids": [ids[w] for w in where], "frequency": len(where)}  # fmt: skip

    entities = [
        entity("Ledger Service", "service", "ledger-1", "ledger-2", "billing"),
        entity("Journal DB", "datastore", "ledger-2", "audit"),
        entity("Quantum Billing Engine", "service", "ledger-1"),
        entity("Billing API", "service", "billing"),
        entity("Harbor Portal", "service", "billing"),
        entity("Harbor Portal", "geo", "billing"),
        entity("Audit Worker", "service", "audit"),
    ]

    def relation(a: str, b: str, *where: str) -> dict[str, Any]:
        return {"id": f"{a}->{b}", "source": a, "target": b, "weight": 1.0,
                "description": f"{a} and {b}, as the model saw them.",
                "text_unit_ids": [ids[w] for w in where]}  # fmt: skip

    relations = [
        relation("Ledger Service", "Journal DB", "ledger-2"),
        relation("Billing API", "Ledger Service", "billing"),
        relation("Harbor Portal", "Ledger Service", "billing"),
        relation("Ledger Service", "Quantum Billing Engine", "ledger-1"),
        relation("Audit Worker", "Journal DB", "audit"),
    ]
    ledger_ids = [e["id"] for e in entities if e["title"] in ("Ledger Service", "Journal DB")]
    communities = [{"id": "c0", "community": 0, "title": "Community 0",
                    "entity_ids": ledger_ids}]  # fmt: skip
    content = "# The ledger\nA model's summary of the ledger's community."
    reports = [{"id": "r0", "community": 0, "title": "The ledger and its store",
                "summary": summary,
                "full_content": content}]  # fmt: skip
    for name, rows in (("documents", docs), ("text_units", units), ("entities", entities),
                       ("relationships", relations), ("communities", communities),
                       ("community_reports", reports)):  # fmt: skip
        pq.write_table(pa.Table.from_pylist(rows), folder / f"{name}.parquet")
    return ids


def _scope(workspace: Workspace) -> Scope:
    return workspace.scope(f"graphrag{next(_n)}")


def _counts(scope: Scope) -> tuple[int, int]:
    nodes = scope.graph.ro_query("MATCH (n) RETURN count(n)")[0][0]
    edges = scope.graph.ro_query("MATCH ()-[r]->() RETURN count(r)")[0][0]
    return int(nodes), int(edges)


@pytest.mark.parametrize("layout", [2, 3])
def test_graphrag_output_is_adopted_and_checked(
    workspace: Workspace, tmp_path: Path, layout: int
) -> None:
    write_output(tmp_path / "output", layout)
    scope = _scope(workspace)
    report = scope.adopt(tmp_path / "output")
    assert report.tool == "graphrag" and f"GraphRAG {layout}.x" in report.version
    assert report.chunks == 4 and report.chunks_in_source == 4 and report.documents == 3
    assert report.entities == 7 and report.entities_located == 6
    assert report.entities_unsupported == ["Quantum Billing Engine (service)"]
    assert report.same_name_other_type == ["harbor portal: geo, service"]
    assert (report.relations_supported, report.relations_inferred) == (3, 2)
    # Kept apart (citegraph's own offline names may add an identity of their own).
    assert {"geo", "service"} <= {i.type for i in scope.entities("Harbor Portal")}
    for name in ("audit.md", "billing.md", "ledger.md"):
        assert scope.stored_text(name) == (SOURCES / name).read_bytes()
    relations = [r for r in scope.relations(limit=1000) if r.origin == "adopted:graphrag"]
    for r in relations:
        if r.citable:
            assert r.document_id is not None and r.start_byte is not None
            stored = scope.stored_text(r.document_id)
            assert stored[r.start_byte : r.end_byte].decode() == r.quote
            name = scope.document(r.document_id).name
            assert (SOURCES / name).read_bytes()[r.start_byte : r.end_byte] == r.quote.encode()
    assert sorted((r.source, r.target) for r in relations if not r.citable) == [
        ("Harbor Portal", "Ledger Service"),
        ("Ledger Service", "Quantum Billing Engine"),
    ]
    answer = scope.ask("What does the Audit Worker read from Journal DB?")
    assert answer.disposition.value == "answered", answer
    assert all(c.grounding is Grounding.SOURCE for c in answer.citations)
    # The community report is context beside its entities: no chunk, so never a citation.
    assert report.community_reports == 1
    about = scope.graph.ro_query(
        "MATCH (c:CommunityReport)-[:ABOUT]->(e:Entity) RETURN c.title, e.name ORDER BY e.name"
    )
    assert about == [
        ["The ledger and its store", "Journal DB"],
        ["The ledger and its store", "Ledger Service"],
    ]
    summary = scope.ask("What does the model's summary of the ledger's community say?")
    assert all("model's summary" not in c.quote for c in summary.citations)
    # ... and read back by the API, about an entity or all of them; never citable.
    [kept] = scope.community_reports()
    assert (kept.title, kept.tool, kept.entities) == (
        "The ledger and its store",
        "graphrag",
        ("Journal DB", "Ledger Service"),
    )
    assert kept.full_content.startswith("# The ledger") and kept.summary.startswith("The ledger")
    assert scope.community_reports("journal  db") == [kept]
    assert scope.community_reports("Audit Worker") == []
    # A backup of the adopted scope keeps the reports and their links.
    scope.backup(tmp_path / "adopted.cgb")
    copy = f"{scope.name}copy"
    workspace.restore(tmp_path / "adopted.cgb", copy)
    assert (
        workspace.scope(copy).graph.ro_query(
            "MATCH (c:CommunityReport)-[:ABOUT]->(e:Entity) RETURN c.title, e.name ORDER BY e.name"
        )
        == about
    )
    # ... and which run it was, so that a newer run adopted into the copy replaces it.
    restored = workspace.scope(copy).graph.ro_query("MATCH (a:Adoption) RETURN a.tool, a.run")
    assert restored == [["graphrag", report.run]]
    before = _counts(scope)
    scope.adopt(tmp_path / "output")
    assert _counts(scope) == before


def test_graphrag_before_2_is_refused(workspace: Workspace, tmp_path: Path) -> None:
    old = tmp_path / "old"
    old.mkdir()
    pq.write_table(pa.Table.from_pylist([{"id": "x", "text": "y"}]),
                   old / "create_final_text_units.parquet")  # fmt: skip
    with pytest.raises(AdoptionError, match=r"GraphRAG before 2\.0"):
        _scope(workspace).adopt(old)


@pytest.mark.parametrize("table", ["text_units", "entities"])
def test_a_damaged_parquet_file_is_refused_and_changes_nothing(
    workspace: Workspace, tmp_path: Path, table: str
) -> None:
    write_output(tmp_path / "output", 3)
    path = tmp_path / "output" / f"{table}.parquet"
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    scope = _scope(workspace)
    scope.ingest(b"Something stored before.", name="before.txt")
    before = _counts(scope)
    with pytest.raises(AdoptionError, match=rf"{table}\.parquet: not a readable parquet file"):
        scope.adopt(tmp_path / "output")
    assert _counts(scope) == before


def test_a_newer_graphrag_run_replaces_the_reports(workspace: Workspace, tmp_path: Path) -> None:
    write_output(tmp_path / "first", 3)
    write_output(tmp_path / "second", 3, summary="The ledger and its journal, summarised again.")
    scope = _scope(workspace)
    first = scope.adopt(tmp_path / "first")
    second = scope.adopt(tmp_path / "second")
    assert second.replaced_run == first.run
    assert [r.summary for r in scope.community_reports()] == [
        "The ledger and its journal, summarised again."
    ]
    # The entities and relations both runs hold are kept, not removed and made again.
    assert second.removed == {}
    assert len([r for r in scope.relations() if r.origin == "adopted:graphrag"]) == 5


def test_the_reports_command_and_http(tmp_path: Path) -> None:
    write_output(tmp_path / "output", 3)
    home = str(tmp_path / "home")
    done = cli("adopt", str(tmp_path / "output"), "--scope", "g", "--home", home)
    assert done.returncode == 0, done.stderr
    shown = cli("reports", "--scope", "g", "--home", home, "--entity", "Ledger Service")
    assert "The ledger and its store" in shown.stdout and "not a citation" in shown.stdout
    body = json.loads(cli("reports", "--scope", "g", "--home", home, "--json").stdout)
    assert body["format"] == "citegraph-community-reports/1" and body["citable"] is False
    assert body["reports"][0]["fullContent"].startswith("# The ledger")
    none = cli("reports", "--scope", "g", "--home", home, "--entity", "Audit Worker")
    assert none.returncode == 0 and "no community reports about Audit Worker" in none.stderr
    # The HTTP reply is the same shape (with the envelope's ok).
    with citegraph.open(home) as ws:
        tokens = TokenFile(tmp_path / "tokens.json")
        auth = {"Authorization": f"Bearer {tokens.create(['g'], 'read')}"}
        http = TestClient(create_app(ws, tokens))
        reply = http.get("/v1/memory/community-reports?scope=g", headers=auth).json()
        assert reply.pop("ok") is True and reply == body
        other = http.get("/v1/memory/community-reports?scope=h", headers=auth)
        assert other.status_code == 403
