"""Rows that cite: each chunk, document, entity, mention or relation a row holds is cited from
the stored bytes, read again by its id (the row's own text is never the citation).

A chunk cites its whole text; a relation its evidence quote, only when the stored bytes at its
span are still that quote; a mention the name where it is written; an entity where it is first
named; a document the first sentence of its first passage. Anything else (a count, a name
returned as text) cites nothing, and its row is said to be uncited.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..paths.grading import EvidenceReader
from ..store.graph import GraphHandle
from ..store.plain import StoredEdge, StoredNode, StoredPath
from ..store.queries.graphq import CHUNK_AT, FIRST_CHUNKS, FIRST_MENTIONS
from ..text.sentences import sentence_spans
from ..values.documents import Citation
from ..values.graphq import RowCitations

MAX_CITATIONS_PER_ROW = 5
_OPENING_CHARS = 300  # a document's opening is cut here when its first sentence runs on


@dataclass(frozen=True)
class _Want:
    """Something a row holds that can be cited, before its chunk is known."""

    kind: str  # chunk, relation, mention, entity, document
    key: str  # chunk id, entity key or document id; a mention's own key
    document_id: str = ""
    start: int = 0
    end: int = 0
    quote: str | None = None


def cite_rows(graph: GraphHandle, rows: list[list[Any]]) -> list[RowCitations]:
    wants = [[w for value in row for w in _wanted(value)] for row in rows]
    every = [w for row in wants for w in row]
    chunk_of = _chunks_of(graph, every)
    named = _first_mentions(graph, every)
    reader = EvidenceReader(graph)
    reader.prefetch(sorted({*chunk_of.values(), *(w.key for w in named.values())}))
    cited: list[RowCitations] = []
    for index, row in enumerate(wants):
        found: list[tuple[Citation, str]] = []
        for want in row:
            hit = _cite(reader, want, chunk_of, named)
            if hit is not None and all(hit[0] != c for c, _ in found):
                found.append(hit)
            if len(found) == MAX_CITATIONS_PER_ROW:
                break
        if found:
            cited.append(
                RowCitations(index, tuple(c for c, _ in found), tuple(n for _, n in found))
            )
    return cited


def _wanted(value: Any) -> Iterator[_Want]:
    if isinstance(value, StoredNode):
        yield from _node(value)
    elif isinstance(value, StoredEdge):
        yield from _edge(value)
    elif isinstance(value, StoredPath):
        for edge in value.edges:
            yield from _edge(edge)
    elif isinstance(value, list):
        for item in value:
            yield from _wanted(item)


def _node(node: StoredNode) -> Iterator[_Want]:
    p = node.properties
    if "Chunk" in node.labels and _has(p, "id", "document_id", "start_byte", "end_byte"):
        if not p.get("furniture"):
            yield _Want(
                "chunk", str(p["id"]), str(p["document_id"]), p["start_byte"], p["end_byte"]
            )
    elif "Document" in node.labels and p.get("id"):
        yield _Want("document", str(p["id"]), str(p["id"]))
    elif "Entity" in node.labels and p.get("key"):
        yield _Want("entity", str(p["key"]))


def _edge(edge: StoredEdge) -> Iterator[_Want]:
    p = edge.properties
    spanned = _has(p, "document_id", "start_byte", "end_byte")
    if edge.type == "RELATES" and spanned and p.get("citable") and p.get("quote"):
        yield _Want(
            "relation", str(p.get("chunk_id") or ""), str(p["document_id"]),
            p["start_byte"], p["end_byte"], str(p["quote"]),
        )  # fmt: skip
    elif edge.type == "MENTIONED_IN" and spanned:
        key = f"{p['document_id']}:{p['start_byte']}"
        yield _Want("mention", key, str(p["document_id"]), p["start_byte"], p["end_byte"])


def _has(p: dict[str, Any], *names: str) -> bool:
    return all(p.get(n) is not None for n in names)


def _chunks_of(graph: GraphHandle, wants: list[_Want]) -> dict[tuple[str, str], str]:
    """(kind, key) -> the chunk to read, for wants that do not carry their chunk id."""
    found: dict[tuple[str, str], str] = {}
    for w in wants:
        if w.kind in ("chunk", "relation") and w.key:
            found[(w.kind, w.key)] = w.key
    spans = {w.key: w for w in wants if w.kind == "mention"}
    if spans:
        asked = [
            {"key": k, "document_id": w.document_id, "start_byte": w.start}
            for k, w in spans.items()
        ]
        rows = graph.ro_query(CHUNK_AT, {"spans": asked})
        found.update({("mention", str(k)): str(c) for k, c in rows})
    documents = sorted({w.key for w in wants if w.kind == "document"})
    if documents:
        rows = graph.ro_query(FIRST_CHUNKS, {"ids": documents})
        found.update({("document", str(d)): str(c) for d, c in rows if c})
    return found


def _first_mentions(graph: GraphHandle, wants: list[_Want]) -> dict[str, _Want]:
    """Entity key -> where it is first named (a mention, with its chunk id as key)."""
    keys = sorted({w.key for w in wants if w.kind == "entity"})
    if not keys:
        return {}
    return {
        str(key): _Want("mention", str(first[0]), str(first[1]), int(first[2]), int(first[3]))
        for key, first in graph.ro_query(FIRST_MENTIONS, {"keys": keys})
        if first
    }


def _cite(
    reader: EvidenceReader,
    want: _Want,
    chunk_of: dict[tuple[str, str], str],
    named: dict[str, _Want],
) -> tuple[Citation, str] | None:
    if want.kind == "entity":
        first = named.get(want.key)
        if first is None:
            return None
        return reader.span(first.key, first.document_id, first.start, first.end)
    where = chunk_of.get((want.kind, want.key))
    if where is None:
        return None
    if want.kind == "document":
        return _opening(reader, where, want.document_id)
    return reader.span(where, want.document_id, want.start, want.end, want.quote)


def _opening(
    reader: EvidenceReader, chunk_id: str, document_id: str
) -> tuple[Citation, str] | None:
    stored = reader.chunk_text(chunk_id)
    if stored is None:
        return None
    chunk_start, text = stored
    spans = sentence_spans(text)
    low, high = spans[0] if spans else (0, len(text))
    high = min(high, low + _OPENING_CHARS)
    start = chunk_start + len(text[:low].encode())
    end = chunk_start + len(text[:high].encode())
    return reader.span(chunk_id, document_id, start, end) if end > start else None
