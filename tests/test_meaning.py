"""Search by meaning through the Embedder seam and the vector index."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path

import pytest

import citegraph
from citegraph import VerdictState
from citegraph.models.embeddings import HashingEmbedder, embedder_from_setting

TEXTS = {
    "pool.md": b"The pricing service keeps a pool of 64 database connections.",
    "cart.md": b"A cart holds at most 50 lines before checkout refuses it.",
}


def test_chunks_are_embedded_and_found_by_meaning(tmp_path: Path) -> None:
    with citegraph.open(tmp_path, embedder=HashingEmbedder(64)) as ws:
        scope = ws.scope("meaning")
        results = scope.ingest_many(list(TEXTS.items()))
        assert {r.document.embedded_with for r in results} == {"hashing-64"}
        assert scope.index_states()["Chunk.embedding (VECTOR)"] == "OPERATIONAL"
        stored = scope.graph.ro_query(
            "MATCH (c:Chunk) WHERE c.embedding IS NOT NULL RETURN count(c)"
        )
        assert stored == [[2]]
        evidence = scope.context("How many database connections does pricing keep?", k=1)
        assert evidence.skipped == ()
        assert "meaning" in evidence.items[0].retrievers
        assert evidence.items[0].document_name == "pool.md"
        # Documents stored before an embedder was configured are embedded on their next ingest.
    with citegraph.open(tmp_path) as plain:
        plain.scope("later").ingest(b"Stored without an embedder.", name="old.md")
    with citegraph.open(tmp_path, embedder=HashingEmbedder(64)) as ws:
        [again] = ws.scope("later").ingest(b"Stored without an embedder.", name="old.md")
        assert again.status.value == "unchanged" and again.document.embedded_with == "hashing-64"


class BrokenEmbedder:
    name = "broken"
    dimensions = 16

    def __init__(self) -> None:
        self.fail = False

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self.fail:
            raise RuntimeError("the model server is gone")
        return HashingEmbedder(16).embed(texts)


def test_a_failing_model_is_could_not_judge_not_nothing(tmp_path: Path) -> None:
    broken = BrokenEmbedder()
    with citegraph.open(tmp_path, embedder=broken) as ws:
        scope = ws.scope("broken")
        scope.ingest_many(list(TEXTS.items()))
        broken.fail = True
        evidence = scope.context("How many database connections does pricing keep?")
        assert evidence.verdict.state is VerdictState.COULD_NOT_JUDGE
        assert evidence.verdict.stage == "meaning"
        assert "the model server is gone" in evidence.verdict.detail


@pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is not None,
    reason="sentence-transformers is installed here, so the model is not missing",
)
def test_a_configured_model_that_is_not_installed_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(citegraph.EmbeddingModelMissing, match="citegraph\\[embeddings\\]"):
        embedder_from_setting("all-MiniLM-L6-v2")
    monkeypatch.setenv("CITEGRAPH_EMBED_MODEL", "all-MiniLM-L6-v2")
    with pytest.raises(citegraph.EmbeddingModelMissing):
        citegraph.open(tmp_path)
    assert not (tmp_path / "run" / "server.json").exists()


def test_settings_name_the_test_embedder_or_none() -> None:
    assert embedder_from_setting(None) is None
    assert embedder_from_setting("none") is None
    made = embedder_from_setting("hashing:32")
    assert made is not None and made.dimensions == 32


def test_one_model_per_scope(tmp_path: Path) -> None:
    with citegraph.open(tmp_path, embedder=HashingEmbedder(64)) as ws:
        ws.scope("fixed").ingest(b"Some text.", name="a.md")
    with (
        citegraph.open(tmp_path, embedder=HashingEmbedder(32)) as ws,
        pytest.raises(citegraph.ConfigError, match="one model per scope"),
    ):
        ws.scope("fixed").documents()
