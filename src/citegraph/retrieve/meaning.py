"""Search by meaning: chunk embeddings in a vector index, written after ingest; `context`
queries them with NEAREST when an embedder is configured."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..models.embeddings import Embedder
from ..store.documents import DocumentRepository
from ..store.graph import GraphHandle
from ..store.queries.retrieval import WRITE_EMBEDDINGS
from ..values.documents import Chunk, Document

BATCH = 64


def embed_documents(
    embedder: Embedder,
    documents: Iterable[Document],
    chunks_of: Callable[[Document], Iterable[Chunk]],
    graph: GraphHandle,
    docs: DocumentRepository,
) -> int:
    """Embed every chunk of `documents` and mark them embedded; the number of chunks."""
    done: list[str] = []
    batch: list[Chunk] = []
    count = 0

    def flush() -> None:
        vectors = embedder.embed([c.text for c in batch])
        rows = [{"id": c.id, "vector": v} for c, v in zip(batch, vectors, strict=True)]
        graph.query(WRITE_EMBEDDINGS, {"rows": rows})
        batch.clear()

    for document in documents:
        for chunk in chunks_of(document):
            batch.append(chunk)
            count += 1
            if len(batch) >= BATCH:
                flush()
        done.append(document.id)
    if batch:
        flush()
    if done:
        docs.mark_embedded(done, embedder.name)
    return count
