"""The HTTP envelopes: each reply is its value's one shape (service/shapes.py) with `ok`."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...service.adopt_shapes import CommunityReportsOut
from ...service.audit_shapes import AuditSampleOut, AuditSummaryOut
from ...service.graph_query_shapes import GraphQueryOut
from ...service.knowledge_shapes import EntitiesOut, RelationsOut
from ...service.shapes import (
    AnswerOut,
    CheckOut,
    ChunkOut,
    DocumentOut,
    EvidenceOut,
    IndexesOut,
    IngestedOut,
    RememberOut,
    Wire,
)
from ...service.walk_shapes import ImpactOut, PathsOut


class ContextResponse(EvidenceOut):
    ok: Literal[True] = True


class RememberResponse(RememberOut):
    ok: Literal[True] = True


class CheckResponse(CheckOut):
    ok: Literal[True] = True


class AnswerResponse(Wire):
    ok: Literal[True] = True
    answer: AnswerOut = Field(
        description="Answered with verified citations, or refused with a reason: the same "
        "citegraph-answer/1 document `citegraph ask --export` writes."
    )


class IngestResponse(Wire):
    ok: Literal[True] = True
    results: list[IngestedOut]


class DocumentsResponse(Wire):
    ok: Literal[True] = True
    documents: list[DocumentOut]


class ChunksResponse(Wire):
    ok: Literal[True] = True
    document: DocumentOut
    chunks: list[ChunkOut] = Field(description="In order; only the one asked for with `chunk`.")


class DeletedResponse(Wire):
    ok: Literal[True] = True
    deleted: DocumentOut


class IndexesResponse(IndexesOut):
    ok: Literal[True] = True


class EntitiesResponse(EntitiesOut):
    ok: Literal[True] = True


class RelationsResponse(RelationsOut):
    ok: Literal[True] = True


class CommunityReportsResponse(CommunityReportsOut):
    ok: Literal[True] = True


class AuditSampleResponse(AuditSampleOut):
    ok: Literal[True] = True


class AuditSummaryResponse(AuditSummaryOut):
    ok: Literal[True] = True


class GraphQueryResponse(GraphQueryOut):
    ok: Literal[True] = True


class ImpactResponse(ImpactOut):
    ok: Literal[True] = True


class PathsResponse(PathsOut):
    ok: Literal[True] = True
