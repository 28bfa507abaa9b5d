"""Walking the graph out from seed entities, hop by hop, within a traversal policy."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..store.graph import GraphHandle
from ..store.queries.retrieval import NEIGHBOURS
from ..values.evidence import TraversalPolicy


@dataclass
class Walk:
    """What a walk reached: entity keys by hop, and relation chunks by hop."""

    entities: dict[str, int] = field(default_factory=dict)  # key -> hop it was reached at
    relation_chunks: dict[str, int] = field(default_factory=dict)  # chunk id -> hop
    fanout_cut: bool = False
    hops_cut: bool = False


def walk(graph: GraphHandle, seeds: list[str], hops: int, policy: TraversalPolicy) -> Walk:
    result = Walk(entities=dict.fromkeys(seeds, 0))
    frontier = list(dict.fromkeys(seeds))
    types = sorted(policy.relation_types) if policy.relation_types is not None else None
    for hop in range(1, hops + 1):
        if not frontier:
            break
        cap = policy.fanout * len(frontier)
        rows = graph.ro_query(
            NEIGHBOURS,
            {"keys": frontier, "types": types, "weak": policy.include_weak, "cap": cap + 1},
        )
        if len(rows) > cap:
            result.fanout_cut = True
            rows = rows[:cap]
        per_entity: dict[str, int] = {}
        next_frontier: list[str] = []
        for source, neighbour, chunk_id, citable in rows:
            per_entity[source] = per_entity.get(source, 0) + 1
            if per_entity[source] > policy.fanout:
                result.fanout_cut = True
                continue
            if chunk_id and citable:
                result.relation_chunks.setdefault(chunk_id, hop)
            if neighbour not in result.entities:
                result.entities[neighbour] = hop
                next_frontier.append(neighbour)
        frontier = next_frontier[: policy.fanout * 4]
    if frontier and hops > 0:
        # Were there more steps to take? One cheap look past the last hop.
        rows = graph.ro_query(
            NEIGHBOURS,
            {"keys": frontier[:50], "types": types, "weak": policy.include_weak, "cap": 1},
        )
        result.hops_cut = bool(rows)
    return result
