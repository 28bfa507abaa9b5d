"""`citegraph health`, `citegraph stop` and `citegraph repair`: looking after the store."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from typing import Annotated, Any

import typer

from ...config import load_settings
from ...errors import CitegraphError, RuntimeFailure
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

_MB = 1024 * 1024


def _size(n: int) -> str:
    return f"{n / _MB:.1f} MB" if n >= _MB / 10 else f"{n / 1024:.0f} KB"


@app.command()
def health(home: HomeOpt = None, url: UrlOpt = None, as_json: JsonOpt = False) -> None:
    """Say whether the store answers, what it holds on disk, and what needs repair.

    Shows the graph store's state, the embedded store's stored bytes, its append-only tail
    (replayed at the next start) and last compaction, and scopes that cannot be read or whose
    housekeeping failed (`citegraph repair`). Exit code 3 when the store is down."""
    from ...store.aof import format_age

    with open_workspace(home, url) as ws:
        found = ws.health()
        scope_errors = []
        if found.state.value != "down":
            # Opening each scope runs its housekeeping; what failed is then reported.
            for name in ws.scopes():
                try:
                    ws.scope(name).documents()
                except CitegraphError as exc:
                    scope_errors.append(f"{name}: {exc}")
            found = replace(found, housekeeping=ws.housekeeping_problems())
        server_pid = ws.server_pid()
        keeper = ws._server.keeper_pid() if ws._server is not None else None
        where = ws.where
        describe = str(getattr(ws.store, "describe", lambda: "a FalkorDB server")())
        linger = ws.settings.store_linger_s
    if as_json:
        body: dict[str, Any] = {
            "state": found.state.value,
            "detail": found.detail,
            "ping_ms": found.ping_ms,
            "where": where,
            "server_pid": server_pid,
            "kind": found.kind,
            "nodes": [asdict(n) for n in found.nodes],
            "storage": asdict(found.storage) if found.storage else None,
            "housekeeping": list(found.housekeeping),
            "scope_errors": scope_errors,
        }
        from ...service.shapes import camel

        print_json(json.dumps(camel(body)))
    else:
        ping = f", {found.ping_ms:.1f} ms" if found.ping_ms is not None else ""
        out.print(f"graph: {found.state.value} ({escape(found.detail)}{ping})")
        if server_pid is not None:
            kept = f"kept {linger:g} s when idle" if linger else "stopped with the last command"
            watcher = f", keeper pid {keeper}" if keeper else ""
            out.print(
                f"store: embedded in {escape(where)}; server pid {server_pid} ({kept}{watcher})"
            )
        else:
            out.print(f"store: {escape(where)} ({escape(describe)})")
        for node in found.nodes:
            ms = f", {node.ping_ms:.1f} ms" if node.ping_ms is not None else ""
            slots = f", slots {node.slots}" if node.slots else ""
            out.print(
                f"  {node.role} {escape(node.address)}: {node.state} "
                f"({escape(node.detail)}{ms}{slots})"
            )
        stats = found.storage
        if stats is not None:
            now = {True: "yes", False: "no", None: "unknown"}[stats.compacting]
            out.print(
                f"stored: {_size(stats.stored_bytes)} (tail {_size(stats.tail_bytes)}); last "
                f"compaction {format_age(stats.last_compaction)}; compacting now: {now}"
            )
        for problem in found.housekeeping:
            err.print(f"housekeeping: {escape(problem)}")
        for problem in scope_errors:
            err.print(f"scope: {escape(problem)}")
    if found.state.value == "down":
        raise typer.Exit(3)


@app.command()
def stop(home: HomeOpt = None) -> None:
    """Stop the idle embedded FalkorDB now instead of after the linger time.

    The server is kept for CITEGRAPH_STORE_LINGER seconds after the last command so that the
    next one finds it ready. This stops it at once, compacting first when that pays. Refused
    while a command or `citegraph serve` is using it."""
    from ...store.embedded import EmbeddedServer

    server = EmbeddedServer.from_settings(load_settings(home=home))
    if not (server.run_dir / "lock").exists():
        out.print(f"no embedded store in {escape(str(server.home))}")
        return
    refused, said = server.stop_if_unused()
    if refused:
        fail(said, 1)
    out.print(escape(said))


@app.command()
def repair(
    scope: ScopeOpt = "default",
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Also remove staging whose writer is alive or on another machine: only when "
            "no ingest into this scope is running.",
        ),
    ] = False,
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Check a scope and rebuild what can be rebuilt; say what was done.

    Recreates missing indexes, removes staging (half-written documents) left by writers that
    are gone and chunks that belong to no document, and says what it could not do. Stored
    documents are never removed."""
    try:
        with open_workspace(home, url) as ws:
            report = ws.scope(scope).repair(force=force)
    except RuntimeFailure as exc:
        fail(str(exc), 3)
    except CitegraphError as exc:
        fail(str(exc), 1)
    if as_json:
        from ...service.shapes import camel

        print_json(json.dumps(camel(asdict(report))))
        return
    out.print(f"scope {escape(scope)}:")
    for line in report.lines():
        out.print(f"  {escape(line)}")
