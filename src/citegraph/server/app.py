"""The HTTP API: thin routes over one workspace. Each route checks the token, then calls the
same core the CLI calls, in a worker thread, under the request timeout."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import asdict
from typing import Annotated, Any

from fastapi import Depends, FastAPI, File, Form, Query, Request, UploadFile
from fastapi.responses import JSONResponse

from .. import __version__
from ..answer.followup import Turn
from ..audit.export import check, from_document, to_document
from ..audit.store_check import check_against_store
from ..extract.remember import EntityFact, Facts, Passage, RelationFact
from ..models.chat import ChatModel
from ..retrieve.evidence import Evidence, EvidenceItem
from ..scope import OpenScopes, Scope
from ..types import Document, IngestResult, page_range
from ..workspace import Workspace
from . import schemas as s
from .guard import (
    ApiError,
    BodyLimit,
    Guard,
    RequireToken,
    error_response,
    install_error_handlers,
)
from .tokens import Right, TokenFile, TokenRecord
from .uploads import upload_name

log = logging.getLogger("citegraph.server")

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
`grounding.state` before the items: answer only when it is `grounded`, and quote each item's
`citation` for every fact you use. Errors are `{"ok": false, "error": {"code", "message"}}`.
"""


def _document(doc: Document) -> s.DocumentOut:
    return s.DocumentOut(
        id=doc.id,
        name=doc.name,
        media_type=doc.media_type,
        size_bytes=doc.size_bytes,
        sha256=doc.sha256,
        chunk_count=doc.chunk_count,
        ingested_at=doc.ingested_at,
        page_count=doc.page_count,
        title=doc.title,
        origin=s.TextOriginOut(**asdict(doc.origin)) if doc.origin else None,
    )


def citation_label(item: EvidenceItem) -> str:
    where = f"{item.document_name}, bytes {item.start_byte}-{item.end_byte}"
    pages = page_range(item.page, item.end_page)
    if pages:
        where += f", page {pages}"
    return where


def _item(item: EvidenceItem) -> s.ItemOut:
    origin = item.text_origin
    return s.ItemOut(
        id=item.id,
        citation=citation_label(item),
        document_id=item.document_id,
        document_name=item.document_name,
        chunk_id=item.chunk_id,
        start_byte=item.start_byte,
        end_byte=item.end_byte,
        page=item.page,
        end_page=item.end_page,
        text_origin=s.TextOriginOut(**asdict(origin)) if origin else None,
        text=item.text,
        score=item.score,
        retrievers=list(item.retrievers),
        citable=item.citable,
    )


def context_response(evidence: Evidence) -> s.ContextResponse:
    verdict = evidence.verdict
    return s.ContextResponse(
        query=evidence.question,
        grounding=s.GroundingOut(
            state=verdict.state.value,
            uncovered=list(verdict.uncovered),
            matched_names=list(verdict.matched_names),
            stage=verdict.stage,
            detail=verdict.detail,
        ),
        items=[_item(i) for i in evidence.items],
        context=[_item(i) for i in evidence.context],
        content_words=list(evidence.content_words),
        skipped=list(evidence.skipped),
        limits_reached=list(evidence.limits_reached),
        omitted_items=evidence.omitted_items,
    )


def _ingested(result: IngestResult) -> s.IngestedOut:
    return s.IngestedOut(
        status=result.status.value,
        document=_document(result.document),
        warnings=list(result.warnings),
    )


def check_answer(document: dict[str, Any], target: Scope | None) -> s.CheckResponse:
    """The offline check of an exported answer; with a scope, each quote is also compared
    with the bytes stored there at its span."""
    answer = from_document(document)
    if len(answer.citations) > s.MAX_CHECK_CITATIONS:
        raise ApiError(
            422,
            "invalid_request",
            f"answer: {len(answer.citations):,} citations; a check takes at most "
            f"{s.MAX_CHECK_CITATIONS:,}",
        )
    for item in (*answer.evidence.items, *answer.evidence.context):
        if len(item.text.encode("utf-8")) > s.MAX_CHECK_ITEM_BYTES:
            raise ApiError(
                422,
                "invalid_request",
                f"answer: evidence item {item.id} is over {s.MAX_CHECK_ITEM_BYTES:,} bytes",
            )
    problems = check(answer)
    if target is not None and not problems:
        problems = check_against_store(answer, target)
    return s.CheckResponse(
        valid=not problems,
        disposition=answer.disposition.value,
        citations=len(answer.citations),
        problems=problems,
        checked_against_store=target is not None,
    )


def _authenticated(request: Request) -> TokenRecord:
    record: TokenRecord | None = getattr(request.state, "token", None)
    if record is None:  # RequireToken runs first for every /v1/ route; this is a safety net
        raise ApiError(401, "unauthorized", "send Authorization: Bearer <token>")
    return record


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

    def history(self, turns: list[s.TurnIn]) -> list[Turn]:
        return checked_history([(t.question, t.answer) for t in turns], self.max_question_chars)


def within_limit(field: str, text: str, limit: int) -> str:
    if len(text) > limit:
        raise ApiError(
            422, "invalid_request", f"{field}: {len(text):,} characters; the limit is {limit:,}"
        )
    return text


# An earlier answer may be longer than a question: a few quoted sentences.
ANSWER_LIMIT_FACTOR = 4


