"""Settings a workload takes from a ConfigMap or Secret that another file defines.

A workload's manifest often names the map it takes (`envFrom: - configMapRef: name:
api-config`) while another file of the project defines that map. Neither file alone states a
call; together they do. After an extraction run that read configuration (and after a
configuration document is deleted), the scope's YAML and JSON documents are read together:
each import its own file does not resolve is joined to the other document that defines the
map, the one in the folder nearest the workload's (two or more as near: ambiguous, nothing is
read), and each address setting taken becomes a `calls` relation. Its quote is the setting,
in the map's file; its source is bound at the workload's name, in the workload's file
(`binding_document_id`).

All such relations are replaced at once by one store query, and only if the configuration
documents are still the ones read; otherwise they are read again. Whoever changes a
configuration document links again afterwards, so a run that keeps finding them changed
leaves the linking to that one. A document replaced or deleted takes the relations bound in it
along (store/queries/documents.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..store.documents import DocumentRepository
from ..store.entities import EntityRepository
from ..values.documents import Chunk, Document
from .config_relations import YamlSettings, read_yaml, taken_settings
from .grounding import MAX_EVIDENCE_BYTES
from .mentions import entity_key, mention_row, shape_type
from .modality import DEFAULT_CUES, CueTable, assess
from .structural import DocumentText, StructuralRelation

CONFIG_TYPES = ("application/yaml", "application/json")
# A file that holds none of these neither defines a settings map nor takes one.
_MARKS = ("configMapRef", "secretRef", "configMapKeyRef", "secretKeyRef", "ConfigMap", "Secret")
_ATTEMPTS = 3


@dataclass
class _File:
    document: Document
    text: DocumentText
    read: YamlSettings


def touches_configuration(documents: Iterable[Document]) -> bool:
    """Whether any of `documents` is configuration that settings links may read."""
    return any(d.media_type in CONFIG_TYPES for d in documents)


def link_settings(
    docs: DocumentRepository, entities: EntityRepository, cues: CueTable = DEFAULT_CUES
) -> int | None:
    """Store the calls workloads make by taking settings maps other files define, replacing
    those stored before; how many, or None when the configuration kept changing meanwhile
    (whoever changed it links again)."""
    for _ in range(_ATTEMPTS):
        config = [d for d in docs.all() if d.media_type in CONFIG_TYPES]
        snapshot = sorted(f"{d.id}@{d.sha256}" for d in config)
        mentions: list[dict[str, Any]] = []
        relations: list[dict[str, Any]] = []
        files = _read(docs, config)
        for workload, holder, relation in _taken(files):
            _ground(relation, workload, holder, mentions, relations, cues)
        if entities.replace_links(CONFIG_TYPES, snapshot, mentions, relations) is not None:
            return len(relations)
    return None


def _read(docs: DocumentRepository, config: list[Document]) -> list[_File]:
    """The configuration documents that define or take a settings map, read."""
    by_document: dict[str, list[Chunk]] = {}
    for chunk in docs.marked_chunks(CONFIG_TYPES, _MARKS):
        by_document.setdefault(chunk.document_id, []).append(chunk)
    files: list[_File] = []
    for document in config:
        chunks = by_document.get(document.id)
        if not chunks:
            continue
        text = DocumentText(chunks)
        read = read_yaml(text.text, relations=False)  # its own are stored already
        if read.maps or read.imports:
            files.append(_File(document, text, read))
    return files


def _taken(files: list[_File]) -> Iterable[tuple[_File, _File, StructuralRelation]]:
    """(workload's file, map's file, relation) for each import resolved in one other file."""
    defined: dict[tuple[str, str], list[_File]] = {}
    for file in files:
        for defines in file.read.maps:
            defined.setdefault(defines, []).append(file)
    for file in files:
        for owner, (kind, name, key) in file.read.imports:
            holders = _nearest(file, [h for h in defined.get((kind, name), []) if h is not file])
            if len(holders) != 1:
                continue  # defined nowhere else, or in several files: which one is not said
            holder = holders[0]
            held = holder.read.maps[(kind, name)]
            for relation in taken_settings(holder.text.text, held, key, owner):
                yield file, holder, relation


def _nearest(file: _File, holders: list[_File]) -> list[_File]:
    """Of the files defining a map, those in the folder nearest the workload's file (the
    longest run of folders their names share): two projects in one scope may each define
    a map of the same name."""

    def shared(other: _File) -> int:
        mine = file.document.name.split("/")[:-1]
        theirs = other.document.name.split("/")[:-1]
        count = 0
        for a, b in zip(mine, theirs, strict=False):
            if a != b:
                break
            count += 1
        return count

    best = max((shared(h) for h in holders), default=0)
    return [h for h in holders if shared(h) == best]


def _ground(
    relation: StructuralRelation,
    workload: _File,
    holder: _File,
    mentions: list[dict[str, Any]],
    relations: list[dict[str, Any]],
    cues: CueTable,
) -> None:
    """Keep the relation if its quote and target are the map file's stored text, in one
    chunk and short enough, and its source the workload file's, as any relation is kept."""
    there, here = holder.text, workload.text
    evidence, source, target = relation.evidence, relation.source, relation.target
    if not (there.holds(evidence) and there.holds(target) and here.holds(source)):
        return
    home, source_at, target_at = (
        there.chunk_of(evidence),
        here.chunk_of(source),
        there.chunk_of(target),
    )
    if home is None or source_at is None or target_at is None:
        return
    if len(evidence.text.encode()) > MAX_EVIDENCE_BYTES:
        return
    if not evidence.start <= target.start <= target.end <= evidence.end:
        return
    ends = []
    for end, chunk, file, text in (
        (source, source_at[0], workload, here),
        (target, target_at[0], holder, there),
    ):
        kind = shape_type(end.text)
        key = entity_key(end.text, kind)
        mentions.append(mention_row(key, end.text, kind, chunk, file.document, text.match(end)))
        ends.append(key)
    inside = ((target.start - evidence.start, target.end - evidence.start),)
    polarity, modality = assess(evidence.text, inside, cues)
    start, stop = there.byte_span(evidence)
    (a_start, a_end), (b_start, b_end) = here.byte_span(source), there.byte_span(target)
    relations.append({
        "a": ends[0], "b": ends[1], "type": relation.type,
        "polarity": polarity.value, "modality": modality.value,
        "quote": evidence.text, "chunk_id": home[0].id, "document_id": holder.document.id,
        "start_byte": start, "end_byte": stop,
        "a_start_byte": a_start, "a_end_byte": a_end,
        "b_start_byte": b_start, "b_end_byte": b_end,
        "binding_document_id": workload.document.id,
    })  # fmt: skip
