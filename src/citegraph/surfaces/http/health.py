"""/v1/health: the API and the graph, as separate facts; no token needed."""

from __future__ import annotations

import logging

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ...service import shapes as s
from ...service.tokens import Right
from . import bodies as b
from .deps import ScopeQuery, Services, Token

log = logging.getLogger("citegraph.http")
router = APIRouter(tags=["health"])


@router.get(
    "/v1/health",
    response_model=s.HealthOut,
    responses={503: {"model": s.HealthOut, "description": "The graph is down."}},
)
async def health(service: Services) -> JSONResponse:
    """API health and graph health, as separate facts; 503 when the graph is down. Needs
    no token."""
    found = await service.guard.run(service.workspace.health)
    if found.state != "ok":
        log.warning("graph health: %s: %s", found.state.value, found.detail)
    body = s.health_shape(found, found.public_detail())
    return JSONResponse(s.wire(body), status_code=503 if found.state == "down" else 200)


@router.get("/v1/health/indexes", response_model=b.IndexesResponse)
async def indexes(service: Services, token: Token, scope: ScopeQuery) -> b.IndexesResponse:
    """The state of each index a scope's reads need (operational, or still being built): a
    scope whose full-text index is being built answers 503, never "nothing found". Needs a
    token with read on the scope."""
    target = service.scope(token, scope, Right.READ)
    states = await service.guard.run(target.index_states)
    return b.IndexesResponse.model_validate(s.wire(s.indexes_shape(states)))
