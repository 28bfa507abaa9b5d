"""The JSON shapes of graded walks: `citegraph-impact/1` and `citegraph-paths/1`, sent by
`citegraph impact/paths --json`, `POST /v1/impact`, `POST /v1/paths` and the MCP tools
`graph_impact` and `graph_paths`."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..values.documents import Citation
from ..values.paths import (
    Affected,
    EntityRef,
    GradedPath,
    Hop,
    Identity,
    ImpactResult,
    PathsResult,
    Unresolved,
    WalkPolicy,
)
from .knowledge_shapes import ExtractionCoverageOut, coverage_shape
from .shapes import TextOriginOut, Wire

GradeName = Literal["supported", "inferred", "insufficient"]
StatusName = Literal["ok", "ambiguous", "unknown"]
_COVERAGE = "Documents not extracted yet, whose relations the walk could not follow."


class EntityRefOut(Wire):
    key: str = Field(description="type:name; pass it to pick this entity of an ambiguous name.")
    name: str
    type: str


class HopEvidenceOut(Wire):
    document_id: str
    document_name: str | None
    chunk_id: str
    start_byte: int
    end_byte: int
    quote: str = Field(description="The stored bytes at the span, read back when graded.")
    page: int | None
    end_page: int | None
    text_origin: TextOriginOut | None


class HopOut(Wire):
    start: EntityRefOut = Field(description="Where this step of the walk starts.")
    end: EntityRefOut
    subject: str = Field(description="The relation as its sentence states it: subject ...")
    relation: str = Field(description="... relation (co-mentioned: a shared sentence only) ...")
    object: str = Field(description="... object.")
    grade: GradeName
    reason: str | None = Field(description="Why it is not supported; null when it is.")
    evidence: HopEvidenceOut | None = Field(description="Null: no passage says it (see reason).")
    polarity: str | None
    modality: str | None


class GradedPathOut(Wire):
    grade: GradeName = Field(description="Its weakest hop's grade.")
    hops: list[HopOut]


class AffectedOut(Wire):
    entity: EntityRefOut
    hops: int = Field(
        description="Hops on its best path, not counting a hop to another name of one thing."
    )
    grade: GradeName = Field(description="Its best path's grade.")
    paths: list[GradedPathOut] = Field(description="Its best paths, best first.")


class IdentityOut(Wire):
    key: str
    name: str
    type: str
    mentions: int
    documents: list[str] = Field(description="Documents that mention it (at most 20).")


class UnresolvedOut(Wire):
    name: str
    candidates: list[IdentityOut] = Field(description="Ambiguous: every entity it may mean.")
    suggestions: list[str] = Field(description="Unknown: stored names spelled close to it.")


class FollowOut(Wire):
    type: str
    orientation: Literal["forward", "reverse", "both"]


class PolicyOut(Wire):
    name: str
    follow: list[FollowOut]
    co_mentions: bool
    aliases: bool = Field(description="Names a source says are one thing are walked as one.")
    min_grade: GradeName
    default: bool = Field(description="False: evaluation mode, results not under the default.")


class ImpactOut(Wire):
    format: Literal["citegraph-impact/1"] = "citegraph-impact/1"
    status: StatusName = Field(description="Read first: ambiguous and unknown walk nothing.")
    asked: str
    entity: EntityRefOut | None
    direction: Literal["dependents", "dependencies"]
    max_hops: int
    policy: PolicyOut
    evaluation_mode: bool
    affected: list[AffectedOut] = Field(description="By grade, then hops, then name.")
    found: int = Field(description="Entities reached before any cut ('showing N of found').")
    truncated: bool
    limits: list[str] = Field(description="Which bounds cut the walk, when one did.")
    unresolved: UnresolvedOut | None
    extraction: ExtractionCoverageOut | None = Field(default=None, description=_COVERAGE)


class PathsOut(Wire):
    format: Literal["citegraph-paths/1"] = "citegraph-paths/1"
    status: StatusName
    asked: list[str]
    source: EntityRefOut | None
    target: EntityRefOut | None
    max_hops: int
    policy: PolicyOut
    evaluation_mode: bool
    paths: list[GradedPathOut] = Field(
        description="Best first; empty: not connected within max_hops."
    )
    truncated: bool
    limits: list[str]
    unresolved: list[UnresolvedOut]
    extraction: ExtractionCoverageOut | None = Field(default=None, description=_COVERAGE)


def _ref(ref: EntityRef | None) -> EntityRefOut | None:
    return EntityRefOut(key=ref.key, name=ref.name, type=ref.type) if ref else None


def evidence_out(e: Citation, document_name: str | None) -> HopEvidenceOut:
    """A verified citation with its document's name (a hop's evidence, a graph row's)."""
    origin = e.text_origin
    return HopEvidenceOut(
        document_id=e.document_id, document_name=document_name, chunk_id=e.chunk_id,
        start_byte=e.start_byte, end_byte=e.end_byte, quote=e.quote, page=e.page,
        end_page=e.end_page,
        text_origin=TextOriginOut(kind=origin.kind, source=origin.source, method=origin.method)
        if origin else None,
    )  # fmt: skip


