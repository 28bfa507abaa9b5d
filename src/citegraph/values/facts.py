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
    aliases: tuple[str, ...]
    mentions: int
