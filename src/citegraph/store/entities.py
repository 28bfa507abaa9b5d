"""Entities, their mentions in chunks, and relations between them, in one scope's graph.

    (:Entity {key, name, type, aliases, asserted})-[:MENTIONED_IN {start_byte, end_byte,
        document_id, count}]->(:Chunk)
    (:Entity)-[:RELATES {type, weak, citable, quote, chunk_id, document_id, start_byte,
        end_byte, source}]->(:Entity)

A mention or a citable relation is written only after its span was located in the chunk.
"""

from __future__ import annotations

from typing import Any

from .graph import GraphHandle
from .queries.entities import (
    DROP_ORPHAN_ENTITIES,
    FORGET_CHUNK_MENTIONS,
    FORGET_CO_MENTIONS,
    IDENTITIES_BY_NORM,
    LIST_RELATIONS,
    REMEMBER_MENTIONS,
    REMEMBER_RELATIONS,
    WRITE_CO_MENTIONS,
    WRITE_ENTITIES,
    WRITE_MENTIONS,
    WRITE_RELATIONS,
)

_BATCH = 2000


class EntityRepository:
    def __init__(self, graph: GraphHandle):
        self.graph = graph

    def _write(self, query: str, rows: list[dict[str, Any]]) -> None:
        for start in range(0, len(rows), _BATCH):
            self.graph.query(query, {"rows": rows[start : start + _BATCH]})

    def write_mentions(self, rows: list[dict[str, Any]]) -> None:
        self._write(WRITE_MENTIONS, rows)

    def write_co_mentions(self, rows: list[dict[str, Any]]) -> None:
        self._write(WRITE_CO_MENTIONS, rows)

    def write_relations(self, rows: list[dict[str, Any]]) -> None:
        self._write(WRITE_RELATIONS, rows)

    def write_entities(self, rows: list[dict[str, Any]]) -> None:
        self._write(WRITE_ENTITIES, rows)

    def remember_mentions(self, rows: list[dict[str, Any]]) -> None:
        self._write(REMEMBER_MENTIONS, rows)

    def remember_relations(self, rows: list[dict[str, Any]]) -> None:
        self._write(REMEMBER_RELATIONS, rows)

    def forget_extraction(self, doc_ids: list[str]) -> None:
        """Remove what an earlier, unfinished extraction of these documents stored."""
        self.graph.query(FORGET_CHUNK_MENTIONS, {"ids": doc_ids})
        self.graph.query(FORGET_CO_MENTIONS, {"ids": doc_ids})

    def identities(self, norm: str) -> list[list[Any]]:
        return self.graph.ro_query(IDENTITIES_BY_NORM, {"norm": norm})

    def relations(self, norm: str | None, limit: int) -> list[list[Any]]:
        return self.graph.ro_query(LIST_RELATIONS, {"norm": norm, "limit": limit})

    def drop_orphans(self) -> int:
        rows = self.graph.query(DROP_ORPHAN_ENTITIES)
        return int(rows[0][0]) if rows else 0
