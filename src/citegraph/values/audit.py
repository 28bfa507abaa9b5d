"""The edge audit: a person's verdict on whether a stated relation binds the right entities
to its quote, and the error rate measured from those verdicts."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class EdgeVerdict(StrEnum):
    RIGHT = "right"  # the quote states this relation between these two entities
    WRONG = "wrong"  # it does not: a wrong end, a wrong type, a misread sentence


@dataclass(frozen=True)
class AuditedRelation:
    """A stated relation offered for a verdict. `id` names it when the verdict is sent."""

    id: str
    source_key: str
    source: str
    source_type: str
    target_key: str
    target: str
    target_type: str
    type: str
    polarity: str | None
    modality: str | None
    quote: str
    document_id: str
    chunk_id: str | None
    start_byte: int
    end_byte: int


@dataclass(frozen=True)
class AuditSummary:
    """What the verdicts so far measure: of `audited` stated relations, `wrong` were wrong.
    `stated`: the relations that could be audited (located at a quote)."""

    stated: int
    audited: int
    wrong: int

    @property
    def error_rate(self) -> float | None:
        return self.wrong / self.audited if self.audited else None
