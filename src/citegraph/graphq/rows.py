"""Rows made safe to hand back: cut to their bounds after reading, with each cut named.

Nodes and relationships come back as their properties without embeddings. Anything outside
the schema (a node of the store's own bookkeeping, met by a pattern without a label) comes
back as null, and is said to have been hidden.
"""

from __future__ import annotations

import math
from typing import Any

from ..store.plain import StoredEdge, StoredNode, StoredPath
from .schema import HIDDEN_PROPERTIES, PUBLIC_LABELS, PUBLIC_TYPES

MAX_LIST_ITEMS = 1_000
MAX_TEXT_CHARS = 10_000

ROWS_CUT = "graph-query-rows"
LIST_CUT = "graph-query-list-items"
TEXT_CUT = "graph-query-text"
HIDDEN = "graph-query-hidden"


class RowShaper:
    def __init__(self) -> None:
        self.limits: set[str] = set()

    def rows(self, rows: list[list[Any]], cap: int) -> tuple[tuple[Any, ...], ...]:
        if len(rows) > cap:
            self.limits.add(ROWS_CUT)
            rows = rows[:cap]
        return tuple(tuple(self.value(v) for v in row) for row in rows)

    def value(self, value: Any) -> Any:
        if isinstance(value, StoredNode):
            if not value.labels or any(label not in PUBLIC_LABELS for label in value.labels):
                self.limits.add(HIDDEN)
                return None
            return {"labels": list(value.labels), "properties": self._properties(value.properties)}
        if isinstance(value, StoredEdge):
            if value.type not in PUBLIC_TYPES:
                self.limits.add(HIDDEN)
                return None
            return {"type": value.type, "properties": self._properties(value.properties)}
        if isinstance(value, StoredPath):
            return {
                "nodes": [self.value(n) for n in value.nodes],
                "relationships": [self.value(e) for e in value.edges],
            }
        if isinstance(value, dict):
            return self._properties(value)
        if isinstance(value, list):
            if len(value) > MAX_LIST_ITEMS:
                self.limits.add(LIST_CUT)
                value = value[:MAX_LIST_ITEMS]
            return [self.value(v) for v in value]
        if isinstance(value, str):
            if len(value) > MAX_TEXT_CHARS:
                self.limits.add(TEXT_CUT)
                return value[:MAX_TEXT_CHARS]
            return value
        if isinstance(value, float) and not math.isfinite(value):
            return str(value)  # JSON has no NaN or infinity
        if value is None or isinstance(value, bool | int | float):
            return value
        return str(value)  # points, dates: as the store prints them

    def _properties(self, properties: dict[str, Any]) -> dict[str, Any]:
        return {k: self.value(v) for k, v in properties.items() if k not in HIDDEN_PROPERTIES}
