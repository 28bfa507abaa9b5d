"""Answer, its claims and citations, refusal reasons, and the receipt."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .documents import Citation
from .evidence import Evidence


@dataclass(frozen=True)
class Turn:
    question: str
    answer: str


class RewriteOutcome(StrEnum):
    REWRITTEN = "rewritten"
    UNCHANGED = "unchanged"
    UNREADABLE = "unreadable"  # the model's reply was not {"question": ...}: asked as is
    UNRESOLVED = "unresolved"  # offline: a pronoun had nothing it surely means: asked as is


@dataclass(frozen=True)
class Rewrite:
    original: str
    question: str
    outcome: RewriteOutcome
    turns_used: int
    turns_dropped: int


class Disposition(StrEnum):
    ANSWERED = "answered"
    REFUSED = "refused"


class RefusalReason(StrEnum):
    NO_EVIDENCE = "no-evidence"  # retrieval found nothing to cite; no chat call made
    MODEL_DECLINED = "model-declined"  # the model said the evidence does not answer it
    UNREADABLE_RESPONSE = "unreadable-response"  # not the JSON asked for
    NO_CITATIONS = "no-citations"  # the answer, or one claim, cites nothing
    CITATION_NOT_FOUND = "citation-not-found"  # a quote is not in the item it names


class Wording(StrEnum):
    """Whose words a claim's text is. `quoted`: its quotes, joined (what the offline answerer
    writes; `check` proves it). `model`: a model's own words, tied to the citations it lists
    (the citations are proven; the paraphrase cannot be)."""

    QUOTED = "quoted"
    MODEL = "model"


def flat(text: str) -> str:
    """Text with each run of whitespace made one space: how claims are joined and compared."""
    return " ".join(text.split())


def wording_of(text: str, citations: tuple[Citation, ...]) -> Wording:
    quoted = flat(" ".join(c.quote for c in citations))
    return Wording.QUOTED if flat(text) == quoted else Wording.MODEL


def answer_text(claims: tuple[Claim, ...]) -> str:
    """An answer's text is its claims' texts, in order: nothing a reader reads is uncited."""
    return " ".join(flat(claim.text) for claim in claims)


@dataclass(frozen=True)
class Claim:
    text: str
    citations: tuple[Citation, ...]
    evidence_ids: tuple[str, ...]
    wording: Wording = Wording.MODEL


@dataclass(frozen=True)
class Receipt:
    answerer: str
    chat_calls: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None
    retrieval_ms: float = 0.0
    answer_ms: float = 0.0


@dataclass(frozen=True)
class Answer:
    """`answered`: text and claims with verified citations. `refused`: a reason, no text."""

    question: str
    disposition: Disposition
    evidence: Evidence
    receipt: Receipt
    text: str | None = None
    claims: tuple[Claim, ...] = ()
    reason: RefusalReason | None = None
    detail: str = ""
    problems: tuple[str, ...] = field(default=())
    rewrite: Rewrite | None = None

    @property
    def citations(self) -> tuple[Citation, ...]:
        return tuple(c for claim in self.claims for c in claim.citations)

    @property
    def limits_reached(self) -> tuple[str, ...]:
        dropped = self.rewrite is not None and self.rewrite.turns_dropped > 0
        return (*self.evidence.limits_reached, *(("history",) if dropped else ()))
