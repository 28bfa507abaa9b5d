"""Two processes never extract one document at once: each would store its mentions and
relations, and the document would hold them twice (seen with two `citegraph extract`
started together: 11,664 mention edges for 6,165 mentions, 69 relations for 42). A run
claims its documents on a lease, renewed while it runs and dropped with its process; what
another run holds is left to it, and said so."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

import citegraph
from citegraph import Workspace
from citegraph.config import load_settings
from citegraph.store.documents import DocumentRepository

from conftest import dataset
from helpers import CITEGRAPH, cli, env_with

TEXT = (
    b"The checkout service calls the payment service. "
    b"The Federal Aviation Administration (FAA) certifies pilots.\n"
)


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    settings = replace(load_settings(home=tmp_path / "home"), extract=False)
    with Workspace(settings) as ws:
        yield ws


def _counts(scope: citegraph.Scope) -> tuple[int, int, int, int]:
    """Mention edges, distinct mentions, relations, distinct relations."""
    graph = scope.graph
    [[edges]] = graph.ro_query("MATCH (:Entity)-[m:MENTIONED_IN]->(:Chunk) RETURN count(m)")
    [[mentions]] = graph.ro_query(
        "MATCH (e:Entity)-[m:MENTIONED_IN]->(c:Chunk) "
        "WITH DISTINCT e.key AS k, c.id AS c, m.start_byte AS s RETURN count(*)"
    )
    [[relations]] = graph.ro_query("MATCH ()-[r:RELATES]->() RETURN count(r)")
    [[stated]] = graph.ro_query(
        "MATCH (a)-[r:RELATES]->(b) "
        "WITH DISTINCT a.key AS a, b.key AS b, r.type AS t, r.document_id AS d, "
        "r.start_byte AS s RETURN count(*)"
    )
    return int(edges), int(mentions), int(relations), int(stated)


def test_a_document_another_run_holds_is_left_to_it(workspace: Workspace) -> None:
    scope = workspace.scope("s")
    scope.ingest_many([("a.md", TEXT), ("b.md", TEXT.replace(b"checkout", b"cart"))])
    a = scope.document("a.md")
    other = DocumentRepository(scope.graph)  # another run, holding a.md
    claim, held = other.claim_extraction([a.id])
    assert held == {a.id}
    run = scope.extract()
    assert (run.documents, run.busy, run.left) == (1, 1, 1)
    assert not scope.document("a.md").extracted and scope.document("b.md").extracted
    # Its claim gone (the other run ended), the document is extracted by the next run.
    other.abort_many([claim])
    again = scope.extract()
    assert (again.documents, again.busy) == (1, 0)
    edges, mentions, relations, stated = _counts(scope)
    assert (edges, relations) == (mentions, stated)


def test_an_ingest_leaves_a_document_another_run_extracts_and_says_so(
    workspace: Workspace,
) -> None:
    scope = workspace.scope("s")
    [first] = scope.ingest(TEXT, name="a.md")
    other = DocumentRepository(scope.graph)
    claim, _ = other.claim_extraction([first.document.id])
    workspace.extractor = citegraph.OfflineExtractor()
    [result] = scope.ingest(TEXT, name="a.md")  # committed earlier, not yet extracted
    assert result.extraction is None and not result.document.extracted
    assert any("another process" in w for w in result.warnings)
    other.abort_many([claim])
    [done] = scope.ingest(TEXT, name="a.md")
    assert done.extraction is not None and done.document.extracted


def test_two_extract_commands_at_once_store_each_mention_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    docs = tmp_path / "docs"
    docs.mkdir()
    data = json.loads(dataset("squad2/squad2-dev-16.json").read_text())
    for article in data["data"]:
        text = "\n\n".join(p["context"] for p in article["paragraphs"])
        (docs / f"{article['title']}.md").write_text(text)
    off = env_with(CITEGRAPH_EXTRACT="false")
    assert cli("ingest", str(docs), "--home", str(home), env=off).returncode == 0
    runs = [
        subprocess.Popen(
            [CITEGRAPH, "extract", "--home", str(home), "--json", *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for extra in ([], ["--again"])
    ]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    reported = [json.loads(out) for out, _ in outputs]
    assert sum(r["documents"] for r in reported) >= 16
    with citegraph.open(home) as ws:
        edges, mentions, relations, stated = _counts(ws.scope("default"))
    assert mentions > 5000 and stated > 30
    assert (edges, relations) == (mentions, stated)  # nothing stored twice
