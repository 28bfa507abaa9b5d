"""What an extractor proposes for one chunk, and what grounding kept and dropped. Nothing
proposed is stored before it is located in the chunk's stored bytes."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


@dataclass(frozen=True)
class EntityProposal:
    name: str
    type: str


# The most of a model's own words about a relation kept and shown (never cited).
MAX_DESCRIPTION_CHARS = 300


def model_words(said: object) -> str | None:
    """A model's description of a relation as stored and shown: one line, at most
    MAX_DESCRIPTION_CHARS characters; None when there is none (or it is not text)."""
    if not isinstance(said, str) or not said.strip():
        return None
    folded = " ".join(said.split())
    if len(folded) > MAX_DESCRIPTION_CHARS:
        folded = folded[: MAX_DESCRIPTION_CHARS - 1].rstrip() + "…"
    return folded


@dataclass(frozen=True)
class RelationProposal:
    """`quote`: the words of the chunk that state the relation. Offsets are never taken from
    an extractor: the quote is located in the stored bytes. `description`: a model's own words
    about the relation, where it gave some; stored as its words, never cited. `source_at` and
    `target_at`: where in `quote` (characters) the extractor read each end, when the quote
    names one twice ("X names Y, but X does not use Y"); grounding takes such a place only
    where the located quote holds exactly that name there, and otherwise the first."""

    source: str
    target: str
    type: str
    quote: str
    description: str | None = None
    source_at: int | None = None
    target_at: int | None = None


@dataclass(frozen=True)
class Proposal:
    entities: tuple[EntityProposal, ...] = ()
    relations: tuple[RelationProposal, ...] = ()
    # What proposing cost: chat calls and tokens (None where the model did not say).
    calls: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None
    unreadable: bool = False  # the model's reply was not the JSON asked for
    # Gleaning rounds whose reply was not the JSON asked for: they added nothing (extract/llm.py).
    unreadable_gleanings: int = 0


def merged(first: Proposal, more: Proposal) -> Proposal:
    """`first` with what a gleaning round proposed added (its cost too). An unreadable round
    adds nothing but its count (grounding drops it as unreadable-reply); `first` stands."""

    def total(a: int | None, b: int | None) -> int | None:
        return None if a is None and b is None else (a or 0) + (b or 0)

    return Proposal(
        first.entities + (() if more.unreadable else more.entities),
        first.relations + (() if more.unreadable else more.relations),
        calls=first.calls + more.calls,
        input_tokens=total(first.input_tokens, more.input_tokens),
        output_tokens=total(first.output_tokens, more.output_tokens),
        unreadable=first.unreadable,
        unreadable_gleanings=first.unreadable_gleanings
        + more.unreadable_gleanings
        + int(more.unreadable),
    )


class DropReason(StrEnum):
    NOT_IN_SOURCE = "not-in-source"  # the name or quote is not in the chunk's stored text
    CROSS_CHUNK = "cross-chunk"  # the quote is in another chunk of the document, not this one
    ENDS_NOT_IN_QUOTE = "ends-not-in-quote"  # the quote does not name both ends
    TOO_LONG = "too-long"  # the quote is longer than a relation's evidence may be
    UNREADABLE_REPLY = "unreadable-reply"  # the model's reply was not the JSON asked for


@dataclass
class ExtractionReport:
    """Per document: what extraction cost, kept and dropped (by reason)."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached: int = 0  # calls answered from the extraction cache (not made)
    mentions: int = 0
    relations: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    # Why a configuration document's settings were not read (not valid YAML, too large):
    # its relations are missing, which an ingest says in the document's warnings.
    unread: str | None = None

    def drop(self, reason: DropReason, count: int = 1) -> None:
        self.dropped[reason.value] = self.dropped.get(reason.value, 0) + count


@dataclass(frozen=True)
class ExtractionEstimate:
    """What extracting some documents would spend, counted before anything is spent: one
    model call per chunk whose reply is not cached, with its prompt's tokens."""

    extractor: str
    documents: int
    chunks: int
    cached: int  # calls whose reply is in the cache, so not made
    calls: int
    prompt_tokens: int


@dataclass(frozen=True)
class ExtractionRun:
    """What `scope.extract()` did: documents extracted, what it cost, kept and dropped, and
    why it stopped early, if it did (`left` documents are then still to extract)."""

    extractor: str
    documents: int
    left: int
    calls: int
    input_tokens: int
    output_tokens: int
    cached: int
    mentions: int
    relations: int
    dropped: dict[str, int]
    stopped: str | None = None
    # Documents another process was extracting: left to it (among `left`).
    busy: int = 0
    # (document name, why): configuration whose settings were not read (ExtractionReport).
    unread: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ExtractionCoverage:
    """How much of a scope's text its entities and relations come from: a listing of them
    says when documents are not extracted yet, rather than look complete (extraction off,
    run after ingest with `extract`, or cut short)."""

    documents: int
    not_extracted: int
    extracting_now: int = 0  # of those not extracted, the ones a running extraction holds

    @property
    def complete(self) -> bool:
        return self.not_extracted == 0

    def note(self, scope: str) -> str | None:
        """What a listing says while documents are not extracted; None when all are."""
        if self.complete:
            return None
        now = f", {self.extracting_now} being extracted now" if self.extracting_now else ""
        return (
            f"{self.not_extracted} of {self.documents} document(s) not extracted yet{now}: "
            f"entities and relations from them are missing (`citegraph extract --scope "
            f"{scope}` extracts them)"
        )
