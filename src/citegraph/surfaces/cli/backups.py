"""`citegraph backup`, `restore` and `move`: one scope to a portable file and back, or to
another store."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...errors import CitegraphError, UsageError
from .common import HomeOpt, ScopeOpt, UrlOpt, app, escape, fail, open_workspace, out


@app.command()
def backup(
    file: Annotated[Path, typer.Argument(help="Where to write the backup (gzip'd JSON lines).")],
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
) -> None:
    """Write a scope to FILE: documents with their stored text, chunks with their byte spans
    and pages, entities, mentions, relations with their quotes, polarity, modality and audit
    verdicts, the extraction cache; checksummed. Embeddings are not kept (embed again after a
    restore). `citegraph restore FILE --scope NEW` reads it back."""
    with open_workspace(home, url) as ws:
        try:
            written = ws.scope(scope).backup(file)
        except OSError as exc:
            fail(f"{file}: cannot write: {exc.strerror}", 1)
        except CitegraphError as exc:
            fail(str(exc), 3)
    out.print(f"wrote {written} records of scope {escape(scope)} to {escape(str(file))}")


@app.command()
def restore(
    file: Annotated[Path, typer.Argument(help="A backup written by `citegraph backup`.")],
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
) -> None:
    """Restore FILE into --scope, which must hold nothing. The whole file is checked first: a
    truncated or edited backup is refused, saying what is wrong, and nothing is written; the
    scope then appears all at once."""
    with open_workspace(home, url) as ws:
        try:
            restored = ws.restore(file, scope)
        except UsageError as exc:
            fail(str(exc), 2)
        except CitegraphError as exc:
            fail(str(exc), 3)
    out.print(f"restored {restored} records into scope {escape(scope)}")


@app.command()
def move(
    scope: ScopeOpt = "default",
    to: Annotated[
        str | None,
        typer.Option(
            "--to",
            help="The target store's URL: redis://host:port, redis+cluster://h1:p1,h2:p2, ...",
        ),
    ] = None,
    to_home: Annotated[
        Path | None, typer.Option("--to-home", help="Or an embedded store's home directory.")
    ] = None,
    as_name: Annotated[
        str | None, typer.Option("--as", help="The scope's name in the target (default: same).")
    ] = None,
    keep: Annotated[bool, typer.Option("--keep", help="Copy: keep the source scope.")] = False,
    home: HomeOpt = None,
    url: UrlOpt = None,
) -> None:
    """Move --scope to another store (--to URL or --to-home DIR): embedded to a server, a
    server to a cluster, and back. The scope is backed up, restored into the target (where it
    must hold nothing), the copy checked record by record against the original, and only then
    is the source dropped. Stop writers to the scope first: a source that changed during the
    move is kept, and said so."""
    from dataclasses import replace

    from ...config import load_settings
    from ...store.move import move_scope
    from ...workspace import Workspace

    if (to is None) == (to_home is None):
        fail("give exactly one of --to URL and --to-home DIR", 2)
    target_settings = load_settings(url=to) if to else load_settings(home=to_home)
    if to_home is not None:
        target_settings = replace(target_settings, graph_url=None)
    with open_workspace(home, url) as ws:
        try:
            with Workspace(target_settings) as target:
                report = move_scope(ws, scope, target, as_name or scope, keep)
        except UsageError as exc:
            fail(str(exc), 2)
        except CitegraphError as exc:
            fail(str(exc), 3)
    done = "moved" if report.source_dropped else "copied"
    out.print(
        f"{done} scope {escape(scope)} ({report.records} records, sha256 {report.digest[:16]}) "
        f"from {escape(report.source)} to {escape(report.target)} as {escape(report.target_scope)}"
    )
    if report.note:
        out.print(f"note: {escape(report.note)}")
