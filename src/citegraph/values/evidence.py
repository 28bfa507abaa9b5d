"""The value types `context` returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .documents import TextOrigin


class VerdictState(StrEnum):
    GROUNDED = "grounded"  # every content word covered, and something citable came back
    RELATED = "related"  # some content words are covered by nothing that came back
    UNCITED = "uncited"  # something matched, but nothing it can cite
    NOTHING_STORED = "nothing_stored"  # nothing in this scope matches
    COULD_NOT_JUDGE = "could_not_judge"  # a stage could not run (named in `stage`)


@dataclass(frozen=True)
class Verdict:
    state: VerdictState
    uncovered: tuple[str, ...] = ()
    matched_names: tuple[str, ...] = ()
    stage: str | None = None
    detail: str = ""
    # Question words taken as a close spelling of a stored word: (as asked, as stored).
    respelled: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class TraversalPolicy:
    """Which relations a walk may follow, and how wide it may fan out from one entity."""

    relation_types: frozenset[str] | None = None  # None: every type
    include_weak: bool = True  # co-mention links
    fanout: int = 25


@dataclass(frozen=True)
class EvidenceItem:
    """A passage that may be cited (`citable`), or one shown only to help reading."""

    id: str
    document_id: str
    document_name: str
    chunk_id: str
    start_byte: int
    end_byte: int
    text: str
    score: float
    retrievers: tuple[str, ...]
    page: int | None = None
    end_page: int | None = None
    text_origin: TextOrigin | None = None
    citable: bool = True


@dataclass(frozen=True)
class Evidence:
    question: str
    items: tuple[EvidenceItem, ...]
    context: tuple[EvidenceItem, ...]
    verdict: Verdict
    content_words: tuple[str, ...]
    seeds: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
    policy: TraversalPolicy = field(default_factory=TraversalPolicy)
    omitted_items: int = 0
    limits_reached: tuple[str, ...] = ()
    # How telling each question word is in the whole scope (stem, inverse document frequency
    # over its chunks); the offline answerer weighs terms by it. Not part of the JSON.
    term_weights: tuple[tuple[str, float], ...] = ()
