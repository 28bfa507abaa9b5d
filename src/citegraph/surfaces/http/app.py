"""The HTTP API: thin routes over one workspace. Each route checks the token, then calls the
same core the CLI calls, in a worker thread, under the request timeout."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Depends, FastAPI, File, Form, Query, Request, UploadFile
from fastapi.responses import JSONResponse

from ... import __version__
from ...audit.export import evidence_json
from ...limits import MAX_NAME, MAX_SCOPE_NAME, check_history, within_limit
from ...models.chat import ChatModel
from ...scope import OpenScopes, Scope
from ...service import requests as r
from ...service import shapes as s
from ...service.checking import check_answer
from ...service.shapes import wire
from ...service.tokens import Right, TokenFile, TokenRecord
from ...values.answers import Turn
from ...workspace import Workspace
from . import bodies as b
from .guard import (
    ApiError,
    BodyLimit,
    Guard,
    RequireToken,
    error_response,
    install_error_handlers,
)
from .uploads import upload_name

log = logging.getLogger("citegraph.http")

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": s.ErrorBody, "description": what}
    for code, what in {
        400: "The body cannot be parsed (not JSON, not UTF-8, a broken multipart form).",
        401: "No token, a malformed header, or an unknown or revoked token.",
        403: "The token does not open this scope with this right.",
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


def _authenticated(request: Request) -> TokenRecord:
    record: TokenRecord | None = getattr(request.state, "token", None)
    if record is None:  # RequireToken runs first for every /v1/ route; this is a safety net
        raise ApiError(401, "unauthorized", "send Authorization: Bearer <token>")
    return record


ScopeQuery = Annotated[str, Query(min_length=1, max_length=MAX_SCOPE_NAME)]
ScopeForm = Annotated[str, Form(min_length=1, max_length=MAX_SCOPE_NAME)]

# Checked by RequireToken before the body is read, then handed to the route.
Token = Annotated[TokenRecord, Depends(_authenticated)]


class Service:
    """The workspace, its scopes (kept, so their word statistics are too) and the guard."""

    def __init__(self, workspace: Workspace, guard: Guard, chat: ChatModel | None):
        self.workspace = workspace
        self.guard = guard
        self.chat = chat
        self._scopes = OpenScopes(workspace)
        self.max_question_chars = workspace.settings.max_question_chars

    def scope(self, token: TokenRecord, name: str, right: Right) -> Scope:
        self.guard.authorize(token, name, right)
        return self._scopes.get(name)

    def question(self, field: str, text: str) -> str:
        return within_limit(field, text, self.max_question_chars)

    def history(self, turns: list[r.TurnIn]) -> list[Turn]:
        pairs = [(t.question, t.answer) for t in turns]
        check_history(pairs, self.max_question_chars)
        return [Turn(q, a) for q, a in pairs]


def create_app(
    workspace: Workspace,
    tokens: TokenFile | None = None,
    chat: ChatModel | None = None,
    *,
    close_at_shutdown: bool = False,
) -> FastAPI:
    """The API over `workspace`. With `close_at_shutdown`, the app owns the workspace and
    closes it when the server stops (each worker of `citegraph serve --workers N`)."""
    settings = workspace.settings
    guard = Guard(tokens or TokenFile(settings.tokens_path), settings.request_timeout_s)
    service = Service(workspace, guard, chat)

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
    app.state.service = service
    install_error_handlers(app, lambda: workspace.health())
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    # Added last, so it runs first: no token, no body read.
    app.add_middleware(RequireToken, guard=guard, open_paths=("/v1/health",))

    @app.get(
        "/v1/health",
        response_model=s.HealthOut,
        responses={503: {"model": s.HealthOut, "description": "The graph is down."}},
        tags=["health"],
    )
    async def health() -> JSONResponse:
        """API health and graph health, as separate facts; 503 when the graph is down. Needs
        no token."""
        found = await guard.run(workspace.health)
        if found.state != "ok":
            log.warning("graph health: %s: %s", found.state.value, found.detail)
        body = s.health_shape(found, found.public_detail())
        return JSONResponse(wire(body), status_code=503 if found.state == "down" else 200)

    @app.post("/v1/memory/remember", response_model=b.RememberResponse, tags=["memory"])
    async def remember(token: Token, body: r.RememberRequest) -> b.RememberResponse:
        """Store facts you already know. Each mention is located in its passage before it is
        kept; what cannot be located comes back in `unlocated` and is not stored."""
        target = service.scope(token, body.scope, Right.WRITE)
        facts = r.facts_from(body.facts.entities, body.facts.relations)
        passages = r.passages_from(body.passages)
        result = await guard.run(lambda: target.remember(body.source, facts, passages))
        return b.RememberResponse.model_validate(wire(s.remember_shape(result)))

    @app.post("/v1/memory/context", response_model=b.ContextResponse, tags=["memory"])
    async def memory_context(token: Token, body: r.ContextRequest) -> b.ContextResponse:
        """Cited passages for a question, with a verdict: read `verdict.state` first."""
        target = service.scope(token, body.scope, Right.READ)
        question = service.question("question", body.question)
        evidence = await guard.run(lambda: target.context(question, k=body.k, hops=body.hops))
        return b.ContextResponse.model_validate(evidence_json(evidence))

    @app.post("/v1/answers", response_model=b.AnswerResponse, tags=["answers"])
    async def answers(token: Token, body: r.AnswerRequest) -> b.AnswerResponse:
        """An answer whose every quote was located in the stored text, or a refusal with its
        reason. A refusal is a normal result (200), not an error."""
        target = service.scope(token, body.scope, Right.READ)
        question = service.question("question", body.question)
        history = service.history(body.history)
        answer = await guard.run(
            lambda: target.ask(question, history, k=body.k, hops=body.hops, model=service.chat)
        )
        return b.AnswerResponse(answer=s.answer_shape(answer))

    @app.post("/v1/answers/check", response_model=b.CheckResponse, tags=["answers"])
    async def answers_check(token: Token, body: r.CheckRequest) -> b.CheckResponse:
        """Check an exported answer: each quote must be its evidence item's bytes at its span.
        With `scope`, each is also compared with the stored text (the token needs read on it);
        without, nothing stored is read."""
        target = None if body.scope is None else service.scope(token, body.scope, Right.READ)
        report = await guard.run(lambda: check_answer(body.answer, target))
        return b.CheckResponse.model_validate(wire(report))

    @app.post("/v1/documents", response_model=b.IngestResponse, tags=["documents"])
    async def upload(
        token: Token,
        scope: ScopeForm,
        file: Annotated[list[UploadFile], File(description="One or more documents.")],
        title: Annotated[str | None, Form(max_length=MAX_NAME)] = None,
    ) -> b.IngestResponse:
        """Upload and ingest documents (multipart). Each is checked in full before any of it
        is stored; a bad one is refused (422) with nothing of it stored."""
        target = service.scope(token, scope, Right.WRITE)
        if title is not None and len(file) != 1:
            raise ApiError(422, "invalid_request", "title: applies to a single file")
        items: list[tuple[str, bytes, str | None]] = []
        for upload in file:
            name = upload_name(upload)
            if not name:
                raise ApiError(422, "invalid_request", "file: every part needs a file name")
            items.append((name, await upload.read(), title))
        results = await guard.run(lambda: target.ingest_many(items))
        return b.IngestResponse(results=[s.ingested_shape(x) for x in results])

    @app.get("/v1/documents", response_model=b.DocumentsResponse, tags=["documents"])
    async def documents(token: Token, scope: ScopeQuery) -> b.DocumentsResponse:
        """The documents stored in a scope."""
        target = service.scope(token, scope, Right.READ)
        stored = await guard.run(target.documents)
        return b.DocumentsResponse(documents=[s.document_shape(d) for d in stored])

    # `:path`: a name may hold "/" (every file ingested from a folder does), sent URL-encoded.
    @app.delete(
        "/v1/documents/{document:path}", response_model=b.DeletedResponse, tags=["documents"]
    )
    async def delete(token: Token, document: str, scope: ScopeQuery) -> b.DeletedResponse:
        """Delete a document (by id or name) and everything that hangs off it."""
        target = service.scope(token, scope, Right.WRITE)
        removed = await guard.run(lambda: target.delete_document(document))
        return b.DeletedResponse(deleted=s.document_shape(removed))

    @app.api_route("/", methods=["GET"], include_in_schema=False)
    async def root() -> JSONResponse:
        return error_response(404, "not_found", "see /docs for the API, /v1/health for health")

    return app
