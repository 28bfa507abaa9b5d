"""Relations proposed by a model are kept only when grounding locates them: the quote in the
chunk's stored bytes (never the model's offsets), at most 600 bytes, naming both ends. What is
dropped is counted by reason on the ingest result (issue 13, first acceptance point)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from citegraph import Message, ScriptedChat, Workspace
from citegraph.config import load_settings
from citegraph.extract.llm import LLMExtractor

P1 = (
    "The checkout service calls the payment service to capture the card. "
    "The cart service stores baskets in Redis."
)
P2 = "The payment service calls the fraud service before each capture of a card payment."
P3 = "The fraud service reads its rules from Postgres every minute of the day."
TEXT = f"{P1}\n\n{P2}\n\n{P3}\n".encode()


def _service(name: str) -> dict[str, str]:
    return {"name": name, "type": "service"}


def _reply(messages: Sequence[Message]) -> str:
    passage = messages[-1].content
    if "checkout service" in passage:
        return json.dumps({
            "entities": [_service("checkout service"), _service("payment service"),
                         {"name": "Contoso Bank", "type": "organization"}],  # not in the text
            "relations": [
                {"source": "checkout service", "target": "payment service", "type": "calls",
                 "quote": "The checkout service calls the payment service to capture the card."},
                {"source": "cart service", "target": "Redis", "type": "writes",  # ends missing
                 "quote": "The checkout service calls the payment service"},
                {"source": "cart service", "target": "Redis", "type": "writes",  # offsets only
                 "start": 71, "end": 112},
            ],
        })  # fmt: skip
    if "fraud service before" in passage:
        return "```json\n" + json.dumps({
            "entities": [_service("payment service"), _service("fraud service")],
            "relations": [
                {"source": "payment service", "target": "fraud service", "type": "calls",
                 "quote": "The payment service calls the fraud service before each capture"},
                {"source": "checkout service", "target": "payment service", "type": "calls",
                 "quote": "The checkout service calls the payment service to capture the card."},
            ],
        }) + "\n```"  # fmt: skip
    return 'Here is the graph you asked for: {"entities": [], "relations": []}'


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    settings = replace(load_settings(home=tmp_path / "home"), chunk_bytes=140)
    chat = ScriptedChat(_reply, name="scripted")
    with Workspace(settings, extractor=LLMExtractor(chat, chunks_per_call=1)) as ws:
        yield ws


def test_only_located_relations_are_kept_and_drops_are_counted(workspace: Workspace) -> None:
    scope = workspace.scope("s")
    [result] = scope.ingest(TEXT, name="architecture.md")
    assert result.document.chunk_count == 3
    report = result.extraction
    assert report is not None and report.calls == 3
    assert report.dropped == {
        "not-in-source": 2,  # Contoso Bank; the relation given as offsets
        "ends-not-in-quote": 1,
        "cross-chunk": 1,  # chunk 2 quoting chunk 1
        "unreadable-reply": 1,  # prose around the JSON
    }
    assert report.relations == 2
    stored = scope.stored_text("architecture.md")
    relations = scope.graph.ro_query(
        "MATCH (a:Entity)-[r:RELATES {source: 'extracted'}]->(b:Entity) WHERE NOT r.weak "
        "RETURN a.name, r.type, b.name, r.quote, r.start_byte, r.end_byte ORDER BY r.start_byte"
    )
    assert [(a, t, b) for a, t, b, *_ in relations] == [
        ("checkout service", "calls", "payment service"),
        ("payment service", "calls", "fraud service"),
    ]
    for *_, quote, start, end in relations:
        assert stored[start:end].decode() == quote  # spans from the stored bytes, exactly
    mentions = scope.graph.ro_query(
        "MATCH (e:Entity)-[m:MENTIONED_IN]->(:Chunk) RETURN e.name, m.start_byte, m.end_byte"
    )
    assert {name for name, _, _ in mentions} == {
        "checkout service", "payment service", "fraud service",
    }  # fmt: skip
    for name, start, end in mentions:
        assert stored[start:end].decode() == name


def test_re_extraction_after_a_cut_is_not_doubled(workspace: Workspace) -> None:
    scope = workspace.scope("t")
    scope.ingest(TEXT, name="architecture.md")
    scope.graph.query("MATCH (d:Document) SET d.extracted = false")
    [again] = scope.ingest(TEXT, name="architecture.md")
    assert again.extraction is not None and again.extraction.relations == 2
    count = scope.graph.ro_query(
        "MATCH ()-[r:RELATES {source: 'extracted'}]->() WHERE NOT r.weak RETURN count(r)"
    )
    assert count == [[2]]


def test_a_negated_relation_is_stored_as_negated(tmp_path: Path) -> None:
    text = "The cart service no longer calls Redis; it calls Memorystore for sessions."

    def reply(messages: Sequence[Message]) -> str:
        return json.dumps({
            "entities": [_service("cart service"), {"name": "Redis", "type": "datastore"},
                         {"name": "Memorystore", "type": "datastore"}],
            "relations": [
                {"source": "cart service", "target": "Redis", "type": "calls",
                 "quote": "The cart service no longer calls Redis"},
                {"source": "cart service", "target": "Memorystore", "type": "calls",
                 "quote": "The cart service no longer calls Redis; it calls Memorystore"},
            ],
        })  # fmt: skip

    settings = load_settings(home=tmp_path / "home")
    with Workspace(settings, extractor=LLMExtractor(ScriptedChat(reply), chunks_per_call=1)) as ws:
        scope = ws.scope("s")
        scope.ingest(text.encode(), name="cart.md")
        rows = scope.graph.ro_query(
            "MATCH (:Entity)-[r:RELATES {source: 'extracted'}]->(b:Entity) WHERE NOT r.weak "
            "RETURN b.name, r.polarity, r.modality ORDER BY b.name"
        )
    assert rows == [["Memorystore", "affirmed", "actual"], ["Redis", "negated", "actual"]]


def test_one_call_for_several_chunks_grounds_each_item_in_its_own_chunk(tmp_path: Path) -> None:
    """The default extractor sends consecutive chunks in one call: each name is located in
    every chunk that holds it, each quote in the one chunk that holds it, and a quote that
    runs over a boundary is dropped as cross-chunk."""

    def reply(messages: Sequence[Message]) -> str:
        return json.dumps({
            "entities": [_service("payment service"), _service("fraud service"),
                         {"name": "Contoso Bank", "type": "organization"}],
            "relations": [
                {"source": "checkout service", "target": "payment service", "type": "calls",
                 "quote": "The checkout service calls the payment service to capture the card."},
                {"source": "fraud service", "target": "Postgres", "type": "reads",
                 "quote": "The fraud service reads its rules from Postgres"},
                {"source": "cart service", "target": "payment service", "type": "calls",
                 "quote": "baskets in Redis.\n\nThe payment service calls"},
            ],
        })  # fmt: skip

    chat = ScriptedChat(reply)
    settings = replace(load_settings(home=tmp_path / "home"), chunk_bytes=140)
    with Workspace(settings, extractor=LLMExtractor(chat, chunks_per_call=3)) as ws:
        scope = ws.scope("s")
        [result] = scope.ingest(TEXT, name="architecture.md")
        assert result.document.chunk_count == 3 and len(chat.calls) == 1
        report = result.extraction
        assert report is not None and report.calls == 1 and report.relations == 2
        assert report.dropped == {"not-in-source": 1, "cross-chunk": 1}
        stored = scope.stored_text("architecture.md")
        chunks = {c.id: c for c in scope.chunks("architecture.md")}
        for r in scope.relations():
            if not r.weak:
                assert r.start_byte is not None and r.end_byte is not None
                assert stored[r.start_byte : r.end_byte].decode() == r.quote
                chunk = chunks[str(r.chunk_id)]
                assert chunk.start_byte <= r.start_byte and r.end_byte <= chunk.end_byte
        # "payment service" is named in chunks 1 and 2: a mention in each.
        rows = scope.graph.ro_query(
            "MATCH (e:Entity {norm: 'payment service'})-[m:MENTIONED_IN]->(c:Chunk) "
            "RETURN e.type, c.ordinal ORDER BY c.ordinal"
        )
        assert [row[1] for row in rows if row[0] == "service"] == [0, 1]


def test_a_relation_a_model_proposes_twice_is_stored_once(tmp_path: Path) -> None:
    quote = "The checkout service calls the payment service to capture the card."
    calls = {"source": "checkout service", "target": "payment service", "type": "calls",
             "quote": quote}  # fmt: skip

    def reply(messages: Sequence[Message]) -> str:
        return json.dumps({"entities": [], "relations": [calls, dict(calls)]})

    settings = replace(load_settings(home=tmp_path / "home"), chunk_bytes=140)
    for per_call in (1, 3):
        chat = ScriptedChat(reply)
        with Workspace(settings, extractor=LLMExtractor(chat, chunks_per_call=per_call)) as ws:
            scope = ws.scope(f"s{per_call}")
            [result] = scope.ingest(TEXT, name="architecture.md")
            assert result.extraction is not None and result.extraction.relations == 1
            stated = [r for r in scope.relations() if not r.weak]
            assert [(r.source, r.type, r.target) for r in stated] == [
                ("checkout service", "calls", "payment service")
            ]
