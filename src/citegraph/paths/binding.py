"""Binding names to entities for a walk, showing ambiguity instead of resolving it.

The offline layer types a name by how it is written (`name`, `identifier`, `acronym`,
`title`): "Redis" and "REDIS" are two spellings, not two things, so entities that share a
normalised name and only have such shape types are walked as one. A type a model or a caller
gave (`service`, `team`, `person`) says what the thing is: two of them under one name are two
things, and the name is ambiguous until a caller picks one by its key. An offline mention of an
ambiguous name cannot be bound to either, so a hop to it is `insufficient`.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import fuzz

from ..extract.mentions import normalise_name
from ..store.graph import GraphHandle
from ..store.queries.paths import ENTITY_BY_KEY, IDENTITIES, KEYS_OF_NORMS
from ..store.queries.retrieval import ENTITIES_BY_PREFIX, prefix_ranges
from ..values.paths import EntityRef, Identity, Unresolved

# Types the offline extractor gives by a name's shape; in this order, the one shown for a
# group of spellings.
SHAPE_TYPES = ("name", "identifier", "acronym", "title")
# Close spellings offered for an unknown name: rapidfuzz ratio (0-100) at least this.
SUGGESTION_THRESHOLD = 75.0
MAX_SUGGESTIONS = 5


@dataclass(frozen=True)
class Bound:
    """An entity as a walk sees it: the key shown for it, and every key that means it."""

    ref: EntityRef
    keys: tuple[str, ...]


def is_shape(kind: str) -> bool:
    return kind in SHAPE_TYPES


def _group(rows: list[EntityRef], chosen: EntityRef | None = None) -> Bound | None:
    """The one entity `rows` (all the keys of one normalised name) mean, or None when they
    mean several. `chosen`: the entity a walk reached, when it has a type of its own."""
    meant = [r for r in rows if not is_shape(r.type)]
    shapes = sorted(
        (r for r in rows if is_shape(r.type)), key=lambda r: (SHAPE_TYPES.index(r.type), r.key)
    )
    if chosen is not None and not is_shape(chosen.type):
        if len(meant) > 1:
            return Bound(chosen, (chosen.key,))  # bound by whoever stated the relation
        return Bound(chosen, (chosen.key, *(s.key for s in shapes)))
    if len(meant) > 1:
        return None
    if len(meant) == 1:
        return Bound(meant[0], (meant[0].key, *(s.key for s in shapes)))
    if not shapes:
        return None
    return Bound(shapes[0], tuple(s.key for s in shapes))


class Binder:
    """Binds names and the entities a walk reaches; remembers what it has looked up."""

    def __init__(self, graph: GraphHandle):
        self.graph = graph
        self._by_norm: dict[str, list[EntityRef]] = {}

    def resolve(self, name: str) -> Bound | Unresolved:
        """The entity `name` (or an entity key, `type:name`) means, or why there is none."""
        if ":" in name:
            rows = self.graph.ro_query(ENTITY_BY_KEY, {"key": name})
            if rows:
                key, shown, kind, norm = rows[0]
                ref = EntityRef(key, shown, kind)
                if is_shape(kind):
                    return _group(self.norms([norm])[norm]) or Bound(ref, (key,))
                return Bound(ref, (key,))
        norm = normalise_name(name)
        rows = self.graph.ro_query(IDENTITIES, {"norm": norm})
        if not rows:
            return Unresolved(name, suggestions=self.close_names(norm))
        identities = [
            Identity(key, shown, kind, int(mentions), tuple(documents or ()))
            for key, shown, kind, mentions, documents in rows
        ]
        refs = [EntityRef(i.key, i.name, i.type) for i in identities]
        self._by_norm[norm] = refs
        bound = _group(refs)
        if bound is None:
            return Unresolved(name, candidates=tuple(i for i in identities if not is_shape(i.type)))
        return bound

    def norms(self, norms: list[str]) -> dict[str, list[EntityRef]]:
        """The keys behind each normalised name (looked up once per walk)."""
        missing = sorted({n for n in norms if n not in self._by_norm})
        if missing:
            for n in missing:
                self._by_norm[n] = []
            for norm, key, shown, kind in self.graph.ro_query(KEYS_OF_NORMS, {"norms": missing}):
                self._by_norm[norm].append(EntityRef(key, shown, kind))
        return {n: self._by_norm[n] for n in norms}

    def bind(self, reached: list[tuple[EntityRef, str]]) -> dict[str, Bound | None]:
        """For entities a walk reached (with their normalised names): the entity each one is
        bound to, by key; None where the name is ambiguous and the entity has no type of its
        own to settle it."""
        known = self.norms([norm for _, norm in reached])
        return {ref.key: _group(known[norm], chosen=ref) for ref, norm in reached}

    def close_names(self, norm: str) -> tuple[str, ...]:
        """Stored names spelled close to `norm`, closest first."""
        if len(norm) < 2:
            return ()
        rows = self.graph.ro_query(ENTITIES_BY_PREFIX, {"prefixes": prefix_ranges([norm[:2]])})
        scored = sorted(
            ((fuzz.ratio(norm, stored), shown) for _key, shown, stored in rows),
            key=lambda pair: (-pair[0], pair[1]),
        )
        names = [shown for score, shown in scored if score >= SUGGESTION_THRESHOLD]
        return tuple(dict.fromkeys(names))[:MAX_SUGGESTIONS]
