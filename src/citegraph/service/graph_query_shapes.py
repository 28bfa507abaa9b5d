"""The JSON shape of a graph question's answer, `citegraph-graph-query/1`, sent by
`citegraph query --json`, `POST /v1/graph/query` and the MCP tool `graph_query`."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Literal

from pydantic import Field

from ..values.graphq import GraphAnswer
from .shapes import ReceiptOut, Wire
from .walk_shapes import HopEvidenceOut, evidence_out

RefusalName = Literal[
    "model-declined", "unreadable-response", "not-allowed", "invalid-query", "query-failed"
]


class RowCitationsOut(Wire):
    row: int = Field(description="The row's index in `rows`.")
    citations: list[HopEvidenceOut] = Field(
        description="Read from the stored bytes by the ids the row holds; never the row's text."
    )


class GraphQueryOut(Wire):
    format: Literal["citegraph-graph-query/1"] = "citegraph-graph-query/1"
    question: str
    disposition: Literal["answered", "refused"]
    reason: RefusalName | None = Field(description="Why there are no rows; null when answered.")
    detail: str = Field(description="What the refusal was about, in words.")
    cypher: str | None = Field(
        description="The query as run (comments gone, row limit pushed in), or the one refused. "
        "Read it before trusting the rows: a model can count the wrong thing correctly."
    )
    written: list[str] = Field(description="What the model wrote, each attempt (at most 2).")
    columns: list[str]
    rows: list[list[Any]] = Field(
        description="Nodes and relationships as {labels|type, properties}, without embeddings."
    )
    citations: list[RowCitationsOut]
    uncited_rows: list[int] = Field(description="Rows holding nothing citable (counts, names).")
    limits_reached: list[str] = Field(
        description="graph-query-rows, graph-query-list-items, graph-query-text, "
        "graph-query-hidden: what the bounds cut."
    )
    warnings: list[str]
    receipt: ReceiptOut


def graph_query_shape(answer: GraphAnswer) -> GraphQueryOut:
    return GraphQueryOut(
        question=answer.question,
        disposition=answer.disposition.value,
        reason=answer.reason.value if answer.reason else None,
        detail=answer.detail,
        cypher=answer.cypher,
        written=list(answer.written),
        columns=list(answer.columns),
        rows=[list(row) for row in answer.rows],
        citations=[
            RowCitationsOut(
                row=c.row,
                citations=[
                    evidence_out(citation, name)
                    for citation, name in zip(c.citations, c.documents, strict=True)
                ],
            )
            for c in answer.citations
        ],
        uncited_rows=list(answer.uncited_rows),
        limits_reached=list(answer.limits_reached),
        warnings=list(answer.warnings),
        receipt=ReceiptOut.model_validate(asdict(answer.receipt)),
    )
