"""The `citegraph` command: a thin layer over the workspace API.

Exit codes: 0 success, 1 bad input (a file that cannot be stored, a document that is not there),
2 a command-line mistake, 3 a runtime failure (the graph store is down, an index is not ready),
4 an answer refused (`ask`).
"""

from __future__ import annotations

import contextlib
import json
import re
import signal
import sys
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape as _markup_escape

from .errors import CitegraphError, RuntimeFailure

if TYPE_CHECKING:  # imported where used: each command loads only what it needs
    from .ingest.pipeline import ParsedDocument
    from .retrieve.evidence import Evidence
    from .types import Chunk, Document, IngestResult
    from .workspace import Workspace

app = typer.Typer(
    name="citegraph",
    help=(
        "Citation-first GraphRAG. Ingest documents with exact byte provenance into a graph "
        "(embedded FalkorDB by default), then look at what was stored.\n\n"
        "The store lives in --home (default ~/.citegraph, or $CITEGRAPH_HOME); set "
        "$CITEGRAPH_GRAPH_URL or --url to use a FalkorDB server instead. Each --scope is a "
        "separate graph.\n\n"
        "Exit codes: 0 ok, 1 bad input, 2 command-line mistake, 3 store or runtime failure, "
        "4 answer refused."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)

ScopeOpt = Annotated[
    str, typer.Option("--scope", "-s", help="Scope (one graph per scope): A-Z a-z 0-9 _ -.")
]
HomeOpt = Annotated[
    Path | None,
    typer.Option(
        "--home", help="Home of the embedded store (default: $CITEGRAPH_HOME or ~/.citegraph)."
    ),
]
UrlOpt = Annotated[
    str | None,
    typer.Option(
        "--url", help="Use the FalkorDB server at this redis:// URL (env: CITEGRAPH_GRAPH_URL)."
    ),
]
DocArg = Annotated[str, typer.Argument(help="Document id or name.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of tables.")]


# Control characters (but tab and newline) and the bidirectional overrides: printed as they
# are, a stored name or quote could drive the terminal (retitle it, clear it, move the
# cursor) or reorder what is shown. They are shown as escapes instead; --json is exact.
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def visible(text: str) -> str:
    """`text` with every character that would act on a terminal shown as an escape."""
    return _UNPRINTABLE.sub(
        lambda m: (
            f"\\u{ord(m.group()):04x}" if ord(m.group()) > 0xFF else f"\\x{ord(m.group()):02x}"
        ),
        text,
    )


def escape(text: str) -> str:
    """Safe to print: terminal controls made visible, rich markup escaped."""
    return _markup_escape(visible(text))


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        out.print(f"citegraph {version('citegraph')}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Citation-first GraphRAG."""


def _print_json(document: str) -> None:
    """JSON for scripts, written as it is: rich's highlighting takes seconds on a long list."""
    sys.stdout.write(document.rstrip("\n") + "\n")
    sys.stdout.flush()


def _fail(message: str, code: int) -> NoReturn:
    err.print(f"[bold red]error:[/] {escape(message)}")
    raise typer.Exit(code)


@contextlib.contextmanager
def _workspace(home: Path | None, url: str | None) -> Iterator[Workspace]:
    from .config import load_settings
    from .store.embedded import EmbeddedServer

    try:
        settings = load_settings(home=home, url=url)
        server = None
        if not settings.graph_url:
            # Start the embedded server first: it loads the store while the (slow) imports
            # below run, on the other core.
            server = EmbeddedServer.from_settings(settings)
            server.begin_join()
        try:
            from .workspace import Workspace

            workspace = Workspace(settings, server=server)
        except BaseException:
            if server is not None:
                server.leave()  # nothing is left registered, or running without a keeper
            raise
        with workspace as ws:
            yield ws
    except RuntimeFailure as exc:
        _fail(str(exc), 3)
    except CitegraphError as exc:
        _fail(str(exc), 1)


def _doc_json(doc: Document) -> dict[str, Any]:
    # Field by field: dataclasses.asdict deep-copies, which cost 0.1 s on 3,500 documents.
    data = {f: getattr(doc, f) for f in _DOC_FIELDS}
    origin = doc.origin
    data["origin"] = (
        {"kind": origin.kind, "source": origin.source, "method": origin.method} if origin else None
    )
    data["page_starts"] = list(doc.page_starts)
    data["page_count"] = doc.page_count
    return data


_DOC_FIELDS = (
    "id", "name", "media_type", "sha256", "size_bytes", "chunk_count", "ingested_at", "title",
    "extracted", "embedded_with",
)  # fmt: skip


def _result_json(result: IngestResult) -> dict[str, Any]:
    return {
        "name": result.document.name,
        "status": result.status.value,
        "document": _doc_json(result.document),
        "warnings": list(result.warnings),
    }


@app.command()
def ingest(
    paths: Annotated[
        list[Path], typer.Argument(help="Files and folders (.txt .md .pdf); folders recursively.")
    ],
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
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

    from .ingest.pipeline import DocumentGroups
    from .ingest.sources import expand
    from .types import TextOrigin

    if (origin_kind is None) != (origin_source is None):
        _fail("--origin-kind and --origin-source go together", 2)
    origin = (
        TextOrigin(origin_kind, origin_source, origin_method)
        if origin_kind and origin_source
        else None
    )
    try:
        files, skipped = expand(paths)
    except CitegraphError as exc:
        _fail(str(exc), 1)
    results: list[IngestResult] = []
    failures: list[tuple[str, str]] = []
    total = sum(f.path.stat().st_size for f in files)
    with _workspace(home, url) as ws:
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
                    _fail(str(exc), 3)
                except CitegraphError as exc:
                    failures.extend((p.name, str(exc)) for p in group)
                bar.advance(task, sum(sizes.pop(p.name, 0) for p in group))

            sizes: dict[str, int] = {}
            for file in files:
                bar.update(task, description=escape(file.name[-40:]))
                try:
                    parsed = target.parse_file(file, origin=origin)
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
        _print_json(
            json.dumps(
                {
                    "scope": scope,
                    "results": [_result_json(r) for r in results],
                    "errors": [{"name": n, "message": m} for n, m in failures],
                    "skipped": [str(p) for p in skipped],
                }
            )
        )
    else:
        table = Table(title=f"ingested into scope {escape(scope)!s}")
        for column in ("document", "status", "bytes", "chunks", "pages"):
            table.add_column(
                column, justify="right" if column in ("bytes", "chunks", "pages") else "left"
            )
        for r in results:
            d = r.document
            table.add_row(
                escape(d.name),
                r.status.value,
                f"{d.size_bytes:,}",
                str(d.chunk_count),
                str(d.page_count or ""),
            )
        for name, _message in failures:
            table.add_row(escape(name), "[red]error[/]", "", "", "")
        out.print(table)
        for r in results:
            for warning in r.warnings:
                err.print(f"[yellow]warning:[/] {escape(warning)}")
        for _name, message in failures:
            err.print(f"[bold red]error:[/] {escape(message)}")
        if skipped:
            err.print(f"skipped {len(skipped)} file(s) of unsupported types")
    if failures:
        raise typer.Exit(1)


@app.command()
def docs(
    scope: ScopeOpt = "default", home: HomeOpt = None, url: UrlOpt = None, as_json: JsonOpt = False
) -> None:
    """List the documents of a scope."""
    with _workspace(home, url) as ws:
        documents = ws.scope(scope).documents()
    if as_json:
        _print_json(json.dumps([_doc_json(d) for d in documents]))
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


def _pages(page: int | None, end_page: int | None) -> str:
    """ ", p. 3", ", pp. 3-5", or nothing, to follow a byte span."""
    from .types import page_range

    pages = page_range(page, end_page)
    return f", {'pp.' if '-' in pages else 'p.'} {pages}" if pages else ""


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
    with _workspace(home, url) as ws:
        target = ws.scope(scope)
        document = target.document(doc)
        chunks = list(target.chunks(document.id))
    if as_json:
        _print_json(
            json.dumps({"document": _doc_json(document), "chunks": [asdict(c) for c in chunks]})
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

    from .types import page_range

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
    with _workspace(home, url) as ws:
        removed = ws.scope(scope).delete_document(doc)
    if as_json:
        _print_json(json.dumps({"deleted": _doc_json(removed)}))
    else:
        out.print(f"deleted {escape(removed.name)} ({removed.id}, {removed.chunk_count} chunks)")


_VERDICT_COLOURS = {
    "grounded": "green",
    "related": "yellow",
    "uncited": "yellow",
    "nothing_stored": "red",
    "could_not_judge": "magenta",
}


def _evidence_json(evidence: Evidence) -> dict[str, Any]:
    data = asdict(evidence)
    data["verdict"]["state"] = evidence.verdict.state.value
    policy = evidence.policy
    data["policy"]["relation_types"] = (
        sorted(policy.relation_types) if policy.relation_types is not None else None
    )
    return data


@app.command()
def context(
    question: Annotated[str, typer.Argument(help="A standalone question, in plain words.")],
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
    k: Annotated[int, typer.Option("--k", help="How many items to return (1 to 50).")] = 8,
    hops: Annotated[int, typer.Option("--hops", help="Graph steps from the seeds (0 to 3).")] = 2,
) -> None:
    """Gather the cited evidence for a question and say whether the store covers it.

    Read the verdict first: grounded (every content word covered, something citable),
    related (the words in 'uncovered' are covered by nothing), uncited, nothing_stored, or
    could_not_judge (a stage could not run)."""
    with _workspace(home, url) as ws:
        evidence = ws.scope(scope).context(question, k=k, hops=hops)
    if as_json:
        _print_json(json.dumps(_evidence_json(evidence)))
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
        pages = _pages(item.page, item.end_page)
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
def scopes(home: HomeOpt = None, url: UrlOpt = None, as_json: JsonOpt = False) -> None:
    """List the scopes that hold something (documents or facts)."""
    with _workspace(home, url) as ws:
        names = ws.scopes()
    if as_json:
        _print_json(json.dumps(names))
    else:
        for name in names:
            out.print(escape(name))


@app.command()
def demo(
    home: Annotated[Path, typer.Option("--home", help="Where to keep the demo store.")] = Path(
        ".citegraph-demo"
    ),
) -> None:
    """Ingest the bundled sample corpus into an embedded store and show what was stored."""
    from . import demo as demo_module

    try:
        demo_module.run(home, out)
    except RuntimeFailure as exc:
        _fail(str(exc), 3)
    except CitegraphError as exc:
        _fail(str(exc), 1)


def _terminate(signum: int, _frame: object) -> None:
    # Turn SIGTERM into a normal exit so the embedded server is shut down in order.
    raise SystemExit(128 + signum)


def main() -> None:
    signal.signal(signal.SIGTERM, _terminate)
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


# Register ask, chat, check, serve, token and mcp on `app`; imported last, as they use the
# options defined above.
from . import cli_answers, cli_service, cli_store  # noqa: E402, F401
