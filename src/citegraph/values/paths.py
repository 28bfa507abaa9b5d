"""Graded paths through the graph, impact analysis, and the traversal policy behind them.

A hop is as good as the sentence behind it: `supported` when a located quote asserts it,
`inferred` when the graph links the two entities but no sentence states the relation,
`insufficient` when the only sentence says it is not so (negated), might be (hypothetical) or
will be (planned), or when an end cannot be bound to one entity. A path is as good as its
weakest hop.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from .documents import Citation
from .proposals import ExtractionCoverage


class Grade(StrEnum):
    SUPPORTED = "supported"
    INFERRED = "inferred"
    INSUFFICIENT = "insufficient"

    @property
    def rank(self) -> int:
        """0 for the best grade; sorting by rank puts the best first."""
        return _RANKS[self]

    def at_least(self, other: Grade) -> bool:
        return self.rank <= other.rank


_RANKS = {Grade.SUPPORTED: 0, Grade.INFERRED: 1, Grade.INSUFFICIENT: 2}


def weakest(grades: tuple[Grade, ...] | list[Grade]) -> Grade:
    return max(grades, key=lambda g: g.rank, default=Grade.SUPPORTED)


# A relation saying its source is another name of its target (an acronym's definition, a
# remembered fact): walked as one thing, so a hop of it is no step away.
ALIAS_OF = "alias-of"


class Direction(StrEnum):
    DEPENDENTS = "dependents"  # who is affected if X changes: those that depend on X
    DEPENDENCIES = "dependencies"  # what X depends on


# How a relation type reads as a dependency: `forward`, its source depends on its target
# ("A calls B": A depends on B); `reverse`, its target depends on its source; `both`.
Orientation = Literal["forward", "reverse", "both"]

ENGINEERING_TYPES: tuple[tuple[str, Orientation], ...] = (
    ("calls", "forward"),
    ("depends-on", "forward"),
    ("uses", "forward"),
    ("reads", "forward"),
    ("writes", "forward"),
    ("sends-to", "forward"),
)


@dataclass(frozen=True)
class WalkPolicy:
    """The traversal policy of graded walks (impact and paths): which relations are followed,
    in which direction, and from which grade up a walk goes on. (Evidence retrieval walks
    under its own `TraversalPolicy`, which has no grades.)

    `follow`: relation types and how each reads as a dependency. `co_mentions`: also walk
    links that exist only because two names share a sentence (always graded `inferred`).
    `min_grade`: a hop graded below it is shown, but the walk does not go on through it.
    `aliases`: walk names a source says are another name of one thing (`alias-of`) as that
    thing, each by a hop graded against the sentence that says so.
    Every result carries the policy it was computed under; one that is not the default is
    marked as evaluation mode.
    """

    follow: tuple[tuple[str, Orientation], ...] = ENGINEERING_TYPES
    co_mentions: bool = False
    min_grade: Grade = Grade.INFERRED
    name: str = "engineering-default"
    aliases: bool = True

    def orientation(self, relation_type: str) -> Orientation | None:
        for kind, orientation in self.follow:
            if kind == relation_type:
                return orientation
        return None

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(kind for kind, _ in self.follow)

    @property
    def is_default(self) -> bool:
        return self == DEFAULT_WALK_POLICY


DEFAULT_WALK_POLICY = WalkPolicy()


@dataclass(frozen=True)
class EntityRef:
    """One entity of the graph: its key (`type:name`, the id a caller picks it by)."""

    key: str
    name: str
    type: str


@dataclass(frozen=True)
class Identity:
    """One entity a name may mean, shown side by side with the others when it is ambiguous."""

    key: str
    name: str
    type: str
    mentions: int
    documents: tuple[str, ...]  # names of the documents that mention it (at most 20)


@dataclass(frozen=True)
class Hop:
    """One step of a walk, from `start` to `end`, with the relation as its sentence states it
    (`subject` `relation` `object`), its grade, and its evidence or the reason it has none."""

    start: EntityRef
    end: EntityRef
    subject: str
    relation: str
    object: str
    grade: Grade
    reason: str | None
    evidence: Citation | None
    document_name: str | None = None
    polarity: str | None = None
    modality: str | None = None


@dataclass(frozen=True)
class GradedPath:
    hops: tuple[Hop, ...]

    @property
    def grade(self) -> Grade:
        return weakest([h.grade for h in self.hops])

    @property
    def entities(self) -> tuple[EntityRef, ...]:
        return (self.hops[0].start, *(h.end for h in self.hops)) if self.hops else ()

    @property
    def steps(self) -> int:
        """Its hops, not counting those from a name to another name of the same thing (an
        alias hop below the default walk's grade, not established, counts)."""
        return self.steps_at(Grade.INFERRED)

    def steps_at(self, min_grade: Grade) -> int:
        """Its hops, not counting alias hops a walk with `min_grade` goes through."""
        return sum(not (h.relation == ALIAS_OF and h.grade.at_least(min_grade)) for h in self.hops)


@dataclass(frozen=True)
class Affected:
    """An entity reached by the walk: its distance in hops (a hop to another name of the same
    thing not counted) and its best paths."""

    entity: EntityRef
    hops: int
    grade: Grade
    paths: tuple[GradedPath, ...]


Status = Literal["ok", "ambiguous", "unknown"]


@dataclass(frozen=True)
class Unresolved:
    """Why a walk did not start: the name means several entities (`candidates`, pick one by
    its key), or none (`suggestions`: stored names spelled close to it)."""

    name: str
    candidates: tuple[Identity, ...] = ()
    suggestions: tuple[str, ...] = ()


@dataclass(frozen=True)
class ImpactResult:
    status: Status
    asked: str
    entity: EntityRef | None
    direction: Direction
    max_hops: int
    policy: WalkPolicy
    affected: tuple[Affected, ...] = ()
    found: int = 0  # entities reached before any cut; more than len(affected) when truncated
    truncated: bool = False
    limits: tuple[str, ...] = ()  # which bounds cut the walk
    unresolved: Unresolved | None = None
    # Documents not extracted yet: what they say is not walked (None: not counted).
    extraction: ExtractionCoverage | None = None

    @property
    def evaluation_mode(self) -> bool:
        return not self.policy.is_default


@dataclass(frozen=True)
class PathsResult:
    status: Status
    asked: tuple[str, str]
    source: EntityRef | None
    target: EntityRef | None
    max_hops: int
    policy: WalkPolicy
    paths: tuple[GradedPath, ...] = ()
    truncated: bool = False
    limits: tuple[str, ...] = ()
    unresolved: tuple[Unresolved, ...] = field(default=())
    extraction: ExtractionCoverage | None = None  # as ImpactResult's

    @property
    def evaluation_mode(self) -> bool:
        return not self.policy.is_default
