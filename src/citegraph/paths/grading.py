"""Grading one hop against the sentences behind it.

A hop is `supported` only by a stated relation that is affirmed and actual and whose quote is
still, byte for byte, in the stored text at its span (read back from its chunk here, not
trusted from the edge). Stated relations that are negated, hypothetical or planned make the hop
`insufficient`, and so does one whose quote is no longer where it was stored: the co-mention
their sentence also made does not lift them to `inferred`. A hop with no stated relation, only
a shared sentence, or a relation a caller asserted without a passage, is `inferred`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..extract.modality import DEFAULT_CUES, CueTable, assess
from ..store.graph import GraphHandle
from ..store.queries.co_mentions import CO_MENTIONED
from ..store.queries.paths import EVIDENCE_CHUNKS
from ..text.citations import at_span
from ..values.documents import Citation, TextOrigin
from ..values.paths import EntityRef, Grade, Hop

# Stated relations read per hop, best first: enough to find a citable one among repeats.
MAX_EVIDENCE_PER_HOP = 4


@dataclass(frozen=True)
class Edge:
    """A stored relation met by a walk, seen from the entity it was walked from."""

    walked_from: str  # the key of the entity the walk stood on
    outgoing: bool  # stated from that entity (it is the relation's source)
    other: EntityRef
    other_norm: str
    type: str
    polarity: str | None
    modality: str | None
    weak: bool
    citable: bool
    quote: str | None
    document_id: str | None
    chunk_id: str | None
    start_byte: int | None
    end_byte: int | None

    @staticmethod
    def of(row: list[Any]) -> Edge:
        (k, outgoing, key, name, kind, norm, rtype, polarity, modality, weak, citable, quote,
         doc, chunk, start, end, _source) = row  # fmt: skip
        return Edge(
            k, bool(outgoing), EntityRef(key, name, kind), norm, rtype, polarity, modality,
            bool(weak), bool(citable), quote, doc, chunk, start, end,
        )  # fmt: skip

    def order(self) -> tuple[str, int, str]:
        return (self.document_id or "", self.start_byte or 0, self.other.key)


@dataclass(frozen=True)
class _Chunk:
    id: str
    document_id: str
    start_byte: int
    raw: bytes
    document_name: str
    page_starts: tuple[int, ...]
    origin: TextOrigin | None


class EvidenceReader:
    """Reads the chunks evidence quotes were located in, and cites a quote only when the
    stored bytes at its span are exactly the quote."""

    def __init__(self, graph: GraphHandle, cues: CueTable = DEFAULT_CUES):
        self.graph = graph
        self.cues = cues  # how a relation stored without polarity is read (_reading)
        self._chunks: dict[str, _Chunk | None] = {}

    def prefetch(self, chunk_ids: list[str]) -> None:
        missing = sorted({c for c in chunk_ids if c and c not in self._chunks})
        if not missing:
            return
        for chunk_id in missing:
            self._chunks[chunk_id] = None
        rows = self.graph.ro_query(EVIDENCE_CHUNKS, {"ids": missing})
        for cid, doc, start, text, name, pages, kind, source, method in rows:
            origin = TextOrigin(kind, source or "", method or "") if kind else None
            self._chunks[cid] = _Chunk(
                cid, doc, int(start), text.encode(), name, tuple(pages or ()), origin
            )

    def cite(self, edge: Edge) -> tuple[Citation, str] | None:
        """The edge's quote as a verified citation, with its document's name; None when it
        has no quote or the stored bytes at its span are not the quote."""
        if not (edge.citable and edge.quote and edge.chunk_id) or edge.start_byte is None:
            return None
        if edge.end_byte is None or edge.document_id is None:
            return None
        return self.span(
            edge.chunk_id, edge.document_id, edge.start_byte, edge.end_byte, edge.quote
        )

    def span(
        self, chunk_id: str, document_id: str, start: int, end: int, expected: str | None = None
    ) -> tuple[Citation, str] | None:
        """The stored bytes [start, end) of a document, read from its chunk, as a citation with
        its document's name; None when the chunk is gone, the span is not inside it, or the
        bytes are not `expected` (when given) or not whole characters."""
        self.prefetch([chunk_id])
        chunk = self._chunks.get(chunk_id)
        if chunk is None or chunk.document_id != document_id:
            return None
        low, high = start - chunk.start_byte, end - chunk.start_byte
        if not 0 <= low < high <= len(chunk.raw):
            return None
        stored = chunk.raw[low:high]
        if expected is not None and stored != expected.encode():
            return None
        try:
            quote = stored.decode()
        except UnicodeDecodeError:
            return None
        citation = at_span(
            chunk.document_id, chunk.id, start, end, quote, chunk.page_starts, chunk.origin
        )
        return citation, chunk.document_name

    def chunk_text(self, chunk_id: str) -> tuple[int, str] | None:
        """A chunk's first byte in its document and its stored text."""
        self.prefetch([chunk_id])
        chunk = self._chunks.get(chunk_id)
        return None if chunk is None else (chunk.start_byte, chunk.raw.decode())


