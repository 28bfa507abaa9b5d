"""`remember` and `context`: the seed note's example, failure modes, hostile questions."""

from __future__ import annotations

import os

import pytest

import citegraph
from citegraph import (
    EntityFact,
    Facts,
    InvalidQuestion,
    Passage,
    RelationFact,
    Scope,
    VerdictState,
)

PASSAGE = (
    "Northwind Retail reports that the invoice export drops the currency column for orders "
    "in euros."
)


@pytest.fixture
def northwind(scope: Scope) -> Scope:
    result = scope.remember(
        "support ticket 4471",
        Facts(
            entities=(
                EntityFact("Northwind Retail", "Company"),
                EntityFact("Invoice export", "Feature"),
            ),
            relations=(RelationFact("Northwind Retail", "Invoice export", "REPORTED_BUG_IN"),),
        ),
        [Passage(PASSAGE, ("Northwind Retail", "Invoice export"))],
    )
    assert result.mentions_located == 2 and result.relations_grounded == 1
    assert result.unlocated == () and result.relations_asserted == ()
    [doc] = result.documents
    assert doc.origin is not None and doc.origin.source == "support ticket 4471"
    return scope


def test_the_seed_note_question_is_grounded_with_the_passage_cited(northwind: Scope) -> None:
    evidence = northwind.context("What does Northwind Retail report about the invoice export?")
    assert evidence.verdict.state is VerdictState.GROUNDED
    assert any("currency column" in item.text for item in evidence.items)
    item = evidence.items[0]
    assert item.id == "E1" and item.citable
    stored = northwind.stored_text(item.document_id)
    assert stored[item.start_byte : item.end_byte].decode() == item.text


def test_an_uncovered_word_makes_it_related(northwind: Scope) -> None:
    evidence = northwind.context(
        "What does Northwind Retail report about the invoice export deadline?"
    )
    assert evidence.verdict.state is VerdictState.RELATED
    assert "deadline" in evidence.verdict.uncovered
    assert "Northwind Retail" in evidence.verdict.matched_names


def test_a_question_about_something_else_is_not_grounded(northwind: Scope) -> None:
    evidence = northwind.context("What does Contoso say about payroll?")
    assert evidence.verdict.state is not VerdictState.GROUNDED
    assert evidence.verdict.state is VerdictState.NOTHING_STORED


def test_close_spellings_and_type_words_find_entities(northwind: Scope) -> None:
    misspelt = northwind.context("What did Nortwind Retail report?")
    assert "Northwind Retail" in misspelt.seeds
    assert misspelt.verdict.state is VerdictState.GROUNDED
    typed = northwind.context("Which companies reported problems?")
    assert "Northwind Retail" in typed.seeds
    assert "companies" not in typed.verdict.uncovered


def test_close_spellings_of_names_beyond_ascii_are_found(scope: Scope) -> None:
    """Close spellings are looked up by the range of names that start as the phrase does: a
    name whose first letters are not ASCII is in that range, one that only sorts near is not."""
    scope.ingest(
        "Zürichsee Logistik ships freight across the lake. Zürich Analytics reads its"
        " ledgers. Zurichson Holdings owns neither.".encode(),
        name="lake.txt",
    )
    found = scope.context("What does Zürichse Logistik ship?")
    assert "Zürichsee Logistik" in found.seeds
    assert "Zurichson Holdings" not in found.seeds
    assert found.verdict.state is VerdictState.GROUNDED


def test_what_cannot_be_located_is_returned_not_stored(scope: Scope) -> None:
    result = scope.remember(
        "chat log",
        Facts(
            entities=(EntityFact("Contoso", "Company"), EntityFact("Payroll", "Feature")),
            relations=(RelationFact("Contoso", "Payroll", "OWNS"),),
        ),
        [Passage("Contoso moved its offices last spring.", ("Contoso", "Payroll"))],
    )
    assert result.mentions_located == 1
    assert any("'Payroll' is not in its text" in u for u in result.unlocated)
    assert result.relations_asserted == (RelationFact("Contoso", "Payroll", "OWNS"),)
    rows = scope.graph.ro_query(
        "MATCH (:Entity {name: 'Contoso'})-[r:RELATES {type: 'OWNS'}]->() RETURN r.citable, r.quote"
    )
    assert rows == [[False, None]]
    mentions = scope.graph.ro_query(
        "MATCH (e:Entity {name: 'Payroll'})-[m:MENTIONED_IN]->() RETURN count(m)"
    )
    assert mentions == [[0]]


