"""Walks over stated relations, hop by hop graded: impact ("if I change X, what breaks?") and
paths ("how is A connected to B?").

A walk goes level by level (one query per level for the whole frontier), never visits an
entity twice on one path (cycles end there), keeps a few best paths per entity, and is
bounded: at most MAX_HOPS levels, MAX_ENTITIES entities, MAX_EDGE_ROWS relations read per
level; a cut is said (`truncated`, and which limit). Results are ordered deterministically:
grade, then hop count, then name.

Names a source says are one thing (`alias-of`: an acronym's definition, a remembered fact) are
walked as one: before each level, the aliases of the entities it walks from join them at the
same depth, each by a hop graded against the sentence that defines it, so a path shows why
"PCS" led to what calls the Product Catalog Service. Of two names for one thing, the one
reached by the alias hop is not listed again. A name said to be another name of several
entities is ambiguous: shown, never walked through.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace

from ..errors import UsageError
from ..extract.acronyms import short_form
from ..extract.mentions import normalise_name
from ..extract.modality import DEFAULT_CUES, CueTable
from ..limits import MAX_WALK_ENTITIES, MAX_WALK_HOPS
from ..store.graph import GraphHandle
from ..store.queries.co_mentions import CO_MENTIONED, CO_MENTIONS_AROUND
from ..store.queries.paths import EDGES_AROUND
from ..values.paths import (
    ALIAS_OF,
    Affected,
    Direction,
    EntityRef,
    Grade,
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
ALIAS_ROUNDS = 3  # aliases of aliases followed at one depth


def check_hops(max_hops: int) -> None:
    if not 1 <= max_hops <= MAX_HOPS:
        raise UsageError(f"max_hops must be between 1 and {MAX_HOPS}, not {max_hops}")


def _path_order(path: GradedPath) -> tuple[int, int, int, tuple[str, ...]]:
    return (path.grade.rank, path.steps, len(path.hops), tuple(e.name for e in path.entities))


def _short_form(entity: EntityRef) -> bool:
    """Whether `entity` is written like an acronym ("PCS", "gRPC", "CO"), as a definition's
    acronym must be (extract/acronyms.py), or was typed one."""
    return entity.type == "acronym" or short_form(entity.name) is not None


def _meaning(entity: EntityRef) -> str:
    """What a long form means, for telling two meanings of an acronym apart: its name with
    case, spacing and a plural's last `s` set aside ("T cell receptors" is "T cell receptor")."""
    norm = normalise_name(entity.name)
    if len(norm) > 3 and norm.endswith("s") and not norm.endswith("ss"):
        return norm[:-1]
    return norm


def _acronym_and_meaning(hop: Hop) -> tuple[EntityRef, EntityRef] | None:
    """For an alias hop between an acronym and a name that is not one: the acronym and what
    it stands for, read from the names, not from the direction the relation was stored in
    (a caller's remembered fact may give either). None for any other alias hop: two long
    names, or two acronyms, are not what an acronym for two things looks like."""
    if _short_form(hop.start) == _short_form(hop.end):
        return None
    return (hop.start, hop.end) if _short_form(hop.start) else (hop.end, hop.start)


def _names_what_is_listed(path: GradedPath, min_grade: Grade) -> bool:
    """Whether `path` ends by a walkable hop to another name of the entity before it: that
    entity (or the start) is what the result is about; its other name is not listed again."""
    last = path.hops[-1]
    return last.relation == ALIAS_OF and last.grade.at_least(min_grade)


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
    def __init__(self, graph: GraphHandle, policy: WalkPolicy, cues: CueTable = DEFAULT_CUES):
        self.graph = graph
        self.policy = policy
        self.binder = Binder(graph)
        self.reader = EvidenceReader(graph, cues)
        self.limits: set[str] = set()

    def _connects(self, edge: Edge, direction: Direction | None) -> bool:
        """Does `edge` make a hop from the entity walked from, in `direction` (None: either
        way, for paths)?"""
        if edge.type == CO_MENTIONED:
            return self.policy.co_mentions
        if edge.type == ALIAS_OF:
            return self.policy.aliases  # one thing under two names: either way
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
        self, frontier: dict[str, Bound], direction: Direction | None, aliases: bool = False
    ) -> list[tuple[str, Hop, Bound | None]]:
        """The hops out of the frontier (by the key of the entity each starts from), each with
        the entity it reaches (None: an ambiguous name, not walked). `aliases`: only the
        hops to other names of the frontier's entities."""
        node_of = {key: node for node, bound in frontier.items() for key in bound.keys}
        keys = sorted(node_of)
        # CO_MENTIONED edges are stored only by stores written before co-mentions were read
        # from the mentions of one sentence (co_mentions.py).
        co_mentions = self.policy.co_mentions and not aliases
        # Aliases take no level: never followed as a hop of the level itself.
        types = [t for t in self.policy.types if t != ALIAS_OF or not self.policy.aliases]
        types += [CO_MENTIONED] if co_mentions else []
        if aliases:
            types = [ALIAS_OF]
        rows = self.graph.ro_query(
            EDGES_AROUND, {"keys": keys, "types": types, "limit": MAX_EDGE_ROWS}
        )
        if co_mentions:
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
        walk = _Spread(self, start, keep, stop_at)
        frontier = {start.ref.key: start}
        for depth in range(1, max_hops + 1):
            frontier = walk.with_aliases(frontier, depth - 1)
            if not frontier:
                break
            next_frontier: dict[str, Bound] = {}
            for node, hop, target in self.level(frontier, direction):
                walk.take(node, hop, target, depth, next_frontier)
            if len(walk.reached) - 1 > MAX_ENTITIES:
                self.limits.add(f"entities ({MAX_ENTITIES})")
                break
            frontier = next_frontier
        else:
            walk.with_aliases(frontier, max_hops)  # what the last level reached is also named
        reached = walk.reached
        del reached[start.ref.key]
        return {key: r for key, r in reached.items() if r.paths}