def _reading(edge: Edge, subject: str, target: str, cues: CueTable) -> tuple[str, str]:
    """Polarity and modality of a stated relation; assessed from its quote when the store
    has none (a relation a caller remembered)."""
    if edge.polarity and edge.modality:
        return edge.polarity, edge.modality
    quote = edge.quote or ""
    lowered = quote.lower()
    ends = []
    for name in (subject, target):
        at = lowered.find(name.lower())
        ends.append((at, at + len(name)) if at >= 0 else (0, 0))
    polarity, modality = assess(quote, tuple(ends), cues)
    return edge.polarity or polarity.value, edge.modality or modality.value


def _doubt(polarity: str, modality: str) -> str:
    if polarity != "affirmed":
        return "the sentence says it does not hold (negated)"
    if modality == "planned":
        return "the sentence says it is planned, not in place"
    return f"the sentence says it only might hold ({modality})"


def grade(start: EntityRef, end: EntityRef, edges: list[Edge], reader: EvidenceReader) -> Hop:
    """The hop from `start` to `end`, graded by its best evidence among `edges` (the
    relations between them that the walk may follow)."""

    def hop(edge: Edge, grade: Grade, reason: str | None, cited: tuple[Citation, str] | None,
            reading: tuple[str | None, str | None] = (None, None)) -> Hop:  # fmt: skip
        subject, obj = (start, end) if edge.outgoing else (end, start)
        relation = "co-mentioned" if edge.type == CO_MENTIONED else edge.type
        return Hop(
            start, end, subject.name, relation, obj.name, grade, reason,
            cited[0] if cited else None, cited[1] if cited else None, *reading,
        )  # fmt: skip

    stated = sorted((e for e in edges if not e.weak), key=Edge.order)[:MAX_EVIDENCE_PER_HOP]
    doubtful: tuple[Edge, tuple[Citation, str], tuple[str, str]] | None = None
    uncited: Edge | None = None
    for edge in stated:
        subject, obj = (start, end) if edge.outgoing else (end, start)
        reading = _reading(edge, subject.name, obj.name, reader.cues)
        cited = reader.cite(edge)
        if cited is None:
            uncited = uncited or edge
        elif reading == ("affirmed", "actual"):
            return hop(edge, Grade.SUPPORTED, None, cited, reading)
        elif doubtful is None:
            doubtful = (edge, cited, reading)
    if doubtful is not None:
        edge, cited, reading = doubtful
        return hop(edge, Grade.INSUFFICIENT, _doubt(*reading), cited, reading)
    if uncited is not None:
        if uncited.citable and uncited.quote:
            reason = "its quote is no longer the stored text at its span"
            return hop(uncited, Grade.INSUFFICIENT, reason, None)
        reason = "asserted by a caller, with no passage in the store that says it"
        return hop(uncited, Grade.INFERRED, reason, None)
    weak = sorted(edges, key=Edge.order)
    for edge in weak:
        cited = reader.cite(edge)
        if cited is not None:
            reason = "only named in the same sentence; no sentence states a relation"
            return hop(edge, Grade.INFERRED, reason, cited)
    reason = "only named in the same sentence, whose quote is no longer the stored text"
    return hop(weak[0], Grade.INSUFFICIENT, reason, None)


def ambiguous_hop(start: EntityRef, end: EntityRef, edge: Edge) -> Hop:
    """A hop to a name that means several entities: not walked, never guessed."""
    subject, obj = (start, end) if edge.outgoing else (end, start)
    relation = "co-mentioned" if edge.type == CO_MENTIONED else edge.type
    reason = f"ambiguous: {end.name!r} names several entities; pick one by its key to walk on"
    return Hop(start, end, subject.name, relation, obj.name, Grade.INSUFFICIENT, reason, None)
