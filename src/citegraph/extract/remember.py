"""`remember`: facts a caller already knows, each mention located in its passage first."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import UsageError
from ..store.entities import EntityRepository
from ..text.fold import FoldedText
from ..text.sentences import sentence_spans
from ..values.documents import Chunk, Document, IngestResult, TextOrigin
from ..values.facts import EntityFact, Facts, Passage, RelationFact, RememberResult
from .mentions import entity_key, locate_name, normalise_name


def check_facts(source: str, facts: Facts, passages: Sequence[Passage]) -> dict[str, EntityFact]:
    if not source or not source.strip():
        raise UsageError("remember needs a source label (where these facts come from)")
    by_name: dict[str, EntityFact] = {}
    for entity in facts.entities:
        if not entity.name.strip() or not entity.type.strip():
            raise UsageError("every entity needs a name and a type")
        by_name.setdefault(normalise_name(entity.name), entity)
    for relation in facts.relations:
        for end in (relation.source, relation.target):
            if normalise_name(end) not in by_name:
                raise UsageError(f"relation {relation.type!r}: {end!r} is not among facts.entities")
        if not relation.type.strip():
            raise UsageError("every relation needs a type")
    for index, passage in enumerate(passages, start=1):
        if not passage.text.strip():
            raise UsageError(f"passage {index} is empty")
    # Checked before anything is stored, so a bad field never leaves half a call behind.
    texts = [source, *(e.name for e in facts.entities), *(e.type for e in facts.entities)]
    texts += [v for r in facts.relations for v in (r.source, r.target, r.type)]
    texts += [v for p in passages for v in (p.text, *p.mentions)]
    if any("\x00" in text for text in texts):
        raise UsageError("remember: a field contains a NUL character, which cannot be stored")
    return by_name


@dataclass
class Located:
    """Where each entity key was located, per chunk: key -> (chunk, char span, byte span)."""

    spots: dict[str, list[tuple[Chunk, int, int, int, int]]] = field(default_factory=dict)


def locate_mentions(
    passage: Passage,
    index: int,
    document: Document,
    chunks: list[Chunk],
    by_name: dict[str, EntityFact],
    located: Located,
) -> tuple[list[dict[str, Any]], list[str]]:
    """Mention rows for what was found in the passage's chunks; what was not, as messages."""
    rows: list[dict[str, Any]] = []
    missing: list[str] = []
    prepared = [(chunk, FoldedText(chunk.text)) for chunk in chunks]
    for mention in passage.mentions:
        fact = by_name.get(normalise_name(mention), EntityFact(mention, "name"))
        key = entity_key(fact.name, fact.type)
        hit = None
        for chunk, folded in prepared:
            match = locate_name(mention, folded)
            if match is not None:
                hit = (chunk, match)
                break
        if hit is None:
            missing.append(f"passage {index}: mention {mention!r} is not in its text")
            continue
        chunk, match = hit
        start = chunk.start_byte + match.start_byte
        end = chunk.start_byte + match.end_byte
        located.spots.setdefault(key, []).append(
            (chunk, match.start_char, match.end_char, start, end)
        )
        rows.append({
            "key": key, "name": fact.name, "type": fact.type, "norm": normalise_name(fact.name),
            "chunk_id": chunk.id, "document_id": document.id, "start_byte": start,
            "end_byte": end, "count": match.count,
        })  # fmt: skip
    return rows, missing


def relation_rows(
    relations: Sequence[RelationFact],
    by_name: dict[str, EntityFact],
    located: Located,
    source: str,
) -> tuple[list[dict[str, Any]], list[RelationFact]]:
    """A relation is citable when one chunk mentions both ends: its quote is the smallest run
    of sentences holding both mentions. Otherwise it is stored as asserted, never citable."""
    rows: list[dict[str, Any]] = []
    asserted: list[RelationFact] = []
    for relation in relations:
        a = by_name[normalise_name(relation.source)]
        b = by_name[normalise_name(relation.target)]
        key_a, key_b = entity_key(a.name, a.type), entity_key(b.name, b.type)
        grounded = None
        for chunk_a, sa, ea, _, _ in located.spots.get(key_a, []):
            for chunk_b, sb, eb, _, _ in located.spots.get(key_b, []):
                if chunk_a.id == chunk_b.id:
                    grounded = (chunk_a, min(sa, sb), max(ea, eb))
                    break
            if grounded:
                break
        base = {"a": key_a, "b": key_b, "type": relation.type, "source": source}
        if grounded is None:
            asserted.append(relation)
            rows.append({**base, "citable": False, "quote": None, "chunk_id": None,
                         "document_id": None, "start_byte": None, "end_byte": None})  # fmt: skip
            continue
        chunk, lo, hi = grounded
        spans = [s for s in sentence_spans(chunk.text) if s[1] > lo and s[0] < hi]
        start_char, end_char = spans[0][0], spans[-1][1]
        folded = FoldedText(chunk.text)
        rows.append({
            **base, "citable": True, "quote": chunk.text[start_char:end_char],
            "chunk_id": chunk.id, "document_id": chunk.document_id,
            "start_byte": chunk.start_byte + folded.byte_offset(start_char),
            "end_byte": chunk.start_byte + folded.byte_offset(end_char),
        })  # fmt: skip
    return rows, asserted


IngestPassages = Callable[[list[tuple[str, bytes]], TextOrigin], list[IngestResult]]
ChunksOf = Callable[[str], list[Chunk]]


def store_facts(
    ingest: IngestPassages,
    chunks_of: ChunksOf,
    entities: EntityRepository,
    source: str,
    facts: Facts,
    passages: Sequence[Passage],
) -> RememberResult:
    """The work of `Scope.remember` (see its docstring)."""
    by_name = check_facts(source, facts, passages)
    named = [
        (f"{source} / passage {hashlib.sha256(p.text.encode()).hexdigest()[:12]}",
         p.text.encode("utf-8"))
        for p in passages
    ]  # fmt: skip
    results = ingest(named, TextOrigin("remembered", source, "remember"))
    entities.write_entities([
        {"key": entity_key(e.name, e.type), "name": e.name, "type": e.type,
         "norm": normalise_name(e.name)}
        for e in by_name.values()
    ])  # fmt: skip
    located = Located()
    mentions: list[dict[str, Any]] = []
    unlocated: list[str] = []
    by_doc = {r.document.name: r.document for r in results}
    for index, (passage, (name, _)) in enumerate(zip(passages, named, strict=True), 1):
        document = by_doc[name]
        rows, missing = locate_mentions(
            passage, index, document, chunks_of(document.id), by_name, located
        )
        mentions += rows
        unlocated += missing
    entities.write_entities([
        {"key": r["key"], "name": r["name"], "type": r["type"], "norm": r["norm"]}
        for r in mentions
    ])  # fmt: skip
    entities.remember_mentions(mentions)
    relations, asserted = relation_rows(facts.relations, by_name, located, source)
    entities.remember_relations(relations)
    unlocated += [
        f"relation {r.source!r} {r.type} {r.target!r}: no passage mentions both ends; "
        "stored as asserted by the caller, never citable"
        for r in asserted
    ]
    return RememberResult(
        documents=tuple(r.document for r in results),
        entities=len(by_name),
        mentions_located=len(mentions),
        relations_grounded=len(relations) - len(asserted),
        relations_asserted=tuple(asserted),
        unlocated=tuple(unlocated),
    )
