"""The JSON shape of each value the service sends or takes: HTTP bodies (as the OpenAPI
document shows them) and MCP tool results are built here, from the core's values, once."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..extract.remember import EntityFact, Facts, Passage, RelationFact, RememberResult
from ..limits import (
    DEFAULT_HOPS,
    DEFAULT_K,
    MAX_HOPS,
    MAX_ITEMS,
    MAX_K,
    MAX_NAME,
    MAX_SCOPE_NAME,
    SCOPE_NAME_PATTERN,
)
from ..retrieve.evidence import Evidence, EvidenceItem
from ..types import Document, IngestResult, page_range

ScopeName = Field(
    min_length=1,
    max_length=MAX_SCOPE_NAME,
    pattern=f"^{SCOPE_NAME_PATTERN}$",
    description=(
        f"Scope: 1 to {MAX_SCOPE_NAME} characters from A-Z a-z 0-9 _ -, starting with a letter "
        "or digit."
    ),
)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorDetail(BaseModel):
    code: str = Field(description="A stable, machine-readable code, e.g. forbidden.")
    message: str = Field(description="What went wrong, and what to do about it.")


class ErrorBody(BaseModel):
    ok: Literal[False] = False
    error: ErrorDetail


# -- memory -----------------------------------------------------------------------------------


class EntityIn(Strict):
    name: str = Field(min_length=1, max_length=MAX_NAME)
    type: str = Field(min_length=1, max_length=MAX_NAME)


class RelationIn(Strict):
    source: str = Field(min_length=1, max_length=MAX_NAME)
    target: str = Field(min_length=1, max_length=MAX_NAME)
    type: str = Field(min_length=1, max_length=MAX_NAME)


class FactsIn(Strict):
    entities: list[EntityIn] = Field(default_factory=list, max_length=MAX_ITEMS)
    relations: list[RelationIn] = Field(default_factory=list, max_length=MAX_ITEMS)


class PassageIn(Strict):
    text: str = Field(min_length=1)
    mentions: list[str] = Field(default_factory=list, max_length=MAX_ITEMS)


class RememberRequest(Strict):
    scope: str = ScopeName
    source: str = Field(min_length=1, max_length=MAX_NAME, description="Where these came from.")
    facts: FactsIn = Field(default_factory=FactsIn)
    passages: list[PassageIn] = Field(default_factory=list, max_length=MAX_ITEMS)


class RelationOut(BaseModel):
    source: str
    target: str
    type: str


class RememberResponse(BaseModel):
    ok: Literal[True] = True
    documents: list[str] = Field(description="Ids of the documents the passages became.")
    entities: int
    mentions_located: int
    relations_grounded: int
    relations_asserted: list[RelationOut] = Field(
        description="Relations stored as asserted: no one passage mentions both ends."
    )
    unlocated: list[str] = Field(description="Mentions not found in their passage: not stored.")


class ContextRequest(Strict):
    scope: str = ScopeName
    query: str = Field(min_length=1, description="A standalone question in plain words.")
    k: int = Field(
        DEFAULT_K, ge=1, le=MAX_K, description=f"How many items to return (1 to {MAX_K})."
    )
    hops: int = Field(
        DEFAULT_HOPS,
        ge=0,
        le=MAX_HOPS,
        description=f"Graph steps from the seeds (0 to {MAX_HOPS}).",
    )


class TextOriginOut(BaseModel):
    kind: str
    source: str
    method: str


class ItemOut(BaseModel):
    id: str
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


class GroundingOut(BaseModel):
    state: Literal["grounded", "related", "uncited", "nothing_stored", "could_not_judge"]
    uncovered: list[str] = Field(description="Question words nothing that came back covers.")
    matched_names: list[str]
    stage: str | None = Field(description="With could_not_judge: the stage that could not run.")
    detail: str


class ContextResponse(BaseModel):
    ok: Literal[True] = True
    query: str
    grounding: GroundingOut
    items: list[ItemOut] = Field(description="Cited passages, best first.")
    context: list[ItemOut] = Field(description="Shown to help reading; not citable.")
    content_words: list[str]
    skipped: list[str] = Field(description="Stages skipped, and why (e.g. no embedding model).")
    limits_reached: list[str]
    omitted_items: int


# -- answers ----------------------------------------------------------------------------------


class TurnIn(Strict):
    question: str = Field(min_length=1)
    answer: str = ""


class AnswerRequest(Strict):
    scope: str = ScopeName
    question: str = Field(min_length=1)
    history: list[TurnIn] = Field(
        default_factory=list, max_length=50, description="Earlier turns, oldest first."
    )
    k: int = Field(DEFAULT_K, ge=1, le=MAX_K)
    hops: int = Field(DEFAULT_HOPS, ge=0, le=MAX_HOPS)


class AnswerResponse(BaseModel):
    ok: Literal[True] = True
    answer: dict[str, Any] = Field(
        description="A citegraph-answer/1 document: answered with verified citations, or "
        "refused with a reason. The same document `citegraph ask --export` writes."
    )


class CheckRequest(Strict):
    answer: dict[str, Any] = Field(description="A citegraph-answer/1 document.")
    scope: str | None = Field(
        None,
        min_length=1,
        max_length=MAX_SCOPE_NAME,
        pattern=f"^{SCOPE_NAME_PATTERN}$",
        description="Also compare every quote with the bytes stored in this scope (needs read).",
    )


class CheckResponse(BaseModel):
    ok: Literal[True] = True
    valid: bool = Field(description="True when every citation holds.")
    disposition: str
    citations: int
    problems: list[str]
    checked_against_store: bool
    model_worded_claims: int = Field(
        0,
        description="Claims in a model's own words: their citations are checked, their wording "
        "cannot be. The other claims are worded as their quotes, and checked to be exactly them.",
    )


# -- documents --------------------------------------------------------------------------------


class DocumentOut(BaseModel):
    id: str
    name: str
    media_type: str
    size_bytes: int
    sha256: str
    chunk_count: int
    ingested_at: str
    page_count: int
    title: str | None
    origin: TextOriginOut | None


class IngestedOut(BaseModel):
    status: str
    document: DocumentOut
    warnings: list[str]


class IngestResponse(BaseModel):
    ok: Literal[True] = True
    results: list[IngestedOut]


class DocumentsResponse(BaseModel):
    ok: Literal[True] = True
    documents: list[DocumentOut]


class DeletedResponse(BaseModel):
    ok: Literal[True] = True
    deleted: DocumentOut


# -- health -----------------------------------------------------------------------------------


class GraphHealthOut(BaseModel):
    state: Literal["ok", "degraded", "down"]
    detail: str


class StorageOut(BaseModel):
    """The embedded store on disk (absent for a FalkorDB server by URL)."""

    stored_bytes: int = Field(description="Snapshot base plus append-only tail.")
    tail_bytes: int = Field(description="Commands replayed one by one at the next start.")
    last_compaction: float | None = Field(
        description="Unix time the current snapshot was written; null: never compacted."
    )
    compactions: int
    compacting: bool | None = Field(description="A compaction runs now; null: not known.")


class HealthResponse(BaseModel):
    api: Literal["ok"] = "ok"
    graph: GraphHealthOut
    storage: StorageOut | None = None
    housekeeping_failures: int = Field(
        0, description="Scopes whose cleanup of abandoned staging failed (see the server log)."
    )


# -- from the core's values ------------------------------------------------------------------


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
        title=doc.title,
        origin=TextOriginOut(**asdict(doc.origin)) if doc.origin else None,
    )


def citation_label(item: EvidenceItem) -> str:
    where = f"{item.document_name}, bytes {item.start_byte}-{item.end_byte}"
    pages = page_range(item.page, item.end_page)
    if pages:
        where += f", page {pages}"
    return where


def item_shape(item: EvidenceItem) -> ItemOut:
    origin = item.text_origin
    return ItemOut(
        id=item.id,
        citation=citation_label(item),
        document_id=item.document_id,
        document_name=item.document_name,
        chunk_id=item.chunk_id,
        start_byte=item.start_byte,
        end_byte=item.end_byte,
        page=item.page,
        end_page=item.end_page,
        text_origin=TextOriginOut(**asdict(origin)) if origin else None,
        text=item.text,
        score=item.score,
        retrievers=list(item.retrievers),
        citable=item.citable,
    )


def context_shape(evidence: Evidence) -> ContextResponse:
    verdict = evidence.verdict
    return ContextResponse(
        query=evidence.question,
        grounding=GroundingOut(
            state=verdict.state.value,
            uncovered=list(verdict.uncovered),
            matched_names=list(verdict.matched_names),
            stage=verdict.stage,
            detail=verdict.detail,
        ),
        items=[item_shape(i) for i in evidence.items],
        context=[item_shape(i) for i in evidence.context],
        content_words=list(evidence.content_words),
        skipped=list(evidence.skipped),
        limits_reached=list(evidence.limits_reached),
        omitted_items=evidence.omitted_items,
    )


def ingested_shape(result: IngestResult) -> IngestedOut:
    return IngestedOut(
        status=result.status.value,
        document=document_shape(result.document),
        warnings=list(result.warnings),
    )


def facts_from(entities: list[EntityIn], relations: list[RelationIn]) -> Facts:
    return Facts(
        tuple(EntityFact(e.name, e.type) for e in entities),
        tuple(RelationFact(r.source, r.target, r.type) for r in relations),
    )


def passages_from(passages: list[PassageIn]) -> list[Passage]:
    return [Passage(p.text, tuple(p.mentions)) for p in passages]


def remember_shape(result: RememberResult) -> RememberResponse:
    return RememberResponse(
        documents=[d.id for d in result.documents],
        entities=result.entities,
        mentions_located=result.mentions_located,
        relations_grounded=result.relations_grounded,
        relations_asserted=[RelationOut(**asdict(r)) for r in result.relations_asserted],
        unlocated=list(result.unlocated),
    )
