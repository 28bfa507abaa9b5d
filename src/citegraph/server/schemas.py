"""Request and response bodies of the HTTP API, as the OpenAPI document shows them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_K = 50
MAX_HOPS = 3
MAX_NAME = 200
MAX_ITEMS = 200
# What one answer check may ask for: its cost is linear in both (bench/check.py).
MAX_CHECK_CITATIONS = 5_000
MAX_CHECK_ITEM_BYTES = 4 * 1024 * 1024

ScopeName = Field(
    min_length=1,
    max_length=64,
    pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$",
    description="Scope: 1 to 64 characters from A-Z a-z 0-9 _ -, starting with a letter or digit.",
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
    k: int = Field(8, ge=1, le=MAX_K, description="How many items to return (1 to 50).")
    hops: int = Field(2, ge=0, le=MAX_HOPS, description="Graph steps from the seeds (0 to 3).")


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
    k: int = Field(8, ge=1, le=MAX_K)
    hops: int = Field(2, ge=0, le=MAX_HOPS)


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
        max_length=64,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$",
        description="Also compare every quote with the bytes stored in this scope (needs read).",
    )


class CheckResponse(BaseModel):
    ok: Literal[True] = True
    valid: bool = Field(description="True when every citation holds.")
    disposition: str
    citations: int
    problems: list[str]
    checked_against_store: bool


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
