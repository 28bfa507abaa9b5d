"""Extraction after documents are committed: locate proposed names, store mentions and links."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..store.documents import DocumentRepository
from ..store.entities import EntityRepository
from ..values.documents import Chunk, Document
from .mentions import MentionRows, add_chunk_rows
from .offline import Extractor

# Rows are written in flushes of about this many, also within a document, so that a huge
# document is extracted in bounded memory.
_FLUSH_ROWS = 20_000


def extract_documents(
    extractor: Extractor,
    documents: Iterable[Document],
    chunks_of: Callable[[Document], Iterable[Chunk]],
    docs: DocumentRepository,
    entities: EntityRepository,
) -> int:
    """Extract entities from `documents` and store them; the number of mentions stored.

    Each document is marked extracted afterwards, so that an ingest cut short between the
    commit and this step is finished by the next ingest of the same bytes.
    """
    rows = MentionRows()
    stored = 0
    done: list[str] = []
    for document in documents:
        for chunk in chunks_of(document):
            add_chunk_rows(extractor, document, chunk, document.title, rows)
            if len(rows.mentions) + len(rows.links) >= _FLUSH_ROWS:
                stored += _flush(rows, entities)
                rows = MentionRows()
        done.append(document.id)
    stored += _flush(rows, entities)
    if done:
        docs.mark_extracted(done)
    return stored


def _flush(rows: MentionRows, entities: EntityRepository) -> int:
    entities.write_mentions(rows.mentions)
    entities.write_co_mentions(rows.links)
    return len(rows.mentions)
