"""`citegraph backup` and `citegraph restore`: one scope to a portable file and back."""

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
