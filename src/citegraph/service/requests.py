"""What callers send: the HTTP request bodies and the MCP tools' arguments, with the limits of
limits.py, and their conversion to the core's values."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..limits import (
    DEFAULT_HOPS,
    DEFAULT_K,
    DEFAULT_WALK_HOPS,
    MAX_HOPS,
    MAX_ITEMS,
    MAX_K,
    MAX_NAME,
    MAX_SCOPE_NAME,
    MAX_WALK_HOPS,
    SCOPE_NAME_PATTERN,
    check_history,
)
from ..values.answers import Turn
from ..values.facts import EntityFact, Facts, Passage, RelationFact
from ..values.paths import Grade, WalkPolicy

ScopeName = Field(
    min_length=1,
    max_length=MAX_SCOPE_NAME,
    pattern=f"^{SCOPE_NAME_PATTERN}$",
    description=(
        f"Scope: 1 to {MAX_SCOPE_NAME} characters from A-Z a-z 0-9 _ -, starting with a letter "
        "or digit."
    ),
)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


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


class ContextRequest(Strict):
    scope: str = ScopeName
    question: str = Field(min_length=1, description="A standalone question in plain words.")
    k: int = Field(
        DEFAULT_K, ge=1, le=MAX_K, description=f"How many items to return (1 to {MAX_K})."
    )
    hops: int = Field(
        DEFAULT_HOPS,
        ge=0,
        le=MAX_HOPS,
        description=f"Graph steps from the seeds (0 to {MAX_HOPS}).",
    )


class TurnIn(Strict):
    question: str = Field(min_length=1)
    answer: str = ""


class AnswerRequest(Strict):
    scope: str = ScopeName
    question: str = Field(min_length=1)
    history: list[TurnIn] = Field(
        default_factory=list, max_length=50, description="Earlier turns, oldest first."
    )
    k: int = Field(DEFAULT_K, ge=1, le=MAX_K)
    hops: int = Field(DEFAULT_HOPS, ge=0, le=MAX_HOPS)


class CheckRequest(Strict):
    answer: dict[str, Any] = Field(description="A citegraph-answer/1 document.")
    scope: str | None = Field(
        None,
        min_length=1,
        max_length=MAX_SCOPE_NAME,
        pattern=f"^{SCOPE_NAME_PATTERN}$",
        description="Also compare every quote with the bytes stored in this scope (needs read).",
    )


def facts_from(entities: list[EntityIn], relations: list[RelationIn]) -> Facts:
    return Facts(
        tuple(EntityFact(e.name, e.type) for e in entities),
        tuple(RelationFact(r.source, r.target, r.type) for r in relations),
    )


def passages_from(passages: list[PassageIn]) -> list[Passage]:
    return [Passage(p.text, tuple(p.mentions)) for p in passages]


def turns_from(turns: list[TurnIn], limit: int) -> list[Turn]:
    """Earlier turns, each within the question limit (an answer within four times it)."""
    pairs = [(t.question, t.answer) for t in turns]
    check_history(pairs, limit)
    return [Turn(q, a) for q, a in pairs]


# -- graded walks (impact, paths) --------------------------------------------------------------


class FollowIn(Strict):
    type: str = Field(min_length=1, max_length=MAX_NAME, description="A relation type.")
    orientation: Literal["forward", "reverse", "both"] = Field(
        "forward",
        description="forward: the relation's source depends on its target (A calls B); "
        "reverse: its target depends on its source; both.",
    )


class PolicyIn(Strict):
    """A traversal policy other than the default: its results are marked evaluation mode."""

    follow: list[FollowIn] = Field(min_length=1, max_length=50)
    co_mentions: bool = Field(False, description="Also walk links by a shared sentence only.")
    aliases: bool = Field(
        True, description="Walk names a source says are one thing (alias-of) as one."
    )
    min_grade: Literal["supported", "inferred", "insufficient"] = Field(
        "inferred", description="Hops graded below this are shown, not walked through."
    )
    name: str = Field("custom", min_length=1, max_length=MAX_NAME)


WalkHops = Field(
    DEFAULT_WALK_HOPS,
    ge=1,
    le=MAX_WALK_HOPS,
    description=f"Hops from the entity (1 to {MAX_WALK_HOPS}).",
)


class ImpactRequest(Strict):
    scope: str = ScopeName
    entity: str = Field(
        min_length=1,
        max_length=MAX_NAME,
        description="A name, or an entity key (type:name) to pick one of an ambiguous name.",
    )
    direction: Literal["dependents", "dependencies"] = Field(
        "dependents",
        description="dependents: who is affected if it changes; dependencies: what it needs.",
    )
    max_hops: int = WalkHops
    policy: PolicyIn | None = None


class VerdictIn(Strict):
    relation: str = Field(min_length=1, max_length=4 * MAX_NAME, description="An id from a sample.")
    verdict: Literal["right", "wrong"]


class AuditVerdictsRequest(Strict):
    scope: str = ScopeName
    verdicts: list[VerdictIn] = Field(min_length=1, max_length=MAX_ITEMS)


class GraphQueryRequest(Strict):
    scope: str = ScopeName
    question: str = Field(
        min_length=1, description="A question about the graph itself: counts, lists, links."
    )


class PathsRequest(Strict):
    scope: str = ScopeName
    source: str = Field(min_length=1, max_length=MAX_NAME)
    target: str = Field(min_length=1, max_length=MAX_NAME)
    max_hops: int = WalkHops
    policy: PolicyIn | None = None


def policy_from(policy: PolicyIn | None) -> WalkPolicy | None:
    if policy is None:
        return None
    return WalkPolicy(
        follow=tuple((f.type, f.orientation) for f in policy.follow),
        co_mentions=policy.co_mentions,
        aliases=policy.aliases,
        min_grade=Grade(policy.min_grade),
        name=policy.name,
    )
