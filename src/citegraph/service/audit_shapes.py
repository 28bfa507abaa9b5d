"""The JSON shapes of the edge audit: `citegraph-audit-sample/1` and `citegraph-audit/1`,
sent by `GET /v1/audit/sample`, `POST /v1/audit/verdicts` and `GET /v1/audit/summary`."""

from __future__ import annotations

from dataclasses import asdict
from typing import Literal

from pydantic import Field

from ..values.audit import AuditedRelation, AuditSummary
from .shapes import Wire


class AuditedRelationOut(Wire):
    id: str = Field(description="Send it back with the verdict.")
    source_key: str
    source: str
    source_type: str
    target_key: str
    target: str
    target_type: str
    type: str
    polarity: str | None
    modality: str | None
    quote: str = Field(description="The stored bytes the relation was located at.")
    document_id: str
    chunk_id: str | None
    start_byte: int
    end_byte: int


class AuditSampleOut(Wire):
    format: Literal["citegraph-audit-sample/1"] = "citegraph-audit-sample/1"
    relations: list[AuditedRelationOut] = Field(
        description="Stated relations nobody has judged yet, at random."
    )


class AuditSummaryOut(Wire):
    format: Literal["citegraph-audit/1"] = "citegraph-audit/1"
    stated: int = Field(description="Stated relations located at a quote: what can be judged.")
    audited: int
    wrong: int
    error_rate: float | None = Field(description="wrong / audited; null before any verdict.")
    marked: int | None = Field(None, description="After verdicts: how many relations were found.")


def sample_shape(relations: list[AuditedRelation]) -> AuditSampleOut:
    return AuditSampleOut(relations=[AuditedRelationOut(**asdict(r)) for r in relations])


def summary_shape(summary: AuditSummary, marked: int | None = None) -> AuditSummaryOut:
    return AuditSummaryOut(
        stated=summary.stated, audited=summary.audited, wrong=summary.wrong,
        error_rate=summary.error_rate, marked=marked,
    )  # fmt: skip
