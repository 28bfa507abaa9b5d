"""Commands over stored documents: ingest, docs, show, delete, context, scopes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ...errors import CitegraphError, RuntimeFailure
from ...limits import DEFAULT_HOPS, DEFAULT_K, RELATIONS_LIMIT
from .common import (
    DocArg,
    HomeOpt,
    HopsOpt,
    JsonOpt,
    KOpt,
    ScopeOpt,
    UrlOpt,
    app,
    empty_scope_hint,
    err,
    escape,
    fail,
    open_workspace,
    out,
    page_label,
    print_json,
    say_coverage,
)
from .extraction import extraction_said

if TYPE_CHECKING:  # imported where used: each command loads only what it needs
    from ...ingest.pipeline import ParsedDocument
    from ...values.documents import Chunk, IngestResult


@app.command()
def ingest(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Files and folders (.txt .md .pdf; .yaml .yml .json .toml .properties .env "
            ".conf as configuration); folders recursively, hidden files skipped. A file given "
            "alone is named by its file name, a file in a folder by the folder's name and its "
            "path below it (k8s/config.yaml)."
        ),
    ],
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
    media_type: Annotated[
        str | None,
        typer.Option(
            "--type",
            help="Read every file given as this media type (text/plain, text/markdown, "
            "application/pdf, application/yaml...), whatever its suffix: a .log as text, say. "
            "Files in folders with other suffixes are still skipped.",
        ),
    ] = None,
    env_files: Annotated[
        bool,
        typer.Option(
            "--env-files",
            help="Also ingest the env files (.env, *.env) found in folders: a compose file "
            "takes its services' unset settings (- CART_ADDR) from the .env beside it, and they "
            "are then read as calls. Env files often hold secrets: whatever is ingested can be "
            "quoted.",
        ),
    ] = False,
    origin_kind: Annotated[
        str | None,
        typer.Option(
            "--origin-kind", help="Mark the text as derived: ocr, transcript, conversion..."
        ),
    ] = None,
    origin_source: Annotated[
        str | None, typer.Option("--origin-source", help="What the derived text came from.")
    ] = None,
    origin_method: Annotated[
        str, typer.Option("--origin-method", help="By what means it was derived.")
    ] = "",
) -> None:
    """Ingest files and folders. Each document is stored atomically; one that is already
    stored with the same bytes is left as it is (status 'unchanged')."""
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    from ...ingest.pipeline import DocumentGroups
    from ...ingest.sources import SUPPORTED_TYPES, expand
    from ...values.documents import TextOrigin

    if media_type is not None and media_type not in SUPPORTED_TYPES:
        fail(f"--type {media_type}: one of {', '.join(SUPPORTED_TYPES)}", 2)
    if (origin_kind is None) != (origin_source is None):
        fail("--origin-kind and --origin-source go together", 2)
    origin = (
        TextOrigin(origin_kind, origin_source, origin_method)
        if origin_kind and origin_source
        else None
    )
    try:
        env_skipped: list[Path] = []
        files, skipped = expand(paths, env_files=env_files, env_skipped=env_skipped)
    except CitegraphError as exc:
        fail(str(exc), 1)
    results: list[IngestResult] = []
    failures: list[tuple[str, str]] = []
    total = sum(f.path.stat().st_size for f in files)
    with open_workspace(home, url) as ws:
        target = ws.scope(scope)
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            DownloadColumn(),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=err, disable=as_json, transient=True) as bar:
            task = bar.add_task("ingesting", total=total)
            groups = DocumentGroups()

            def store(group: list[ParsedDocument]) -> None:
                # Small files are stored in groups that share queries.
                try:
                    results.extend(target.store_parsed(group))
                except RuntimeFailure as exc:
                    fail(str(exc), 3)
                except CitegraphError as exc:
                    failures.extend((p.name, str(exc)) for p in group)
                bar.advance(task, sum(sizes.pop(p.name, 0) for p in group))

            sizes: dict[str, int] = {}
            for file in files:
                bar.update(task, description=escape(file.name[-40:]))
                try:
                    parsed = target.parse_file(file, origin=origin, media_type=media_type)
                except CitegraphError as exc:
                    failures.append((file.name, str(exc)))
                    bar.advance(task, file.path.stat().st_size)
                    continue
                sizes[parsed.name] = file.path.stat().st_size
                full = groups.add(parsed)
                if full:
                    store(full)
            if groups.pending:
                store(groups.take())
    if as_json:
        from ...service import shapes

        print_json(
            json.dumps(
                {
                    "scope": scope,
                    "results": [shapes.wire(shapes.ingested_shape(r)) for r in results],
                    "errors": [{"name": n, "message": m} for n, m in failures],
                    "skipped": [str(p) for p in skipped],
                }
            )
        )
    else:
        table = Table(title=f"ingested into scope {escape(scope)!s}")
        numbers = ("bytes", "chunks", "pages", "mentions", "relations")
        for column in ("document", "status", *numbers):
            table.add_column(column, justify="right" if column in numbers else "left")
        for r in results:
            d, x = r.document, r.extraction
            table.add_row(
                escape(d.name),
                r.status.value,
                f"{d.size_bytes:,}",
                str(d.chunk_count),
                str(d.page_count or ""),
                str(x.mentions) if x is not None else "",
                str(x.relations) if x is not None else "",
            )
        for name, _message in failures:
            table.add_row(escape(name), "[red]error[/]", "", "", "", "", "")
        out.print(table)
        said = extraction_said([r.extraction for r in results if r.extraction is not None])
        if said:
            out.print(said)
        for r in results:
            for warning in r.warnings:
                err.print(f"[yellow]warning:[/] {escape(warning)}")
        for _name, message in failures:
            err.print(f"[bold red]error:[/] {escape(message)}")
        if skipped:
            shown = ", ".join(escape(str(p)) for p in skipped[:10])
            more = f" and {len(skipped) - 10} more" if len(skipped) > 10 else ""
            err.print(
                f"skipped {len(skipped)} file(s) of unsupported types: {shown}{more} "
                "(--type text/plain reads a file given by name as text)"
            )
        if env_skipped:
            err.print(
                f"skipped {len(env_skipped)} env file(s) ({escape(str(env_skipped[0]))}"
                f"{' ...' if len(env_skipped) > 1 else ''}): compose takes settings from them; "
                "--env-files ingests them (they may hold secrets)"
            )
    if failures:
        raise typer.Exit(1)


@app.command()
def docs(
    scope: ScopeOpt = "default", home: HomeOpt = None, url: UrlOpt = None, as_json: JsonOpt = False
) -> None:
    """List the documents of a scope."""
    with open_workspace(home, url) as ws:
        documents = ws.scope(scope).documents()
        if not documents:
            empty_scope_hint(ws, scope)
    if as_json:
        from ...service import shapes

        print_json(json.dumps([shapes.wire(shapes.document_shape(d)) for d in documents]))
        return
    from rich.table import Table

    table = Table(title=f"{len(documents)} document(s) in scope {escape(scope)}")
    for column in ("id", "name", "type", "bytes", "chunks", "pages", "ingested (UTC)"):
        table.add_column(column)
    for d in documents:
        table.add_row(
            d.id,
            escape(d.name),
            d.media_type,
            f"{d.size_bytes:,}",
            str(d.chunk_count),
            str(d.page_count or ""),
            d.ingested_at,
        )
    out.print(table)


def _preview(chunk: Chunk, width: int = 60) -> str:
    flat = " ".join(chunk.text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


@app.command()
def show(
    doc: DocArg,
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Show one document and its chunks, with byte spans and pages."""
    with open_workspace(home, url) as ws:
        target = ws.scope(scope)
        document = target.document(doc)
        chunks = list(target.chunks(document.id))
    if as_json:
        from ...service import shapes

        print_json(
            json.dumps(
                {
                    "document": shapes.wire(shapes.document_shape(document)),
                    "chunks": [shapes.wire(shapes.chunk_shape(c)) for c in chunks],
                }
            )
        )
        return
    origin = document.origin
    out.print(
        f"[bold]{escape(document.name)}[/]  {document.id}  {document.media_type}  "
        f"{document.size_bytes:,} bytes  sha256 {document.sha256[:16]}…"
    )
    if origin is not None:
        out.print(
            f"derived text: {escape(origin.kind)} of {escape(origin.source)}"
            + (f" by {escape(origin.method)}" if origin.method else "")
        )
    from rich.table import Table

    from ...values.documents import page_range

    table = Table()
    for column in ("#", "bytes [start, end)", "pages", "text"):
        table.add_column(column)
    for c in chunks:
        pages = page_range(c.page, c.end_page)
        table.add_row(str(c.ordinal), f"[{c.start_byte}, {c.end_byte})", pages, escape(_preview(c)))
    out.print(table)


