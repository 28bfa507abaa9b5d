"""The scope registry: which scopes a store holds, kept in the store itself, in a graph of its
own (`citegraph-registry`, outside the scope prefix, so it is never a scope).

GRAPH.LIST cannot answer this on every backend (a cluster client cannot route it, and it
lists every graph of the server, ours or not). A scope is registered when its graph is first
prepared, or restored; dropping it unregisters it. A store written before the registry
existed is registered once, from GRAPH.LIST on each primary, the first time it is read.
"""

from __future__ import annotations

from ..errors import StoreError
from .graph import GraphHandle, GraphStore, names_a_missing_graph
from .queries.registry import ADD_SCOPE, REGISTERED_SCOPES, REMOVE_SCOPE, SEED_REGISTRY, SEEDED

REGISTRY_GRAPH = "citegraph-registry"


class ScopeRegistry:
    def __init__(self, store: GraphStore, prefix: str):
        self._store = store
        self._prefix = prefix
        self._graph: GraphHandle = store.graph(REGISTRY_GRAPH)
        self._seeded = False

    def add(self, name: str) -> None:
        self._seed()
        self._graph.query(ADD_SCOPE, {"name": name})

    def remove(self, name: str) -> None:
        self._seed()
        self._graph.query(REMOVE_SCOPE, {"name": name})

    def names(self) -> list[str]:
        """Every registered scope, held data or not."""
        self._seed()
        return [str(name) for (name,) in self._graph.ro_query(REGISTERED_SCOPES)]

    def _seed(self) -> None:
        if self._seeded:
            return
        try:
            seeded = bool(self._graph.ro_query(SEEDED))
        except StoreError as exc:
            if not names_a_missing_graph(str(exc)):
                raise
            seeded = False  # no registry graph yet
        if not seeded:
            names = [
                g[len(self._prefix) :]
                for g in self._store.list_graphs()
                if g.startswith(self._prefix)
            ]
            self._graph.query(SEED_REGISTRY, {"names": names})
        self._seeded = True
