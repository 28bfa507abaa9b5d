"""One JSON shape per value, on every wire: the CLI's --json, the HTTP API (and its OpenAPI
document), the MCP tools and the answer export all send these. camelCase names; a top-level
value says what it is and its version in `format` (`citegraph-evidence/1`, ...).

The evidence and the answer document are written by the core (audit/export.py) and described
here: each reply is validated against its model, which forbids keys it does not describe, so
the two cannot drift apart unnoticed. The other values are built here from the core's."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from ..audit.export import evidence_json, to_document
from ..store.health import GraphHealth
from ..values.answers import Answer
from ..values.documents import Chunk, Document, IngestResult
from ..values.evidence import Evidence
from ..values.facts import RememberResult


class Wire(BaseModel):
    """camelCase on the wire, snake_case in Python; nothing undescribed gets through."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        extra="forbid",
    )


def wire(value: BaseModel) -> dict[str, Any]:
    """The JSON-ready dict of a shape, as every surface sends it."""
    return value.model_dump(mode="json", by_alias=True)


def camel(value: Any) -> Any:
    """A report's JSON (dicts of snake_case keys, as `dataclasses.asdict` writes them) with
    camelCase keys, for the operator reports that have no shape of their own."""
    if isinstance(value, dict):
        return {to_camel(str(k)): camel(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [camel(v) for v in value]
    return value


class ErrorDetail(Wire):
    code: str = Field(description="A stable, machine-readable code, e.g. forbidden.")
    message: str = Field(description="What went wrong, and what to do about it.")


class ErrorBody(Wire):
    ok: Literal[False] = False
    error: ErrorDetail


class TextOriginOut(Wire):
    kind: str
    source: str
    method: str


# -- evidence (citegraph-evidence/1) ----------------------------------------------------------


class ItemOut(Wire):
    id: str = Field(description="E1, E2, ...: what a citation names.")
    citation: str = Field(description="Document, byte span and pages: quote it with the fact.")
    document_id: str
    document_name: str
    chunk_id: str
    start_byte: int
    end_byte: int
    page: int | None
    end_page: int | None
    text_origin: TextOriginOut | None
    text: str
    score: float
    retrievers: list[str]
    citable: bool


class RespelledOut(Wire):
    asked: str
    stored: str


class VerdictOut(Wire):
    state: Literal["grounded", "related", "uncited", "nothing_stored", "could_not_judge"]
    uncovered: list[str] = Field(description="Question words nothing that came back covers.")
    matched_names: list[str]
    stage: str | None = Field(description="With could_not_judge: the stage that could not run.")
    detail: str
    respelled: list[RespelledOut] = Field(
        default_factory=list,
        description="Question words read as a close spelling of a stored word.",
    )


class EvidenceOut(Wire):
    format: Literal["citegraph-evidence/1"] = "citegraph-evidence/1"
    question: str
    verdict: VerdictOut = Field(description="Read its state before the items.")
    items: list[ItemOut] = Field(description="Cited passages, best first.")
    context: list[ItemOut] = Field(description="Shown to help reading; never citable.")
    content_words: list[str]
    skipped: list[str] = Field(description="Stages skipped, and why (e.g. no embedding model).")
    limits_reached: list[str] = Field(description="k, budget, fanout or hops, when one cut.")
    omitted_items: int


def evidence_shape(evidence: Evidence) -> EvidenceOut:
    return EvidenceOut.model_validate(evidence_json(evidence))


# -- answers (citegraph-answer/1, the export) -------------------------------------------------


class CitationOut(Wire):
    evidence: str
    document_id: str
    chunk_id: str
    start_byte: int
    end_byte: int
    quote: str = Field(description="The stored bytes at the span (not the model's copy).")
    grounding: Literal["source", "chunk"]
    page: int | None
    end_page: int | None
    text_origin: TextOriginOut | None


class ClaimOut(Wire):
    text: str
    wording: Literal["quoted", "model"] = Field(
        description="quoted: the text is its quotes (checked); model: a model's own words."
    )
    citations: list[CitationOut]


class ReceiptOut(Wire):
    answerer: str = Field(description="The chat model's name, or extractive (offline).")
    chat_calls: int
    input_tokens: int | None
    output_tokens: int | None
    retrieval_ms: float
    answer_ms: float


class RewriteOut(Wire):
    original: str
    question: str = Field(description="What was searched: the follow-up made to stand alone.")
    outcome: Literal["rewritten", "unchanged", "unreadable", "unresolved"]
    turns_used: int
    turns_dropped: int


class AnswerOut(Wire):
    format: Literal["citegraph-answer/1"]
    version: str = Field(description="The citegraph that wrote it.")
    created_at: str
    question: str
    rewrite: RewriteOut | None
    disposition: Literal["answered", "refused"]
    text: str | None = Field(description="The claims' texts, in order; null when refused.")
    reason: str | None = Field(description="Why it was refused, e.g. no-evidence.")
    detail: str
    problems: list[str]
    claims: list[ClaimOut]
    receipt: ReceiptOut
    evidence: EvidenceOut


def answer_shape(answer: Answer) -> AnswerOut:
    return AnswerOut.model_validate(to_document(answer))


# -- remembering (citegraph-remember/1) -------------------------------------------------------


class RelationOut(Wire):
    source: str
    target: str
    type: str


class RememberOut(Wire):
    format: Literal["citegraph-remember/1"] = "citegraph-remember/1"
    documents: list[str] = Field(description="Ids of the documents the passages became.")
    entities: int
    mentions_located: int
    relations_grounded: int
    relations_asserted: list[RelationOut] = Field(
        description="Relations stored as asserted: no one passage mentions both ends."
    )
    unlocated: list[str] = Field(description="Mentions not found in their passage: not stored.")


def remember_shape(result: RememberResult) -> RememberOut:
    return RememberOut(
        documents=[d.id for d in result.documents],
        entities=result.entities,
        mentions_located=result.mentions_located,
        relations_grounded=result.relations_grounded,
        relations_asserted=[RelationOut(**asdict(r)) for r in result.relations_asserted],
        unlocated=list(result.unlocated),
    )


class CheckOut(Wire):
    format: Literal["citegraph-check/1"] = "citegraph-check/1"
    valid: bool = Field(description="True when every citation holds.")
    disposition: str
    citations: int
    problems: list[str]
    checked_against_store: bool
    model_worded_claims: int = Field(
        description="Claims in a model's own words: their citations are checked, their wording "
        "cannot be. The other claims are worded as their quotes, and checked to be exactly them.",
    )


# -- documents --------------------------------------------------------------------------------


class DocumentOut(Wire):
    id: str
    name: str
    media_type: str
    size_bytes: int
    sha256: str
    chunk_count: int
    ingested_at: str
    page_count: int
    page_starts: list[int] = Field(description="Byte offset of each PDF page; empty for text.")
    title: str | None
    origin: TextOriginOut | None
    extracted: bool = Field(description="Entities found; false until an ingest finishes it.")
    extracted_with: str | None = Field(
        description="What extracted it: offline, or llm:<model>:<prompt version>..."
    )
    embedded_with: str | None


def document_shape(doc: Document) -> DocumentOut:
    return DocumentOut(
        id=doc.id,
        name=doc.name,
        media_type=doc.media_type,
        size_bytes=doc.size_bytes,
        sha256=doc.sha256,
        chunk_count=doc.chunk_count,
        ingested_at=doc.ingested_at,
        page_count=doc.page_count,
        page_starts=list(doc.page_starts),
        title=doc.title,
        origin=TextOriginOut(**asdict(doc.origin)) if doc.origin else None,
        extracted=doc.extracted,
        extracted_with=doc.extracted_with,
        embedded_with=doc.embedded_with,
    )


class ChunkOut(Wire):
    id: str
    document_id: str
    ordinal: int
    start_byte: int
    end_byte: int
    text: str = Field(description="Exactly the stored text's bytes [startByte, endByte).")
    page: int | None
    end_page: int | None
    furniture: bool = Field(
        description="A PDF's running header or footer only: kept, never evidence."
    )


def chunk_shape(chunk: Chunk) -> ChunkOut:
    return ChunkOut(**asdict(chunk))


class ExtractionOut(Wire):
    """What extracting one document kept, dropped and cost, in the ingest that extracted it."""

    mentions: int = Field(description="Names located in the stored text, and kept.")
    relations: int = Field(
        description="Relations kept: each quote located in one chunk and naming both ends."
    )
    dropped: dict[str, int] = Field(
        description="What was proposed and not kept, by reason: not-in-source, cross-chunk, "
        "ends-not-in-quote, too-long, unreadable-reply."
    )
    calls: int = Field(description="Chat calls made (0 for the offline extractor).")
    input_tokens: int
    output_tokens: int
    cached: int = Field(description="Calls answered from the extraction cache, not made.")


class IngestedOut(Wire):
    status: Literal["created", "replaced", "unchanged"]
    document: DocumentOut
    warnings: list[str]
    extraction: ExtractionOut | None = Field(
        None,
        description="Null when this ingest extracted nothing from the document (unchanged "
        "bytes, or extraction off).",
    )


def ingested_shape(result: IngestResult) -> IngestedOut:
    report = result.extraction
    return IngestedOut(
        status=result.status.value,
        document=document_shape(result.document),
        warnings=list(result.warnings),
        extraction=None
        if report is None
        else ExtractionOut(
            mentions=report.mentions,
            relations=report.relations,
            dropped=dict(sorted(report.dropped.items())),
            calls=report.calls,
            input_tokens=report.input_tokens,
            output_tokens=report.output_tokens,
            cached=report.cached,
        ),
    )


# -- health -----------------------------------------------------------------------------------


class NodeOut(Wire):
    """One node of a store by URL (no address: this route needs no token)."""

    role: Literal["primary", "replica", "unknown"]
    state: Literal["ok", "down", "failed"] = Field(
        description="ok; down: it does not answer; failed: the cluster marks it failed."
    )
    slots: str | None = Field(None, description="A cluster master's hash slot ranges.")


class GraphHealthOut(Wire):
    state: Literal["ok", "degraded", "down"]
    detail: str
    kind: Literal["embedded", "server", "replicated", "cluster"] = Field(
        "embedded",
        description="The store: embedded, one server, a primary with replicas, or a cluster.",
    )
    nodes: list[NodeOut] = Field(
        default_factory=list, description="A store by URL: each of its nodes, asked directly."
    )


class StorageOut(Wire):
    """The embedded store on disk (absent for a FalkorDB server by URL)."""

    stored_bytes: int = Field(description="Snapshot base plus append-only tail.")
    tail_bytes: int = Field(description="Commands replayed one by one at the next start.")
    last_compaction: float | None = Field(
        description="Unix time the current snapshot was written; null: never compacted."
    )
    compactions: int
    compacting: bool | None = Field(description="A compaction runs now; null: not known.")


class IndexStateOut(Wire):
    index: str = Field(description="label.property (kind)")
    state: str = Field(description="OPERATIONAL, or UNDER CONSTRUCTION while it is built")


class IndexesOut(Wire):
    format: Literal["citegraph-indexes/1"] = "citegraph-indexes/1"
    indexes: list[IndexStateOut]


def indexes_shape(states: dict[str, str]) -> IndexesOut:
    return IndexesOut(indexes=[IndexStateOut(index=k, state=v) for k, v in sorted(states.items())])


class HealthOut(Wire):
    api: Literal["ok"] = "ok"
    graph: GraphHealthOut
    storage: StorageOut | None = None
    housekeeping_failures: int = Field(
        0, description="Scopes whose cleanup of abandoned staging failed (see the server log)."
    )


def health_shape(found: GraphHealth, detail: str) -> HealthOut:
    return HealthOut(
        graph=GraphHealthOut(
            state=found.state.value,
            detail=detail,
            kind=found.kind,  # type: ignore[arg-type]
            nodes=[
                NodeOut(role=n.role, state=n.state, slots=n.slots)  # type: ignore[arg-type]
                for n in found.nodes
            ],
        ),
        storage=StorageOut(**asdict(found.storage)) if found.storage else None,
        housekeeping_failures=len(found.housekeeping),
    )
