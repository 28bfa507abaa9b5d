"""What stands in front of every route: the body limit, tokens, timeouts, one error shape."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ...errors import (
    ChatModelError,
    CitegraphError,
    ConfigError,
    DocumentNotFound,
    EmbeddingModelMissing,
    FeatureOff,
    IndexNotReady,
    InvalidDocument,
    InvalidQuestion,
    InvalidScopeName,
    StoreLoading,
    StoreNotSaving,
    StoreUnavailable,
    UsageError,
)
from ...service.tokens import Right, TokenFile, TokenRecord

log = logging.getLogger("citegraph.http")
T = TypeVar("T")


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


def error_body(code: str, message: str) -> dict[str, Any]:
    """The one shape of every error: a response's body, a streamed `error` event's data."""
    return {"ok": False, "error": {"code": code, "message": message}}


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(error_body(code, message), status_code=status, headers=headers)


# Most specific first: the first class an error is an instance of decides.
_STATUS: tuple[tuple[type[CitegraphError], int, str], ...] = (
    (DocumentNotFound, 404, "not_found"),
    (InvalidScopeName, 422, "invalid_scope"),
    (InvalidDocument, 422, "invalid_document"),
    (InvalidQuestion, 422, "invalid_question"),
    (FeatureOff, 403, "feature_off"),
    (ConfigError, 500, "config_error"),
    (StoreLoading, 503, "store_loading"),
    (StoreUnavailable, 503, "store_unavailable"),
    (StoreNotSaving, 503, "store_not_saving"),
    (IndexNotReady, 503, "index_not_ready"),
    (EmbeddingModelMissing, 503, "embedding_model_missing"),
    (ChatModelError, 502, "chat_model_error"),
)


def status_for(exc: CitegraphError) -> tuple[int, str]:
    for kind, status, code in _STATUS:
        if isinstance(exc, kind):
            return status, code
    return (422, "invalid_request") if isinstance(exc, UsageError) else (500, "store_error")


def _field(loc: tuple[Any, ...]) -> str:
    # The first part says where (body, query, path, header); the rest names the field.
    parts = [str(p) for p in (loc[1:] if loc and loc[0] in _WHERE else loc)]
    return ".".join(parts) or str(loc[0] if loc else "body")


_WHERE = ("body", "query", "path", "header", "cookie")


def _problem(error: Any) -> str:
    if error.get("type") == "json_invalid":  # its loc is a character position, not a field
        reason = (error.get("ctx") or {}).get("error", "")
        return f"body: not valid JSON ({reason})" if reason else "body: not valid JSON"
    return f"{_field(tuple(error['loc']))}: {error['msg']}"


def install_error_handlers(app: FastAPI, on_store_down: Callable[[], object]) -> None:
    async def api_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        return error_response(exc.status, exc.code, exc.message, exc.headers)

    async def citegraph_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, CitegraphError)
        status, code = status_for(exc)
        if isinstance(exc, StoreUnavailable):
            # Lets an embedded store be restarted; a PING to a hung store could block, so not
            # on the event loop.
            await anyio.to_thread.run_sync(on_store_down, abandon_on_cancel=True)
        return error_response(status, code, str(exc))

    async def invalid(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        problems = [_problem(e) for e in exc.errors()[:5]]
        return error_response(422, "invalid_request", "; ".join(problems))

    async def http_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        codes = {400: "invalid_body", 404: "not_found", 405: "method_not_allowed"}
        return error_response(
            exc.status_code, codes.get(exc.status_code, "http_error"), str(exc.detail)
        )

    async def unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        return error_response(500, "internal", "an unexpected error; it was logged on the server")

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(CitegraphError, citegraph_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, unexpected)


class BodyLimit:
    """413 for a body over `limit` bytes: at once when Content-Length says so, else as soon as
    the streamed body passes it (nothing more is read)."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send)
            return
        seen = 0
        refused = False

        async def limited() -> Message:
            # Past the limit: answer 413 here and tell the app the client left. FastAPI turns
            # an exception raised while it reads the body into a 400, so none is raised.
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    refused = True
                    await self._refuse(scope, receive, send)
                    return {"type": "http.disconnect"}
            return message

        async def send_unless_refused(message: Message) -> None:
            if not refused:
                await send(message)

        await self.app(scope, limited, send_unless_refused)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(
            413, "payload_too_large", f"the request body is over the limit of {self.limit:,} bytes"
        )
        await response(scope, receive, send)


class RequireToken:
    """Every /v1/ route but health needs a valid token, checked before any of the body is
    read: a caller without one costs no parsing and learns nothing from validation errors.
    The token's record is left in the request state for the routes."""

    def __init__(self, app: ASGIApp, guard: Guard, open_paths: tuple[str, ...]):
        self.app = app
        self.guard = guard
        self.open_paths = open_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/v1/") or path in self.open_paths:
            await self.app(scope, receive, send)
            return
        header = Headers(scope=scope).get("authorization")
        try:
            record = self.guard.authenticate(header)
        except ApiError as exc:
            await error_response(exc.status, exc.code, exc.message, exc.headers)(
                scope, receive, send
            )
            return
        scope.setdefault("state", {})["token"] = record
        await self.app(scope, receive, send)


class Guard:
    """Bearer tokens against the tokens file, and the per-request timeout."""

    def __init__(self, tokens: TokenFile, timeout_s: float):
        self.tokens = tokens
        self.timeout_s = timeout_s

    def authenticate(self, header: str | None) -> TokenRecord:
        """The token's record; 401 for none, a malformed header, or an unknown token."""
        challenge = {"WWW-Authenticate": "Bearer"}
        if header is None:
            raise ApiError(401, "unauthorized", "send Authorization: Bearer <token>", challenge)
        kind, _, token = header.partition(" ")
        token = token.strip()
        if kind.lower() != "bearer" or not token or " " in token:
            raise ApiError(
                401, "unauthorized", "malformed Authorization header: use Bearer <token>", challenge
            )
        try:
            record = self.tokens.find(token)
        except CitegraphError as exc:
            log.error("tokens: %s", exc)  # the path and the reason, for the operator only
            raise ApiError(500, "config_error", "the server's tokens cannot be read") from None
        if record is None:
            raise ApiError(401, "unauthorized", "unknown or revoked token", challenge)
        return record

    @staticmethod
    def authorize(record: TokenRecord, scope: str, right: Right) -> None:
        # The same answer whether or not the scope exists: nothing is looked up before this.
        if not record.allows(scope, right):
            raise ApiError(403, "forbidden", f"this token may not {right.value} scope {scope!r}")

    async def run(self, work: Callable[[], T]) -> T:
        """Run blocking core work in a thread, bounded by the request timeout. On timeout the
        caller gets 504; the thread cannot be stopped and finishes on its own."""
        try:
            with anyio.fail_after(self.timeout_s):
                return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
        except TimeoutError:
            raise ApiError(
                504,
                "timeout",
                f"the request took longer than {self.timeout_s:g}s; what it began finishes "
                "in the background",
            ) from None
