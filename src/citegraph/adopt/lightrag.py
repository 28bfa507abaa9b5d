"""A LightRAG working directory, read: `kv_store_full_docs.json` (document id -> content,
file_path), `kv_store_text_chunks.json` (chunk id -> content, full_doc_id,
chunk_order_index), and `graph_chunk_entity_relation.graphml` (nodes: entity_id,
entity_type, description, source_id as `<SEP>`-joined chunk ids; edges: description,
keywords, weight, source_id). The vector stores (`vdb_*.json`) are not read: citegraph
finds passages by its own means, and embeds again if asked to."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from ..errors import AdoptionError
from .model import AdoptedChunk, AdoptedDocument, AdoptedEntity, AdoptedGraph, AdoptedRelation

DOCS = "kv_store_full_docs.json"
CHUNKS = "kv_store_text_chunks.json"
GRAPH = "graph_chunk_entity_relation.graphml"
SEP = "<SEP>"
_NS = "{http://graphml.graphdrawing.org/xmlns}"


def is_lightrag(path: Path) -> bool:
    return (path / CHUNKS).is_file() and (path / GRAPH).is_file()


def _json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AdoptionError(f"{path}: missing (a LightRAG directory holds it)") from None
    except UnicodeDecodeError as exc:
        raise AdoptionError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise AdoptionError(
            f"{path}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    if not isinstance(data, dict):
        raise AdoptionError(f"{path}: expected a JSON object of records")
    return data


def _record(path: Path, key: str, value: Any, needs: str) -> dict[str, Any]:
    if not isinstance(value, dict) or not isinstance(value.get(needs), str):
        raise AdoptionError(f"{path}: record {key!r} has no text field {needs!r}")
    return value


def _ids(raw: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (raw or "").split(SEP) if part.strip())


def _graph(path: Path) -> tuple[list[AdoptedEntity], list[AdoptedRelation]]:
    try:
        root = ET.parse(path).getroot()
    except FileNotFoundError:
        raise AdoptionError(f"{path}: missing (a LightRAG directory holds it)") from None
    except ET.ParseError as exc:
        raise AdoptionError(f"{path}: not a whole GraphML file ({exc})") from None
    names = {k.get("id"): k.get("attr.name") for k in root.iter(f"{_NS}key")}

    def fields(element: ET.Element) -> dict[str, str]:
        return {
            str(names.get(d.get("key"), d.get("key"))): d.text or ""
            for d in element.findall(f"{_NS}data")
        }

    entities = []
    for node in root.iter(f"{_NS}node"):
        data = fields(node)
        name = data.get("entity_id") or node.get("id") or ""
        if not name.strip():
            raise AdoptionError(f"{path}: a node without an entity name")
        entities.append(
            AdoptedEntity(
                name=name,
                type=(data.get("entity_type") or "unknown").strip().lower() or "unknown",
                description=data.get("description", ""),
                chunk_ids=_ids(data.get("source_id")),
            )
        )
    relations = []
    for edge in root.iter(f"{_NS}edge"):
        data = fields(edge)
        source, target = edge.get("source"), edge.get("target")
        if not source or not target:
            raise AdoptionError(f"{path}: an edge without both ends")
        try:
            weight = float(data["weight"]) if data.get("weight") else None
        except ValueError:
            weight = None
        relations.append(
            AdoptedRelation(
                source=source,
                target=target,
                keywords=data.get("keywords", ""),
                description=data.get("description", ""),
                weight=weight,
                chunk_ids=_ids(data.get("source_id")),
            )
        )
    return entities, relations


def read_lightrag(path: Path) -> AdoptedGraph:
    """The whole directory, checked before anything is adopted; `AdoptionError` naming the
    file and what is wrong otherwise."""
    if not path.is_dir():
        raise AdoptionError(f"{path}: not a directory (a LightRAG working directory is one)")
    docs_path = path / DOCS
    docs_raw = _json(docs_path) if docs_path.exists() else {}
    documents = []
    for key, value in docs_raw.items():
        record = _record(docs_path, key, value, "content")
        name = record.get("file_path") if isinstance(record.get("file_path"), str) else None
        if not name or name in ("unknown_source", "no-file-path"):
            name = key
        documents.append(AdoptedDocument(key, name, record["content"]))
    chunks_path = path / CHUNKS
    chunks_raw = _json(chunks_path)
    chunks = []
    for key, value in chunks_raw.items():
        record = _record(chunks_path, key, value, "content")
        doc = record.get("full_doc_id")
        order = record.get("chunk_order_index")
        chunks.append(
            AdoptedChunk(
                key,
                record["content"],
                doc if isinstance(doc, str) else None,
                order if isinstance(order, int) else 0,
            )
        )
    # Without the documents' store, each chunk still names its document and file.
    known = {d.id for d in documents}
    for value in chunks_raw.values():
        doc, file_path = value.get("full_doc_id"), value.get("file_path")
        if isinstance(doc, str) and doc not in known:
            named = file_path if isinstance(file_path, str) and file_path else doc
            documents.append(AdoptedDocument(doc, named, None))
            known.add(doc)
    entities, relations = _graph(path / GRAPH)
    return AdoptedGraph(
        tool="lightrag",
        version="LightRAG working directory (JSON key-value stores, NetworkX GraphML)",
        documents=tuple(documents),
        chunks=tuple(sorted(chunks, key=lambda c: (c.document_id or "", c.order, c.id))),
        entities=tuple(entities),
        relations=tuple(relations),
    )
