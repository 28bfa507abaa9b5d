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

All such relations are brought up to date by one store query (a link already stored is kept
as it is, with any audit verdict; those no longer stated go), written only if the
configuration documents are still the ones read; otherwise they are read again. Whoever
changes a configuration document links again afterwards, so a run that keeps finding them
changed leaves the linking to that one. A document replaced or deleted takes the relations
bound in it along (store/queries/documents.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..store.documents import DocumentRepository
from ..store.entities import EntityRepository, link_identity
from ..values.documents import Chunk, Document
from .config_relations import Held, YamlSettings, in_namespace, map_of, read_yaml, taken_from
from .env_files import (
    ENV_FILE_KIND,
    EnvSetting,
    env_features_off,
    env_file_calls,
    last_settings,
    path_beside,
)
from .feature_flags import conditioned
from .grounding import MAX_EVIDENCE_BYTES
from .mentions import entity_key, mention_row, shape_type
from .modality import DEFAULT_CUES, CueTable
from .proxy_config import (
    BUILD_KIND,
    CONF_TYPE,
    PROXY_KIND,
    PROXY_MARKS,
    in_folder,
    proxy_calls,
)
from .structural import DocumentText, Located, StructuralRelation, relation_row

YAML_TYPES = ("application/yaml", "application/json")
ENV_TYPE = "text/x-dotenv"
CONFIG_TYPES = (*YAML_TYPES, ENV_TYPE, CONF_TYPE)
# A YAML file that holds none of these neither defines a settings map nor takes one (from a
# map, or, for a compose file, from an env file), nor runs a proxy's configuration file.
MARKS = (
    "configMapRef", "secretRef", "configMapKeyRef", "secretKeyRef", "ConfigMap", "Secret",
    "environment", "env_file", "volumes", "build",
)  # fmt: skip
_ATTEMPTS = 3


@dataclass
class _File:
    document: Document
    text: DocumentText
    read: YamlSettings


def worth_linking(docs: DocumentRepository, documents: Iterable[Document]) -> bool:
    """Whether extracting or deleting `documents` may change the links: some are
    configuration whose text defines or takes a settings map."""
    if any(d.media_type in (ENV_TYPE, CONF_TYPE) for d in documents):
        return True
    config = [d.id for d in documents if d.media_type in YAML_TYPES]
    return docs.hold_marks(config, MARKS)


def link_settings(
    docs: DocumentRepository, entities: EntityRepository, cues: CueTable = DEFAULT_CUES
) -> int | None:
    """Store the calls workloads make by taking settings maps other files define, removing
    those no longer stated; how many are stated, or None when the configuration kept
    changing meanwhile (whoever changed it links again)."""
    for _ in range(_ATTEMPTS):
        read = [
            *docs.configuration(YAML_TYPES, MARKS),
            *docs.configuration((ENV_TYPE,), ("=",)),
            *docs.configuration((CONF_TYPE,), PROXY_MARKS),
        ]
        snapshot = sorted(f"{d.id}@{d.sha256}" for d, _ in read)
        files = _read(read)
        mentions: list[dict[str, Any]] = []
        relations: dict[str, dict[str, Any]] = {}
        for workload, holder, relation in _taken(files):
            _ground(relation, workload, holder, mentions, relations, cues)
        chunk_ids = sorted({str(m["chunk_id"]) for m in mentions})
        stored = entities.replace_links(
            CONFIG_TYPES, snapshot, chunk_ids, mentions, list(relations.values())
        )
        if stored is not None:
            return len(relations)
    return None


def _read(read: list[tuple[Document, list[Chunk]]]) -> list[_File]:
    """The configuration documents that define or take a settings map, read."""
    files: list[_File] = []
    for document, chunks in read:
        if not chunks:
            continue  # no mark in its text
        text = DocumentText(chunks)
        if document.media_type in (ENV_TYPE, CONF_TYPE):
            files.append(_File(document, text, YamlSettings()))
            continue
        settings = read_yaml(text.text, relations=False)  # its own are stored already
        if settings.maps or settings.imports:
            files.append(_File(document, text, settings))
    return files


def _taken(files: list[_File]) -> Iterable[tuple[_File, _File, StructuralRelation]]:
    """(workload's file, map's file, relation) for each import resolved in one other file:
    a map of the workload's namespace (where both say theirs), in the nearest folder."""
    defined: dict[tuple[str, str], list[tuple[_File, Held]]] = {}
    for file in files:
        for defines, held in file.read.maps.items():
            defined.setdefault(defines, []).extend((file, h) for h in held)
    env_files = {f.document.name: f for f in files if f.document.media_type == ENV_TYPE}
    parsed = {name: last_settings(f.text.text) for name, f in env_files.items()}  # once each
    proxies = {f.document.name: f for f in files if f.document.media_type == CONF_TYPE}
    for file in files:
        yield from _taken_from_env_files(file, env_files, parsed)
        yield from _proxies_run(file, proxies)
        for owner, namespace, (kind, name, key) in file.read.imports:
            if kind in (ENV_FILE_KIND, PROXY_KIND, BUILD_KIND):
                continue  # read above
            others = [
                (f, h) for f, h in defined.get(map_of((kind, name, key)), []) if f is not file
            ]
            fitting = in_namespace([h for _, h in others], namespace)
            holders = _nearest(file, [(f, h) for f, h in others if h in fitting])
            if len(holders) != 1:
                continue  # defined nowhere else, or in several places: which one is not said
            holder, (_, root) = holders[0]
            for relation in taken_from(holder.text.text, (kind, name, key), root, owner):
                yield file, holder, relation


def _taken_from_env_files(
    file: _File, env_files: dict[str, _File], parsed: dict[str, dict[str, EnvSetting]]
) -> Iterable[tuple[_File, _File, StructuralRelation]]:
    """(compose file, env file, relation) for each setting a service of `file` takes from an
    env file stored at the path it names; a flag among what a service takes from one file
    turns its calls of that feature off."""
    taken: dict[tuple[int, str], tuple[Located, list[str | None]]] = {}
    for owner, _, (kind, name, key) in file.read.imports:
        path = path_beside(file.document.name, name) if kind == ENV_FILE_KIND else None
        if path is not None and path in env_files:
            taken.setdefault((owner.start, path), (owner, []))[1].append(key)
    for (_, path), (owner, keys) in taken.items():
        env = env_files[path]
        off = env_features_off(parsed[path], set(keys))
        for key in keys:
            for relation in conditioned(
                env_file_calls(env.text.text, parsed[path], key, owner), off
            ):
                yield file, env, relation


def _proxies_run(
    file: _File, proxies: dict[str, _File]
) -> Iterable[tuple[_File, _File, StructuralRelation]]:
    """(compose file, proxy's configuration file, relation) for each call a service of `file`
    makes by running a proxy configured by a file stored at a path it mounts, or in the
    folder its image is built from."""
    for owner, _, (kind, written, _key) in file.read.imports:
        if kind not in (PROXY_KIND, BUILD_KIND):
            continue
        path = path_beside(file.document.name, written)
        if kind == PROXY_KIND:
            run = [proxies[path]] if path in proxies else []
        else:
            run = [f for name, f in proxies.items() if in_folder(name, path)]
        for proxy in run:
            for relation in proxy_calls(proxy.text.text, owner):
                yield file, proxy, relation


def _nearest(file: _File, holders: list[tuple[_File, Held]]) -> list[tuple[_File, Held]]:
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

    best = max((shared(f) for f, _ in holders), default=0)
    return [(f, h) for f, h in holders if shared(f) == best]


def _ground(
    relation: StructuralRelation,
    workload: _File,
    holder: _File,
    mentions: list[dict[str, Any]],
    relations: dict[str, dict[str, Any]],
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
    row = relation_row(relation, (ends[0], ends[1]), there, here, home[0], holder.document.id, cues)
    row["binding_document_id"] = workload.document.id
    relations.setdefault(link_identity(row), row)  # one statement, one relation
