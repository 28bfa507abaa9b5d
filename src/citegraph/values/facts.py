"""Facts a caller already knows, the passages that say them, and what remembering stored."""

from __future__ import annotations

from dataclasses import dataclass, field

from .documents import Document


@dataclass(frozen=True)
class EntityFact:
    name: str
    type: str


@dataclass(frozen=True)
class RelationFact:
    source: str
    target: str
    type: str


@dataclass(frozen=True)
class Facts:
    entities: tuple[EntityFact, ...] = ()
    relations: tuple[RelationFact, ...] = ()


@dataclass(frozen=True)
class Passage:
    text: str
    mentions: tuple[str, ...] = ()


@dataclass(frozen=True)
class RememberResult:
    """What was stored, and what could not be located (and so was not stored as grounded)."""

    documents: tuple[Document, ...]
    entities: int
    mentions_located: int
    relations_grounded: int
    relations_asserted: tuple[RelationFact, ...]
    unlocated: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class EntityIdentity:
    """One entity a name can mean: the same name with another type is another identity,
    never merged on spelling alone."""

    key: str
    name: str
    type: str
    # Its own spellings, then the names a source says it is also called (an acronym's
    # definition, a remembered `alias-of` fact), each the name of another entity.
    aliases: tuple[str, ...]
    mentions: int


@dataclass(frozen=True)
class StoredRelation:
    """A relation as the graph holds it, with the quote it was located at (when citable)."""

    source: str  # the source entity's name
    source_type: str
    target: str
    target_type: str
    type: str
    polarity: str | None  # affirmed or negated (None: not assessed, e.g. a co-mention)
    modality: str | None  # actual, hypothetical or planned
    weak: bool  # a co-mention: named in one sentence, no stated relation
    citable: bool
    quote: str | None
    document_id: str | None
    chunk_id: str | None
    start_byte: int | None
    end_byte: int | None
    origin: str  # extracted, remembered, ...
    document: str | None = None  # the document's name
    page: int | None = None  # a PDF's 1-based page where the quote starts (None: no pages)
    end_page: int | None = None  # and where it ends
    # A model's own words about the relation, where an LLM extractor gave some: never a
    # citation (the quote is the evidence).
    description: str | None = None
