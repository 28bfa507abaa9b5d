"""One way to pick a chat model, on every surface: `ask`, `chat`, `POST /v1/answers` and the
MCP `answer` tool answer with the configured model (CITEGRAPH_CHAT_MODEL or --model) when there
is one, and the receipt names it; without one, the offline extractive answerer. The model is
the shipped OpenAI-compatible stub, over real HTTP on loopback."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from mcp import Client
from mcp.client.stdio import StdioServerParameters

import citegraph
from citegraph.surfaces.http import TokenFile, create_app
from citegraph.testing import OpenAIStubServer

from helpers import CITEGRAPH, env_with

TEXT = b"The harbour wall was rebuilt in 1884 after the great storm of 1881."
QUESTION = "When was the harbour wall rebuilt?"
ANSWER = json.dumps({
    "answer": "It was rebuilt in 1884.",
    "claims": [{"text": "It was rebuilt in 1884.",
                "citations": [{"evidence": "E1", "quote": "rebuilt in 1884"}]}],
})  # fmt: skip


@pytest.fixture
def home(tmp_path: Path) -> Path:
    with citegraph.open(tmp_path / "home") as ws:
        ws.scope("s").ingest(TEXT, name="wall.txt")
    return tmp_path / "home"


def _run(*args: str, stdin: str = "", env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [CITEGRAPH, *args], input=stdin, capture_output=True, text=True, timeout=120, env=env
    )


def test_chat_and_ask_with_a_model_named_by_option(home: Path) -> None:
    with OpenAIStubServer(lambda messages: ANSWER) as stub:
        env = env_with(CITEGRAPH_CHAT_BASE_URL=stub.url)
        chat = _run(
            "chat", "--home", str(home), "-s", "s", "--model", "stub-7b", stdin=QUESTION, env=env
        )
        ask = _run("ask", QUESTION, "--home", str(home), "-s", "s", "--model", "stub-7b",
                   "--json", env=env)  # fmt: skip
    assert chat.returncode == 0, chat.stderr
    assert "answered by stub-7b" in chat.stdout and "rebuilt in 1884" in chat.stdout
    assert ask.returncode == 0, ask.stderr
    document = json.loads(ask.stdout)
    assert document["receipt"]["answerer"] == "stub-7b" and document["receipt"]["chatCalls"] == 1
    assert [r["model"] for r in stub.requests] == ["stub-7b", "stub-7b"]


def test_without_a_model_the_offline_answerer_answers(home: Path) -> None:
    env = env_with()
    for name in ("CITEGRAPH_CHAT_MODEL", "CITEGRAPH_CHAT_BASE_URL"):
        env.pop(name, None)
    ask = _run("ask", QUESTION, "--home", str(home), "-s", "s", "--json", env=env)
    assert ask.returncode == 0, ask.stderr
    assert json.loads(ask.stdout)["receipt"]["answerer"] == "extractive"


def test_the_http_answers_use_the_configured_model(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with OpenAIStubServer(lambda messages: ANSWER) as stub:
        monkeypatch.setenv("CITEGRAPH_CHAT_MODEL", "stub-13b")
        monkeypatch.setenv("CITEGRAPH_CHAT_BASE_URL", stub.url)
        with citegraph.open(home) as workspace:
            tokens = TokenFile(tmp_path / "tokens.json")
            auth = {"Authorization": f"Bearer {tokens.create(['s'], 'read')}"}
            client = TestClient(create_app(workspace, tokens))
            reply = client.post("/v1/answers", json={"scope": "s", "question": QUESTION},
                                headers=auth)  # fmt: skip
    assert reply.status_code == 200, reply.text
    answer = reply.json()["answer"]
    assert answer["disposition"] == "answered" and answer["receipt"]["answerer"] == "stub-13b"
    assert len(stub.requests) == 1


def test_the_mcp_answer_tool_uses_the_configured_model(home: Path) -> None:
    async def ask(url: str) -> dict[str, Any]:
        env = {k: v for k, v in os.environ.items() if k.startswith("CITEGRAPH_")}
        env |= {"CITEGRAPH_CHAT_BASE_URL": url}
        args = ["mcp", "--home", str(home), "--scope", "s", "--model", "stub-70b"]
        params = StdioServerParameters(command=CITEGRAPH, args=args, env=env)
        async with Client(params, read_timeout_seconds=120) as client:
            result = await client.call_tool("answer", {"question": QUESTION})
            assert result.is_error is False, result.content
            content: dict[str, Any] = result.structured_content
            return content

    with OpenAIStubServer(lambda messages: ANSWER) as stub:
        answer = asyncio.run(ask(stub.url))
    assert answer["disposition"] == "answered" and answer["receipt"]["answerer"] == "stub-70b"
    assert [r["model"] for r in stub.requests] == ["stub-70b"]
