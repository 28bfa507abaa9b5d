"""Walking the graph out from seed entities, hop by hop, within a traversal policy. The walk
keeps the edges it took, each with its relation type, direction and the quote it came from, so
a path back to a seed can be shown and graded hop by hop."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..store.graph import GraphHandle
from ..store.queries.co_mentions import CO_MENTION_NEIGHBOURS, CO_MENTIONED
from ..store.queries.retrieval import NEIGHBOURS
from ..values.evidence import TraversalPolicy


@dataclass(frozen=True)
class WalkEdge:
    """One relation the walk took: from `source` (reached earlier) to `target`, at `hop`.
    `forward` is true when the relation points from source to target as stored."""

    hop: int
    source: str
    target: str
    type: str
    forward: bool
    chunk_id: str | None
    quote: str | None
    start_byte: int | None
    end_byte: int | None
    citable: bool
    weak: bool


@dataclass
class Walk:
    """What a walk reached: entity keys by hop, relation chunks by hop, and the edge by which
    each entity was first reached."""

    entities: dict[str, int] = field(default_factory=dict)  # key -> hop it was reached at
    relation_chunks: dict[str, int] = field(default_factory=dict)  # chunk id -> hop
    via: dict[str, WalkEdge] = field(default_factory=dict)  # key -> the edge that reached it
    fanout_cut: bool = False
    hops_cut: bool = False

    def path(self, key: str) -> list[WalkEdge]:
        """The edges from a seed to `key`, in walking order (empty for a seed)."""
        edges: list[WalkEdge] = []
        while key in self.via:
            edge = self.via[key]
            edges.append(edge)
            key = edge.source
        return edges[::-1]


# How many of a frontier's mentions (all its entities' together, the first met in the store)
# are put in order before its co-mentions are taken: ordering a hub's thousands would cost
# more than the walk. Past this many, which mentions are ordered still follows write order.
MENTIONS_ORDERED = 500


def _neighbours(
    graph: GraphHandle, keys: list[str], types: list[str] | None, weak: bool, cap: int
) -> list[list[Any]]:
    """Up to `cap` relations touching `keys`: the stored ones, then the co-mentions (read
    from the mentions of one sentence) when weak links are walked."""
    rows = graph.ro_query(NEIGHBOURS, {"keys": keys, "types": types, "weak": weak, "cap": cap})
    if weak and len(rows) < cap and (types is None or CO_MENTIONED in types):
        left = cap - len(rows)
        rows += graph.ro_query(
            CO_MENTION_NEIGHBOURS,
            {"keys": keys, "cap": left, "mentions": left * 2, "window": MENTIONS_ORDERED},
        )
    return rows


def walk(graph: GraphHandle, seeds: list[str], hops: int, policy: TraversalPolicy) -> Walk:
    result = Walk(entities=dict.fromkeys(seeds, 0))
    frontier = list(dict.fromkeys(seeds))
    types = sorted(policy.relation_types) if policy.relation_types is not None else None
    for hop in range(1, hops + 1):
        if not frontier:
            break
        cap = policy.fanout * len(frontier)
        rows = _neighbours(graph, frontier, types, policy.include_weak, cap + 1)
        if len(rows) > cap:
            result.fanout_cut = True
            rows = rows[:cap]
        per_entity: dict[str, int] = {}
        next_frontier: list[str] = []
        for source, neighbour, chunk_id, citable, kind, forward, quote, start, end, weak in rows:
            per_entity[source] = per_entity.get(source, 0) + 1
            if per_entity[source] > policy.fanout:
                result.fanout_cut = True
                continue
            if chunk_id and citable:
                result.relation_chunks.setdefault(chunk_id, hop)
            if neighbour not in result.entities:
                result.entities[neighbour] = hop
                result.via[neighbour] = WalkEdge(
                    hop, source, neighbour, kind, bool(forward), chunk_id or None, quote,
                    start, end, bool(citable), bool(weak),
                )  # fmt: skip
                next_frontier.append(neighbour)
        frontier = next_frontier[: policy.fanout * 4]
    if frontier and hops > 0:
        # Were there more steps to take? One cheap look past the last hop.
        rows = _neighbours(graph, frontier[:50], types, policy.include_weak, 1)
        result.hops_cut = bool(rows)
    return result
