"""OpenAIChat against a local OpenAI-compatible stub server, over real HTTP on loopback."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from citegraph import ChatModelError, Message
from citegraph.models.openai_chat import OpenAIChat

COMPLETION = {
    "id": "c1", "object": "chat.completion", "created": 0, "model": "stub",
    "choices": [{"index": 0, "finish_reason": "stop",
                 "message": {"role": "assistant", "content": '{"declined": "no"}'}}],
    "usage": {"prompt_tokens": 31, "completion_tokens": 7, "total_tokens": 38},
}  # fmt: skip


class Stub:
    """Answers each POST with the next scripted (status, body, delay); records requests."""

    def __init__(self) -> None:
        self.script: list[tuple[int, str, float]] = []
        self.requests: list[dict[str, object]] = []


@pytest.fixture
def stub() -> Iterator[tuple[Stub, str]]:
    state = Stub()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", 0))
            state.requests.append(json.loads(self.rfile.read(length)))
            status, body, delay = state.script.pop(0)
            time.sleep(delay)
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("retry-after-ms", "10")
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state, f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


ASK = [Message("system", "rules"), Message("user", "question")]


def test_a_normal_reply_with_usage(stub: tuple[Stub, str]) -> None:
    state, url = stub
    state.script = [(200, json.dumps(COMPLETION), 0)]
    reply = OpenAIChat("stub", base_url=url).complete(ASK)
    assert reply.text == '{"declined": "no"}'
    assert (reply.input_tokens, reply.output_tokens) == (31, 7)
    sent = state.requests[0]
    assert sent["model"] == "stub" and sent["messages"][1] == {
        "role": "user",
        "content": "question",
    }


def test_429_then_success_is_retried(stub: tuple[Stub, str]) -> None:
    state, url = stub
    state.script = [
        (429, '{"error": {"message": "slow down"}}', 0),
        (200, json.dumps(COMPLETION), 0),
    ]
    reply = OpenAIChat("stub", base_url=url, max_retries=2).complete(ASK)
    assert reply.text and len(state.requests) == 2


def test_a_timeout_is_an_error_not_a_refusal(stub: tuple[Stub, str]) -> None:
    state, url = stub
    state.script = [(200, json.dumps(COMPLETION), 2.0)]
    with pytest.raises(ChatModelError, match="failed"):
        OpenAIChat("stub", base_url=url, timeout_s=0.3, max_retries=0).complete(ASK)


@pytest.mark.parametrize("body", ["this is not json", json.dumps({"choices": []})])
def test_a_malformed_body_is_an_error(stub: tuple[Stub, str], body: str) -> None:
    state, url = stub
    state.script = [(200, body, 0)]
    with pytest.raises(ChatModelError):
        OpenAIChat("stub", base_url=url, max_retries=0).complete(ASK)
