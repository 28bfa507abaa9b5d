"""The scope registry: which scopes a store holds, kept in the store itself, in a graph of its
own (`citegraph-registry`, outside the scope prefix, so it is never a scope).

GRAPH.LIST cannot answer this on every backend (a cluster client cannot route it, and it
lists every graph of the server, ours or not). A scope is registered when its graph is first
prepared, or restored; dropping it unregisters it. A store written before the registry
existed is registered once, from GRAPH.LIST on each primary, the first time it is read.
"""

from __future__ import annotations

from ..errors import StoreError
from .graph import GraphHandle, GraphStore

REGISTRY_GRAPH = "citegraph-registry"

_ADD = "MERGE (s:Scope {name: $name}) ON CREATE SET s.created_at = timestamp()"
_REMOVE = "MATCH (s:Scope {name: $name}) DELETE s"
_NAMES = "MATCH (s:Scope) RETURN s.name ORDER BY s.name"
_SEEDED = "MATCH (r:Registry) RETURN r.version"
_SEED = """
UNWIND $names AS name
MERGE (s:Scope {name: name}) ON CREATE SET s.created_at = timestamp()
WITH count(s) AS registered
MERGE (r:Registry) ON CREATE SET r.version = 1, r.seeded_at = timestamp(), r.seeded = registered
"""


class ScopeRegistry:
    def __init__(self, store: GraphStore, prefix: str):
        self._store = store
        self._prefix = prefix
        self._graph: GraphHandle = store.graph(REGISTRY_GRAPH)
        self._seeded = False

    def add(self, name: str) -> None:
        self._seed()
        self._graph.query(_ADD, {"name": name})

    def remove(self, name: str) -> None:
        self._seed()
        self._graph.query(_REMOVE, {"name": name})

    def names(self) -> list[str]:
        """Every registered scope, held data or not."""
        self._seed()
        return [str(name) for (name,) in self._graph.ro_query(_NAMES)]

    def _seed(self) -> None:
        if self._seeded:
            return
        try:
            seeded = bool(self._graph.ro_query(_SEEDED))
        except StoreError:  # no registry graph yet ("empty key")
            seeded = False
        if not seeded:
            names = [
                g[len(self._prefix) :]
                for g in self._store.list_graphs()
                if g.startswith(self._prefix)
            ]
            self._graph.query(_SEED, {"names": names})
        self._seeded = True
