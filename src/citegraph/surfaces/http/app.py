"""The HTTP API: thin routers over one workspace (memory, answers, documents, health). Each
route checks the token, then calls the same core the CLI calls, in a worker thread, under the
request timeout."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI

from ... import __version__
from ...models.chat import ChatModel
from ...service import shapes as s
from ...service.tokens import TokenFile
from ...workspace import Workspace
from .. import web
from . import answers, audit, documents, graph, health, memory
from .deps import Service
from .guard import BodyLimit, Guard, RequireToken, install_error_handlers

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": s.ErrorBody, "description": what}
    for code, what in {
        400: "The body cannot be parsed (not JSON, not UTF-8, a broken multipart form).",
        401: "No token, a malformed header, or an unknown or revoked token.",
        403: "The token does not open this scope with this right (forbidden), or an "
        "experimental feature is off here (feature_off).",
        404: "No such document in the scope, or no such route.",
        413: "The request body is over the limit.",
        422: "A field is missing or out of bounds; the message names it.",
        503: "The graph store is down, still loading, or an index is still being built.",
        504: "The request took longer than the request timeout.",
    }.items()
}

DESCRIPTION = """\
Citation-first memory and answers. Every passage comes with its document and byte span;
every answer is built from quotes proven to be in the stored text, or refused with a reason.

Send `Authorization: Bearer <token>` (create one with `citegraph token create`). Read
`verdict.state` before the items: answer only when it is `grounded`, and quote each item's
`citation` for every fact you use. Errors are `{"ok": false, "error": {"code", "message"}}`.
"""


def create_app(
    workspace: Workspace,
    tokens: TokenFile | None = None,
    chat: ChatModel | None = None,
    *,
    close_at_shutdown: bool = False,
) -> FastAPI:
    """The API over `workspace`; `chat` answers instead of the workspace's model. With
    `close_at_shutdown`, the app owns the workspace and closes it when the server stops (each
    worker of `citegraph serve --workers N`)."""
    settings = workspace.settings
    guard = Guard(tokens or TokenFile(settings.tokens_path), settings.request_timeout_s)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            if close_at_shutdown:
                workspace.close()

    app = FastAPI(
        title="citegraph",
        version=__version__,
        description=DESCRIPTION,
        responses=_ERRORS,
        lifespan=lifespan,
    )
    app.state.service = Service(workspace, guard, chat)
    install_error_handlers(app, lambda: workspace.health())
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    # Added last, so it runs first: no token, no body read.
    app.add_middleware(RequireToken, guard=guard, open_paths=("/v1/health",))
    routers = (health, memory, answers, documents, graph, audit)
    for module in routers:
        app.include_router(module.router)
    # The web UI (a page and its script, no data): it reads through the routes above, with
    # the token the person enters.
    app.include_router(web.router)

    return app