def checked_history(turns: list[tuple[str, str]], limit: int) -> list[Turn]:
    """Earlier turns, each within the limits: they go to the chat model with the question."""
    for n, (question, answer) in enumerate(turns):
        within_limit(f"history.{n}.question", question, limit)
        within_limit(f"history.{n}.answer", answer, limit * ANSWER_LIMIT_FACTOR)
    return [Turn(q, a) for q, a in turns]


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
        response_model=s.HealthResponse,
        responses={503: {"model": s.HealthResponse, "description": "The graph is down."}},
        tags=["health"],
    )
    async def health() -> JSONResponse:
        """API health and graph health, as separate facts; 503 when the graph is down. Needs
        no token."""
        found = await guard.run(workspace.health)
        if found.state != "ok":
            log.warning("graph health: %s: %s", found.state.value, found.detail)
        body = s.HealthResponse(
            graph=s.GraphHealthOut(state=found.state.value, detail=found.public_detail()),
            storage=s.StorageOut(**asdict(found.storage)) if found.storage else None,
            housekeeping_failures=len(found.housekeeping),
        )
        return JSONResponse(body.model_dump(), status_code=503 if found.state == "down" else 200)

    @app.post("/v1/memory/remember", response_model=s.RememberResponse, tags=["memory"])
    async def remember(token: Token, body: s.RememberRequest) -> s.RememberResponse:
        """Store facts you already know. Each mention is located in its passage before it is
        kept; what cannot be located comes back in `unlocated` and is not stored."""
        target = service.scope(token, body.scope, Right.WRITE)
        facts = Facts(
            tuple(EntityFact(e.name, e.type) for e in body.facts.entities),
            tuple(RelationFact(r.source, r.target, r.type) for r in body.facts.relations),
        )
        passages = [Passage(p.text, tuple(p.mentions)) for p in body.passages]
        result = await guard.run(lambda: target.remember(body.source, facts, passages))
        return s.RememberResponse(
            documents=[d.id for d in result.documents],
            entities=result.entities,
            mentions_located=result.mentions_located,
            relations_grounded=result.relations_grounded,
            relations_asserted=[s.RelationOut(**asdict(r)) for r in result.relations_asserted],
            unlocated=list(result.unlocated),
        )

    @app.post("/v1/memory/context", response_model=s.ContextResponse, tags=["memory"])
    async def memory_context(token: Token, body: s.ContextRequest) -> s.ContextResponse:
        """Cited passages for a question, with a verdict: read `grounding.state` first."""
        target = service.scope(token, body.scope, Right.READ)
        query = service.question("query", body.query)
        evidence = await guard.run(lambda: target.context(query, k=body.k, hops=body.hops))
        return context_response(evidence)

    @app.post("/v1/answers", response_model=s.AnswerResponse, tags=["answers"])
    async def answers(token: Token, body: s.AnswerRequest) -> s.AnswerResponse:
        """An answer whose every quote was located in the stored text, or a refusal with its
        reason. A refusal is a normal result (200), not an error."""
        target = service.scope(token, body.scope, Right.READ)
        question = service.question("question", body.question)
        history = service.history(body.history)
        answer = await guard.run(
            lambda: target.ask(question, history, k=body.k, hops=body.hops, model=service.chat)
        )
        return s.AnswerResponse(answer=to_document(answer))

    @app.post("/v1/answers/check", response_model=s.CheckResponse, tags=["answers"])
    async def answers_check(token: Token, body: s.CheckRequest) -> s.CheckResponse:
        """Check an exported answer: each quote must be its evidence item's bytes at its span.
        With `scope`, each is also compared with the stored text (the token needs read on it);
        without, nothing stored is read."""
        target = None if body.scope is None else service.scope(token, body.scope, Right.READ)
        return await guard.run(lambda: check_answer(body.answer, target))

    @app.post("/v1/documents", response_model=s.IngestResponse, tags=["documents"])
    async def upload(
        token: Token,
        scope: Annotated[str, Form(min_length=1, max_length=64)],
        file: Annotated[list[UploadFile], File(description="One or more documents.")],
        title: Annotated[str | None, Form(max_length=s.MAX_NAME)] = None,
    ) -> s.IngestResponse:
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
        return s.IngestResponse(results=[_ingested(r) for r in results])

    @app.get("/v1/documents", response_model=s.DocumentsResponse, tags=["documents"])
    async def documents(
        token: Token, scope: Annotated[str, Query(min_length=1, max_length=64)]
    ) -> s.DocumentsResponse:
        """The documents stored in a scope."""
        target = service.scope(token, scope, Right.READ)
        stored = await guard.run(target.documents)
        return s.DocumentsResponse(documents=[_document(d) for d in stored])

    # `:path`: a name may hold "/" (every file ingested from a folder does), sent URL-encoded.
    @app.delete(
        "/v1/documents/{document:path}", response_model=s.DeletedResponse, tags=["documents"]
    )
    async def delete(
        token: Token, document: str, scope: Annotated[str, Query(min_length=1, max_length=64)]
    ) -> s.DeletedResponse:
        """Delete a document (by id or name) and everything that hangs off it."""
        target = service.scope(token, scope, Right.WRITE)
        removed = await guard.run(lambda: target.delete_document(document))
        return s.DeletedResponse(deleted=_document(removed))

    @app.api_route("/", methods=["GET"], include_in_schema=False)
    async def root() -> JSONResponse:
        return error_response(404, "not_found", "see /docs for the API, /v1/health for health")

    return app
