"""Adopting another tool's graph into a scope, with citegraph's rules for what is kept.

Each adopted chunk is located: in the source file of its document's name under `sources`,
else in its document's text when the tool kept it; those documents are stored (their bytes, chunked
by citegraph) and cite with `grounding: source`. A chunk found nowhere is stored as its own
text and cites with `grounding: chunk`. Each adopted entity is searched for in the text of
its own chunks with the quote matcher: located mentions are stored as mentions; an entity
with none is stored `unsupported` (listed, never cited). A relation is `supported`, with the
sentence as its quote, only when one sentence of its chunks names both ends; otherwise it is
stored uncited (`inferred`). The tool's descriptions are kept as its words, never as a
citation. Everything is merged, never created twice: adopting the same output again adds
nothing, and a newer run of the same tool replaces what the older one adopted.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..extract.mentions import entity_key, locate_name, normalise_name
from ..text.fold import FoldedText
from ..text.sentences import sentence_spans
from ..values.documents import ADOPTED_CHUNK, Chunk, Document, TextOrigin
from .model import AdoptedGraph, AdoptReport

if TYPE_CHECKING:
    from ..scope import Scope


@dataclass(frozen=True)
class StoredDocument:
    """A stored document, its chunks, and its text read from them once."""

    document: Document
    ours: tuple[Chunk, ...]  # citegraph's chunks, which tile the stored text

    @cached_property
    def text(self) -> str:
        return "".join(c.text for c in self.ours)

    @cached_property
    def _folded(self) -> FoldedText:
        return FoldedText(self.text)

    def byte(self, char: int) -> int:
        """The byte offset of character `char` of the stored text."""
        return self._folded.byte_offset(char)


@dataclass(frozen=True)
class Placed:
    """Where an adopted chunk's text lies in a stored document (character offsets); its
    text prepared once for the names and sentences searched in it."""

    home: StoredDocument
    start: int
    end: int

    @cached_property
    def passage(self) -> str:
        return self.home.text[self.start : self.end]

    @cached_property
    def folded(self) -> FoldedText:
        return FoldedText(self.passage)

    @cached_property
    def sentences(self) -> list[tuple[int, int]]:
        return list(sentence_spans(self.passage))


def _find(text: str, passage: str, after: int) -> int:
    at = text.find(passage, after)
    return at if at >= 0 else text.find(passage)


def _source_file(sources: Path | None, name: str) -> Path | None:
    if sources is None:
        return None
    for candidate in (sources / name, sources / Path(name).name):
        if candidate.is_file() and candidate.resolve().is_relative_to(sources.resolve()):
            return candidate
    return None


def _containing(ours: Iterable[Chunk], start: int, end: int) -> Chunk | None:
    for chunk in ours:
        if chunk.start_byte <= start and end <= chunk.end_byte:
            return chunk
    return None


def place_chunks(
    scope: Scope, graph: AdoptedGraph, sources: Path | None, report: AdoptReport
) -> dict[str, Placed]:
    """Store what the chunks need (documents, source files, or their own text) and say where
    each chunk's text lies."""
    origin = TextOrigin("adopted", graph.tool, "adopt")
    stored: dict[str, Document] = {}
    # A source file, when given, is the truest text (the tool may have trimmed its copy).
    for doc in graph.documents:
        path = _source_file(sources, doc.name)
        if path is not None:
            [result] = scope.ingest(path, name=doc.name)
            stored[doc.id] = result.document
    with_text = [d for d in graph.documents if d.text and d.id not in stored]
    if with_text:
        items = [(d.name, (d.text or "").encode()) for d in with_text]
        for doc, result in zip(with_text, scope.ingest_many(items, origin=origin), strict=True):
            stored[doc.id] = result.document
    homes = {key: StoredDocument(d, tuple(scope.chunks(d.id))) for key, d in stored.items()}
    placed: dict[str, Placed] = {}
    unplaced = []
    cursor: dict[str, int] = {}
    for chunk in graph.chunks:
        key = chunk.document_id
        if key in homes and key is not None and chunk.text:
            home = homes[key]
            at = _find(home.text, chunk.text, cursor.get(key, 0))
            if at >= 0:
                cursor[key] = at + 1
                placed[chunk.id] = Placed(home, at, at + len(chunk.text))
                continue
        unplaced.append(chunk)
    report.chunks = len(graph.chunks)
    report.chunks_in_source = len(placed)
    own = [c for c in unplaced if c.text.strip()]
    report.unlocated_chunks = [c.id for c in unplaced if not c.text.strip()]
    if own:
        items = [(f"{graph.tool} chunk {c.id}", c.text.encode()) for c in own]
        own_origin = TextOrigin(ADOPTED_CHUNK, graph.tool, "adopt")
        results = scope.ingest_many(items, media_type="text/plain", origin=own_origin)
        for chunk, result in zip(own, results, strict=True):
            home = StoredDocument(result.document, tuple(scope.chunks(result.document.id)))
            placed[chunk.id] = Placed(home, 0, len(home.text))
    report.chunks_as_own_text = len(own)
    report.documents = len({p.home.document.id for p in placed.values()})
    return placed


