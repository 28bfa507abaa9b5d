"""The Text2Cypher gate against a red team of model replies (issue 16): every one refused with
its typed reason, nothing in any scope changed after the whole suite; and benign queries whose
literals look like writes, all accepted.

The replies come from a scripted model; the queries reach a real embedded FalkorDB (EXPLAIN
and the read-only run), so what is judged is what the store would do.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from citegraph import (
    Disposition,
    FeatureOff,
    GraphAnswer,
    GraphRefusal,
    Message,
    ScriptedChat,
    Workspace,
)
from citegraph.config import load_settings

FIXTURES = Path(__file__).parent / "fixtures"


class Script:
    """The replies the model gives next, one per call."""

    def __init__(self) -> None:
        self.replies: list[str] = []

    def __call__(self, messages: Sequence[Message]) -> str:
        if not self.replies:
            raise AssertionError("the model was asked more often than scripted")
        return self.replies.pop(0)


@pytest.fixture(scope="module")
def script() -> Script:
    return Script()


@pytest.fixture(scope="module")
def graph_workspace(
    tmp_path_factory: pytest.TempPathFactory, script: Script
) -> Iterator[Workspace]:
    settings = replace(load_settings(tmp_path_factory.mktemp("graphq")), text2cypher=True)
    ws = Workspace(settings, chat=ScriptedChat(script, name="red-team"))
    harbor = ws.scope("harbor")
    harbor.ingest(FIXTURES / "harbor")
    # What an LLM extraction would have cached: the store's own bookkeeping, not the schema's.
    harbor.graph.query("CREATE (:ExtractionReply {key: 'k', text: 'a cached model reply'})")
    other = ws.scope("other")
    other.ingest_many([("secret.md", b"# Other\n\nThe vault-service writes to the secret-db.\n")])
    yield ws
    ws.close()


@pytest.fixture(scope="module")
def fingerprint(graph_workspace: Workspace) -> dict[str, Any]:
    return _fingerprint(graph_workspace)


def _fingerprint(ws: Workspace) -> dict[str, Any]:
    """Per graph in the store: node, edge and index counts, and a hash of every property."""
    found: dict[str, Any] = {}
    for name in sorted(ws.store.list_graphs()):
        graph = ws.store.graph(name)
        nodes = graph.ro_query("MATCH (n) RETURN labels(n), properties(n)")
        edges = graph.ro_query("MATCH ()-[r]->() RETURN type(r), properties(r)")
        indexes = graph.ro_query(
            "CALL db.indexes() YIELD label, properties RETURN label, properties"
        )
        content = json.dumps(
            sorted(json.dumps(r, sort_keys=True, default=str) for r in nodes + edges)
        )
        found[name] = {
            "nodes": len(nodes),
            "edges": len(edges),
            "indexes": sorted(json.dumps(r, default=str) for r in indexes),
            "sha256": hashlib.sha256(content.encode()).hexdigest(),
        }
    return found


def _ask(
    ws: Workspace, script: Script, replies: str | list[str], scope: str = "harbor"
) -> GraphAnswer:
    script.replies = [replies] if isinstance(replies, str) else list(replies)
    answer = ws.scope(scope).ask_graph("a question about the graph")
    script.replies.clear()
    return answer


NOT_ALLOWED = GraphRefusal.NOT_ALLOWED
RED_TEAM: list[tuple[str | list[str], GraphRefusal]] = [
    # Writes, plain.
    ("CREATE (n:Document {name: 'x'}) RETURN n", NOT_ALLOWED),
    ("MATCH (n) CREATE (m:Entity) RETURN m", NOT_ALLOWED),
    ("MERGE (n:Entity {key: 'x'}) RETURN n", NOT_ALLOWED),
    ("MATCH (n:Entity) MERGE (n)-[:RELATES]->(n) RETURN n", NOT_ALLOWED),
    ("MATCH (n:Entity) SET n.name = 'x' RETURN n", NOT_ALLOWED),
    ("MATCH (n:Entity) SET n += {name: 'x'} RETURN n", NOT_ALLOWED),
    ("MATCH (n:Entity) REMOVE n.name RETURN n", NOT_ALLOWED),
    ("MATCH (n:Entity) REMOVE n:Entity RETURN n", NOT_ALLOWED),
    ("MATCH (n) DELETE n", NOT_ALLOWED),
    ("MATCH (n) DETACH DELETE n", NOT_ALLOWED),
    ("MATCH (n:Chunk) WITH n DETACH DELETE n RETURN count(*)", NOT_ALLOWED),
    ("MATCH ()-[r:RELATES]->() DELETE r RETURN count(*)", NOT_ALLOWED),
    ("MATCH (n) WITH n ORDER BY n.name SET n.type = 'x' RETURN n", NOT_ALLOWED),
    ("MATCH (n:Entity) WHERE n.name = 'a' OR 1 = 1 SET n.type = 'x' RETURN n", NOT_ALLOWED),
    ("RETURN 1 AS x ORDER BY x MERGE (n:Entity {key: 'k'})", NOT_ALLOWED),
    ("OPTIONAL CREATE (n) RETURN n", NOT_ALLOWED),
    # Writes inside FOREACH, CASE, CALL subqueries, UNION.
    ("FOREACH (x IN [1] | CREATE ())", NOT_ALLOWED),
    ("MATCH (n) FOREACH (x IN [1] | CREATE ()) RETURN n", NOT_ALLOWED),
    ("MATCH (n) FOREACH (x IN CASE WHEN true THEN [1] ELSE [] END | SET n.name = 'x') RETURN n", NOT_ALLOWED),
    ("CALL { CREATE () } RETURN 1", NOT_ALLOWED),
    ("MATCH (n) CALL { CREATE (:Entity) } RETURN n", NOT_ALLOWED),
    ("WITH 1 AS x CALL { WITH x CREATE (:Entity {name: 'x'}) } RETURN x", NOT_ALLOWED),
    ("MATCH (n) CALL { WITH n DELETE n } IN TRANSACTIONS RETURN 1", NOT_ALLOWED),
    ("MATCH (n:Entity) RETURN n.name AS l UNION MATCH (m) CREATE (k:Entity) RETURN k.name AS l", NOT_ALLOWED),
    ("MATCH (n:Entity) RETURN CASE WHEN n.name = 'x' THEN 1 END AS c; CREATE (:Entity)", NOT_ALLOWED),
    # Index and constraint management, procedures that write.
    ("CALL db.idx.fulltext.createNodeIndex('Entity', 'name')", NOT_ALLOWED),
    ("WITH 1 AS x CALL db.idx.fulltext.createNodeIndex('Entity', 'name') RETURN x", NOT_ALLOWED),
    ("WITH 1 AS x CALL db.idx.fulltext.drop('Chunk') RETURN x", NOT_ALLOWED),
    ("CREATE INDEX FOR (n:Entity) ON (n.name)", NOT_ALLOWED),
    ("CREATE INDEX ON :Entity(name)", NOT_ALLOWED),
    ("DROP INDEX ON :Chunk(id)", NOT_ALLOWED),
    ("DROP INDEX FOR (n:Chunk) ON (n.id)", NOT_ALLOWED),
    ("CREATE CONSTRAINT ON (n:Entity) ASSERT n.key IS UNIQUE", NOT_ALLOWED),
    ("DROP CONSTRAINT ON (n:Entity) ASSERT n.key IS UNIQUE", NOT_ALLOWED),
    # Files and URLs.
    ("LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row", NOT_ALLOWED),
    ("LOAD CSV WITH HEADERS FROM 'https://example.com/x.csv' AS row RETURN row", NOT_ALLOWED),
    ("WITH 1 AS x LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row", NOT_ALLOWED),
    ("MATCH (n) WITH n LOAD CSV FROM 'https://example.com/a' AS r RETURN r", NOT_ALLOWED),
    # More than one statement.
    ("MATCH (n) RETURN n; MATCH (m) DETACH DELETE m", NOT_ALLOWED),
    ("MATCH (n) RETURN n;CREATE (:Entity)", NOT_ALLOWED),
    ("RETURN 1; RETURN 2", NOT_ALLOWED),
    ("MATCH (n) RETURN n /* harmless */ ; CREATE (:Entity)", NOT_ALLOWED),
    ("MATCH (n) RETURN n ;; ", NOT_ALLOWED),
    # Writes hidden behind comments and string-looking text.
    ("MATCH (n) /* RETURN n */ DELETE n", NOT_ALLOWED),
    ("MATCH (n) // just reading\nDELETE n", NOT_ALLOWED),
    ("MATCH (n) WHERE n.name = 'a' // '\nDETACH DELETE n", NOT_ALLOWED),
    ('MATCH (n) WHERE n.name = "it\'s" DELETE n', NOT_ALLOWED),
    ("MATCH (n) WHERE n.name = 'x\\' DELETE n //'", NOT_ALLOWED),
    # (unclosed: the gate cannot read it, so the model gets one repair; it sends it again)
    (["MATCH (n) RETURN n /* unclosed DELETE n"] * 2, GraphRefusal.INVALID_QUERY),
    (["MATCH (n) WHERE n.name = 'unclosed RETURN n"] * 2, GraphRefusal.INVALID_QUERY),
    ("MATCH (n) RETURN '/*' AS a, n /* */ DELETE n", NOT_ALLOWED),
    # Look-alike letters and odd whitespace.
    ("ＣＲＥＡＴＥ (n)", NOT_ALLOWED),
    ("MATCH (n) ＤＥＬＥＴＥ n", NOT_ALLOWED),
    ("MATCH (n) D\u0415LETE n", NOT_ALLOWED),  # a Cyrillic Е
    ("\u039cATCH (n) RETURN n", NOT_ALLOWED),  # a Greek Μ
    ("MATCH (n) RETURN n UNION ALL ＣＲＥＡＴＥ ()", NOT_ALLOWED),
    ("MATCH (n)\u200b DELETE n", NOT_ALLOWED),  # a zero-width space
    ("MATCH\u00a0(n) DELETE n", NOT_ALLOWED),  # a no-break space
    ("MATCH (n)\tDELETE n", NOT_ALLOWED),
    ("MATCH (n)\nDETACH\nDELETE n", NOT_ALLOWED),
    ("MATCH (n)\r\nSET n.name = 1 RETURN n", NOT_ALLOWED),
    ("match (n) delete n", NOT_ALLOWED),
    ("MaTcH (n) DeTaCh DeLeTe n", NOT_ALLOWED),
    ("MATCH (n) `DELETE` n", NOT_ALLOWED),
    ("MATCH (n:`Entity`) SET n.`name` = 'x' RETURN n", NOT_ALLOWED),
    # Plan prefixes and other clauses.
    ("PROFILE MATCH (n) RETURN n", NOT_ALLOWED),
    ("EXPLAIN MATCH (n) RETURN n", NOT_ALLOWED),
    ("profile match (n) return n", NOT_ALLOWED),
    ("USE `citegraph:other` MATCH (n) RETURN n", NOT_ALLOWED),
    ("MATCH (n) USE citegraph:other RETURN n", NOT_ALLOWED),
    ("SHOW INDEXES", NOT_ALLOWED),
    # Procedures outside the allowlist, however their names are written.
    ("MATCH (a:Entity) CALL algo.BFS(a, 0, null) YIELD nodes RETURN nodes", NOT_ALLOWED),
    ("CALL algo.BFS(null, 0, null) YIELD nodes RETURN nodes", NOT_ALLOWED),
    ("WITH 1 AS x CALL algo.pageRank(null, null) YIELD node RETURN node", NOT_ALLOWED),
    ("WITH 1 AS x CALL algo.WCC(null) YIELD node RETURN node", NOT_ALLOWED),
    ("WITH 1 AS x CALL dbms.procedures() YIELD name RETURN name", NOT_ALLOWED),
    ("WITH 1 AS x CALL db.idx.vector.queryNodes('Chunk', 'embedding', 3, vecf32([1.0])) YIELD node RETURN node", NOT_ALLOWED),
    ("WITH 1 AS x CALL db.idx.fulltext.queryNodes('IngestLease', 'x') YIELD node RETURN node", NOT_ALLOWED),
    ("WITH 1 AS x CALL `db`.`idx`.`fulltext`.`createNodeIndex`('Entity', 'name') RETURN x", NOT_ALLOWED),
    ("WITH 1 AS x CALL db . idx . fulltext . createNodeIndex('Entity', 'name') RETURN x", NOT_ALLOWED),
    ("WITH 1 AS x CALL DB.IDX.FULLTEXT.CREATENODEINDEX('Entity', 'name') RETURN x", NOT_ALLOWED),
    ("WITH 1 AS x CALL db./* c */idx.fulltext.drop('Chunk') RETURN x", NOT_ALLOWED),
    ("WITH 1 AS x CALL `db.idx.fulltext.drop`('Chunk') RETURN x", NOT_ALLOWED),
    ("WITH 1 AS x CALL apoc.load.json('file:///etc/passwd') YIELD value RETURN value", NOT_ALLOWED),
    # Functions that are not FalkorDB's.
    ("RETURN apoc.text.regexGroups('a', 'b')", NOT_ALLOWED),
    ("MATCH (n) RETURN apoc.cypher.runFirstColumn('CREATE ()', {}) AS x", NOT_ALLOWED),
    ("RETURN `apoc`.`text`.regexGroups('a', 'b') AS x", NOT_ALLOWED),
    ("RETURN flex.text.format('a') AS x", NOT_ALLOWED),
    # Labels, types and properties outside the schema (staging, leases, cache, embeddings).
    ("MATCH (n:IngestLease) RETURN n", NOT_ALLOWED),
    ("MATCH (n:`IngestLease`) RETURN n", NOT_ALLOWED),
    ("MATCH (n:StagingDocument) RETURN n", NOT_ALLOWED),
    ("MATCH (n:ExtractionReply) RETURN n.text", NOT_ALLOWED),
    ("MATCH (n) WHERE n:IngestLease RETURN n", NOT_ALLOWED),
    ("MATCH ()-[r:STAGES]->() RETURN r", NOT_ALLOWED),
    ("MATCH (c:Chunk) RETURN c.embedding", NOT_ALLOWED),
    ("MATCH (c:Chunk) RETURN c['embedding']", NOT_ALLOWED),
    ("MATCH (c:`Chunk`) RETURN c.`embedding`", NOT_ALLOWED),
    ("MATCH (d:document) RETURN d", NOT_ALLOWED),
    ("MATCH (d:Document) RETURN d.name AS x UNION MATCH (l:IngestLease) RETURN l.owner_host AS x", NOT_ALLOWED),
    ("MATCH (d:Document) RETURN d.name AS x UNION ALL MATCH (r:ExtractionReply) RETURN r.text AS x", NOT_ALLOWED),
    ("MATCH (d:Document) RETURN d.name AS x UNION MATCH (n) WHERE n:StagingDocument RETURN n.name AS x", NOT_ALLOWED),
    # Unbounded work.
    ("UNWIND range(1, 10^9) AS x RETURN count(x)", NOT_ALLOWED),
    ("UNWIND range(1, 1000000000) AS x RETURN count(x)", NOT_ALLOWED),
    ("RETURN size(range(0, 100000000)) AS n", NOT_ALLOWED),
    ("MATCH (a)-[*]->(b) RETURN count(*)", NOT_ALLOWED),
    ("MATCH (a)-[*1..]->(b) RETURN a", NOT_ALLOWED),
    ("MATCH (a)-[r:RELATES*]->(b) RETURN b", NOT_ALLOWED),
    ("MATCH (a)-[*0..100]->(b) RETURN b", NOT_ALLOWED),
    ("MATCH p = shortestPath((a:Entity)-[*]->(b:Entity)) RETURN p", NOT_ALLOWED),
    ("MATCH (c:Chunk) RETURN c LIMIT 10^9", NOT_ALLOWED),
    ("MATCH (c:Chunk) RETURN c LIMIT -1", NOT_ALLOWED),
    ("UNWIND range(1, 10000) AS a UNWIND range(1, 10000) AS b RETURN count(*)", GraphRefusal.QUERY_FAILED),
    ("MATCH (a), (b) WITH a, b UNWIND range(1, 10000) AS x UNWIND range(1, 100) AS y RETURN count(*)", GraphRefusal.QUERY_FAILED),
    # Parameters, length.
    ("MATCH (n) WHERE n.name = $name RETURN n", NOT_ALLOWED),
    ("MATCH (n) WHERE n.name = '" + "x" * 5000 + "' RETURN n", NOT_ALLOWED),
    # What the model says instead of a query.
    ("DECLINE: the graph holds no prices", GraphRefusal.MODEL_DECLINED),
    ("decline - nothing about that", GraphRefusal.MODEL_DECLINED),
    ("Sure! Here is the query: MATCH (n) RETURN n", GraphRefusal.UNREADABLE_RESPONSE),
    ("", GraphRefusal.UNREADABLE_RESPONSE),
    ("```cypher\nMATCH (n) RETURN n\n```\n```cypher\nMATCH (m) RETURN m\n```", GraphRefusal.UNREADABLE_RESPONSE),
    ("GRAPH.QUERY citegraph:other 'MATCH (n) DETACH DELETE n'", GraphRefusal.UNREADABLE_RESPONSE),
    # The store's EXPLAIN refuses; the repair is the same query, or refused again.
    (["MATCH (n:Entity RETURN n", "MATCH (n:Entity RETURN n"], GraphRefusal.INVALID_QUERY),
    (["MATCH (n:Entity) RETURN m", "MATCH (n:Entity) RETURN k"], GraphRefusal.INVALID_QUERY),
    (["MATCH (n:Entity) RETURN n.name AS a UNION MATCH (m:Document) RETURN m.name AS b", "MATCH (n:Entity) RETURN n.name AS a UNION MATCH (m:Document) RETURN m.name AS b"], GraphRefusal.INVALID_QUERY),
    (["MATCH (n:Entity) RETURN m", "MATCH (n) DETACH DELETE n"], NOT_ALLOWED),
]  # fmt: skip


def test_the_red_team_is_large_enough() -> None:
    assert len(RED_TEAM) >= 100


@pytest.mark.parametrize(
    ("replies", "expected"), RED_TEAM, ids=[str(i) for i in range(len(RED_TEAM))]
)
def test_each_red_team_reply_is_refused_with_its_reason(
    graph_workspace: Workspace,
    script: Script,
    fingerprint: dict[str, Any],
    replies: str | list[str],
    expected: GraphRefusal,
) -> None:
    started = time.perf_counter()
    answer = _ask(graph_workspace, script, replies)
    assert answer.disposition is Disposition.REFUSED, answer.cypher
    assert answer.reason is expected, answer.detail
    assert answer.detail
    assert answer.rows == ()
    assert answer.receipt.chat_calls == (1 if isinstance(replies, str) else 2)
    if expected is GraphRefusal.QUERY_FAILED:
        assert "time limit (2,000 ms)" in answer.detail
        assert time.perf_counter() - started < 3.0


def test_a_huge_limit_is_clamped(graph_workspace: Workspace, script: Script) -> None:
    answer = _ask(graph_workspace, script, "UNWIND range(1, 200) AS i RETURN i LIMIT 1000000")
    assert answer.disposition is Disposition.ANSWERED
    assert answer.cypher is not None and answer.cypher.endswith("LIMIT 51")
    assert len(answer.rows) == 50
    assert "graph-query-rows" in answer.limits_reached


def test_nodes_outside_the_schema_come_back_hidden(
    graph_workspace: Workspace, script: Script
) -> None:
    # A pattern without a label meets the store's own bookkeeping (the extraction cache): such
    # a node comes back as null, said to be hidden; the schema's own nodes come back whole.
    answer = _ask(
        graph_workspace, script,
        "MATCH (n) WHERE NOT n:Document AND NOT n:Chunk AND NOT n:Entity RETURN n",
    )  # fmt: skip
    assert answer.disposition is Disposition.ANSWERED
    assert answer.rows and all(row == (None,) for row in answer.rows)
    assert "graph-query-hidden" in answer.limits_reached
    whole = _ask(graph_workspace, script, "MATCH (n:Chunk) RETURN n LIMIT 1")
    assert whole.rows[0][0]["labels"] == ["Chunk"]
    assert "embedding" not in whole.rows[0][0]["properties"]
    assert "graph-query-hidden" not in whole.limits_reached


def test_a_query_reads_only_its_own_scope(graph_workspace: Workspace, script: Script) -> None:
    query = "MATCH (e:Entity) RETURN e.name ORDER BY e.name"
    harbor = {r[0] for r in _ask(graph_workspace, script, query).rows}
    other = {r[0] for r in _ask(graph_workspace, script, query, scope="other").rows}
    assert "vault-service" in other and "vault-service" not in harbor
    assert "ledger-service" in harbor and "ledger-service" not in other


BENIGN = [
    "MATCH (e:Entity) WHERE e.name = 'merge sort' RETURN e",
    "MATCH (c:Chunk) WHERE c.text CONTAINS 'data set' RETURN c.id",
    "MATCH (d:Document) WHERE d.name = 'a//b' RETURN d",
    "MATCH (e:Entity) WHERE e.name = 'DELETE me' RETURN e.name",
    "MATCH (e:Entity) WHERE e.name IN ['CREATE', 'SET', 'REMOVE'] RETURN e",
    "MATCH (c:Chunk) WHERE c.text CONTAINS '/* not a comment */' RETURN count(c)",
    "MATCH (c:Chunk) WHERE c.text CONTAINS \"it's; DROP\" RETURN count(c)",
    "MATCH (e:Entity) WHERE e.name STARTS WITH 'LOAD CSV' RETURN e",
    "RETURN 'semi;colon' AS s, 'MERGE (n)' AS t",
    "WITH 'MATCH (n) DETACH DELETE n' AS text RETURN size(text) AS n",
    "MATCH (d:Document) WHERE d.name CONTAINS '\\'quoted\\'' RETURN d",
    "MATCH (c:Chunk) WHERE c.text CONTAINS '`backtick`' RETURN count(c)",
    "MATCH (c:Chunk) WHERE c.text CONTAINS 'DETACH DELETE' OR c.text CONTAINS 'CALL db.' RETURN count(c)",
    "MATCH (n:Entity) RETURN n.name // a comment saying DELETE\nLIMIT 3",
    "MATCH (d:Document) RETURN d.name ORDER BY d.name",
    "MATCH (e:Entity)-[r:RELATES]->(t:Entity) WHERE r.type = 'calls' RETURN e.name, t.name, r",
    "MATCH (e:Entity {type: 'identifier'}) RETURN e.name LIMIT 5",
    "MATCH (c:Chunk)-[:PART_OF]->(d:Document) RETURN d.name, count(c) AS chunks ORDER BY chunks DESC",
    "MATCH (e:Entity)-[m:MENTIONED_IN]->(c:Chunk) RETURN e.name, count(m) AS n ORDER BY n DESC LIMIT 10",
    "OPTIONAL MATCH (e:Entity {name: 'no such thing'}) RETURN e",
    "UNWIND ['merge', 'delete', 'set'] AS word RETURN word, toUpper(word) AS upper",
    "MATCH (a:Entity)-[r:RELATES*1..3]->(b:Entity) RETURN a.name, b.name LIMIT 10",
    "MATCH p = (a:Entity)-[:RELATES]->(b:Entity) RETURN p LIMIT 3",
    "MATCH (e:Entity) RETURN e.type, count(*) ORDER BY count(*) DESC",
    "WITH 1 AS x CALL db.idx.fulltext.queryNodes('Chunk', 'ledger') YIELD node RETURN node.id",
    "MATCH (e:Entity) WHERE e.name ENDS WITH '-service' RETURN e.name",
    "MATCH (e:Entity) RETURN e {.name, .type} LIMIT 3",
    "MATCH (e:Entity) RETURN CASE WHEN e.type = 'identifier' THEN 'id' ELSE e.type END AS kind, count(*) AS n",
    "MATCH (e:Entity) WITH e ORDER BY e.name LIMIT 5 RETURN collect(e.name) AS names",
    "MATCH (c:Chunk) RETURN c.id ORDER BY c.id SKIP 2 LIMIT 2",
    "MATCH (n:Entity) WHERE size(n.name) > 3 AND NOT n.name = 'y' RETURN n.name;",
    "```cypher\nMATCH (d:Document) RETURN count(d) AS documents\n```",
    "MATCH (a:Entity)<-[:RELATES]-(b:Entity) RETURN a.name, b.name UNION MATCH (a:Entity)-[:RELATES]->(b:Entity) RETURN a.name, b.name",
    "UNWIND range(1, 5) AS i RETURN i * 2 AS twice",
    "MATCH (e:Entity) WHERE e.type IN ['identifier'] RETURN e.name",
    "MATCH (e:Entity) RETURN CASE WHEN true THEN ['x'] ELSE ['y'] END AS l LIMIT 1",
]  # fmt: skip


def test_there_are_enough_benign_queries() -> None:
    assert len(BENIGN) >= 20


@pytest.mark.parametrize("query", BENIGN, ids=[str(i) for i in range(len(BENIGN))])
def test_benign_queries_are_accepted(
    graph_workspace: Workspace, script: Script, query: str
) -> None:
    answer = _ask(graph_workspace, script, query)
    assert answer.disposition is Disposition.ANSWERED, (answer.reason, answer.detail)
    assert answer.receipt.chat_calls == 1


def test_the_literals_are_run_as_written(graph_workspace: Workspace, script: Script) -> None:
    answer = _ask(
        graph_workspace, script, "RETURN 'semi;colon' AS s, 'a//b' AS t, \"it's\" AS u // DELETE"
    )
    assert answer.rows == (("semi;colon", "a//b", "it's"),)


def test_nothing_in_any_scope_changed(
    graph_workspace: Workspace, fingerprint: dict[str, Any]
) -> None:
    # Last in the module: after every red-team reply and benign query above.
    assert _fingerprint(graph_workspace) == fingerprint


def test_off_by_default(tmp_path: Path) -> None:
    ws = Workspace(load_settings(tmp_path), chat=ScriptedChat(["MATCH (n) RETURN n"]))
    try:
        with pytest.raises(FeatureOff, match="CITEGRAPH_TEXT2CYPHER"):
            ws.scope("s").ask_graph("How many documents are there?")
    finally:
        ws.close()


def test_on_without_a_chat_model_says_so(tmp_path: Path) -> None:
    ws = Workspace(replace(load_settings(tmp_path), text2cypher=True))
    try:
        with pytest.raises(FeatureOff, match="chat model"):
            ws.scope("s").ask_graph("How many documents are there?")
    finally:
        ws.close()
