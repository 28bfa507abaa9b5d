"""Structural questions over the Online Boutique docs and manifests, with a scripted model
writing the Cypher (issue 16): the rows are what the graph holds, and every citation is the
stored bytes at its span. Then `citegraph query` end to end, against a local
OpenAI-compatible stub over real HTTP."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from citegraph import (
    Disposition,
    GraphAnswer,
    Message,
    Scope,
    ScriptedChat,
    Workspace,
)
from citegraph.config import load_settings
from citegraph.testing.stub_server import OpenAIStubServer

from conftest import dataset
from helpers import cli, env_with

BOUTIQUE = "engineering_docs/google_microservices-demo"


class Script:
    def __init__(self) -> None:
        self.reply = ""
        self.seen: list[list[Message]] = []

    def __call__(self, messages: Sequence[Message]) -> str:
        self.seen.append(list(messages))
        return self.reply


@pytest.fixture(scope="module")
def script() -> Script:
    return Script()


@pytest.fixture(scope="module")
def boutique(tmp_path_factory: pytest.TempPathFactory, script: Script) -> Iterator[Scope]:
    source = dataset(BOUTIQUE)
    settings = replace(load_settings(tmp_path_factory.mktemp("bq")), text2cypher=True)
    ws = Workspace(settings, chat=ScriptedChat(script, name="scripted-cypher"))
    scope = ws.scope("boutique")
    scope.ingest(source)
    yield scope
    ws.close()


def _ask(boutique: Scope, script: Script, cypher: str, question: str) -> GraphAnswer:
    script.reply = cypher
    answer = boutique.ask_graph(question)
    assert answer.disposition is Disposition.ANSWERED, (answer.reason, answer.detail)
    return answer


def _assert_citations_are_stored_bytes(boutique: Scope, answer: GraphAnswer) -> int:
    checked = 0
    for row in answer.citations:
        for citation in row.citations:
            stored = boutique.stored_text(citation.document_id)
            assert stored[citation.start_byte : citation.end_byte] == citation.quote.encode()
            checked += 1
    return checked


def test_which_services_checkout_calls(boutique: Scope, script: Script) -> None:
    answer = _ask(
        boutique, script,
        "MATCH (a:Entity {name: 'checkoutservice'})-[r:RELATES]->(b:Entity) "
        "WHERE r.type = 'calls' AND r.polarity = 'affirmed' RETURN b.name AS callee, r",
        "Which services does the checkout service call?",
    )  # fmt: skip
    callees = {row[0] for row in answer.rows}
    stored = {
        r.target for r in boutique.relations("checkoutservice")
        if r.source == "checkoutservice" and r.type == "calls" and r.polarity == "affirmed"
    }  # fmt: skip
    edges = json.loads(
        (dataset(BOUTIQUE) / "DERIVED_dependency_edges_from_manifests.json").read_text()
    )
    manifest = {e["to"] for e in edges if e["from"] == "checkoutservice"}
    assert callees == stored == manifest  # what the graph holds, and what the manifests say
    # Each row holds its relation: cited by its evidence quote, read back from the store.
    assert {c.row for c in answer.citations} == set(range(len(answer.rows)))
    assert answer.uncited_rows == ()
    assert _assert_citations_are_stored_bytes(boutique, answer) == len(answer.rows)
    for row, cited in zip(answer.rows, answer.citations, strict=True):
        assert row[1]["properties"]["quote"] == cited.citations[0].quote
        assert (
            row[0].upper() in cited.citations[0].quote.replace("_ADDR", "").replace("_", "").upper()
        )


def test_how_many_documents_mention_the_payment_service(boutique: Scope, script: Script) -> None:
    answer = _ask(
        boutique, script,
        "MATCH (e:Entity {name: 'paymentservice'})-[:MENTIONED_IN]->(:Chunk)-[:PART_OF]->(d:Document) "
        "RETURN count(DISTINCT d) AS documents",
        "How many documents mention the payment service?",
    )  # fmt: skip
    [(count,)] = answer.rows
    # The oracle: the mentions' own document ids, read by hand (a test's own query).
    [(held,)] = boutique.graph.ro_query(
        "MATCH (:Entity {name: $name})-[m:MENTIONED_IN]->() RETURN count(DISTINCT m.document_id)",
        {"name": "paymentservice"},
    )
    naming = [d for d in boutique.documents() if b"paymentservice" in boutique.stored_text(d.id)]
    assert count == held > 1 and held <= len(naming)
    assert answer.uncited_rows == (0,) and answer.citations == ()  # a count cites nothing


def test_the_documents_themselves_cite_their_opening(boutique: Scope, script: Script) -> None:
    answer = _ask(
        boutique, script,
        "MATCH (e:Entity {name: 'paymentservice'})-[m:MENTIONED_IN]->(:Chunk)-[:PART_OF]->(d:Document) "
        "RETURN DISTINCT d.name AS name, d ORDER BY name",
        "Which documents mention the payment service?",
    )  # fmt: skip
    assert len(answer.rows) > 1 and answer.uncited_rows == ()
    assert _assert_citations_are_stored_bytes(boutique, answer) == len(answer.rows)
    for row, cited in zip(answer.rows, answer.citations, strict=True):
        assert cited.documents == (row[0],)


def test_two_hops_cite_both_relations(boutique: Scope, script: Script) -> None:
    answer = _ask(
        boutique, script,
        "MATCH (a:Entity)-[r1:RELATES]->(b:Entity {name: 'checkoutservice'})-[r2:RELATES]->(c:Entity) "
        "WHERE r1.type = 'calls' AND r2.type = 'calls' RETURN a.name, c.name, r1, r2",
        "Who calls checkout, and what does checkout call in turn?",
    )  # fmt: skip
    assert answer.rows
    callers = {
        r.source
        for r in boutique.relations("checkoutservice")
        if r.target == "checkoutservice" and r.type == "calls"
    }
    assert {row[0] for row in answer.rows} == callers
    for cited in answer.citations:
        assert len(cited.citations) == 2
    assert _assert_citations_are_stored_bytes(boutique, answer) == 2 * len(answer.rows)


def test_the_model_sees_the_schema_not_embeddings_or_bookkeeping(
    boutique: Scope, script: Script
) -> None:
    _ask(boutique, script, "MATCH (d:Document) RETURN count(d)", "How many documents?")
    system, user = script.seen[-1]
    assert "read-only" in system.content and "DECLINE" in system.content
    assert "(:Entity)" in user.content and "[:RELATES]" in user.content
    assert "'calls'" in user.content  # relation kinds listed with their counts
    for hidden in ("embedding", "IngestLease", "StagingDocument", "ExtractionReply", "ScopeInfo"):
        assert hidden not in user.content
    assert user.content.endswith("Question: How many documents?")


# -- the command line, against a local OpenAI-compatible stub over real HTTP ---------------------

CALLS = "The checkout-service calls the payment-service for every order.\n"


def test_query_command_end_to_end(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (tmp_path / "notes.md").write_text(CALLS)
    assert cli("ingest", str(tmp_path / "notes.md"), "--home", str(home)).returncode == 0
    query = (
        "MATCH (a:Entity)-[r:RELATES]->(b:Entity) WHERE r.type = 'calls' "
        "RETURN a.name AS caller, b.name AS callee, r"
    )
    with OpenAIStubServer(lambda messages: f"```cypher\n{query}\n```") as stub:
        env = env_with(CITEGRAPH_CHAT_MODEL="stub", CITEGRAPH_CHAT_BASE_URL=stub.url)
        off = cli("query", "Who calls whom?", "--home", str(home), env=env)
        assert off.returncode == 2 and "CITEGRAPH_TEXT2CYPHER" in off.stderr + off.stdout
        assert stub.requests == []  # off: the model is never asked
        args = ["query", "Who calls whom?", "--home", str(home), "--text2cypher"]
        shown = cli(*args, "--show-cypher", env=env)
        as_json = cli(*args, "--json", env=env)
    assert shown.returncode == 0, shown.stderr
    assert "LIMIT 51" in shown.stdout and "checkout-service" in shown.stdout
    assert '"The checkout-service calls the payment-service for every order."' in shown.stdout
    document = json.loads(as_json.stdout)
    assert document["format"] == "citegraph-graph-query/1"
    assert document["columns"] == ["caller", "callee", "r"]
    assert document["rows"][0][:2] == ["checkout-service", "payment-service"]
    assert document["citations"][0]["citations"][0]["quote"] == CALLS.strip()
    assert document["receipt"] == {**document["receipt"], "chatCalls": 1, "inputTokens": 31}


def test_query_command_refusal_exits_4(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (tmp_path / "notes.md").write_text(CALLS)
    assert cli("ingest", str(tmp_path / "notes.md"), "--home", str(home)).returncode == 0
    with OpenAIStubServer(lambda messages: "MATCH (n) DETACH DELETE n") as stub:
        env = env_with(
            CITEGRAPH_CHAT_MODEL="stub", CITEGRAPH_CHAT_BASE_URL=stub.url,
            CITEGRAPH_TEXT2CYPHER="on",
        )  # fmt: skip
        done = cli("query", "Delete everything", "--home", str(home), env=env)
    assert done.returncode == 4
    assert "refused (not-allowed): DETACH writes to the graph" in " ".join(done.stdout.split())
    left = cli("docs", "--home", str(home), "--json")
    assert "notes.md" in left.stdout


def test_environment_is_clean() -> None:
    # The tests above name their model themselves; none is inherited (conftest).
    assert "CITEGRAPH_CHAT_MODEL" not in os.environ


def test_the_schema_is_reused_until_the_graph_changes(tmp_path: Path) -> None:
    from citegraph.graphq.schema import SchemaCache

    ws = Workspace(load_settings(tmp_path))
    try:
        scope = ws.scope("cache")
        scope.ingest_many([("a.md", b"The alpha-service calls the beta-db.\n")])
        cache = SchemaCache()
        first = cache.get(scope.graph)
        assert cache.get(scope.graph) is first  # nothing changed: not read again
        scope.ingest_many([("b.md", b"The gamma-service reads from the delta-queue.\n")])
        second = cache.get(scope.graph)
        assert second is not first
        [relates] = [e for e in second.edges if e.type == "RELATES"]
        [kinds] = [p for p in relates.properties if p.name == "type"]
        assert any(v.startswith("'reads'") for v in kinds.examples)
    finally:
        ws.close()