def entity_rows(
    graph: AdoptedGraph, placed: dict[str, Placed], report: AdoptReport
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, list[tuple[str, frozenset[str]]]]]:
    """Entity rows, mention rows, and each name's key (for the relations' ends)."""
    entities: list[dict[str, Any]] = []
    mentions: list[dict[str, Any]] = []
    key_of: dict[str, list[tuple[str, frozenset[str]]]] = {}
    types_of: dict[str, set[str]] = {}
    for entity in graph.entities:
        key = entity_key(entity.name, entity.type)
        key_of.setdefault(entity.name, []).append((key, frozenset(entity.chunk_ids)))
        types_of.setdefault(normalise_name(entity.name), set()).add(entity.type)
        found = 0
        for chunk_id in entity.chunk_ids:
            spot = placed.get(chunk_id)
            if spot is None:
                continue
            match = locate_name(entity.name, spot.folded)
            if match is None:
                continue
            start = spot.home.byte(spot.start) + match.start_byte
            end = start + (match.end_byte - match.start_byte)
            ours = _containing(spot.home.ours, start, end)
            if ours is None:
                continue  # across two of citegraph's chunks: not one chunk's span
            found += 1
            mentions.append({
                "key": key, "name": entity.name, "type": entity.type,
                "norm": normalise_name(entity.name), "chunk_id": ours.id,
                "document_id": spot.home.document.id, "start_byte": start, "end_byte": end,
                "count": match.count,
            })  # fmt: skip
        entities.append({
            "key": key, "name": entity.name, "type": entity.type,
            "norm": normalise_name(entity.name), "description": entity.description,
            "unsupported": found == 0,
        })  # fmt: skip
        if found:
            report.entities_located += 1
        else:
            report.entities_unsupported.append(f"{entity.name} ({entity.type})")
    report.entities = len(graph.entities)
    report.mentions = len(mentions)
    report.same_name_other_type = sorted(
        f"{name}: {', '.join(sorted(kinds))}" for name, kinds in types_of.items() if len(kinds) > 1
    )
    return entities, mentions, key_of


def _sentence_with_both(spot: Placed, a: str, b: str) -> tuple[int, int, str] | None:
    """The first sentence of the chunk's text that names both, as document byte offsets."""
    for start, end in spot.sentences:
        sentence = spot.passage[start:end]
        folded = FoldedText(sentence)
        if locate_name(a, folded) is not None and locate_name(b, folded) is not None:
            lo = spot.home.byte(spot.start + start)
            return lo, lo + len(sentence.encode()), sentence
    return None


def _end(keys: list[tuple[str, frozenset[str]]] | None, chunks: tuple[str, ...]) -> str | None:
    """The entity a relation's end names: of several with that name (other types), the one
    that shares a passage with the relation."""
    if not keys:
        return None
    for key, own in keys:
        if own.intersection(chunks):
            return key
    return keys[0][0]


