"""`citegraph adopt`: a graph another tool built, taken into a scope with its passages
located and its entities and relations checked."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from ...errors import CitegraphError, UsageError
from .common import (
    HomeOpt,
    JsonOpt,
    ScopeOpt,
    UrlOpt,
    app,
    err,
    escape,
    fail,
    open_workspace,
    out,
    print_json,
)


@app.command()
def adopt(
    path: Annotated[
        Path,
        typer.Argument(
            help="The tool's output: a GraphRAG output folder or a LightRAG working directory."
        ),
    ],
    tool: Annotated[
        str | None,
        typer.Option("--from", help="lightrag or graphrag (detected from the files if omitted)."),
    ] = None,
    sources: Annotated[
        Path | None,
        typer.Option(
            "--sources",
            help="A folder holding the source files, for passages the output does not hold whole.",
        ),
    ] = None,
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Adopt a graph built by Microsoft GraphRAG (2.x, 3.x) or LightRAG, keeping what holds:
    each passage located in its document (the tool's copy, or the file of that name under
    --sources: `grounding: source`) or stored as its own text (`grounding: chunk`); each
    entity searched for in its passages (one found nowhere is kept `unsupported`, never
    cited); a relation `supported`, quoting the sentence, only when one sentence of its
    passages names both ends, else kept uncited (`inferred`); the tool's descriptions and
    community reports kept as its words, never citations. The whole output is checked first
    (a damaged file is refused, exit 2, nothing stored); adopting it again adds nothing, and
    another run of the same tool replaces the older one's graph in one store query.
    GraphRAG's parquet needs pyarrow (pip install 'citegraph\\[adopt]'); see docs/adopt.md."""
    from ...service.shapes import camel

    with open_workspace(home, url) as ws:
        try:
            report = ws.scope(scope).adopt(path, tool, sources)
        except UsageError as exc:
            fail(str(exc), 2)
        except CitegraphError as exc:
            fail(str(exc), 3)
    if as_json:
        print_json(json.dumps(camel(asdict(report))))
        return
    out.print(f"adopted {escape(report.tool)} output into scope {escape(scope)} (run {report.run})")
    if report.replaced_run:
        went = ", ".join(f"{n} {what}" for what, n in report.removed.items()) or "nothing"
        out.print(f"  replaced the older run {report.replaced_run}; only it held: {went}")
    out.print(
        f"  passages: {report.chunks} ({report.chunks_in_source} located in their documents, "
        f"{report.chunks_as_own_text} stored as their own text)"
    )
    out.print(
        f"  entities: {report.entities} ({report.entities_located} located, "
        f"{len(report.entities_unsupported)} unsupported); mentions: {report.mentions}"
    )
    out.print(
        f"  relations: {report.relations} ({report.relations_supported} supported, "
        f"{report.relations_inferred} inferred)"
    )
    if report.community_reports:
        out.print(f"  community reports kept as context: {report.community_reports}")
    for name in report.entities_unsupported:
        out.print(f"  unsupported (named nowhere in its passages): {escape(name)}")
    for name in report.same_name_other_type:
        out.print(f"  same name, other types, kept apart: {escape(name)}")
    for reason, count in sorted(report.dropped.items()):
        out.print(f"  dropped ({escape(reason)}): {count}")
    for chunk in report.unlocated_chunks:
        out.print(f"  an empty passage, not stored: {escape(chunk)}")


@app.command()
def reports(
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
    entity: Annotated[
        str | None, typer.Option("--entity", help="Only the reports about this name.")
    ] = None,
) -> None:
    """List the community reports an adopted GraphRAG output brought: the tool's summaries of
    groups of entities, kept as context, never citations (cite the passages instead)."""
    from ...service.adopt_shapes import community_reports_shape
    from ...service.shapes import wire

    with open_workspace(home, url) as ws:
        try:
            found = ws.scope(scope).community_reports(entity)
        except CitegraphError as exc:
            fail(str(exc), 3)
    if as_json:
        print_json(json.dumps(wire(community_reports_shape(entity, found))))
        return
    for report in found:
        out.print(f"[bold]{escape(report.title)}[/] [dim]({escape(report.tool)}'s words, "
                  "not a citation)[/]")  # fmt: skip
        out.print(f"  {escape(report.summary)}")
        if report.entities:
            out.print(f"  about: {escape(', '.join(report.entities))}")
    if not found:
        about = f" about {escape(entity)}" if entity else ""
        err.print(f"no community reports{about} in {escape(scope)}")
