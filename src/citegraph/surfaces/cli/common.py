"""What every `citegraph` command shares: the app its commands register on, options, output
that cannot drive the terminal, and opening a workspace with errors mapped to exit codes.

Exit codes: 0 success, 1 bad input (a file that cannot be stored, a document that is not there),
2 a command-line mistake, 3 a runtime failure (the graph store is down, an index is not ready),
4 an answer refused (`ask`).
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from rich.console import Console
from rich.markup import escape as _markup_escape

from ...errors import CitegraphError, RuntimeFailure
from ...limits import MAX_HOPS, MAX_K

if TYPE_CHECKING:  # imported where used: each command loads only what it needs
    from ...values.proposals import ExtractionCoverage
    from ...workspace import Workspace

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


def say_coverage(coverage: ExtractionCoverage | None, scope: str) -> None:
    """Say, on stderr, that documents are not extracted yet: a listing or walk without their
    entities and relations must not read as complete."""
    note = coverage.note(scope) if coverage is not None else None
    if note is not None:
        err.print(f"[yellow]{escape(note)}[/]")


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
# Out of bounds is a command-line mistake (exit 2), said by the option itself.
KOpt = Annotated[
    int,
    typer.Option("--k", min=1, max=MAX_K, help=f"How many evidence items (1 to {MAX_K})."),
]
HopsOpt = Annotated[
    int,
    typer.Option(
        "--hops", min=0, max=MAX_HOPS, help=f"Graph steps from the seeds (0 to {MAX_HOPS})."
    ),
]
Text2CypherOpt = Annotated[
    bool,
    typer.Option(
        "--text2cypher",
        help="Turn on questions about the graph answered by model-written Cypher "
        "(experimental; as CITEGRAPH_TEXT2CYPHER=on).",
    ),
]
ModelOpt = Annotated[
    str | None,
    typer.Option(
        "--model",
        help="Answer with this chat model at the OpenAI-compatible endpoint "
        "$CITEGRAPH_CHAT_BASE_URL (default: $CITEGRAPH_CHAT_MODEL); with neither, the offline "
        "extractive answerer. The answer's receipt names the one used.",
    ),
]


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


def print_json(document: str) -> None:
    """JSON for scripts, written as it is: rich's highlighting takes seconds on a long list."""
    sys.stdout.write(document.rstrip("\n") + "\n")
    sys.stdout.flush()


def fail(message: str, code: int) -> NoReturn:
    err.print(f"[bold red]error:[/] {escape(message)}")
    raise typer.Exit(code)


@contextlib.contextmanager
def open_workspace(
    home: Path | None, url: str | None, model: str | None = None, text2cypher: bool = False
) -> Iterator[Workspace]:
    """The workspace of --home/--url (or the settings); `model` (--model) names the chat
    model answers use, over CITEGRAPH_CHAT_MODEL; `text2cypher` (--text2cypher) turns graph
    questions on, as CITEGRAPH_TEXT2CYPHER=on does."""
    from dataclasses import replace

    from ...config import load_settings
    from ...store.embedded import EmbeddedServer

    try:
        settings = load_settings(home=home, url=url)
        if model:
            settings = replace(settings, chat_model=model)
        if text2cypher:
            settings = replace(settings, text2cypher=True)
        server = None
        try:
            if not settings.graph_url:
                # Start the embedded server first: it loads the store while the (slow)
                # imports below run, on the other core.
                server = EmbeddedServer.from_settings(settings)
                server.begin_join()
            from ...workspace import Workspace

            workspace = Workspace(settings, server=server)
        except BaseException:
            if server is not None:
                server.leave()  # nothing is left registered, or running without a keeper
            raise
        with workspace as ws:
            yield ws
    except RuntimeFailure as exc:
        fail(str(exc), 3)
    except CitegraphError as exc:
        fail(str(exc), 1)


def page_label(page: int | None, end_page: int | None) -> str:
    """ ", p. 3", ", pp. 3-5", or nothing, to follow a byte span."""
    from ...values.documents import page_range

    pages = page_range(page, end_page)
    return f", {'pp.' if '-' in pages else 'p.'} {pages}" if pages else ""


def empty_scope_hint(ws: Workspace, scope: str) -> None:
    """A scope that holds nothing is most often a mistyped --scope: say so, and name the
    scopes that hold something (on stderr; --json output stays as it is)."""
    try:
        if ws.scope(scope).documents():
            return
        others = [name for name in ws.scopes() if name != scope]
    except CitegraphError:
        return  # the hint is a courtesy; the command's own result stands
    said = f"scope {scope!r} holds no documents"
    said += (
        f"; scopes that do: {', '.join(others)}" if others else "; this store holds no scope yet"
    )
    err.print(f"[yellow]note:[/] {escape(said)} (see `citegraph scopes`)")
