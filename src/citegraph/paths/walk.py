"""Walks over stated relations, hop by hop graded: impact ("if I change X, what breaks?") and
paths ("how is A connected to B?").

A walk goes level by level (one query per level for the whole frontier), never visits an
entity twice on one path (cycles end there), keeps a few best paths per entity, and is
bounded: at most MAX_HOPS levels, MAX_ENTITIES entities, MAX_EDGE_ROWS relations read per
level; a cut is said (`truncated`, and which limit). Results are ordered deterministically:
grade, then hop count, then name.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ..errors import UsageError
from ..limits import MAX_WALK_ENTITIES, MAX_WALK_HOPS
from ..store.graph import GraphHandle
from ..store.queries.co_mentions import CO_MENTIONED, CO_MENTIONS_AROUND
from ..store.queries.paths import EDGES_AROUND
from ..values.paths import (
    Affected,
    Direction,
    EntityRef,
    GradedPath,
    Hop,
    ImpactResult,
    PathsResult,
    Status,
    Unresolved,
    WalkPolicy,
)
from .binding import Binder, Bound
from .grading import Edge, EvidenceReader, ambiguous_hop, grade

MAX_HOPS = MAX_WALK_HOPS
MAX_ENTITIES = MAX_WALK_ENTITIES
MAX_EDGE_ROWS = 5000  # per level and direction
PATHS_PER_ENTITY = 3
MAX_PATHS = 10  # between two entities


def check_hops(max_hops: int) -> None:
    if not 1 <= max_hops <= MAX_HOPS:
        raise UsageError(f"max_hops must be between 1 and {MAX_HOPS}, not {max_hops}")


def _path_order(path: GradedPath) -> tuple[int, int, tuple[str, ...]]:
    return (path.grade.rank, len(path.hops), tuple(e.name for e in path.entities))


@dataclass
class _Reached:
    """What a walk knows of one entity: its paths, and whether it walks on from it."""

    bound: Bound | None
    ref: EntityRef
    paths: list[GradedPath] = field(default_factory=list)
    walkable_at: int | None = None  # the level it was first reached at by a walkable path

    def add(self, path: GradedPath, keep: int) -> None:
        self.paths.append(path)
        self.paths.sort(key=_path_order)
        del self.paths[keep:]


class Walk:
    def __init__(self, graph: GraphHandle, policy: WalkPolicy):
        self.graph = graph
        self.policy = policy
        self.binder = Binder(graph)
        self.reader = EvidenceReader(graph)
        self.limits: set[str] = set()

    def _connects(self, edge: Edge, direction: Direction | None) -> bool:
        """Does `edge` make a hop from the entity walked from, in `direction` (None: either
        way, for paths)?"""
        if edge.type == CO_MENTIONED:
            return self.policy.co_mentions
        orientation = self.policy.orientation(edge.type)
        if orientation is None:
            return False
        if direction is None or orientation == "both":
            return True
        # forward: the relation's source depends on its target.
        source_depends = orientation == "forward"
        walked_from_is_source = edge.outgoing
        # dependents of X: those that depend on X; dependencies: what X depends on.
        if direction is Direction.DEPENDENTS:
            return walked_from_is_source != source_depends
        return walked_from_is_source == source_depends

    def level(
        self, frontier: dict[str, Bound], direction: Direction | None
    ) -> list[tuple[str, Hop, Bound | None]]:
        """The hops out of the frontier (by the key of the entity each starts from), each with
        the entity it reaches (None: an ambiguous name, not walked)."""
        node_of = {key: node for node, bound in frontier.items() for key in bound.keys}
        keys = sorted(node_of)
        # CO_MENTIONED edges are stored only by stores written before co-mentions were read
        # from the mentions of one sentence (co_mentions.py).
        types = [*self.policy.types, *([CO_MENTIONED] if self.policy.co_mentions else [])]
        rows = self.graph.ro_query(
            EDGES_AROUND, {"keys": keys, "types": types, "limit": MAX_EDGE_ROWS}
        )
        if self.policy.co_mentions:
            rows += self.graph.ro_query(CO_MENTIONS_AROUND, {"keys": keys, "limit": MAX_EDGE_ROWS})
        edges = [Edge.of(row) for row in rows]
        if (
            sum(e.outgoing for e in edges) >= MAX_EDGE_ROWS
            or sum(not e.outgoing for e in edges) >= MAX_EDGE_ROWS
        ):
            self.limits.add(f"relations read per level ({MAX_EDGE_ROWS})")
        edges = [e for e in edges if self._connects(e, direction)]
        bound = self.binder.bind([(e.other, e.other_norm) for e in edges])
        groups: dict[tuple[str, str], list[Edge]] = defaultdict(list)
        ends: dict[str, EntityRef] = {}
        for edge in edges:
            target = bound[edge.other.key]
            end = target.ref if target is not None else edge.other
            node = node_of[edge.walked_from]
            if target is not None and end.key == node:
                continue  # two spellings of one entity: not a hop
            groups[(node, end.key)].append(edge)
            ends[end.key] = end
        self.reader.prefetch([e.chunk_id or "" for group in groups.values() for e in group])
        hops: list[tuple[str, Hop, Bound | None]] = []
        for (node, end_key), group in sorted(groups.items()):
            start = frontier[node].ref
            target = bound[group[0].other.key]
            if target is None:
                hops.append((node, ambiguous_hop(start, ends[end_key], group[0]), None))
            else:
                hops.append((node, grade(start, target.ref, group, self.reader), target))
        return hops

    def spread(
        self, start: Bound, direction: Direction | None, max_hops: int, keep: int,
        stop_at: str | None = None,
    ) -> dict[str, _Reached]:  # fmt: skip
        """Walk out from `start` level by level; what was reached, by key."""
        reached: dict[str, _Reached] = {start.ref.key: _Reached(start, start.ref, [], 0)}
        frontier = {start.ref.key: start}
        for depth in range(1, max_hops + 1):
            if not frontier:
                break
            next_frontier: dict[str, Bound] = {}
            for node, hop, target in self.level(frontier, direction):
                end = hop.end.key
                if end == start.ref.key:
                    continue  # a cycle back to the start
                seen = reached.get(end)
                if seen is not None and seen.walkable_at is not None and seen.walkable_at < depth:
                    continue  # reached by a shorter walkable path already
                here = reached.setdefault(end, _Reached(target, hop.end))
                walkable = target is not None and hop.grade.at_least(self.policy.min_grade)
                for path in reached[node].paths or [GradedPath(())]:
                    if path.hops and not path.grade.at_least(self.policy.min_grade):
                        continue
                    if end in {e.key for e in path.entities}:
                        continue  # a cycle: this path already went through it
                    here.add(GradedPath((*path.hops, hop)), keep)
                if walkable and target is not None and here.walkable_at is None:
                    here.walkable_at = depth
                    if end != stop_at:
                        next_frontier[end] = target
            if len(reached) - 1 > MAX_ENTITIES:
                self.limits.add(f"entities ({MAX_ENTITIES})")
                break
            frontier = next_frontier
        del reached[start.ref.key]
        return {key: r for key, r in reached.items() if r.paths}


def impact(
    graph: GraphHandle,
    name: str,
    direction: Direction,
    max_hops: int,
    policy: WalkPolicy,
) -> ImpactResult:
    check_hops(max_hops)
    walk = Walk(graph, policy)
    start = walk.binder.resolve(name)
    if isinstance(start, Unresolved):
        status: Status = "ambiguous" if start.candidates else "unknown"
        return ImpactResult(status, name, None, direction, max_hops, policy, unresolved=start)
    reached = walk.spread(start, direction, max_hops, PATHS_PER_ENTITY)
    affected = sorted(
        (
            Affected(r.ref, len(r.paths[0].hops), r.paths[0].grade, tuple(r.paths))
            for r in reached.values()
        ),
        key=lambda a: (a.grade.rank, a.hops, a.entity.name, a.entity.key),
    )
    if len(affected) > MAX_ENTITIES:
        walk.limits.add(f"entities ({MAX_ENTITIES})")
    return ImpactResult(
        "ok", name, start.ref, direction, max_hops, policy,
        affected=tuple(affected[:MAX_ENTITIES]), found=len(affected),
        truncated=bool(walk.limits), limits=tuple(sorted(walk.limits)),
    )  # fmt: skip


def paths(graph: GraphHandle, a: str, b: str, max_hops: int, policy: WalkPolicy) -> PathsResult:
    check_hops(max_hops)
    walk = Walk(graph, policy)
    ends = [walk.binder.resolve(a), walk.binder.resolve(b)]
    unresolved = tuple(e for e in ends if isinstance(e, Unresolved))
    source, target = ends
    if unresolved or not isinstance(source, Bound) or not isinstance(target, Bound):
        status: Status = "ambiguous" if any(u.candidates for u in unresolved) else "unknown"
        return PathsResult(status, (a, b), None, None, max_hops, policy, unresolved=unresolved)
    if source.ref.key == target.ref.key:
        raise UsageError(f"{a!r} and {b!r} are the same entity ({source.ref.key})")
    reached = walk.spread(source, None, max_hops, MAX_PATHS, stop_at=target.ref.key)
    found = reached.get(target.ref.key)
    return PathsResult(
        "ok", (a, b), source.ref, target.ref, max_hops, policy,
        paths=tuple(found.paths) if found else (),
        truncated=bool(walk.limits), limits=tuple(sorted(walk.limits)),
    )  # fmt: skip
