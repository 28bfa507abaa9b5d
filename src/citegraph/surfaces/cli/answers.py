"""The `ask`, `chat` and `check` commands (registered on the app of `cli`)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ...errors import UsageError
from ...limits import DEFAULT_K
from .common import (
    HomeOpt,
    JsonOpt,
    KOpt,
    ModelOpt,
    ScopeOpt,
    UrlOpt,
    app,
    empty_scope_hint,
    err,
    escape,
    fail,
    open_workspace,
    out,
    print_json,
)
from .printing import print_answer

if TYPE_CHECKING:
    from ...values.answers import Turn


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="A standalone question, in plain words.")],
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
    k: KOpt = DEFAULT_K,
    export: Annotated[
        Path | None,
        typer.Option("--export", help="Also write the answer as a citegraph-answer/1 document."),
    ] = None,
    model: ModelOpt = None,
) -> None:
    """Answer with quotes proven to be in the stored text, or refuse and say why.

    Without a chat model (the default here), the offline extractive answerer quotes the best
    evidence sentences; every quote is verified the same way a model's would be. A refusal
    exits with code 4."""
    from ...audit.export import to_json

    with open_workspace(home, url, model) as ws:
        answer = ws.scope(scope).ask(question, k=k)
        if answer.reason is not None and answer.reason.value == "no-evidence":
            empty_scope_hint(ws, scope)
    if export is not None:
        try:
            export.write_text(to_json(answer), encoding="utf-8")
        except OSError as exc:
            fail(f"{export}: cannot write: {exc.strerror}", 1)
        err.print(
            f"wrote {escape(str(export))} (check it with `citegraph check {escape(str(export))}`)"
        )
    if as_json:
        print_json(to_json(answer))  # the same document as --export
    else:
        print_answer(answer, out)
    if answer.disposition.value != "answered":
        raise typer.Exit(4)


@app.command()
def chat(
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    k: KOpt = DEFAULT_K,
    model: ModelOpt = None,
) -> None:
    """Ask questions one after another; follow-ups ("what does he ...") are rewritten from the
    conversation. An empty line, 'exit' or Ctrl-D ends it."""
    with contextlib.suppress(ImportError):  # line editing for input(); not on every platform
        import readline  # noqa: F401
    from ...values.answers import Turn

    history: list[Turn] = []
    with open_workspace(home, url, model) as ws:
        target = ws.scope(scope)
        while True:
            try:
                question = input("? ").strip()
            except EOFError:
                break
            if not question or question.lower() in ("exit", "quit"):
                break
            try:
                answer = target.ask(question, history)
            except UsageError as exc:
                err.print(f"[bold red]error:[/] {escape(str(exc))}")
                continue
            if answer.rewrite is not None and answer.rewrite.question != question:
                out.print(f"[dim](asked as: {escape(answer.rewrite.question)})[/]")
            print_answer(answer, out)
            history.append(Turn(question, answer.text or ""))


@app.command("check")
def check_command(
    path: Annotated[Path, typer.Argument(help="A citegraph-answer/1 document (ask --export).")],
    scope: Annotated[
        str | None,
        typer.Option(
            "--scope",
            "-s",
            help="Also compare every cited item and citation with the bytes stored in this "
            "scope (the only check an edited export cannot pass).",
        ),
    ] = None,
    home: HomeOpt = None,
    url: UrlOpt = None,
) -> None:
    """Check an exported answer: every citation's bytes must be the bytes of the evidence
    item it names, at its span, at word boundaries, with the item's pages and text origin.

    Without --scope this compares the answer with the evidence its own export carries, and
    says so: an export whose item and quote were edited together passes it. With --scope it
    also compares every cited item and citation with the stored bytes, document names,
    origins and pages. Exit 1 and list the problems otherwise."""
    import json

    from ...service.checking import check_answer

    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        fail(f"{path}: cannot read: {exc.strerror}", 1)
    except ValueError as exc:
        fail(f"{path}: not a readable citegraph-answer/1 document: {exc}", 1)
    # The same check as POST /v1/answers/check and the MCP tool (service/checking.py).
    try:
        if scope is None:
            report = check_answer(document, None)
        else:
            with open_workspace(home, url) as ws:
                report = check_answer(document, ws.scope(scope))
    except UsageError as exc:  # a store that fails is exit 3, from open_workspace
        fail(f"{path}: {exc}", 1)
    for problem in report.problems:
        err.print(f"[bold red]problem:[/] {escape(problem)}")
    if report.problems:
        raise typer.Exit(1)
    against = (
        f"the stored bytes of scope {scope}"
        if report.checked_against_store
        else "the export's own evidence only, not the stored bytes (give --scope for that)"
    )
    said = f"ok: {report.disposition}, {report.citations} citation(s) verified against {against}"
    if report.model_worded_claims:
        said += (
            f"; {report.model_worded_claims} claim(s) in the model's own words (their citations "
            "hold; the wording is the model's)"
        )
    out.print(escape(said))
