"""Extraction after documents are committed: locate proposed names (and, for an extractor
that proposes them, relations), store what holds, and count what was dropped."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol, runtime_checkable

from ..store.documents import DocumentRepository
from ..store.entities import EntityRepository
from ..values.documents import Chunk, Document
from ..values.proposals import ExtractionReport, Proposal
from .config_relations import MAX_CONFIG_CHARS, toml_relations, yaml_relations
from .diagrams import diagram_relations, may_hold_diagrams
from .grounding import ground
from .mentions import MentionRows, add_chunk_rows, normalise_name, shape_type
from .offline import Extractor
from .prose_relations import Names, sentence_relations, table_relations
from .structural import DocumentText, StructuralRelation, ground_structural
from .verbs import any_verb

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
        structure = _Structure(document)
        previous: str | None = None
        for chunk in chunks_of(document):
            before = len(batch.rows.mentions)
            if isinstance(extractor, ProposingExtractor):
                proposal = extractor.propose(chunk.text, document.title)
                report.calls += proposal.calls
                report.input_tokens += proposal.input_tokens or 0
                report.output_tokens += proposal.output_tokens or 0
                near = (previous, previous + chunk.text) if previous is not None else ()
                ground(proposal, document, chunk, near, batch.rows, batch.relations, report)
                names: dict[str, str] = {}
            else:
                names = add_chunk_rows(extractor, document, chunk, document.title, batch.rows)
                report.mentions += len(batch.rows.mentions) - before
                mentioned = {str(m["key"]) for m in batch.rows.mentions[before:]}
                _prose_relations(document, chunk, names, mentioned, batch, report)
            structure.add(chunk, names, {str(m["key"]) for m in batch.rows.mentions[before:]})
            previous = chunk.text
            if batch.size() >= _FLUSH_ROWS:
                batch.flush(entities)
        structure.ground(batch, report)
    batch.flush(entities)
    if reports:
        docs.mark_extracted(list(reports))
    return reports


def _prose_relations(
    document: Document,
    chunk: Chunk,
    names: dict[str, str],
    mentioned: set[str],
    batch: _Batch,
    report: ExtractionReport,
) -> None:
    """Relations stated in the chunk's sentences and table rows, grounded like any other."""
    if "|" not in chunk.text and not any_verb(chunk.text):
        return  # most chunks: no verb of the table, no table
    known = Names(names)
    proposed = [*sentence_relations(chunk.text, known), *table_relations(chunk.text, known)]
    if proposed:
        proposal = Proposal(relations=tuple(proposed))
        ground(proposal, document, chunk, (), batch.rows, batch.relations, report, names, mentioned)


class _Structure:
    """A document's chunks kept for reading its structure (configuration, diagrams), while
    the document is small enough to be configuration rather than a corpus."""

    def __init__(self, document: Document):
        self.document = document
        self.chunks: list[Chunk] | None = []
        self.size = 0
        self.types: dict[str, str] = {}
        self.mentioned: set[tuple[str, str]] = set()

    def add(self, chunk: Chunk, names: dict[str, str], keys: set[str]) -> None:
        if self.chunks is None:
            return
        self.size += len(chunk.text)
        if self.size > MAX_CONFIG_CHARS:
            self.chunks = None  # too big to be configuration: not read for structure
            return
        self.chunks.append(chunk)
        self.mentioned.update((key, chunk.id) for key in keys)
        for name, kind in names.items():
            self.types.setdefault(normalise_name(name), kind)

    def ground(self, batch: _Batch, report: ExtractionReport) -> None:
        if not self.chunks:
            return
        text = DocumentText(self.chunks)
        media = self.document.media_type
        found: list[StructuralRelation] = []
        if media in ("application/yaml", "application/json"):
            found = yaml_relations(text.text)
        elif media == "application/toml":
            found = toml_relations(text.text)
        elif may_hold_diagrams(text.text):
            found = diagram_relations(text.text)
        if not found:
            return

        def type_of(name: str) -> str:
            return self.types.get(normalise_name(name)) or shape_type(name)

        ground_structural(
            found, self.document, text, type_of, batch.rows, batch.relations, report, self.mentioned
        )
