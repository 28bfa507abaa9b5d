"""Walking the graph out from seed entities, hop by hop, within a traversal policy."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..store.graph import GraphHandle
from .evidence import TraversalPolicy

MAX_HOPS = 3

NEIGHBOURS = """
UNWIND $keys AS k
MATCH (a:Entity {key: k})-[r:RELATES]-(b:Entity)
WHERE ($types IS NULL OR r.type IN $types) AND ($weak OR r.weak = false)
WITH a, b, r
ORDER BY r.weak, b.key
WITH a, collect({key: b.key, chunk: r.chunk_id, citable: r.citable}) AS found
RETURN a.key, found[..$fanout], size(found)
"""


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
        rows = graph.ro_query(
            NEIGHBOURS,
            {"keys": frontier, "types": types, "weak": policy.include_weak,
             "fanout": policy.fanout},
        )  # fmt: skip
        next_frontier: list[str] = []
        for _key, found, total in rows:
            if total > policy.fanout:
                result.fanout_cut = True
            for neighbour in found:
                if neighbour["chunk"] and neighbour["citable"]:
                    result.relation_chunks.setdefault(neighbour["chunk"], hop)
                if neighbour["key"] not in result.entities:
                    result.entities[neighbour["key"]] = hop
                    next_frontier.append(neighbour["key"])
        frontier = next_frontier
    if frontier and hops > 0:
        # Were there more steps to take? One cheap look past the last hop.
        rows = graph.ro_query(
            NEIGHBOURS,
            {"keys": frontier[:50], "types": types, "weak": policy.include_weak, "fanout": 1},
        )
        result.hops_cut = any(total > 0 for _k, _f, total in rows)
    return result
