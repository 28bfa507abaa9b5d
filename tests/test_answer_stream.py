"""POST /v1/answers/stream: the answer's steps as server-sent events, as they happen, then
the same answer document as POST /v1/answers (issue 17, the web UI's live steps)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from citegraph import Workspace
from citegraph.surfaces.http import TokenFile, create_app

FIXTURES = Path(__file__).parent / "fixtures"
STEPS = ["rewrite", "retrieval", "walk", "model", "verification"]


def _events(text: str) -> list[tuple[str, Any]]:
    found = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        found.append((fields["event"], json.loads(fields["data"])))
    return found


def test_steps_then_the_same_answer(workspace: Workspace, tmp_path: Path) -> None:
    name = f"stream{os.getpid()}"
    scope = workspace.scope(name)
    scope.ingest(FIXTURES / "harbor")
    tokens = TokenFile(tmp_path / "tokens.json")
    auth = {"Authorization": f"Bearer {tokens.create([name], 'read')}"}
    client = TestClient(create_app(workspace, tokens))
    body = {"scope": name, "question": "What does the ledger-service write to?"}
    with client.stream("POST", "/v1/answers/stream", json=body, headers=auth) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        text = "".join(response.iter_text())
    events = _events(text)
    assert [e for e, _ in events] == ["step"] * len(STEPS) + ["answer"]
    assert [data["step"] for _, data in events[:-1]] == STEPS
    told = {data["step"]: data["detail"] for _, data in events[:-1]}
    assert told["rewrite"].startswith("none")
    assert "verdict grounded" in told["retrieval"]
    assert told["verification"].endswith("located in the stored text")
    streamed = events[-1][1]
    plain = client.post("/v1/answers", json=body, headers=auth).json()["answer"]
    assert streamed["disposition"] == plain["disposition"] == "answered"
    assert streamed["text"] == plain["text"] and streamed["claims"] == plain["claims"]
    # A follow-up is rewritten first, and says so.
    follow = {**body, "question": "What does it write to?", "history": [
        {"question": "What is the ledger-service?", "answer": "The ledger-service keeps accounts."}
    ]}  # fmt: skip
    with client.stream("POST", "/v1/answers/stream", json=follow, headers=auth) as response:
        first = _events("".join(response.iter_text()))[0][1]
    assert first["step"] == "rewrite" and not first["detail"].startswith("none")


def test_refusals_and_errors_before_the_stream(workspace: Workspace, tmp_path: Path) -> None:
    name = f"stream_b{os.getpid()}"
    workspace.scope(name).ingest(FIXTURES / "harbor")
    tokens = TokenFile(tmp_path / "tokens.json")
    auth = {"Authorization": f"Bearer {tokens.create([name], 'read')}"}
    client = TestClient(create_app(workspace, tokens))
    body = {"scope": name, "question": "What is the capital of France?"}
    with client.stream("POST", "/v1/answers/stream", json=body, headers=auth) as response:
        events = _events("".join(response.iter_text()))
    kind, answer = events[-1]
    assert kind == "answer" and answer["disposition"] == "refused" and answer["reason"]
    assert events[-2][1]["detail"].startswith("refused (")
    # The token and the body are checked before any event: plain JSON errors.
    assert client.post("/v1/answers/stream", json=body).status_code == 401
    other = {**body, "scope": "not-this-one"}
    assert client.post("/v1/answers/stream", json=other, headers=auth).status_code == 403
    assert (
        client.post("/v1/answers/stream", json={**body, "k": 500}, headers=auth).status_code == 422
    )
