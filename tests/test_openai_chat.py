"""OpenAIChat against the shipped OpenAI-compatible stub server, over real HTTP on loopback."""

from __future__ import annotations

import json

import pytest

from citegraph import ChatModelError, Message
from citegraph.models.openai_chat import OpenAIChat
from citegraph.testing import Exchange, OpenAIStubServer
from citegraph.testing.stub_server import completion

COMPLETION = completion('{"declined": "no"}')
ASK = [Message("system", "rules"), Message("user", "question")]


def test_a_normal_reply_with_usage() -> None:
    with OpenAIStubServer([Exchange(200, COMPLETION)]) as stub:
        reply = OpenAIChat("stub", base_url=stub.url).complete(ASK)
    assert reply.text == '{"declined": "no"}'
    assert (reply.input_tokens, reply.output_tokens) == (31, 7)
    sent = stub.requests[0]
    assert sent["model"] == "stub" and sent["messages"][1] == {
        "role": "user",
        "content": "question",
    }


def test_429_then_success_is_retried() -> None:
    script = [Exchange(429, '{"error": {"message": "slow down"}}'), Exchange(200, COMPLETION)]
    with OpenAIStubServer(script) as stub:
        reply = OpenAIChat("stub", base_url=stub.url, max_retries=2).complete(ASK)
    assert reply.text and len(stub.requests) == 2


def test_a_timeout_is_an_error_not_a_refusal() -> None:
    script = [Exchange(200, COMPLETION, delay_s=2.0)]
    with OpenAIStubServer(script) as stub, pytest.raises(ChatModelError, match="failed"):
        OpenAIChat("stub", base_url=stub.url, timeout_s=0.3, max_retries=0).complete(ASK)


@pytest.mark.parametrize("body", ["this is not json", json.dumps({"choices": []})])
def test_a_malformed_body_is_an_error(body: str) -> None:
    with OpenAIStubServer([Exchange(200, body)]) as stub, pytest.raises(ChatModelError):
        OpenAIChat("stub", base_url=stub.url, max_retries=0).complete(ASK)


def test_the_settings_name_the_model_and_its_endpoint() -> None:
    from citegraph.config import load_settings

    with OpenAIStubServer(lambda messages: "pong") as stub:
        env = {"CITEGRAPH_CHAT_MODEL": "stub-7b", "CITEGRAPH_CHAT_BASE_URL": stub.url}
        chat = OpenAIChat.from_settings(load_settings(home="/nonexistent", env=env))
        assert chat.complete(ASK).text == "pong"
    assert chat.name == "stub-7b" and stub.requests[0]["model"] == "stub-7b"
