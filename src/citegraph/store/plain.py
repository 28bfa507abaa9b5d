"""Graph values as plain data: what a model-written query's rows hold, without the client's
classes, so nothing above the store depends on them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import falkordb


@dataclass(frozen=True)
class StoredNode:
    id: int
    labels: tuple[str, ...]
    properties: dict[str, Any]


@dataclass(frozen=True)
class StoredEdge:
    id: int
    type: str
    source: int
    target: int
    properties: dict[str, Any]


@dataclass(frozen=True)
class StoredPath:
    nodes: tuple[StoredNode, ...]
    edges: tuple[StoredEdge, ...]


def plain(value: Any) -> Any:
    """`value` with nodes, edges and paths made `Stored*` values, lists and maps walked."""
    if isinstance(value, falkordb.Node):
        labels = value.labels if isinstance(value.labels, list) else [value.labels]
        return StoredNode(int(value.id), tuple(str(x) for x in labels if x), _map(value.properties))
    if isinstance(value, falkordb.Edge):
        return StoredEdge(
            int(value.id),
            str(value.relation),
            _end(value.src_node),
            _end(value.dest_node),
            _map(value.properties),
        )
    if isinstance(value, falkordb.Path):
        return StoredPath(
            tuple(plain(n) for n in value.nodes()), tuple(plain(e) for e in value.edges())
        )
    if isinstance(value, dict):
        return _map(value)
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def _map(value: dict[Any, Any] | None) -> dict[str, Any]:
    return {str(k): plain(v) for k, v in (value or {}).items()}


def _end(node: Any) -> int:
    return int(node.id if isinstance(node, falkordb.Node) else node)