class _Spread:
    """What one walk has reached so far, and how a hop adds to it."""

    def __init__(self, walk: Walk, start: Bound, keep: int, stop_at: str | None):
        self.walk = walk
        self.start = start.ref.key
        self.keep = keep
        self.stop_at = stop_at
        self.reached: dict[str, _Reached] = {start.ref.key: _Reached(start, start.ref, [], 0)}

    def take(
        self, node: str, hop: Hop, target: Bound | None, depth: int, frontier: dict[str, Bound]
    ) -> None:
        """Add the paths through `hop` (from `node`, at `depth`); its end joins `frontier`
        when it is reached walkable for the first time."""
        end = hop.end.key
        if end == self.start:
            return  # a cycle back to the start
        seen = self.reached.get(end)
        if seen is not None and seen.walkable_at is not None and seen.walkable_at < depth:
            return  # reached by a shorter walkable path already
        here = self.reached.setdefault(end, _Reached(target, hop.end))
        min_grade = self.walk.policy.min_grade
        walkable = target is not None and hop.grade.at_least(min_grade)
        for path in self.reached[node].paths or [GradedPath(())]:
            if path.hops and not path.grade.at_least(min_grade):
                continue
            if end in {e.key for e in path.entities}:
                continue  # a cycle: this path already went through it
            here.add(GradedPath((*path.hops, hop)), self.keep)
        if walkable and target is not None and here.walkable_at is None:
            here.walkable_at = depth
            if end != self.stop_at:
                frontier[end] = target

    def with_aliases(self, frontier: dict[str, Bound], depth: int) -> dict[str, Bound]:
        """`frontier` and the other names a source gives its entities, reached at the same
        `depth` (aliases of aliases too, a few rounds). An acronym said to stand for two or
        more entities ("PCS" for two systems) is ambiguous: its alias hops are shown as
        insufficient, and the walk does not go through it."""
        if not self.walk.policy.aliases or not frontier:
            return frontier
        whole = dict(frontier)
        around = self.walk.level(frontier, None, aliases=True)
        for _ in range(ALIAS_ROUNDS):
            if not around:
                break
            # The names reached, read one round ahead: what each is said to be a name of.
            ends = {
                hop.end.key: target
                for _, hop, target in around
                if target is not None and hop.end.key not in whole
            }
            ahead = self.walk.level(ends, None, aliases=True) if ends else []
            meanings: dict[str, set[str]] = defaultdict(set)
            for _, hop, _ in (*around, *ahead):
                pair = _acronym_and_meaning(hop)
                if pair is not None and hop.grade is not Grade.INSUFFICIENT:  # not negated
                    meanings[pair[0].key].add(_meaning(pair[1]))
            found: dict[str, Bound] = {}
            for node, hop, target in around:
                pair = _acronym_and_meaning(hop)
                name = pair[0] if pair is not None else hop.end
                if len(meanings[name.key]) > 1:
                    hop = replace(
                        hop, grade=Grade.INSUFFICIENT,
                        reason=f"ambiguous: {name.name!r} is said to be another name of "
                        f"{len(meanings[name.key])} entities; pick one by its key to walk on",
                    )  # fmt: skip
                self.take(node, hop, target, depth, found)
            pending = {key: bound for key, bound in found.items() if key not in whole}
            whole.update(pending)
            around = [h for h in ahead if h[0] in pending]
        if any(hop.end.key not in whole for _, hop, _ in around):
            self.walk.limits.add(f"aliases of aliases ({ALIAS_ROUNDS} rounds)")
        return whole


def impact(
    graph: GraphHandle,
    name: str,
    direction: Direction,
    max_hops: int,
    policy: WalkPolicy,
    cues: CueTable = DEFAULT_CUES,
) -> ImpactResult:
    check_hops(max_hops)
    walk = Walk(graph, policy, cues)
    start = walk.binder.resolve(name)
    if isinstance(start, Unresolved):
        status: Status = "ambiguous" if start.candidates else "unknown"
        return ImpactResult(status, name, None, direction, max_hops, policy, unresolved=start)
    reached = walk.spread(start, direction, max_hops, PATHS_PER_ENTITY)
    affected = sorted(
        (
            Affected(r.ref, r.paths[0].steps_at(policy.min_grade), r.paths[0].grade, tuple(r.paths))
            for r in reached.values()
            if not _names_what_is_listed(r.paths[0], policy.min_grade)
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


def paths(
    graph: GraphHandle,
    a: str,
    b: str,
    max_hops: int,
    policy: WalkPolicy,
    cues: CueTable = DEFAULT_CUES,
) -> PathsResult:
    check_hops(max_hops)
    walk = Walk(graph, policy, cues)
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
