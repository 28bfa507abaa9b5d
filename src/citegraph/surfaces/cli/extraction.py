"""`citegraph extract`: extraction run after ingest, offline or with a chat model, with an
estimate before spending and a hard token budget."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from typing import Annotated

import typer

from ...errors import CitegraphError
from ...values.proposals import ExtractionReport
from .common import HomeOpt, JsonOpt, ScopeOpt, UrlOpt, app, err, escape, fail, open_workspace, out

# The run stopped at its token budget: what was done is stored, the rest is left.
EXIT_BUDGET = 4


@app.command()
def extract(
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
    llm: Annotated[
        bool,
        typer.Option(
            "--llm",
            help="Extract with the chat model ($CITEGRAPH_CHAT_MODEL at "
            "$CITEGRAPH_CHAT_BASE_URL, or --model) instead of offline.",
        ),
    ] = False,
    model: Annotated[str | None, typer.Option("--model", help="The chat model for --llm.")] = None,
    schema: Annotated[
        str,
        typer.Option(
            "--schema",
            help="Entity and relation types shown to the model: engineering (services, "
            "datastores; calls, reads, writes...) or general (people, places; part-of, "
            "located-in...).",
        ),
    ] = "engineering",
    gleanings: Annotated[
        int,
        typer.Option(
            "--gleanings",
            min=0,
            help="With --llm: after each call, ask the model this many more times, in the same "
            "conversation, for what it missed (each round one more call; 0 by default).",
        ),
    ] = 0,
    describe: Annotated[
        bool,
        typer.Option(
            "--describe",
            help="With --llm: also ask for each relation's description in the model's words, "
            "stored beside its quote and shown as the model's, never as a citation.",
        ),
    ] = False,
    concurrency: Annotated[
        int,
        typer.Option(
            "--concurrency",
            min=1,
            max=32,
            help="With --llm: model calls in flight at once (replies still grounded in order).",
        ),
    ] = 4,
    estimate: Annotated[
        bool,
        typer.Option(
            "--estimate",
            help="Say what the run would spend (calls, prompt tokens) and spend nothing.",
        ),
    ] = False,
    max_tokens: Annotated[
        int | None,
        typer.Option(
            "--max-tokens",
            min=1,
            help="A hard budget: no call is made that could "
            f"pass it; the run stops there (exit {EXIT_BUDGET}) and the next run "
            "goes on from the documents left.",
        ),
    ] = None,
    again: Annotated[
        bool,
        typer.Option(
            "--again",
            help="Extract every document, not only those this extractor has not extracted yet.",
        ),
    ] = False,
) -> None:
    """Extract entities and relations from documents already stored.

    Ingest with CITEGRAPH_EXTRACT=false to make a large upload searchable at once, then run
    this. Each model reply is cached by (chunk bytes, prompt version, model, parameters):
    documents whose chunks did not change cost no call, and a changed model re-extracts.
    Everything a model proposes is kept only once located in the stored text; what was
    dropped is counted by reason.
    """
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

    with open_workspace(home, url, model) as ws:
        extractor = None
        if llm:
            from ...extract.llm import SCHEMAS, LLMExtractor

            if schema not in SCHEMAS:
                fail(f"--schema {schema}: {' or '.join(SCHEMAS)}", 2)
            chat = ws.chat_model
            if chat is None:
                fail("--llm needs a chat model: set CITEGRAPH_CHAT_MODEL and "
                     "CITEGRAPH_CHAT_BASE_URL, or pass --model", 2)  # fmt: skip
            types, relation_types = SCHEMAS[schema]
            extractor = LLMExtractor(
                chat,
                entity_types=types,
                relation_types=relation_types,
                gleanings=gleanings,
                concurrency=concurrency,
                describe=describe,
                cues=ws.cues,
            )
        elif gleanings or describe:
            asked = "--gleanings" if gleanings else "--describe"
            fail(f"{asked} asks a chat model: it needs --llm", 2)
        target = ws.scope(scope)
        try:
            if estimate:
                figures = target.extraction_estimate(extractor, again=again)
                if as_json:
                    print(json.dumps(asdict(figures)))
                    return
                out.print(
                    f"{escape(figures.extractor)} would extract {figures.documents} document(s), "
                    f"{figures.chunks} chunk(s): {figures.calls} call(s), about "
                    f"{figures.prompt_tokens} prompt tokens ({figures.cached} answered from the "
                    "cache, no call); reply tokens are not estimated"
                )
                return
            total = sum(d.size_bytes for d in target.documents())
            columns = (TextColumn("extracting"), BarColumn(), DownloadColumn(),
                       TimeRemainingColumn())  # fmt: skip
            with Progress(*columns, console=err, disable=as_json, transient=True) as bar:
                task = bar.add_task("extracting", total=total or None)
                run = target.extract(
                    extractor,
                    again=again,
                    max_tokens=max_tokens,
                    on_chunk=lambda size: bar.advance(task, size),
                )
        except CitegraphError as exc:
            fail(str(exc), 3)
    if as_json:
        print(json.dumps(asdict(run)))
    else:
        out.print(
            f"{escape(run.extractor)}: {run.documents} document(s) extracted, "
            + _kept_and_spent(run.mentions, run.relations, run.dropped, run.calls,
                              run.input_tokens + run.output_tokens, run.cached)
        )  # fmt: skip
    for name, why in run.unread:
        err.print(f"[yellow]warning:[/] {escape(name)}: settings not read: {escape(why)}")
    if run.busy:
        err.print(
            f"[yellow]{run.busy} document(s) left to another process[/] that is extracting them now"
        )
    if run.stopped is not None:
        err.print(f"[yellow]stopped:[/] {escape(run.stopped)}; {run.left} document(s) left")
        raise typer.Exit(EXIT_BUDGET)


def _kept_and_spent(
    mentions: int, relations: int, dropped: dict[str, int], calls: int, tokens: int, cached: int
) -> str:
    said = ", ".join(f"{k} {v}" for k, v in sorted(dropped.items())) or "none"
    # Offline, nothing is spent: no call figures to read past.
    spent = (
        f"; {calls} call(s), {tokens} tokens, {cached} answered from the cache"
        if calls or cached
        else ""
    )
    return f"{mentions} mention(s), {relations} relation(s){spent}; dropped: {escape(said)}"


def extraction_said(reports: Sequence[ExtractionReport]) -> str | None:
    """One line for what an ingest's extraction kept, dropped and cost (None: it extracted
    nothing)."""
    if not reports:
        return None
    dropped: dict[str, int] = {}
    for report in reports:
        for reason, count in report.dropped.items():
            dropped[reason] = dropped.get(reason, 0) + count
    return f"extracted from {len(reports)} document(s): " + _kept_and_spent(
        sum(r.mentions for r in reports),
        sum(r.relations for r in reports),
        dropped,
        sum(r.calls for r in reports),
        sum(r.input_tokens + r.output_tokens for r in reports),
        sum(r.cached for r in reports),
    )
