"""/v1/impact and /v1/paths: graded walks over a scope's stated relations; /v1/graph/query:
a question about the graph answered by guarded model-written Cypher (off by default)."""

from __future__ import annotations

from fastapi import APIRouter

from ...service import requests as r
from ...service import shapes as s
from ...service import walk_shapes as w
from ...service.graph_query_shapes import graph_query_shape
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
    return b.ImpactResponse.model_validate(s.wire(w.impact_shape(result, target.name)))


@router.post("/paths", response_model=b.PathsResponse)
async def paths(service: Services, token: Token, body: r.PathsRequest) -> b.PathsResponse:
    """How two entities are connected: the best paths of at most `maxHops` hops, either way
    along the relations the policy follows, each hop graded with its evidence."""
    target = service.scope(token, body.scope, Right.READ)
    policy = r.policy_from(body.policy)
    result = await service.guard.run(
        lambda: target.paths(body.source, body.target, body.max_hops, policy)
    )
    return b.PathsResponse.model_validate(s.wire(w.paths_shape(result, target.name)))


@router.post("/graph/query", response_model=b.GraphQueryResponse)
async def graph_query(
    service: Services, token: Token, body: r.GraphQueryRequest
) -> b.GraphQueryResponse:
    """Experimental, off unless the server runs with CITEGRAPH_TEXT2CYPHER=on (403
    `feature_off` otherwise): a question about the graph itself, answered by one read-only
    Cypher query a chat model writes from the scope's schema. The query passes a gate (no
    writes, procedures or functions outside short lists, nothing outside the schema, bounded
    work) and runs read-only on this scope's graph with a timeout and a row limit. The answer
    is rows with the query as run, citing the chunks, mentions and relations they hold; a
    refusal has its `reason`. Read `cypher` before trusting the rows."""
    question = service.question("question", body.question)
    target = service.scope(token, body.scope, Right.READ)
    result = await service.guard.run(lambda: target.ask_graph(question, service.chat))
    return b.GraphQueryResponse.model_validate(s.wire(graph_query_shape(result)))
