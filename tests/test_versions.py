"""Re-ingest, replacement, deletion, derived text, and readers during a replacement."""

from __future__ import annotations

import threading

import pytest

import citegraph
from citegraph import IngestStatus, Scope, TextOrigin

from conftest import assert_tiles


def test_same_bytes_same_name_is_a_reported_no_op(scope: Scope) -> None:
    [first] = scope.ingest(b"Version one.\n", name="a.txt")
    [again] = scope.ingest(b"Version one.\n", name="a.txt")
    assert first.status is IngestStatus.CREATED
    assert again.status is IngestStatus.UNCHANGED
    assert again.document == scope.document("a.txt")


def test_changed_bytes_replace_the_document_keeping_its_id(scope: Scope) -> None:
    [first] = scope.ingest(b"Version one.\n" * 400, name="a.txt")
    [second] = scope.ingest(b"Version two!\n" * 300, name="a.txt")
    assert second.status is IngestStatus.REPLACED
    assert second.document.id == first.document.id
    assert [d.sha256 for d in scope.documents()] == [second.document.sha256]
    assert_tiles(scope, "a.txt", expected=b"Version two!\n" * 300)
    old_chunks = scope.graph.ro_query(
        "MATCH (c:Chunk) WHERE c.text CONTAINS 'Version one' RETURN count(c)"
    )
    assert old_chunks == [[0]]


def test_delete_removes_the_document_and_its_chunks_and_nothing_else(scope: Scope) -> None:
    scope.ingest(b"Keep me.\n" * 500, name="keep.txt")
    scope.ingest(b"Drop me.\n" * 500, name="drop.txt")
    kept = scope.document("keep.txt")
    removed = scope.delete_document(scope.document("drop.txt").id)
    assert removed.name == "drop.txt"
    assert [d.name for d in scope.documents()] == ["keep.txt"]
    counts = scope.graph.ro_query("MATCH (c:Chunk) RETURN c.document_id, count(c)")
    assert counts == [[kept.id, kept.chunk_count]]
    assert_tiles(scope, "keep.txt")
    with pytest.raises(citegraph.DocumentNotFound):
        scope.delete_document("drop.txt")


def test_derived_text_keeps_its_origin(scope: Scope) -> None:
    origin = TextOrigin(kind="ocr", source="scan-17.pdf", method="tesseract 5.3")
    [result] = scope.ingest(b"Recognised text, line one.\n", name="scan-17.txt", origin=origin)
    assert scope.document("scan-17.txt").origin == origin == result.document.origin
    # The same text with another origin is a new version, not a no-op.
    other = TextOrigin(kind="transcript", source="call.wav", method="whisper")
    [again] = scope.ingest(b"Recognised text, line one.\n", name="scan-17.txt", origin=other)
    assert again.status is IngestStatus.REPLACED


def test_scopes_do_not_see_each_other(workspace: citegraph.Workspace) -> None:
    a, b = workspace.scope("iso_a"), workspace.scope("iso_b")
    for s in (a, b):
        for doc in s.documents():
            s.delete_document(doc.id)
    a.ingest(b"only in a", name="a.txt")
    assert b.documents() == []
    with pytest.raises(citegraph.DocumentNotFound):
        b.document("a.txt")
    # Listed: the scope that holds something; b was only read, so it is not.
    assert "iso_a" in workspace.scopes() and "iso_b" not in workspace.scopes()


def test_a_reader_never_sees_half_a_document(scope: Scope) -> None:
    """While versions replace each other, every read finds exactly one whole version."""
    versions = [f"Version {i}: ".encode() + b"some words here. " * 100000 for i in range(4)]
    scope.ingest(versions[0], name="big.txt")
    done = threading.Event()
    seen: list[str] = []
    problems: list[str] = []

    def read() -> None:
        while not done.is_set():
            rows = scope.graph.ro_query(
                "MATCH (c:Chunk)-[:PART_OF]->(d:Document {name: 'big.txt'}) "
                "RETURN d.chunk_count, count(c), collect(DISTINCT d.sha256)"
            )
            if len(rows) != 1:
                problems.append(f"{len(rows)} documents")
                continue
            expected, found, shas = rows[0]
            seen.extend(shas)
            if expected != found or len(shas) != 1:
                problems.append(f"document says {expected} chunks, {found} found")

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for version in versions[1:]:
            scope.ingest(version, name="big.txt")
    finally:
        done.set()
        reader.join()
    assert not problems, problems[:5]
    assert len(set(seen)) >= 2, "the reads did not overlap the replacements"
    assert_tiles(scope, "big.txt", expected=versions[-1])


def test_ingest_many_stores_groups_and_the_last_of_a_repeated_name(scope: Scope) -> None:
    items = [(f"p{i}.txt", f"Paragraph {i}.\n".encode()) for i in range(30)]
    items.append(("p3.txt", b"Paragraph 3, second version.\n"))
    results = scope.ingest_many(items)
    assert [r.status for r in results].count(IngestStatus.CREATED) == 30
    assert results[-1].status is IngestStatus.REPLACED
    assert scope.stored_text("p3.txt") == b"Paragraph 3, second version.\n"
    assert len(scope.documents()) == 30
    for doc in scope.documents():
        assert_tiles(scope, doc.id)


def test_large_and_small_versions_replace_each_other(scope: Scope) -> None:
    """Small groups are written in one query, large ones staged: both replace either."""
    large = b"A large version, staged in batches. " * 60_000  # over the one-query limit
    small = b"A small version, written in one query.\n"
    for version in (small, large, small, large):
        scope.ingest(version, name="doc.txt")
        assert_tiles(scope, "doc.txt", expected=version)
        assert len(scope.documents()) == 1
        chunks = scope.graph.ro_query("MATCH (c:Chunk) RETURN count(c)")[0][0]
        assert chunks == scope.document("doc.txt").chunk_count
