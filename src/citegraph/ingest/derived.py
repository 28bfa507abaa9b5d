"""What is derived from documents just committed: their entities and relations (extraction)
and their embeddings. Both run after the commit, so a document is searchable by keyword as
soon as it is stored, and an ingest cut short here is finished by the next one."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..store.documents import DocumentRepository
from ..store.entities import EntityRepository
from ..store.graph import GraphHandle
from ..values.documents import Chunk, Document, IngestResult, IngestStatus

if TYPE_CHECKING:
    from ..extract.offline import Extractor
    from ..extract.run import ProposingExtractor
    from ..models.embeddings import Embedder


def extract(
    results: list[IngestResult],
    chunks_of: Callable[[Document], Iterable[Chunk]],
    repo: DocumentRepository,
    entities: EntityRepository,
    extractor: Extractor | ProposingExtractor,
) -> list[IngestResult]:
    """Extract from the documents not yet extracted; results with their reports."""
    from ..extract.run import extract_documents

    pending = [r.document for r in results if not r.document.extracted]
    # Committed earlier but not extracted: an extraction was cut short, and what it stored
    # is removed before it runs again.
    resumed = [
        r.document.id
        for r in results
        if r.status is IngestStatus.UNCHANGED and not r.document.extracted
    ]
    if resumed:
        entities.forget_extraction(resumed)
    reports = extract_documents(extractor, pending, chunks_of, repo, entities)
    if any(r.status is IngestStatus.REPLACED for r in results):
        entities.drop_orphans()
    return [
        replace(
            r,
            document=replace(r.document, extracted=True),
            extraction=reports.get(r.document.id, r.extraction),
        )
        for r in results
    ]


def embed(
    results: list[IngestResult],
    chunks_of: Callable[[Document], Iterable[Chunk]],
    repo: DocumentRepository,
    graph: GraphHandle,
    embedder: Embedder,
) -> list[IngestResult]:
    """Embed the chunks of documents not embedded with `embedder` yet."""
    from ..retrieve.meaning import embed_documents

    stale = [r.document for r in results if r.document.embedded_with != embedder.name]
    embed_documents(embedder, stale, chunks_of, graph, repo)
    return [replace(r, document=replace(r.document, embedded_with=embedder.name)) for r in results]
