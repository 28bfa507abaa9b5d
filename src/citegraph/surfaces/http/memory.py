"""/v1/memory: remembering facts, and the cited evidence for a question."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from ...audit.export import evidence_json
from ...limits import MAX_NAME
from ...service import knowledge_shapes as k
from ...service import requests as r
from ...service import shapes as s
from ...service.tokens import Right
from . import bodies as b
from .deps import ScopeQuery, Services, Token

router = APIRouter(prefix="/v1/memory", tags=["memory"])


@router.post("/remember", response_model=b.RememberResponse)
async def remember(service: Services, token: Token, body: r.RememberRequest) -> b.RememberResponse:
    """Store facts you already know. Each mention is located in its passage before it is
    kept; what cannot be located comes back in `unlocated` and is not stored."""
    target = service.scope(token, body.scope, Right.WRITE)
    facts = r.facts_from(body.facts.entities, body.facts.relations)
    passages = r.passages_from(body.passages)
    result = await service.guard.run(lambda: target.remember(body.source, facts, passages))
    return b.RememberResponse.model_validate(s.wire(s.remember_shape(result)))


@router.post("/context", response_model=b.ContextResponse)
async def memory_context(
    service: Services, token: Token, body: r.ContextRequest
) -> b.ContextResponse:
    """Cited passages for a question, with a verdict: read `verdict.state` first."""
    target = service.scope(token, body.scope, Right.READ)
    question = service.question("question", body.question)
    evidence = await service.guard.run(lambda: target.context(question, k=body.k, hops=body.hops))
    return b.ContextResponse.model_validate(evidence_json(evidence))


@router.get("/relations", response_model=b.RelationsResponse)
async def relations(
    service: Services,
    token: Token,
    scope: ScopeQuery,
    entity: Annotated[str | None, Query(min_length=1, max_length=MAX_NAME)] = None,
    relation_type: Annotated[
        str | None, Query(alias="type", min_length=1, max_length=MAX_NAME)
    ] = None,
) -> b.RelationsResponse:
    """The relations stored in a scope (those touching `entity`, and those of `type`, such as
    calls, alias-of or co-mentioned, when given), each with the quote it was located at, its
    polarity and modality; stated ones before co-mentions."""
    target = service.scope(token, scope, Right.READ)
    found, coverage = await service.guard.run(
        lambda: (
            target.relations(entity, relation_type=relation_type),
            target.extraction_coverage(),
        )
    )
    shape = k.relations_shape(
        entity, found, relation_type=relation_type, coverage=coverage, scope=target.name
    )
    return b.RelationsResponse.model_validate(s.wire(shape))


@router.get("/entities", response_model=b.EntitiesResponse)
async def entities(
    service: Services,
    token: Token,
    scope: ScopeQuery,
    name: Annotated[str, Query(min_length=1, max_length=MAX_NAME)],
) -> b.EntitiesResponse:
    """Every entity a name can mean (case and spacing aside), each with its type, aliases and
    mention count, most mentioned first: ambiguity shown, never resolved by a guess."""
    target = service.scope(token, scope, Right.READ)
    found, coverage = await service.guard.run(
        lambda: (target.entities(name), target.extraction_coverage())
    )
    shape = k.entities_shape(name, found, coverage, target.name)
    return b.EntitiesResponse.model_validate(s.wire(shape))


@router.get("/community-reports", response_model=b.CommunityReportsResponse)
async def community_reports(
    service: Services,
    token: Token,
    scope: ScopeQuery,
    entity: Annotated[str | None, Query(min_length=1, max_length=MAX_NAME)] = None,
) -> b.CommunityReportsResponse:
    """The community reports an adopted GraphRAG output brought (those about `entity` when
    given): the tool's summaries, kept as context, never citations."""
    from ...service.adopt_shapes import community_reports_shape

    target = service.scope(token, scope, Right.READ)
    found = await service.guard.run(lambda: target.community_reports(entity))
    return b.CommunityReportsResponse.model_validate(s.wire(community_reports_shape(entity, found)))
