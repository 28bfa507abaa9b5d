"""/v1/answers: answers with verified citations, and checks of exported ones."""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import AsyncIterator

import anyio
from fastapi import APIRouter
from fastapi.responses import StreamingResponse

from ...errors import CitegraphError
from ...service import requests as r
from ...service import shapes as s
from ...service.checking import check_answer
from ...service.tokens import Right
from . import bodies as b
from .deps import Services, Token
from .guard import error_body, status_for

router = APIRouter(prefix="/v1/answers", tags=["answers"])
log = logging.getLogger("citegraph.http")
# One server-sent event: its kind, and its data (JSON text).
_EVENT = {
    "type": "object",
    "properties": {
        "event": {"type": "string", "enum": ["step", "answer", "error"]},
        "data": {"type": "string", "description": "JSON: {step, detail}, the answer, or the error"},
    },
    "required": ["event", "data"],
}


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


@router.post(
    "/stream",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"text/event-stream": {"schema": _EVENT}},
            "description": "Server-sent events: `step` ({step, detail}) as each step ends "
            "(rewrite, retrieval, walk, model, verification), then `answer` (the "
            "citegraph-answer/1 document) or `error` ({ok: false, error: {code, message}}).",
        }
    },
)
async def answers_stream(
    service: Services, token: Token, body: r.AnswerRequest
) -> StreamingResponse:
    """The same answer as POST /v1/answers, with its steps streamed as they happen (what
    the web UI shows while it waits). The token and the body are checked before the stream
    starts; a failure after that comes as an `error` event."""
    target = service.scope(token, body.scope, Right.READ)
    question = service.question("question", body.question)
    history = service.history(body.history)
    events: queue.Queue[tuple[str, str] | None] = queue.Queue()

    def work() -> None:
        def step(name: str, detail: str) -> None:
            events.put(("step", json.dumps({"step": name, "detail": detail})))

        try:
            answer = target.ask(
                question, history, k=body.k, hops=body.hops, model=service.chat, on_step=step
            )
            events.put(("answer", json.dumps(s.wire(s.answer_shape(answer)))))
        except CitegraphError as exc:
            _status, code = status_for(exc)
            events.put(("error", _error(code, str(exc))))
        except Exception:  # a bug: said as one, details in the server's log
            log.exception("streamed answer failed")
            events.put(("error", _error("internal", "an internal error; see the server log")))
        finally:
            events.put(None)

    threading.Thread(target=work, name="citegraph-answer-stream", daemon=True).start()
    deadline = time.monotonic() + service.guard.timeout_s

    async def stream() -> AsyncIterator[str]:
        while True:
            wait = max(deadline - time.monotonic(), 0.0)
            try:
                item = await anyio.to_thread.run_sync(events.get, True, wait)
            except queue.Empty:
                said = f"the request took longer than {service.guard.timeout_s:g}s"
                yield f"event: error\ndata: {_error('timeout', said)}\n\n"
                return
            if item is None:
                return
            yield f"event: {item[0]}\ndata: {item[1]}\n\n"

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)


def _error(code: str, message: str) -> str:
    return json.dumps(error_body(code, message))


@router.post("/check", response_model=b.CheckResponse)
async def answers_check(service: Services, token: Token, body: r.CheckRequest) -> b.CheckResponse:
    """Check an exported answer: each quote must be its evidence item's bytes at its span.
    With `scope`, each is also compared with the stored text (the token needs read on it);
    without, nothing stored is read."""
    target = None if body.scope is None else service.scope(token, body.scope, Right.READ)
    report = await service.guard.run(lambda: check_answer(body.answer, target))
    return b.CheckResponse.model_validate(s.wire(report))
