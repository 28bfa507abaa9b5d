"""`make demo`: ingest the bundled sample corpus into an embedded store and show what it holds."""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ...errors import CitegraphError, RuntimeFailure
from .common import app, fail, out
from .printing import print_answer

SAMPLE_SCOPE = "sample"
DEMO_CHUNK_BYTES = 300
DEMO_QUESTIONS = (
    "What does checkout do when the payment gateway times out?",
    "What does checkout do when the payment gateway is on fire?",
)


def sample_dir() -> Path:
    with as_file(files("citegraph") / "sample_corpus") as path:
        return Path(path)


def run(home: Path, console: Console | None = None) -> None:
    from rich.table import Table

    from ... import workspace

    console = console or Console()
    # A small chunk budget, so that the short sample files show how chunks tile a document.
    with workspace.open(home, chunk_bytes=DEMO_CHUNK_BYTES) as ws:
        scope = ws.scope(SAMPLE_SCOPE)
        results = scope.ingest(sample_dir())
        table = Table(title=f"sample corpus in scope {SAMPLE_SCOPE!r} (store: {home})")
        for column in ("document", "status", "bytes", "chunks"):
            table.add_column(column)
        for r in results:
            doc = r.document
            table.add_row(doc.name, r.status.value, f"{doc.size_bytes:,}", str(doc.chunk_count))
        console.print(table)
        first = scope.document(results[0].document.id)
        console.print(f"\nchunks of [bold]{first.name}[/] with their byte spans:")
        text = scope.stored_text(first.id)
        for chunk in scope.chunks(first.id):
            same = text[chunk.start_byte : chunk.end_byte] == chunk.text.encode("utf-8")
            console.print(
                f"  #{chunk.ordinal} bytes [{chunk.start_byte}, {chunk.end_byte}) "
                f"{'= stored text' if same else 'MISMATCH'}: {' '.join(chunk.text.split())[:56]}…"
            )
        for question in DEMO_QUESTIONS:
            evidence = scope.context(question, k=2)
            verdict = evidence.verdict
            console.print(f"\n[bold]context:[/] {question}")
            line = f"  verdict: [bold]{verdict.state.value}[/]"
            if verdict.uncovered:
                line += f" (nothing stored about: {', '.join(verdict.uncovered)})"
            console.print(line)
            for item in evidence.items[:1]:
                flat = " ".join(item.text.split())
                console.print(
                    f"  {item.id} {item.document_name} bytes [{item.start_byte}, "
                    f"{item.end_byte}): {flat[:100]}…"
                )
        for question in DEMO_QUESTIONS:
            answer = scope.ask(question)
            console.print(f"\n[bold]ask:[/] {question}")
            print_answer(answer, console)
        console.print("\nMore: `citegraph --help`.")


@app.command()
def demo(
    home: Annotated[Path, typer.Option("--home", help="Where to keep the demo store.")] = Path(
        ".citegraph-demo"
    ),
) -> None:
    """Ingest the bundled sample corpus into an embedded store and show what was stored."""
    try:
        run(home, out)
    except RuntimeFailure as exc:
        fail(str(exc), 3)
    except CitegraphError as exc:
        fail(str(exc), 1)
