"""`POST /v1/answers` with a chat model: a verified answer, a refused one, and a model failure
that is an error (502), never a refusal."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from pathlib import Path

from fastapi.testclient import TestClient

from citegraph import ChatModelError, Message, ScriptedChat, Workspace
from citegraph.surfaces.http import TokenFile, create_app

TEXT = "The harbour wall was rebuilt in 1884 after the great storm of 1881."
_n = itertools.count()


def _reply(quote: str) -> str:
    claim = {"text": "It was rebuilt in 1884.", "citations": [{"evidence": "E1", "quote": quote}]}
    return json.dumps({"answer": "It was rebuilt in 1884.", "claims": [claim]})


def _client(
    workspace: Workspace, tmp_path: Path, chat: ScriptedChat
) -> tuple[TestClient, dict[str, str], str]:
    name = f"ans{next(_n)}"
    tokens = TokenFile(tmp_path / "tokens.json")
    token = tokens.create([name], "read")
    workspace.scope(name).ingest(TEXT.encode(), name="wall.txt")
    client = TestClient(create_app(workspace, tokens, chat))
    return client, {"Authorization": f"Bearer {token}"}, name


def test_a_model_answer_is_verified_and_a_bad_quote_refused(
    workspace: Workspace, tmp_path: Path
) -> None:
    chat = ScriptedChat([_reply("rebuilt in 1884"), _reply("rebuilt in 1885")], name="scripted")
    client, headers, scope = _client(workspace, tmp_path, chat)
    body = {"scope": scope, "question": "When was the harbour wall rebuilt?"}
    good = client.post("/v1/answers", json=body, headers=headers).json()["answer"]
    assert good["disposition"] == "answered" and good["receipt"]["answerer"] == "scripted"
    [citation] = good["claims"][0]["citations"]
    assert TEXT.encode()[citation["startByte"] : citation["endByte"]] == b"rebuilt in 1884"
    bad = client.post("/v1/answers", json=body, headers=headers).json()["answer"]
    assert bad["disposition"] == "refused" and bad["reason"] == "citation-not-found"
    assert bad["text"] is None and bad["claims"] == []


def test_a_failing_model_is_a_502_not_a_refusal(workspace: Workspace, tmp_path: Path) -> None:
    def broken(_: Sequence[Message]) -> str:
        raise ChatModelError("the chat endpoint answered 500 three times")

    client, headers, scope = _client(workspace, tmp_path, ScriptedChat(broken))
    reply = client.post(
        "/v1/answers",
        json={"scope": scope, "question": "When was the harbour wall rebuilt?"},
        headers=headers,
    )
    assert reply.status_code == 502
    assert reply.json() == {
        "ok": False,
        "error": {
            "code": "chat_model_error",
            "message": "the chat endpoint answered 500 three times",
        },
    }