def test_remembering_twice_stores_once(northwind: Scope) -> None:
    northwind.remember(
        "support ticket 4471",
        Facts(entities=(EntityFact("Northwind Retail", "Company"),)),
        [Passage(PASSAGE, ("Northwind Retail",))],
    )
    rows = northwind.graph.ro_query(
        "MATCH (e:Entity {key: 'Company:northwind retail'})-[m:MENTIONED_IN]->() RETURN count(m)"
    )
    assert rows == [[1]]


def test_bad_facts_are_refused(scope: Scope) -> None:
    with pytest.raises(citegraph.UsageError, match=r"not among facts\.entities"):
        scope.remember("x", Facts(relations=(RelationFact("A", "B", "R"),)), [])
    with pytest.raises(citegraph.UsageError, match="source label"):
        scope.remember("  ", Facts(), [])
    with pytest.raises(citegraph.UsageError, match="passage 1 is empty"):
        scope.remember("x", Facts(), [Passage("   ")])
    # Found by schemathesis: a NUL in a name reached the store and came back as a 500. Now it
    # is refused before anything is stored, the passage included.
    nul = Facts(entities=(EntityFact("Acme\x00", "Company"),))
    with pytest.raises(citegraph.UsageError, match="NUL"):
        scope.remember("x", nul, [Passage("Acme ships widgets.")])
    assert scope.documents() == []
    with pytest.raises(citegraph.UsageError, match="NUL"):
        scope.ingest(b"text", name="bad\x00name.txt")
    assert scope.documents() == []


def test_an_empty_scope_is_nothing_stored(scope: Scope) -> None:
    evidence = scope.context("Where is the lighthouse?")
    assert evidence.verdict.state is VerdictState.NOTHING_STORED
    assert any("meaning" in note for note in evidence.skipped)


def test_the_active_policy_and_limits_are_reported(northwind: Scope) -> None:
    northwind.ingest(
        b"Northwind Retail reports a second problem: the export times out at noon.",
        name="ticket-4472.txt",
    )
    policy = citegraph.TraversalPolicy(relation_types=frozenset({"REPORTED_BUG_IN"}), fanout=1)
    question = "What does Northwind Retail report?"
    evidence = northwind.context(question, k=1, hops=3, policy=policy)
    assert evidence.policy is policy
    assert len(evidence.items) == 1
    # More than one passage was found and one was kept: the k limit says so.
    assert "k" in evidence.limits_reached and evidence.omitted_items >= 1
    roomy = northwind.context(question, k=8, hops=3, policy=policy)
    assert "k" not in roomy.limits_reached and len(roomy.items) >= 2


@pytest.mark.parametrize(
    "question",
    [
        "@text:(invoice) | export -deadline *",
        'what about "invoice export" ~fuzzy %typo% {braces}',
        "') RETURN 1 // MATCH (n) DETACH DELETE n",
        "CALL db.idx.fulltext.drop('Chunk')",
        "Что сообщает Northwind Retail?",
        "北风零售报告了什么？",
    ],
)
def test_hostile_questions_work_and_break_nothing(northwind: Scope, question: str) -> None:
    evidence = northwind.context(question)
    # Taken as words, never as query syntax: no stage failed on it (that would read
    # could_not_judge), and what it holds nothing about is named, not an error.
    assert evidence.verdict.state is not VerdictState.COULD_NOT_JUDGE, evidence.verdict.detail
    assert evidence.verdict.stage is None or evidence.verdict.state is VerdictState.GROUNDED
    after = northwind.context("What does Northwind Retail report about the invoice export?")
    assert after.verdict.state is VerdictState.GROUNDED


@pytest.mark.parametrize(
    ("question", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * 100_000, "limit"),
        ("What is the and of it?", "no content words"),
        ("Northwind\u0000Retail", "control characters"),
        ("Northwind\x1b]0;title\x07 Retail", "control characters"),
    ],
)
def test_questions_that_cannot_be_asked_get_a_clear_error(
    northwind: Scope, question: str, message: str
) -> None:
    with pytest.raises(InvalidQuestion, match=message):
        northwind.context(question)


