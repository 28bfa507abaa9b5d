"""Extraction after documents are committed: locate proposed names (and, for an extractor
that proposes them, relations), store what holds, and count what was dropped."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol, runtime_checkable

from ..store.documents import DocumentRepository
from ..store.entities import EntityRepository
from ..values.documents import Chunk, Document
from ..values.proposals import ExtractionReport, Proposal
from .grounding import ground
from .mentions import MentionRows, add_chunk_rows
from .offline import Extractor

# Rows are written in flushes of about this many, also within a document, so that a huge
# document is extracted in bounded memory.
_FLUSH_ROWS = 20_000


@runtime_checkable
class ProposingExtractor(Protocol):
    """Proposes entities and relations for a chunk (`LLMExtractor`); grounding keeps what is
    located in the chunk's stored bytes."""

    name: str

    def propose(self, text: str, title: str | None = None) -> Proposal: ...


class _Batch:
    def __init__(self) -> None:
        self.rows = MentionRows()
        self.relations: list[dict[str, Any]] = []

    def size(self) -> int:
        return len(self.rows.mentions) + len(self.rows.links) + len(self.relations)

    def flush(self, entities: EntityRepository) -> None:
        entities.write_mentions(self.rows.mentions)
        entities.write_co_mentions(self.rows.links)
        entities.write_relations(self.relations)
        self.rows, self.relations = MentionRows(), []


def extract_documents(
    extractor: Extractor | ProposingExtractor,
    documents: Iterable[Document],
    chunks_of: Callable[[Document], Iterable[Chunk]],
    docs: DocumentRepository,
    entities: EntityRepository,
) -> dict[str, ExtractionReport]:
    """Extract from `documents` and store what holds; a report per document id.

    Each document is marked extracted afterwards, so that an ingest cut short between the
    commit and this step is finished by the next ingest of the same bytes.
    """
    batch = _Batch()
    reports: dict[str, ExtractionReport] = {}
    for document in documents:
        report = reports[document.id] = ExtractionReport()
        previous: str | None = None
        for chunk in chunks_of(document):
            if isinstance(extractor, ProposingExtractor):
                proposal = extractor.propose(chunk.text, document.title)
                report.calls += proposal.calls
                report.input_tokens += proposal.input_tokens or 0
                report.output_tokens += proposal.output_tokens or 0
                near = (previous, previous + chunk.text) if previous is not None else ()
                ground(proposal, document, chunk, near, batch.rows, batch.relations, report)
            else:
                before = len(batch.rows.mentions)
                add_chunk_rows(extractor, document, chunk, document.title, batch.rows)
                report.mentions += len(batch.rows.mentions) - before
            previous = chunk.text
            if batch.size() >= _FLUSH_ROWS:
                batch.flush(entities)
    batch.flush(entities)
    if reports:
        docs.mark_extracted(list(reports))
    return reports
