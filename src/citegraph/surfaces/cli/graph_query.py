"""`citegraph query`: a question about the graph itself, answered by guarded model-written
Cypher (experimental, off unless turned on), printed as rows with their citations, or the
citegraph-graph-query/1 shape with --json."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from ...errors import CitegraphError, FeatureOff
from ...service.graph_query_shapes import graph_query_shape
from ...service.shapes import wire
from ...values.graphq import GraphAnswer
from .common import (
    HomeOpt,
    JsonOpt,
    ModelOpt,
    ScopeOpt,
    Text2CypherOpt,
    UrlOpt,
    app,
    escape,
    fail,
    open_workspace,
    out,
    print_json,
)

# Refused (a typed reason): as `citegraph ask` does.
EXIT_REFUSED = 4
_CELL_CHARS = 80


@app.command()
def query(
    question: Annotated[str, typer.Argument(help="A question about the graph, in plain words.")],
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    model: ModelOpt = None,
    as_json: JsonOpt = False,
    show_cypher: Annotated[
        bool, typer.Option("--show-cypher", help="Print the query as run before the rows.")
    ] = False,
    text2cypher: Text2CypherOpt = False,
) -> None:
    """Experimental: a question about the graph's structure ("How many documents mention the
    payment service?", "Which services does checkout call?") answered by one read-only
    Cypher query that the chat model writes from the scope's schema. Off unless
    --text2cypher or CITEGRAPH_TEXT2CYPHER=on, and it needs a chat model (--model or
    CITEGRAPH_CHAT_MODEL).

    The query passes a gate first: no writes in any form, no file loads, no procedure or
    function outside short lists, nothing outside the schema, bounded work; then it runs
    read-only on this scope with a timeout (CITEGRAPH_GRAPH_QUERY_TIMEOUT_MS, 2000) and a row
    limit (CITEGRAPH_GRAPH_QUERY_MAX_ROWS, 50). Rows that hold passages, mentions or
    relations cite them from the stored bytes; the others are marked uncited. Read the query
    (--show-cypher) before trusting the rows. Exit 4 when refused, with the reason."""
    with open_workspace(home, url, model, text2cypher) as ws:
        try:
            answer = ws.scope(scope).ask_graph(question)
        except FeatureOff as exc:
            fail(str(exc), 2)
        except CitegraphError as exc:
            fail(str(exc), 3)
    if as_json:
        print_json(json.dumps(wire(graph_query_shape(answer))))
    else:
        _print(answer, show_cypher)
    if answer.disposition.value != "answered":
        raise typer.Exit(EXIT_REFUSED)


def _print(answer: GraphAnswer, show_cypher: bool) -> None:
    if answer.reason is not None:
        out.print(f"[red]refused[/] ({answer.reason.value}): {escape(answer.detail)}")
        if answer.cypher:
            out.print(f"query: {escape(answer.cypher)}")
        _print_footer(answer)
        return
    if show_cypher and answer.cypher:
        out.print(f"query as run: [bold]{escape(answer.cypher)}[/]")
    if not answer.rows:
        out.print("no rows: the query matched nothing in this scope")
    else:
        table = Table(*["#", *answer.columns], show_lines=False)
        for n, row in enumerate(answer.rows, start=1):
            table.add_row(str(n), *(escape(_cell(v)) for v in row))
        out.print(table)
    for cited in answer.citations:
        for citation, name in zip(cited.citations, cited.documents, strict=True):
            page = f", page {citation.page}" if citation.page else ""
            out.print(
                f'row {cited.row + 1}: "{escape(_short(citation.quote))}"  ({escape(name)} bytes '
                f"{citation.start_byte}-{citation.end_byte}{page})"
            )
    if answer.uncited_rows:
        rows = ", ".join(str(i + 1) for i in answer.uncited_rows)
        out.print(f"[dim]uncited rows (nothing in them to cite): {rows}[/]")
    _print_footer(answer)


def _print_footer(answer: GraphAnswer) -> None:
    if answer.limits_reached:
        out.print(f"[yellow]limits reached: {escape(', '.join(answer.limits_reached))}[/]")
    for warning in answer.warnings:
        out.print(f"[yellow]warning: {escape(warning)}[/]")
    r = answer.receipt
    tokens = f", {r.input_tokens} in / {r.output_tokens} out" if r.input_tokens else ""
    out.print(f"[dim]{escape(r.answerer)}: {r.chat_calls} call(s){tokens}[/]")


def _cell(value: Any) -> str:
    if isinstance(value, dict) and "labels" in value:
        props = value.get("properties", {})
        shown = props.get("name") or props.get("id") or ""
        return _short(f"(:{':'.join(value['labels'])} {shown})")
    if isinstance(value, dict) and "type" in value and "properties" in value:
        props = value["properties"]
        return _short(f"[:{value['type']} {props.get('type') or ''}]".replace(" ]", "]"))
    return _short(value if isinstance(value, str) else json.dumps(value))


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _CELL_CHARS else text[: _CELL_CHARS - 1] + "…"
