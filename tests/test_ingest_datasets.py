"""Acceptance: chunks tile every real document exactly, and PDF pages agree with the page map."""

from __future__ import annotations

import json

from citegraph import Scope
from citegraph.ingest.pdf import page_of

from conftest import assert_tiles, dataset


def test_alice_tiles_exactly(scope: Scope) -> None:
    path = dataset("alice/pg11_alice_body.txt")
    [result] = scope.ingest(path)
    assert_tiles(scope, result.document.id, expected=path.read_bytes())
    assert result.document.chunk_count > 50
    chunks = list(scope.chunks(result.document.id))
    assert all(len(c.text.encode()) <= 2000 for c in chunks)
    assert all(c.page is None and c.end_page is None for c in chunks)


def test_every_pdf_tiles_and_agrees_with_its_page_map(scope: Scope) -> None:
    results = scope.ingest(dataset("pdfs"))
    pdfs = [r for r in results if r.document.media_type == "application/pdf"]
    assert len(pdfs) == 7
    for result in pdfs:
        doc = result.document
        assert_tiles(scope, doc.id)
        stored = scope.document(doc.id)
        assert stored.page_starts == doc.page_starts and stored.page_count > 0
        for chunk in scope.chunks(doc.id):
            assert chunk.page == page_of(stored.page_starts, chunk.start_byte)
            assert chunk.end_page == page_of(stored.page_starts, chunk.end_byte - 1)
            assert 1 <= chunk.page <= chunk.end_page <= stored.page_count
    vicksburg = scope.document("pdfs/pypdf__Seige_of_Vicksburg_Sample_OCR.pdf")
    pages = {c.page for c in scope.chunks(vicksburg.id)} | {
        c.end_page for c in scope.chunks(vicksburg.id)
    }
    assert pages == {1, 2, 3, 4, 5, 6}


def test_squad_dev16_paragraphs_tile(scope: Scope) -> None:
    data = json.loads(dataset("squad2/squad2-dev-16.json").read_text())
    expected: dict[str, bytes] = {}
    for article in data["data"]:
        for index, paragraph in enumerate(article["paragraphs"]):
            name = f"{article['title']}/{index}"
            expected[name] = paragraph["context"].encode()
            scope.ingest(expected[name], name=name, media_type="text/plain")
    assert len(expected) == 646
    docs = scope.documents()
    assert len(docs) == len(expected)
    for doc in docs:
        assert_tiles(scope, doc.id, expected=expected[doc.name])


def test_configuration_is_stored_as_text_with_its_type(scope: Scope) -> None:
    """A release manifest (.yaml) and a derived edge list (.json) are stored byte for byte with
    their own media types, and their settings can be found (issue 13: configuration states
    dependencies)."""
    demo = dataset("engineering_docs/google_microservices-demo")
    manifest = demo / "release" / "kubernetes-manifests.yaml"
    edges = demo / "DERIVED_dependency_edges_from_manifests.json"
    results = scope.ingest(manifest) + scope.ingest(edges)
    assert [r.document.media_type for r in results] == ["application/yaml", "application/json"]
    for result, path in zip(results, (manifest, edges), strict=True):
        assert_tiles(scope, result.document.id, path.read_bytes())
    found = scope.context("Which service sets PRODUCT_CATALOG_SERVICE_ADDR?")
    assert any("PRODUCT_CATALOG_SERVICE_ADDR" in item.text for item in found.items)
