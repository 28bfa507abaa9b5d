"""`OpenAIStubServer`: an OpenAI-compatible `/v1/chat/completions` endpoint on loopback.

It answers each POST from a script of `Exchange`s (status, body, delay), or from a function of
the request's messages (called as requests come, several at once when requests overlap, as
a real server answers them), and records every request. Point `OpenAIChat(base_url=server.url)`, or
`CITEGRAPH_CHAT_BASE_URL` for a citegraph in another process, at it:

    with OpenAIStubServer(lambda messages: '{"declined": "no evidence"}') as server:
        OpenAIChat("stub", base_url=server.url).complete(...)
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

Messages = list[dict[str, str]]


@dataclass(frozen=True)
class Exchange:
    """One scripted reply: an HTTP status and a body (JSON text), sent after `delay_s`."""

    status: int
    body: str
    delay_s: float = 0.0


def completion(content: str, model: str = "stub", usage: tuple[int, int] = (31, 7)) -> str:
    """The body of a successful chat completion whose message is `content`; `usage`: the
    prompt and completion tokens it reports."""
    return json.dumps({
        "id": "stub-1", "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1],
                  "total_tokens": sum(usage)},
    })  # fmt: skip


# How a stub counts the tokens it reports: (prompt messages, reply) -> (prompt, completion).
Usage = Callable[[Messages, str], tuple[int, int]]


class OpenAIStubServer:
    """A chat-completions endpoint on 127.0.0.1 (a free port), in a thread of this process."""

    def __init__(
        self, replies: Sequence[Exchange] | Callable[[Messages], str], usage: Usage | None = None
    ):
        self._usage = usage
        self._script = list(replies) if not callable(replies) else []
        self._respond = replies if callable(replies) else None
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def _next(self, request: dict[str, Any]) -> Exchange:
        with self._lock:
            self.requests.append(request)
            scripted = self._respond is None
        if not scripted:
            # Outside the lock, as a real server answers requests at once: a reply function
            # (and `usage`) may be called from several threads together.
            assert self._respond is not None
            messages = request.get("messages", [])
            reply = self._respond(messages)
            counted = self._usage(messages, reply) if self._usage is not None else (31, 7)
            return Exchange(200, completion(reply, usage=counted))
        with self._lock:
            if not self._script:
                return Exchange(500, json.dumps({"error": {"message": "the script is empty"}}))
            return self._script.pop(0)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                exchange = stub._next(json.loads(self.rfile.read(length) or b"{}"))
                time.sleep(exchange.delay_s)
                self.send_response(exchange.status)
                self.send_header("content-type", "application/json")
                self.send_header("retry-after-ms", "10")  # the client's retries stay quick
                self.end_headers()
                self.wfile.write(exchange.body.encode())

            def log_message(self, *args: object) -> None:
                pass

        return Handler

    def __enter__(self) -> OpenAIStubServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
