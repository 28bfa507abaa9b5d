"""The graph's indexes, and waiting until they can be trusted.

FalkorDB builds a new index in the background. Until it is OPERATIONAL a query through it can
come back empty, which would read as "nothing stored": so every scope waits for its indexes
before it is used, and ingest checks them again before it reports success.
"""

from __future__ import annotations

import time

from ..errors import IndexNotReady
from .graph import GraphHandle

# (label, property, kind) for every index a scope needs.
INDEXES: tuple[tuple[str, str, str], ...] = (
    ("Document", "id", "RANGE"),
    ("Document", "name", "RANGE"),
    ("IngestLease", "staging_key", "RANGE"),
    ("Chunk", "id", "RANGE"),
    ("Chunk", "document_id", "RANGE"),
    ("Chunk", "text", "FULLTEXT"),
    ("Entity", "key", "RANGE"),
    ("Entity", "type", "RANGE"),
    ("Entity", "norm", "RANGE"),
    ("RELATES", "document_id", "EDGE"),
)

_LIST_INDEXES = (
    "CALL db.indexes() YIELD label, properties, types, status, entitytype "
    "RETURN label, properties, types, status, entitytype"
)
# Labels and property names below come from the constant table above, never from user input.
_CREATE_RANGE = "CREATE INDEX FOR (n:{label}) ON (n.{prop})"
_CREATE_FULLTEXT = "CALL db.idx.fulltext.createNodeIndex('{label}', '{prop}')"
_CREATE_EDGE = "CREATE INDEX FOR ()-[r:{label}]-() ON (r.{prop})"


def _existing(graph: GraphHandle) -> dict[tuple[str, str, str], str]:
    found: dict[tuple[str, str, str], str] = {}
    for label, properties, types, status, entity in graph.query(_LIST_INDEXES):
        for prop in properties:
            for kind in types.get(prop, []):
                if entity == "RELATIONSHIP" and kind == "RANGE":
                    kind = "EDGE"
                found[(label, prop, kind)] = status
    return found


def ensure_indexes(graph: GraphHandle) -> None:
    existing = _existing(graph)
    for label, prop, kind in INDEXES:
        if (label, prop, kind) in existing:
            continue
        template = {"FULLTEXT": _CREATE_FULLTEXT, "EDGE": _CREATE_EDGE}.get(kind, _CREATE_RANGE)
        graph.query(template.format(label=label, prop=prop))


def index_states(graph: GraphHandle) -> dict[tuple[str, str, str], str]:
    """Each required index and its state ('OPERATIONAL', 'UNDER CONSTRUCTION', or 'MISSING')."""
    existing = _existing(graph)
    return {key: existing.get(key, "MISSING") for key in INDEXES}


def wait_for_indexes(graph: GraphHandle, timeout_s: float) -> None:
    """Return when every required index is operational; raise `IndexNotReady` otherwise."""
    deadline = time.monotonic() + timeout_s
    while True:
        pending = {k: v for k, v in index_states(graph).items() if v != "OPERATIONAL"}
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