def _hop(hop: Hop) -> HopOut:
    e = hop.evidence
    evidence = evidence_out(e, hop.document_name) if e is not None else None
    return HopOut(
        start=EntityRefOut(key=hop.start.key, name=hop.start.name, type=hop.start.type),
        end=EntityRefOut(key=hop.end.key, name=hop.end.name, type=hop.end.type),
        subject=hop.subject, relation=hop.relation, object=hop.object, grade=hop.grade.value,
        reason=hop.reason, evidence=evidence, polarity=hop.polarity, modality=hop.modality,
    )  # fmt: skip


def _path(path: GradedPath) -> GradedPathOut:
    return GradedPathOut(grade=path.grade.value, hops=[_hop(h) for h in path.hops])


def _affected(a: Affected) -> AffectedOut:
    entity = EntityRefOut(key=a.entity.key, name=a.entity.name, type=a.entity.type)
    return AffectedOut(
        entity=entity, hops=a.hops, grade=a.grade.value, paths=[_path(p) for p in a.paths]
    )


def _identity(i: Identity) -> IdentityOut:
    return IdentityOut(
        key=i.key, name=i.name, type=i.type, mentions=i.mentions, documents=list(i.documents)
    )


def _unresolved(u: Unresolved) -> UnresolvedOut:
    return UnresolvedOut(
        name=u.name,
        candidates=[_identity(c) for c in u.candidates],
        suggestions=list(u.suggestions),
    )


def policy_shape(policy: WalkPolicy) -> PolicyOut:
    return PolicyOut(
        name=policy.name,
        follow=[FollowOut(type=t, orientation=o) for t, o in policy.follow],
        co_mentions=policy.co_mentions,
        aliases=policy.aliases,
        min_grade=policy.min_grade.value,
        default=policy.is_default,
    )


def impact_shape(result: ImpactResult, scope: str = "default") -> ImpactOut:
    return ImpactOut(
        status=result.status, asked=result.asked, entity=_ref(result.entity),
        direction=result.direction.value, max_hops=result.max_hops,
        policy=policy_shape(result.policy), evaluation_mode=result.evaluation_mode,
        affected=[_affected(a) for a in result.affected], found=result.found,
        truncated=result.truncated, limits=list(result.limits),
        unresolved=_unresolved(result.unresolved) if result.unresolved else None,
        extraction=coverage_shape(result.extraction, scope),
    )  # fmt: skip


def paths_shape(result: PathsResult, scope: str = "default") -> PathsOut:
    return PathsOut(
        status=result.status, asked=list(result.asked), source=_ref(result.source),
        target=_ref(result.target), max_hops=result.max_hops,
        policy=policy_shape(result.policy), evaluation_mode=result.evaluation_mode,
        paths=[_path(p) for p in result.paths], truncated=result.truncated,
        limits=list(result.limits), unresolved=[_unresolved(u) for u in result.unresolved],
        extraction=coverage_shape(result.extraction, scope),
    )  # fmt: skip
