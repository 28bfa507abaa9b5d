"""A Microsoft GraphRAG output folder, read (parquet, with pyarrow: the `adopt` extra).

2.x and 3.x write `documents.parquet` (id, title, text), `text_units.parquet` (id, text, and
`document_ids`, a list, in 2.x, or `document_id` in 3.x), `entities.parquet` (title, type,
description, text_unit_ids), `relationships.parquet` (source and target as entity titles,
description, weight, text_unit_ids). Versions before 2.0 wrote `create_final_*.parquet`: they
are refused by name. Text unit ids are sha512 of their text; entity and relationship ids are
random per run, so entities are matched by title and type, never by id.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import AdoptionError
from .model import (
    AdoptedChunk,
    AdoptedDocument,
    AdoptedEntity,
    AdoptedGraph,
    AdoptedRelation,
    AdoptedReport,
)

TABLES = ("documents", "text_units", "entities", "relationships")


def is_graphrag(path: Path) -> bool:
    return path.is_dir() and (
        (path / "text_units.parquet").is_file() or any(path.glob("create_final_*.parquet"))
    )


def _rows(path: Path, needs: tuple[str, ...]) -> list[dict[str, Any]]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise AdoptionError(
            "reading GraphRAG output needs pyarrow: pip install 'citegraph[adopt]'"
        ) from None
    if not path.is_file():
        raise AdoptionError(f"{path}: missing (a GraphRAG output folder holds it)")
    try:
        table = pq.read_table(path)
    except Exception as exc:
        raise AdoptionError(f"{path}: not a readable parquet file ({exc})") from None
    missing = [column for column in needs if column not in table.column_names]
    if missing:
        raise AdoptionError(
            f"{path}: no column {', '.join(missing)} (columns: {table.column_names})"
        )
    return list(table.to_pylist())


def _text(row: dict[str, Any], column: str, path: Path) -> str:
    value = row.get(column)
    if not isinstance(value, str):
        raise AdoptionError(f"{path}: a row whose {column!r} is not text ({row.get('id')!r})")
    return value


def _ids(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list | tuple) else ()


def read_graphrag(path: Path) -> AdoptedGraph:
    """The whole output, checked before anything is adopted."""
    if any(path.glob("create_final_*.parquet")) and not (path / "text_units.parquet").exists():
        raise AdoptionError(
            f"{path}: GraphRAG before 2.0 (create_final_*.parquet) is not adopted; run it again "
            "with GraphRAG 2 or 3, or adopt its text_units from a newer run"
        )
    docs = _rows(path / "documents.parquet", ("id", "text"))
    units = _rows(path / "text_units.parquet", ("id", "text"))
    entities = _rows(path / "entities.parquet", ("title", "type", "text_unit_ids"))
    relations = _rows(path / "relationships.parquet", ("source", "target", "text_unit_ids"))
    v3 = bool(units) and "document_id" in units[0]
    reports = _reports(path, entities)
    documents = tuple(
        AdoptedDocument(
            str(row["id"]),
            str(row["title"]) if isinstance(row.get("title"), str) else str(row["id"]),
            _text(row, "text", path / "documents.parquet"),
        )
        for row in docs
    )
    chunks = []
    for order, row in enumerate(units):
        owner = row.get("document_id") if v3 else next(iter(_ids(row.get("document_ids"))), None)
        chunks.append(
            AdoptedChunk(
                str(row["id"]),
                _text(row, "text", path / "text_units.parquet"),
                str(owner) if owner is not None else None,
                int(row.get("human_readable_id") or order),
            )
        )
    return AdoptedGraph(
        tool="graphrag",
        version="GraphRAG 3.x layout (text_units.document_id)"
        if v3
        else "GraphRAG 2.x layout (text_units.document_ids)",
        documents=documents,
        chunks=tuple(chunks),
        entities=tuple(
            AdoptedEntity(
                _text(row, "title", path / "entities.parquet"),
                str(row.get("type") or "unknown").strip().lower() or "unknown",
                str(row.get("description") or ""),
                _ids(row.get("text_unit_ids")),
            )
            for row in entities
        ),
        relations=tuple(
            AdoptedRelation(
                _text(row, "source", path / "relationships.parquet"),
                _text(row, "target", path / "relationships.parquet"),
                "",
                str(row.get("description") or ""),
                float(row["weight"]) if isinstance(row.get("weight"), int | float) else None,
                _ids(row.get("text_unit_ids")),
            )
            for row in relations
        ),
        reports=reports,
    )


def _reports(path: Path, entities: list[dict[str, Any]]) -> tuple[AdoptedReport, ...]:
    """Community reports, each with its community's entities (from communities.parquet,
    through GraphRAG's entity ids, which hold within one run); none when absent."""
    if not (path / "community_reports.parquet").is_file():
        return ()
    rows = _rows(path / "community_reports.parquet", ("community", "title"))
    members: dict[str, tuple[str, ...]] = {}
    if (path / "communities.parquet").is_file():
        for row in _rows(path / "communities.parquet", ("community", "entity_ids")):
            members[str(row["community"])] = _ids(row.get("entity_ids"))
    by_id = {
        str(e.get("id")): (str(e["title"]), str(e.get("type") or "unknown").strip().lower())
        for e in entities
    }
    return tuple(
        AdoptedReport(
            str(row["community"]),
            str(row.get("title") or ""),
            str(row.get("summary") or ""),
            str(row.get("full_content") or ""),
            tuple(by_id[i] for i in members.get(str(row["community"]), ()) if i in by_id),
        )
        for row in rows
    )