@app.command()
def delete(
    doc: DocArg,
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Delete a document and everything that hangs off it."""
    with open_workspace(home, url) as ws:
        removed = ws.scope(scope).delete_document(doc)
    if as_json:
        from ...service import shapes

        print_json(json.dumps({"deleted": shapes.wire(shapes.document_shape(removed))}))
    else:
        out.print(f"deleted {escape(removed.name)} ({removed.id}, {removed.chunk_count} chunks)")


_VERDICT_COLOURS = {
    "grounded": "green",
    "related": "yellow",
    "uncited": "yellow",
    "nothing_stored": "red",
    "could_not_judge": "magenta",
}


@app.command()
def context(
    question: Annotated[str, typer.Argument(help="A standalone question, in plain words.")],
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
    k: KOpt = DEFAULT_K,
    hops: HopsOpt = DEFAULT_HOPS,
) -> None:
    """Gather the cited evidence for a question and say whether the store covers it.

    Read the verdict first: grounded (every content word covered, something citable),
    related (the words in 'uncovered' are covered by nothing), uncited, nothing_stored, or
    could_not_judge (a stage could not run)."""
    with open_workspace(home, url) as ws:
        evidence = ws.scope(scope).context(question, k=k, hops=hops)
        if evidence.verdict.state.value == "nothing_stored":
            empty_scope_hint(ws, scope)
    if as_json:
        from ...service import shapes

        print_json(json.dumps(shapes.wire(shapes.evidence_shape(evidence))))
        return
    verdict = evidence.verdict
    colour = _VERDICT_COLOURS[verdict.state.value]
    out.print(f"verdict: [bold {colour}]{verdict.state.value}[/]")
    if verdict.uncovered:
        out.print(f"uncovered: {escape(', '.join(verdict.uncovered))}")
    if verdict.matched_names:
        out.print(f"stored names matched: {escape(', '.join(verdict.matched_names))}")
    if verdict.stage:
        out.print(f"stage that could not run: {verdict.stage} ({escape(verdict.detail)})")
    for item in evidence.items:
        pages = page_label(item.page, item.end_page)
        out.print(
            f"\n[bold]{item.id}[/] {escape(item.document_name)} bytes "
            f"[{item.start_byte}, {item.end_byte}){pages}  (found by {', '.join(item.retrievers)})"
        )
        out.print(escape(" ".join(item.text.split())[:400]))
    for note in evidence.skipped:
        err.print(f"[dim]{escape(note)}[/]")
    if evidence.limits_reached:
        err.print(
            f"[dim]limits reached: {', '.join(evidence.limits_reached)}; "
            f"{evidence.omitted_items} item(s) left out[/]"
        )


@app.command()
def relations(
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
    entity: Annotated[
        str | None, typer.Option("--entity", help="Only the relations touching this name.")
    ] = None,
    limit: Annotated[
        int, typer.Option("--limit", min=1, help="List at most this many (stated ones first).")
    ] = RELATIONS_LIMIT,
    relation_type: Annotated[
        str | None,
        typer.Option("--type", help="Only this type: calls, depends-on, alias-of, co-mentioned..."),
    ] = None,
) -> None:
    """List the relations stored in a scope, each with the quote it was located at (its
    document, a PDF's page, the byte span), its polarity (affirmed/negated) and modality
    (actual/hypothetical/planned); and, where an LLM extractor gave one (extract --llm
    --describe), its description, marked as the model's words."""
    with open_workspace(home, url) as ws:
        target = ws.scope(scope)
        found = target.relations(entity, limit=limit, relation_type=relation_type)
        coverage = target.extraction_coverage()
        # Nothing of a type the scope does not hold: say which it holds (a typo, a plural).
        types = target.relation_types() if relation_type and not found else []
        types = [] if relation_type in types else types
    say_coverage(coverage, scope)
    if as_json:
        from ...service.knowledge_shapes import relations_shape
        from ...service.shapes import wire

        shape = relations_shape(entity, found, limit, relation_type, coverage, scope)
        print_json(json.dumps(wire(shape)))
    else:
        for r in found:
            how = "co-mentioned" if r.weak else r.type
            marks = [m for m in (r.polarity, r.modality) if m and m not in ("affirmed", "actual")]
            said = f" [{', '.join(marks)}]" if marks else ""
            out.print(f"{escape(r.source)} --{escape(how)}--> {escape(r.target)}{said}")
            if r.quote is not None:
                where = escape(r.document or r.document_id or "?")
                if r.page is not None:
                    where += f", p. {r.page}" + (
                        f"-{r.end_page}" if r.end_page not in (None, r.page) else ""
                    )
                out.print(f"    [italic]{escape(' '.join(r.quote.split()))}[/] [dim]({where}, "
                          f"bytes [{r.start_byte}, {r.end_byte}))[/]")  # fmt: skip
            if r.description:
                out.print(f"    [dim]the model's words, not a citation: "
                          f"{escape(r.description)}[/]")  # fmt: skip
    if not found:
        of = f" of type {escape(relation_type)}" if relation_type else ""
        touching = f" touching {escape(entity)}" if entity else ""
        err.print(f"no relations{of}{touching} in {escape(scope)}")
        if types:
            err.print(f"the types stored there: {escape(', '.join(types))}")
    elif len(found) == limit:
        err.print(f"the first {limit} shown; there may be more (--limit)")


@app.command()
def scopes(home: HomeOpt = None, url: UrlOpt = None, as_json: JsonOpt = False) -> None:
    """List the scopes that hold something (documents or facts)."""
    with open_workspace(home, url) as ws:
        names = ws.scopes()
    if as_json:
        print_json(json.dumps(names))
    else:
        for name in names:
            out.print(escape(name))
