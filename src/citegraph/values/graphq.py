"""Questions about the graph itself, answered by a model-written read query (Text2Cypher):
the schema the model is shown, the refusal reasons of the gate, and the answer as rows."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .answers import Disposition, Receipt
from .documents import Citation


@dataclass(frozen=True)
class PropertyInfo:
    name: str
    examples: tuple[str, ...]  # a few stored values, shortened; every value when there are few
    every_value: bool = False  # `examples` is the whole set of values seen


@dataclass(frozen=True)
class NodeKind:
    label: str
    count: int
    properties: tuple[PropertyInfo, ...]


@dataclass(frozen=True)
class EdgeKind:
    type: str
    count: int
    ends: tuple[tuple[str, str], ...]  # (source label, target label) pairs seen
    properties: tuple[PropertyInfo, ...]


@dataclass(frozen=True)
class GraphSchema:
    """What a model-written query may name: the public labels, relationship types and
    properties of one scope's graph. Embeddings and internal bookkeeping are never listed."""

    nodes: tuple[NodeKind, ...]
    edges: tuple[EdgeKind, ...]

    @property
    def labels(self) -> frozenset[str]:
        return frozenset(n.label for n in self.nodes)

    @property
    def types(self) -> frozenset[str]:
        return frozenset(e.type for e in self.edges)

    @property
    def properties(self) -> frozenset[str]:
        named = [p.name for n in self.nodes for p in n.properties]
        named += [p.name for e in self.edges for p in e.properties]
        return frozenset(named)


class GraphRefusal(StrEnum):
    """Why a graph question has no rows, in the order the gate checks."""

    MODEL_DECLINED = "model-declined"  # the model said the graph cannot answer it
    UNREADABLE_RESPONSE = "unreadable-response"  # the reply was not one query
    NOT_ALLOWED = "not-allowed"  # the query could write, read outside the schema, or is unbounded
    INVALID_QUERY = "invalid-query"  # the store's EXPLAIN refused it (after one repair)
    QUERY_FAILED = "query-failed"  # it ran and failed, or ran past its time


@dataclass(frozen=True)
class RowCitations:
    """The verified citations of one row (by its index), and the document each is in."""

    row: int
    citations: tuple[Citation, ...]
    documents: tuple[str, ...]  # each citation's document name, in the same order


@dataclass(frozen=True)
class GraphAnswer:
    """`answered`: the rows the query returned, with the query that returned them and the
    citations of the rows that hold something citable. `refused`: a reason and what it was
    about. The rows are what the query returned: read the query before trusting them."""

    question: str
    disposition: Disposition
    receipt: Receipt
    cypher: str | None = None  # the query as run (bounds applied), or the last one refused
    written: tuple[str, ...] = ()  # what the model wrote, each attempt
    columns: tuple[str, ...] = ()
    rows: tuple[tuple[Any, ...], ...] = ()
    citations: tuple[RowCitations, ...] = ()
    uncited_rows: tuple[int, ...] = ()  # rows holding nothing citable (counts, names...)
    limits_reached: tuple[str, ...] = ()
    reason: GraphRefusal | None = None
    detail: str = ""
    warnings: tuple[str, ...] = ()
