"""`citegraph serve`, `citegraph token ...` and `citegraph mcp`: the service commands."""

from __future__ import annotations

import ipaddress
import json
import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ...config import load_settings
from ...errors import CitegraphError, RuntimeFailure
from .common import (
    HomeOpt,
    JsonOpt,
    ModelOpt,
    Text2CypherOpt,
    UrlOpt,
    app,
    err,
    escape,
    fail,
    open_workspace,
    out,
    print_json,
)

if TYPE_CHECKING:
    from ...service.tokens import TokenFile

token_app = typer.Typer(
    help=(
        "Bearer tokens for `citegraph serve`. Each token opens the scopes it names, with the "
        "rights it has there (read: context, answers, listing; write: remember, upload, "
        "delete). Only a hash is stored, in <home>/tokens.json or $CITEGRAPH_TOKENS_FILE."
    ),
    no_args_is_help=True,
)
app.add_typer(token_app, name="token")


def _tokens(home: Path | None) -> TokenFile:
    from ...service.tokens import TokenFile  # the server's imports are heavy: only when needed

    return TokenFile(load_settings(home=home).tokens_path)


@token_app.command("create")
def token_create(
    scope: Annotated[
        list[str], typer.Option("--scope", "-s", help="A scope the token opens (repeatable).")
    ],
    rights: Annotated[str, typer.Option("--rights", help="read, write, or read,write.")] = "read",
    label: Annotated[str, typer.Option("--label", help="A note to recognise it by.")] = "",
    home: HomeOpt = None,
) -> None:
    """Create a token and print it, once: it cannot be shown again."""
    try:
        tokens = _tokens(home)
        token = tokens.create(scope, rights, label)
    except CitegraphError as exc:
        fail(str(exc), 1)
    record = tokens.find(token)
    assert record is not None
    err.print(
        f"token {record.id} for scope(s) {escape(', '.join(record.scopes))}, rights "
        f"{','.join(record.rights)}; stored as a hash in {escape(str(tokens.path))}. "
        "Copy it now: it is not shown again."
    )
    print(token)


@token_app.command("list")
def token_list(home: HomeOpt = None, as_json: JsonOpt = False) -> None:
    """List tokens (their ids, never the tokens themselves)."""
    try:
        records = _tokens(home).records()
    except CitegraphError as exc:
        fail(str(exc), 1)
    if as_json:
        print_json(
            json.dumps(
                [
                    {"id": r.id, "scopes": list(r.scopes), "rights": list(r.rights),
                     "label": r.label, "created": r.created}
                    for r in records
                ]
            )
        )  # fmt: skip
        return
    from rich.table import Table

    table = Table("id", "scopes", "rights", "label", "created")
    for r in records:
        table.add_row(
            r.id, escape(", ".join(r.scopes)), ",".join(r.rights), escape(r.label), r.created
        )
    out.print(table)


@token_app.command("revoke")
def token_revoke(
    token_id: Annotated[str, typer.Argument(help="The token's id, from `citegraph token list`.")],
    home: HomeOpt = None,
) -> None:
    """Revoke a token; a running server refuses it from its next request."""
    try:
        record = _tokens(home).revoke(token_id)
    except CitegraphError as exc:
        fail(str(exc), 1)
    out.print(f"revoked {record.id} ({escape(', '.join(record.scopes))})")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 4000,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            help="Server processes (each with its own workspace on the same store); more "
            "than one uses more cores.",
        ),
    ] = 1,
    home: HomeOpt = None,
    url: UrlOpt = None,
    model: ModelOpt = None,
    text2cypher: Text2CypherOpt = False,
) -> None:
    """Serve the HTTP API (OpenAPI at /docs). Every call but /v1/health needs a bearer token
    from `citegraph token create`. Binds to loopback unless told otherwise, and will not bind
    elsewhere while no token exists."""
    import uvicorn

    from ..http import TokenFile, create_app
    from ..http.asgi import serving

    settings = serving(load_settings(home=home, url=url))
    if model:
        settings = replace(settings, chat_model=model)
    if text2cypher:
        settings = replace(settings, text2cypher=True)
    tokens = TokenFile(settings.tokens_path)
    try:
        count = len(tokens.records())
    except CitegraphError as exc:
        fail(str(exc), 1)
    if count == 0 and not _is_loopback(host):
        fail(
            f"refusing to listen on {host}: no tokens exist yet ({tokens.path}); create one "
            "with `citegraph token create --scope NAME` first",
            2,
        )
    if count == 0:
        err.print("[yellow]no tokens yet: every call will get 401; see `citegraph token create`")
    try:
        # Opened here even with workers: a store that cannot be reached is reported now, and
        # an embedded one stays up while workers come and go.
        from ...workspace import Workspace

        ws = Workspace(settings)
    except RuntimeFailure as exc:
        fail(str(exc), 3)
    except CitegraphError as exc:
        fail(str(exc), 1)
    with ws:
        err.print(
            f"citegraph {escape(ws.where)} on http://{host}:{port} (docs at /docs)"
            + (f", {workers} workers" if workers > 1 else "")
        )
        if workers == 1:
            api = create_app(ws, tokens)
            uvicorn.run(api, host=host, port=port, log_level="warning", access_log=False)
            return
        # Each worker reads its settings from the environment, as this process resolved them.
        os.environ["CITEGRAPH_HOME"] = str(settings.home.resolve())
        os.environ["CITEGRAPH_TOKENS_FILE"] = str(settings.tokens_path)
        if settings.graph_url:
            os.environ["CITEGRAPH_GRAPH_URL"] = settings.graph_url
        if settings.chat_model:
            os.environ["CITEGRAPH_CHAT_MODEL"] = settings.chat_model
        if settings.text2cypher:
            os.environ["CITEGRAPH_TEXT2CYPHER"] = "on"
        uvicorn.run(
            "citegraph.surfaces.http.asgi:from_environment",
            factory=True,
            http="citegraph.surfaces.http.asgi:NoDelayH11",
            workers=workers,
            host=host,
            port=port,
            log_level="warning",
            access_log=False,
        )


@app.command()
def mcp(
    scope: Annotated[
        list[str] | None,
        typer.Option(
            "--scope",
            "-s",
            help="A scope the tools may use (repeatable); the first is used when a call names "
            "none (default: the scope named default).",
        ),
    ] = None,
    home: HomeOpt = None,
    url: UrlOpt = None,
    model: ModelOpt = None,
    text2cypher: Text2CypherOpt = False,
) -> None:
    """Run the MCP server on stdio (tools: memory_context, memory_remember, answer,
    check_answer, relations, entities, community_reports, graph_impact, graph_paths,
    graph_query). Point an MCP client at `citegraph mcp --scope NAME`."""
    from ..mcp import build_server

    with open_workspace(home, url, model, text2cypher) as ws:
        build_server(ws, scope or ["default"]).run("stdio")
