"""/v1/impact and /v1/paths: graded walks over a scope's stated relations."""

from __future__ import annotations

from fastapi import APIRouter

from ...service import requests as r
from ...service import shapes as s
from ...service import walk_shapes as w
from ...service.tokens import Right
from . import bodies as b
from .deps import Services, Token

router = APIRouter(prefix="/v1", tags=["graph"])


@router.post("/impact", response_model=b.ImpactResponse)
async def impact(service: Services, token: Token, body: r.ImpactRequest) -> b.ImpactResponse:
    """If this entity changes, what is affected (`dependents`), or what it needs
    (`dependencies`): each entity with its best paths, every hop graded against its own
    sentence (supported, inferred, insufficient) with its verified quote or the reason it has
    none. Read `status` first: `ambiguous` lists the candidates (send one's `key` as
    `entity`), `unknown` offers close spellings; neither walks anything."""
    target = service.scope(token, body.scope, Right.READ)
    policy = r.policy_from(body.policy)
    result = await service.guard.run(
        lambda: target.impact(body.entity, body.direction, body.max_hops, policy)
    )
    return b.ImpactResponse.model_validate(s.wire(w.impact_shape(result)))


@router.post("/paths", response_model=b.PathsResponse)
async def paths(service: Services, token: Token, body: r.PathsRequest) -> b.PathsResponse:
    """How two entities are connected: the best paths of at most `maxHops` hops, either way
    along the relations the policy follows, each hop graded with its evidence."""
    target = service.scope(token, body.scope, Right.READ)
    policy = r.policy_from(body.policy)
    result = await service.guard.run(
        lambda: target.paths(body.source, body.target, body.max_hops, policy)
    )
    return b.PathsResponse.model_validate(s.wire(w.paths_shape(result)))