@pytest.mark.parametrize(("k", "hops"), [(0, 2), (51, 2), (8, 4), (8, -1)])
def test_bounds_on_k_and_hops(northwind: Scope, k: int, hops: int) -> None:
    with pytest.raises(InvalidQuestion):
        northwind.context("What does Northwind Retail report?", k=k, hops=hops)


def test_context_refuses_a_history(northwind: Scope) -> None:
    with pytest.raises(InvalidQuestion, match="standalone"):
        northwind.context("What does he report?", history=[("Who?", "Northwind Retail")])


def test_a_store_that_is_down_is_an_error_not_nothing_stored(tmp_path: object) -> None:
    import os
    import signal
    from pathlib import Path

    home = Path(str(tmp_path))
    ws = citegraph.open(home)
    scope = ws.scope("down")
    scope.ingest(b"The lighthouse keeper logs every ship.", name="log.txt")
    pid = ws.server_pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(citegraph.StoreUnavailable):
        scope.context("What does the lighthouse keeper log?")
    ws.close()


def test_an_index_being_built_is_could_not_judge(scope: Scope) -> None:
    scope.ingest(b"The lighthouse keeper logs every ship.", name="log.txt")
    scope.graph.query("CALL db.idx.fulltext.drop('Chunk')")
    text = "filler words for a slow index " * 40
    for _ in range(10):
        scope.graph.query(
            "UNWIND range(1, 2000) AS i CREATE (:Chunk {id: 'x' + toString(i), text: $t})",
            {"t": text},
        )
    scope.graph.query("CALL db.idx.fulltext.createNodeIndex('Chunk', 'text')")
    evidence = scope.context("What does the lighthouse keeper log?")
    assert evidence.verdict.state is VerdictState.COULD_NOT_JUDGE
    assert evidence.verdict.stage == "keyword"
    assert "Chunk.text" in evidence.verdict.detail


def test_writes_through_another_scope_object_are_seen(
    workspace: citegraph.Workspace, scope: Scope, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service keeps one Scope per name; another process (the CLI, `citegraph mcp`) writes
    through its own. Found in review: the server kept stale word and type statistics."""
    scope.ingest(b"Contoso ships widgets to the harbour every week.", name="contoso.txt")
    reader = workspace.scope(scope.name)
    before = reader.context("Which companies report an invoice bug?")
    assert before.verdict.state != "grounded"
    scope.remember(
        "ticket",
        Facts(entities=(EntityFact("Northwind Retail", "Company"),)),
        [Passage("Northwind Retail reports an invoice bug.", ("Northwind Retail",))],
    )
    monkeypatch.setattr(citegraph.scope, "STATS_TTL_S", 0.0)
    after = reader.context("Which companies report an invoice bug?")
    assert after.verdict.state == "grounded"


def _suppliers() -> list[tuple[str, bytes]]:
    firsts = "Orion Vega Lyra Draco Cygnus Aquila Perseus Hydra Carina Pavo".split()
    seconds = "Labs Works Systems Partners Foundry Group".split()
    return [
        (
            f"d{i:02d}.txt",
            f"The Acme Corporation signed a supply contract with {a} {b} in {2000 + i}. "
            f"{a} {b} ships parts to Acme Corporation every week.".encode(),
        )
        for i, (a, b) in enumerate((a, b) for a in firsts for b in seconds)
    ]


def test_the_same_question_finds_the_same_evidence_whatever_order_documents_came_in(
    workspace: citegraph.Workspace,
) -> None:
    """A hub named in 60 documents has more links than a walk follows (the fanout cap):
    which ones it follows is fixed by where they are stated, not by the order they were
    written in, so two stores of the same documents written in opposite orders answer the
    same question with the same evidence."""
    found = []
    for name, docs in (("forward", _suppliers()), ("backward", _suppliers()[::-1])):
        scope = workspace.scope(f"order_{name}_{os.getpid()}")
        for doc_name, text in docs:
            scope.ingest(text, name=doc_name)
        evidence = scope.context("Which suppliers ship parts to Acme Corporation?", k=8)
        assert "fanout" in evidence.limits_reached  # the cap is what is tested
        found.append(
            [
                (i.document_name, i.start_byte, round(i.score, 9), i.retrievers)
                for i in evidence.items
            ]
        )
    assert found[0] == found[1]
