"""The graph's indexes, and waiting until they can be trusted.

FalkorDB builds a new index in the background. Until it is OPERATIONAL a query through it can
come back empty, which would read as "nothing stored": so every scope waits for its indexes
before it is used, and ingest checks them again before it reports success.
"""

from __future__ import annotations

import time

from ..errors import ConfigError, IndexNotReady, StoreError
from .graph import GraphHandle
from .queries.schema import (
    CREATE_EDGE,
    CREATE_FULLTEXT,
    CREATE_RANGE,
    CREATE_VECTOR,
    LIST_INDEXES,
    SCOPE_EMBEDDING,
    SET_SCOPE_EMBEDDING,
)

# (label, property, kind) for every index a scope needs.
INDEXES: tuple[tuple[str, str, str], ...] = (
    ("Document", "id", "RANGE"),
    ("Document", "name", "RANGE"),
    ("Document", "title", "RANGE"),
    ("IngestLease", "staging_key", "RANGE"),
    ("Chunk", "id", "RANGE"),
    ("Chunk", "document_id", "RANGE"),
    ("Chunk", "text", "FULLTEXT"),
    ("Entity", "key", "RANGE"),
    ("Entity", "type", "RANGE"),
    ("Entity", "norm", "RANGE"),
    ("RELATES", "document_id", "EDGE"),
    ("RELATES", "binding_document_id", "EDGE"),
    ("ExtractionReply", "key", "RANGE"),
)

# What reading the list of documents and finding one by id or name uses (and the cleanup of
# abandoned staging): small labels, operational moments after a start.
DOCUMENT_INDEXES = tuple(index for index in INDEXES if index[0] in ("Document", "IngestLease"))

VECTOR_INDEX = ("Chunk", "embedding", "VECTOR")


def _existing(graph: GraphHandle) -> dict[tuple[str, str, str], str]:
    found: dict[tuple[str, str, str], str] = {}
    for label, properties, types, status, entity in graph.query(LIST_INDEXES):
        for prop in properties:
            for kind in types.get(prop, []):
                if entity == "RELATIONSHIP" and kind == "RANGE":
                    kind = "EDGE"
                found[(label, prop, kind)] = status
    return found


def _create(graph: GraphHandle, index: tuple[str, str, str], query: str) -> bool:
    """Create `index`; False if another writer created it first (two commands opening a new
    scope at once both find it missing, and the second CREATE is refused)."""
    try:
        graph.query(query)
    except StoreError:
        if index in _existing(graph):
            return False
        raise
    return True


def ensure_indexes(graph: GraphHandle) -> int:
    """Create the indexes the graph lacks; return how many were created."""
    existing = _existing(graph)
    created = 0
    for label, prop, kind in INDEXES:
        if (label, prop, kind) in existing:
            continue
        template = {"FULLTEXT": CREATE_FULLTEXT, "EDGE": CREATE_EDGE}.get(kind, CREATE_RANGE)
        created += _create(graph, (label, prop, kind), template.format(label=label, prop=prop))
    return created


def ensure_vector_index(graph: GraphHandle, model: str, dimensions: int) -> int:
    """Create the vector index for this embedder (1 if it was created, else 0); refuse a
    model of another dimension."""
    [[stored_model, stored_dimensions]] = graph.query(SCOPE_EMBEDDING)
    if stored_dimensions is not None and int(stored_dimensions) != dimensions:
        raise ConfigError(
            f"graph {graph.name!r} holds {stored_dimensions}-dimensional embeddings from "
            f"{stored_model!r}; {model!r} makes {dimensions}: use one model per scope"
        )
    created = 0
    if VECTOR_INDEX not in _existing(graph):
        created = int(
            _create(graph, VECTOR_INDEX, CREATE_VECTOR.format(dimensions=int(dimensions)))
        )
    graph.query(SET_SCOPE_EMBEDDING, {"model": model, "dimensions": dimensions})
    return created


Required = tuple[tuple[str, str, str], ...]


def index_states(
    graph: GraphHandle, required: Required = INDEXES
) -> dict[tuple[str, str, str], str]:
    """Each required index and its state ('OPERATIONAL', 'UNDER CONSTRUCTION', or 'MISSING')."""
    existing = _existing(graph)
    return {key: existing.get(key, "MISSING") for key in required}


def wait_for_indexes(graph: GraphHandle, timeout_s: float, required: Required = INDEXES) -> None:
    """Return when every required index is operational; raise `IndexNotReady` otherwise."""
    deadline = time.monotonic() + timeout_s
    while True:
        pending = {k: v for k, v in index_states(graph, required).items() if v != "OPERATIONAL"}
        if not pending:
            return
        if time.monotonic() >= deadline:
            names = ", ".join(
                f"{lab}.{prop} ({kind}): {state}" for (lab, prop, kind), state in pending.items()
            )
            raise IndexNotReady(
                f"indexes of graph {graph.name!r} not ready after {timeout_s:g}s: {names}"
            )
        time.sleep(0.05)