def relation_rows(
    graph: AdoptedGraph,
    placed: dict[str, Placed],
    key_of: dict[str, list[tuple[str, frozenset[str]]]],
    report: AdoptReport,
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for relation in graph.relations:
        a = _end(key_of.get(relation.source), relation.chunk_ids)
        b = _end(key_of.get(relation.target), relation.chunk_ids)
        if a is None or b is None:
            report.dropped["end-not-an-entity"] = report.dropped.get("end-not-an-entity", 0) + 1
            continue
        base = {
            "a": a, "b": b, "type": "RELATED", "keywords": relation.keywords,
            "description": relation.description, "weight": relation.weight,
        }  # fmt: skip
        grounded = None
        for chunk_id in relation.chunk_ids:
            spot = placed.get(chunk_id)
            found = _sentence_with_both(spot, relation.source, relation.target) if spot else None
            if spot is not None and found is not None:
                ours = _containing(spot.home.ours, found[0], found[1])
                if ours is not None:
                    grounded = (spot, ours, found)
                    break
        if grounded is None:
            report.relations_inferred += 1
            rows.append({**base, "citable": False, "quote": None, "chunk_id": "",
                         "document_id": None, "start_byte": None, "end_byte": None})  # fmt: skip
            continue
        spot, ours, (start, end, sentence) = grounded
        report.relations_supported += 1
        rows.append({**base, "citable": True, "quote": sentence, "chunk_id": ours.id,
                     "document_id": spot.home.document.id, "start_byte": start,
                     "end_byte": end})  # fmt: skip
    report.relations = len(graph.relations)
    return rows


def run_id(graph: AdoptedGraph) -> str:
    """The tool and a digest of everything adopted from its output: equal for the same
    output, different for any other run."""
    body = json.dumps(asdict(graph), sort_keys=True, ensure_ascii=False, default=str)
    return f"{graph.tool}:{hashlib.sha256(body.encode()).hexdigest()[:32]}"


def adopt_into(scope: Scope, graph: AdoptedGraph, sources: Path | None) -> AdoptReport:
    """Adopt `graph` (already read and checked whole) into `scope`: its documents first (each
    stored whole, by ingest), then its graph in one query that also removes what an older run
    of the same tool left (store/queries/adopt.py)."""
    from ..store.queries.adopt import ADOPT_RUN, ADOPTED_RUN

    report = AdoptReport(graph.tool, graph.version, scope.name)
    run = run_id(graph)
    [[previous]] = scope.graph.ro_query(ADOPTED_RUN, {"tool": graph.tool})
    report.run = run
    report.replaced_run = previous if previous not in (None, run) else None
    placed = place_chunks(scope, graph, sources, report)
    entities, mentions, key_of = entity_rows(graph, placed, report)
    relations = relation_rows(graph, placed, key_of, report)
    reports = [
        {"key": f"{graph.tool}:{r.id}", "title": r.title, "summary": r.summary,
         "full_content": r.full_content,
         "entities": [entity_key(name, kind) for name, kind in r.entities]}
        for r in graph.reports
    ]  # fmt: skip
    report.community_reports = len(reports)
    params = {
        "tool": graph.tool, "version": graph.version, "run": run,
        "tool_prefix": f"{graph.tool}:", "source": f"adopted:{graph.tool}",
        "entities": entities, "mentions": mentions, "relations": relations, "reports": reports,
    }  # fmt: skip
    [[relations_removed, reports_removed, mentions_removed, entities_removed]] = scope.graph.query(
        ADOPT_RUN, params
    )
    report.removed = {
        name: int(count)
        for name, count in (
            ("entities", entities_removed), ("mentions", mentions_removed),
            ("relations", relations_removed), ("community reports", reports_removed),
        )
        if count
    }  # fmt: skip
    return report
