"""The schema a model is shown with a graph question: read from the scope's graph, limited to
what a query may name (documents, chunks, entities and their links), never embeddings or the
store's own bookkeeping (ingest leases, staging, the extraction cache)."""

from __future__ import annotations

import time
from typing import Any

from ..store.graph import GraphHandle
from ..store.queries.graphq import (
    EDGE_COUNT,
    EDGE_ENDS,
    EDGE_SAMPLE,
    ENTITY_TYPES,
    NODE_COUNT,
    NODE_LABELS,
    NODE_SAMPLE,
    RELATION_TYPES,
    STATED_RELATION_SAMPLE,
)
from ..values.graphq import EdgeKind, GraphSchema, NodeKind, PropertyInfo

PUBLIC_LABELS = ("Document", "Chunk", "Entity")
PUBLIC_TYPES = ("PART_OF", "MENTIONED_IN", "RELATES")
HIDDEN_PROPERTIES = ("embedding",)
_SAMPLE = 200
_EXAMPLES = 3
_EVERY_VALUE_UP_TO = 12  # a property with this many values or fewer is listed whole
_EXAMPLE_CHARS = 40
_KINDS = 60  # entity and relation types listed


_REUSE_S = 60.0  # and never longer: a change that keeps both counts is seen within a minute


class SchemaCache:
    """The schema last read from one graph, read again when its node or edge count changes
    or a minute has passed: a full read scans every node and edge (0.3 s at 20,000 chunks)."""

    def __init__(self) -> None:
        self._size: tuple[int, int] | None = None
        self._schema: GraphSchema | None = None
        self._read_at = 0.0

    def get(self, graph: GraphHandle) -> GraphSchema:
        size = (_count(graph, NODE_COUNT), _count(graph, EDGE_COUNT))
        fresh = time.monotonic() - self._read_at < _REUSE_S
        if self._schema is None or size != self._size or not fresh:
            self._schema, self._size = read_schema(graph), size
            self._read_at = time.monotonic()
        return self._schema


def _count(graph: GraphHandle, query: str) -> int:
    rows = graph.ro_query(query)
    return int(rows[0][0]) if rows else 0


def read_schema(graph: GraphHandle) -> GraphSchema:
    counts = {str(label): int(n) for label, n in graph.ro_query(NODE_LABELS)}
    nodes = []
    for label in PUBLIC_LABELS:
        if label not in counts:  # listed all the same: a query may count what is not there
            nodes.append(NodeKind(label, 0, ()))
            continue
        rows = graph.ro_query(
            NODE_SAMPLE, {"label": label, "sample": _SAMPLE, "hidden": list(HIDDEN_PROPERTIES)}
        )
        properties = _properties([r[0] for r in rows])
        if label == "Entity":
            properties = _whole(properties, "type", graph.ro_query(ENTITY_TYPES, {"limit": _KINDS}))
        nodes.append(NodeKind(label, counts[label], properties))
    ends: dict[str, list[tuple[str, str, int]]] = {}
    for edge_type, a, b, n in graph.ro_query(EDGE_ENDS):
        if edge_type in PUBLIC_TYPES and a in PUBLIC_LABELS and b in PUBLIC_LABELS:
            ends.setdefault(str(edge_type), []).append((str(a), str(b), int(n)))
    edges = []
    for edge_type in PUBLIC_TYPES:
        if edge_type not in ends:
            edges.append(EdgeKind(edge_type, 0, (), ()))
            continue
        rows = graph.ro_query(
            EDGE_SAMPLE,
            {"type": edge_type, "sample": _SAMPLE, "hidden": list(HIDDEN_PROPERTIES)},
        )
        if edge_type == "RELATES":
            rows += graph.ro_query(
                STATED_RELATION_SAMPLE, {"sample": _SAMPLE, "hidden": list(HIDDEN_PROPERTIES)}
            )
        properties = _properties([r[0] for r in rows])
        if edge_type == "RELATES":
            properties = _whole(
                properties, "type", graph.ro_query(RELATION_TYPES, {"limit": _KINDS})
            )
        pairs = tuple((a, b) for a, b, _ in ends[edge_type])
        edges.append(EdgeKind(edge_type, sum(n for *_, n in ends[edge_type]), pairs, properties))
    return GraphSchema(tuple(nodes), tuple(edges))


def _properties(samples: list[list[list[Any]]]) -> tuple[PropertyInfo, ...]:
    seen: dict[str, list[str]] = {}
    for pairs in samples:
        for key, value in pairs:
            values = seen.setdefault(str(key), [])
            shown = _shown(value)
            if shown is not None and shown not in values and len(values) <= _EVERY_VALUE_UP_TO:
                values.append(shown)
    return tuple(
        PropertyInfo(name, tuple(values[:_EXAMPLES]))
        if len(values) > _EVERY_VALUE_UP_TO
        else PropertyInfo(name, tuple(values), every_value=bool(values))
        for name, values in sorted(seen.items())
    )


def _whole(
    properties: tuple[PropertyInfo, ...], name: str, rows: list[list[Any]]
) -> tuple[PropertyInfo, ...]:
    """`name`'s values read in full (with counts), instead of from the sample."""
    values = tuple(f"{v!r} ({n})" for v, n in rows if v is not None)
    rest = tuple(p for p in properties if p.name != name)
    complete = len(rows) < _KINDS
    return tuple(sorted((*rest, PropertyInfo(name, values, complete)), key=lambda p: p.name))


def _shown(value: Any) -> str | None:
    if value is None or isinstance(value, list | dict):
        return None
    text = repr(value) if isinstance(value, str) else str(value).lower()
    if len(text) > _EXAMPLE_CHARS:
        text = text[: _EXAMPLE_CHARS - 1] + "…"
    return text


def describe(schema: GraphSchema) -> str:
    """The schema as the model reads it: one line per label, relationship type and property."""
    lines = ["Node labels (count): properties, with example values"]
    for node in schema.nodes:
        lines.append(f"(:{node.label}) {node.count}")
        lines += [_property_line(p) for p in node.properties]
    lines.append("Relationship types (count): ends; properties, with example values")
    for edge in schema.edges:
        ends = ", ".join(f"(:{a})-[:{edge.type}]->(:{b})" for a, b in edge.ends)
        lines.append(f"[:{edge.type}] {edge.count}: {ends}")
        lines += [_property_line(p) for p in edge.properties]
    return "\n".join(lines)


def _property_line(p: PropertyInfo) -> str:
    if not p.examples:
        return f"  .{p.name}"
    said = "values" if p.every_value else "e.g."
    return f"  .{p.name}  {said} {', '.join(p.examples)}"
