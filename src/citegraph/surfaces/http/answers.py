"""/v1/answers: answers with verified citations, and checks of exported ones."""

from __future__ import annotations

from fastapi import APIRouter

from ...service import requests as r
from ...service import shapes as s
from ...service.checking import check_answer
from ...service.tokens import Right
from . import bodies as b
from .deps import Services, Token

router = APIRouter(prefix="/v1/answers", tags=["answers"])


@router.post("", response_model=b.AnswerResponse)
async def answers(service: Services, token: Token, body: r.AnswerRequest) -> b.AnswerResponse:
    """An answer whose every quote was located in the stored text, or a refusal with its
    reason. A refusal is a normal result (200), not an error."""
    target = service.scope(token, body.scope, Right.READ)
    question = service.question("question", body.question)
    history = service.history(body.history)
    answer = await service.guard.run(
        lambda: target.ask(question, history, k=body.k, hops=body.hops, model=service.chat)
    )
    return b.AnswerResponse(answer=s.answer_shape(answer))


@router.post("/check", response_model=b.CheckResponse)
async def answers_check(service: Services, token: Token, body: r.CheckRequest) -> b.CheckResponse:
    """Check an exported answer: each quote must be its evidence item's bytes at its span.
    With `scope`, each is also compared with the stored text (the token needs read on it);
    without, nothing stored is read."""
    target = None if body.scope is None else service.scope(token, body.scope, Right.READ)
    report = await service.guard.run(lambda: check_answer(body.answer, target))
    return b.CheckResponse.model_validate(s.wire(report))
