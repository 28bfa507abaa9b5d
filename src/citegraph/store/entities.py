"""Entities, their mentions in chunks, and relations between them, in one scope's graph.

    (:Entity {key, name, type, aliases, asserted})-[:MENTIONED_IN {start_byte, end_byte,
        document_id, count, s_start, s_end, s_char, s_len}]->(:Chunk)
    (:Entity)-[:RELATES {type, weak, citable, quote, chunk_id, document_id, start_byte,
        end_byte, source}]->(:Entity)

A mention or a citable relation is written only after its span was located in the chunk.
Co-mentions (two entities named in one sentence) are not stored as edges: a mention the
offline layer links keeps its sentence (`s_start`/`s_end` in document bytes, `s_char`/`s_len`
in the chunk's characters), and queries/co_mentions.py pairs the mentions of one sentence.
"""

from __future__ import annotations

import uuid
from typing import Any

from .graph import GraphHandle
from .queries.co_mentions import CO_MENTIONED, LIST_CO_MENTIONS, LIST_CO_MENTIONS_OF
from .queries.entities import (
    ANY_SENTENCE,
    DROP_ORPHAN_ENTITIES,
    FORGET_CHUNK_MENTIONS,
    FORGET_CO_MENTIONS,
    IDENTITIES_BY_NORM,
    LIST_RELATIONS,
    RELATION_TYPES,
    REMEMBER_MENTIONS,
    REMEMBER_RELATIONS,
    REPLACE_LINKS,
    WRITE_ENTITIES,
    WRITE_MENTIONS,
    WRITE_RELATIONS,
)

_BATCH = 2000
# A relation row's fields, in the order WRITE_RELATIONS reads them.
_RELATION_FIELDS = (
    "a", "b", "type", "quote", "chunk_id", "document_id", "start_byte", "end_byte", "polarity",
    "modality", "a_start_byte", "a_end_byte", "b_start_byte", "b_end_byte", "description",
)  # fmt: skip

# How a listing may name co-mentions: as shown, or as stores written before typed them.
_CO_MENTION_NAMES = frozenset({"co-mentioned", "co_mentioned", "co-mention"})


def link_identity(row: dict[str, Any]) -> str:
    """What tells one link across files from another (stored with it as `link_id`): its
    ends, type, quote's place and the source's binding."""
    return (
        "|".join(
            str(row[k])
            for k in ("a", "b", "type", "document_id", "start_byte", "binding_document_id")
        )
        + f"|{row['a_start_byte']}"
    )


class EntityRepository:
    def __init__(self, graph: GraphHandle):
        self.graph = graph

    def _write(self, query: str, rows: list[dict[str, Any]] | list[list[Any]]) -> None:
        for start in range(0, len(rows), _BATCH):
            self.graph.query(query, {"rows": rows[start : start + _BATCH]})

    def write_mentions(self, rows: list[dict[str, Any]]) -> None:
        """Mentions located by extraction (extract/mentions.py `mention_row`), creating the
        entities they name: one query for every `_BATCH` rows."""
        for start in range(0, len(rows), _BATCH):
            entities: dict[str, list[Any]] = {}
            chunks: dict[str, list[Any]] = {}
            for m in rows[start : start + _BATCH]:
                known = entities.get(m["key"])
                if known is None:
                    entities[m["key"]] = [m["key"], m["name"], m["type"], m["norm"], [m["name"]]]
                elif m["name"] not in known[4]:
                    known[4].append(m["name"])
                group = chunks.get(m["chunk_id"])
                if group is None:
                    group = chunks[m["chunk_id"]] = [m["chunk_id"], m["document_id"], []]
                group[2].append(
                    [m["key"], m["start_byte"], m["end_byte"], m["count"], m["sentence"]]
                )
            self.graph.query(
                WRITE_MENTIONS,
                {"entities": list(entities.values()), "chunks": list(chunks.values())},
            )

    def write_relations(self, rows: list[dict[str, Any]]) -> None:
        self._write(WRITE_RELATIONS, [[r.get(k) for k in _RELATION_FIELDS] for r in rows])

    def replace_links(
        self,
        types: tuple[str, ...],
        snapshot: list[str],
        chunk_ids: list[str],
        mentions: list[dict[str, Any]],
        relations: list[dict[str, Any]],
    ) -> int | None:
        """Make the relations bound across files (extract/settings_links.py) `relations`,
        keeping those already stored as they are and adding `mentions` where missing, in one
        query; only if the documents of `types` are still `snapshot` ("id@sha256") and hold
        `chunk_ids`. The number of relations removed, or None when the documents changed
        meanwhile (nothing written)."""
        entities = {m["key"]: [m["key"], m["name"], m["type"], m["norm"]] for m in mentions}
        rows = []
        for r in relations:
            row = [*(r.get(k) for k in _RELATION_FIELDS[:-1]), r["binding_document_id"]]
            rows.append([*row, link_identity(r)])
        params = {
            "types": list(types),
            "snapshot": snapshot,
            "chunk_ids": chunk_ids,
            "bindings": [entry.split("@", 1)[0] for entry in snapshot],
            "pass": uuid.uuid4().hex,
            "entities": list(entities.values()),
            "mentions": [
                [m["chunk_id"], m["key"], m["start_byte"], m["end_byte"], m["document_id"]]
                for m in mentions
            ],
            "relations": rows,
        }
        found = self.graph.query(REPLACE_LINKS, params)
        return int(found[0][0]) if found else None

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

    def relations(
        self, norm: str | None, limit: int, relation_type: str | None = None
    ) -> list[list[Any]]:
        """Relations (of the entities named `norm`, or all; of `relation_type`, or every
        type), stated ones first, then co-mentions, up to `limit`."""
        if relation_type is not None and relation_type.casefold() in _CO_MENTION_NAMES:
            relation_type = CO_MENTIONED  # as shown ("co-mentioned") or as stored before
        params = {"norm": norm, "limit": limit, "type": relation_type}
        rows = self.graph.ro_query(LIST_RELATIONS, params)
        if relation_type in (None, CO_MENTIONED) and len(rows) < limit:
            query = LIST_CO_MENTIONS if norm is None else LIST_CO_MENTIONS_OF
            rows += self.graph.ro_query(query, {"norm": norm, "limit": limit - len(rows)})
        return rows

    def relation_types(self) -> list[str]:
        """The types of the relations stored, and "co-mentioned" when there are co-mentions."""
        types = [str(row[0]) for row in self.graph.ro_query(RELATION_TYPES) if row[0]]
        if self.graph.ro_query(ANY_SENTENCE):
            types.append("co-mentioned")
        return types

    def drop_orphans(self) -> int:
        rows = self.graph.query(DROP_ORPHAN_ENTITIES)
        return int(rows[0][0]) if rows else 0
