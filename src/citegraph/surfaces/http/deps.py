"""What every route is handed: the service (workspace, scopes, guard, chat model) and the
caller's token, checked before the body was read."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Form, Query, Request

from ...limits import MAX_SCOPE_NAME, within_limit
from ...models.chat import ChatModel
from ...scope import OpenScopes, Scope
from ...service.requests import TurnIn, turns_from
from ...service.tokens import Right, TokenRecord
from ...values.answers import Turn
from ...workspace import Workspace
from .guard import ApiError, Guard


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

    def history(self, turns: list[TurnIn]) -> list[Turn]:
        return turns_from(turns, self.max_question_chars)


def _service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


def _authenticated(request: Request) -> TokenRecord:
    record: TokenRecord | None = getattr(request.state, "token", None)
    if record is None:  # RequireToken runs first for every /v1/ route; this is a safety net
        raise ApiError(401, "unauthorized", "send Authorization: Bearer <token>")
    return record


Services = Annotated[Service, Depends(_service)]
# Checked by RequireToken before the body is read, then handed to the route.
Token = Annotated[TokenRecord, Depends(_authenticated)]
ScopeQuery = Annotated[str, Query(min_length=1, max_length=MAX_SCOPE_NAME)]
ScopeForm = Annotated[str, Form(min_length=1, max_length=MAX_SCOPE_NAME)]
