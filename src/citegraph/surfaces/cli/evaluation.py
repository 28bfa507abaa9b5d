"""`citegraph eval`: a question set run through retrieval and the answerer, with a report."""

from __future__ import annotations

import contextlib
import json
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from ...config import load_settings
from ...errors import CitegraphError
from .common import HomeOpt, JsonOpt, KOpt, UrlOpt, app, err, escape, fail, open_workspace, out

EVAL_SCOPE = "eval"


@app.command(name="eval")
def evaluate(
    questions: Annotated[
        Path, typer.Argument(help="SQuAD 2.0 JSON, HotpotQA JSON, or JSONL (docs/evaluation.md).")
    ],
    scope: Annotated[
        str | None,
        typer.Option(
            "--scope", "-s", help="Ask this scope, as it is (its documents named as the gold)."
        ),
    ] = None,
    corpus: Annotated[
        Path | None,
        typer.Option(
            "--corpus",
            help="Ingest these files into a store of its own (thrown away after) and ask it.",
        ),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option("--format", help="squad, hotpot or jsonl (default: told by the file)."),
    ] = None,
    k: KOpt = 8,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Only every Nth question (a quick run).")
    ] = None,
    report: Annotated[
        Path,
        typer.Option("--out", help="Folder for report.md, figures.json and the PNG plots."),
    ] = Path("eval-report"),
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Measure answers on a question set: retrieval recall@k, coverage, precision, refusals
    by reason, latency p50/p95, and the offline answerer's precision-coverage curve; a
    markdown report with PNG plots (the `eval` extra) in --out.

    Without --scope, the corpus (--corpus, or a SQuAD or HotpotQA file's own paragraphs, each
    a document named as the gold documents are) is ingested into a temporary store of its
    own: the store at --home is not touched."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from ...evaluate import questions as sets
    from ...evaluate.report import figures, markdown, plot
    from ...evaluate.runner import run
    from ...workspace import Workspace

    if scope is not None and corpus is not None:
        fail("give --scope or --corpus, not both", 2)
    if fmt is not None and fmt not in ("squad", "hotpot", "jsonl"):
        fail(f"--format {fmt}: squad, hotpot or jsonl", 2)
    try:
        loaded = sets.load(questions, fmt)  # type: ignore[arg-type]
    except CitegraphError as exc:
        fail(str(exc), 1)
    if scope is None and corpus is None and not loaded.corpus:
        fail("a JSONL question set needs --scope (a scope holding its documents) or --corpus", 2)
    asked = list(loaded.questions)[:: limit or 1]
    columns = (TextColumn("asking"), BarColumn(), MofNCompleteColumn())
    with contextlib.ExitStack() as stack:
        try:
            if scope is None:
                # A corpus to ingest goes into a store of its own, thrown away afterwards:
                # nothing of the user's store is read, replaced or dropped.
                scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="cg-eval-"))
                # Embedded, whatever CITEGRAPH_GRAPH_URL says: a server's scopes stay as they are.
                settings = replace(load_settings(home=scratch), graph_url=None)
                target = stack.enter_context(Workspace(settings)).scope(EVAL_SCOPE)
                if corpus is not None:
                    target.ingest(corpus)
                else:
                    target.ingest_many(list(loaded.corpus), media_type="text/plain")
            else:
                target = stack.enter_context(open_workspace(home, url)).scope(scope)
            with Progress(*columns, console=err, disable=as_json, transient=True) as bar:
                task = bar.add_task("asking", total=len(asked))
                result = run(
                    lambda q: target.ask(q, k=k), asked, k,
                    on_question=lambda: bar.advance(task),
                )  # fmt: skip
        except CitegraphError as exc:
            fail(str(exc), 3)
    report.mkdir(parents=True, exist_ok=True)
    plots, note = plot(result, report)
    title = f"{questions.name} ({loaded.format}, {len(asked)} of {len(loaded.questions)})"
    (report / "report.md").write_text(markdown(result, title, plots, note))
    numbers = figures(result)
    (report / "figures.json").write_text(json.dumps(numbers, indent=2) + "\n")
    if as_json:
        print(json.dumps(numbers))
        return
    out.print((report / "report.md").read_text().split("\n\nPrecision against")[0])
    out.print(f"\nreport: {escape(str(report / 'report.md'))}" + (f" ({note})" if note else ""))
