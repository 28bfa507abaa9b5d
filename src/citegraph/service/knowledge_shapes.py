"""The JSON shapes of what a scope knows beyond its passages: `citegraph-relations/1` and
`citegraph-entities/1` (sent by `citegraph relations/entities --json`, `GET /v1/memory/relations`
and `/entities`, and the MCP tools `relations` and `entities`), and how much of the scope is
extracted (`extraction`, in those and in the walks' shapes)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Literal

from pydantic import Field

from ..limits import RELATIONS_LIMIT
from ..values.facts import EntityIdentity, StoredRelation
from ..values.proposals import ExtractionCoverage
from .shapes import Wire


class StoredRelationOut(Wire):
    source: str
    source_type: str
    target: str
    target_type: str
    type: str
    polarity: Literal["affirmed", "negated"] | None = Field(
        description="From cues in the quote; null where not assessed (a co-mention)."
    )
    modality: Literal["actual", "hypothetical", "planned"] | None
    weak: bool = Field(description="A co-mention: named in one sentence, no stated relation.")
    citable: bool
    quote: str | None = Field(description="The stored bytes the relation was located at.")
    document_id: str | None
    chunk_id: str | None
    start_byte: int | None
    end_byte: int | None
    origin: str = Field(description="How it came: extracted, or remembered from a caller.")
    document: str | None = Field(default=None, description="The document's name.")
    page: int | None = Field(
        default=None, description="A PDF's 1-based page where the quote starts; null: no pages."
    )
    end_page: int | None = Field(default=None, description="The page where the quote ends.")
    description: str | None = Field(
        default=None,
        description="A model's own words about the relation, where an LLM extractor gave "
        "some: never a citation; the quote is the evidence.",
    )


class ExtractionCoverageOut(Wire):
    documents: int = Field(description="Documents stored in the scope.")
    not_extracted: int = Field(
        description="Of those, documents not extracted yet: the entities and relations they "
        "state are missing from this reply."
    )
    extracting_now: int = Field(description="Of those, documents a running extraction holds.")
    note: str | None = Field(description="Said when notExtracted > 0; null when all are.")


def coverage_shape(coverage: ExtractionCoverage | None, scope: str) -> ExtractionCoverageOut | None:
    if coverage is None:
        return None
    return ExtractionCoverageOut(
        documents=coverage.documents,
        not_extracted=coverage.not_extracted,
        extracting_now=coverage.extracting_now,
        note=coverage.note(scope),
    )


_COVERAGE = "How much of the scope is extracted; null where not counted."


class RelationsOut(Wire):
    format: Literal["citegraph-relations/1"] = "citegraph-relations/1"
    entity: str | None = Field(description="The name asked about; null: all relations.")
    relation_type: str | None = Field(
        default=None, description="The type asked about (calls, alias-of, ...); null: all."
    )
    relations: list[StoredRelationOut]
    truncated: bool = Field(
        default=False, description="The listing stopped at its limit: there may be more."
    )
    extraction: ExtractionCoverageOut | None = Field(default=None, description=_COVERAGE)


def relations_shape(
    entity: str | None,
    relations: list[StoredRelation],
    limit: int = RELATIONS_LIMIT,
    relation_type: str | None = None,
    coverage: ExtractionCoverage | None = None,
    scope: str = "default",
) -> RelationsOut:
    return RelationsOut(
        entity=entity,
        relation_type=relation_type,
        relations=[StoredRelationOut(**asdict(r)) for r in relations],
        truncated=len(relations) >= limit,
        extraction=coverage_shape(coverage, scope),
    )


class IdentityOut(Wire):
    key: str = Field(description="type:name: the same name with another type is another entity.")
    name: str
    type: str
    aliases: list[str] = Field(
        description="Its own spellings, then the names a source says it is also called (an "
        "acronym's definition in the text, a remembered alias-of fact)."
    )
    mentions: int


class EntitiesOut(Wire):
    format: Literal["citegraph-entities/1"] = "citegraph-entities/1"
    name: str
    identities: list[IdentityOut] = Field(
        description="Every entity the name can mean, most mentioned first: never merged."
    )
    extraction: ExtractionCoverageOut | None = Field(default=None, description=_COVERAGE)


def entities_shape(
    name: str,
    found: list[EntityIdentity],
    coverage: ExtractionCoverage | None = None,
    scope: str = "default",
) -> EntitiesOut:
    return EntitiesOut(
        name=name,
        identities=[
            IdentityOut(key=e.key, name=e.name, type=e.type, aliases=list(e.aliases),
                        mentions=e.mentions)
            for e in found
        ],
        extraction=coverage_shape(coverage, scope),
    )  # fmt: skip


# -- checks (citegraph-check/1) ---------------------------------------------------------------
