"""The real `citegraph serve` on a loopback port, driven by curl and by a plain HTTP client.

The curl commands are the ones in docs/agents.md (the blocks marked `# example:`), run as
written but for the port, with a token made by `citegraph token create`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpers import ROOT, Served, cli, make_token

AGENTS_DOC = ROOT / "docs" / "agents.md"


def examples() -> dict[str, str]:
    found: dict[str, str] = {}
    for block in re.findall(r"```bash\n(.*?)```", AGENTS_DOC.read_text(), flags=re.S):
        first, _, rest = block.partition("\n")
        if first.startswith("# example: "):
            found[first.removeprefix("# example: ").strip()] = rest
    return found


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str, Path]]:
    home = tmp_path_factory.mktemp("served") / "home"
    token = make_token(home, "rag-intro")
    server = Served(home)
    yield server, token, home
    server.stop()
    # SIGTERM is a clean stop (exit 0, or 143 when uvicorn passes the signal on): the
    # embedded FalkorDB is shut down with the API.
    assert server.proc.returncode in (0, 143)
    assert not (home / "run" / "server.json").exists()


def curl(server: Served, token: str, command: str) -> dict[str, Any]:
    command = command.replace("http://127.0.0.1:4000", server.url)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", command],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CITEGRAPH_TOKEN": token},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    reply: dict[str, Any] = json.loads(done.stdout)
    return reply


@pytest.mark.skipif(shutil.which("curl") is None, reason="no curl here (.ci/run installs it)")
def test_the_documented_curl_examples(served: tuple[Served, str, Path]) -> None:
    server, token, _ = served
    shown = examples()
    assert list(shown) == ["remember", "grounded", "related", "not-grounded", "answer"]

    stored = curl(server, token, shown["remember"])
    assert stored["ok"] is True
    assert stored["mentionsLocated"] == 2 and stored["relationsGrounded"] == 1

    grounded = curl(server, token, shown["grounded"])
    assert grounded["ok"] is True and grounded["verdict"]["state"] == "grounded"
    assert any("currency column" in item["text"] for item in grounded["items"])
    assert all(item["citation"] for item in grounded["items"])

    related = curl(server, token, shown["related"])
    assert related["ok"] is True and related["verdict"]["state"] == "related"
    assert "deadline" in related["verdict"]["uncovered"]

    unknown = curl(server, token, shown["not-grounded"])
    state = unknown["verdict"]["state"]
    assert state == "nothing_stored" or (
        state == "related" and {"contoso", "payroll"} & set(unknown["verdict"]["uncovered"])
    )

    answered = curl(server, token, shown["answer"])["answer"]
    assert answered["disposition"] == "answered"
    assert "currency column" in answered["text"]
    checked = httpx.post(
        server.url + "/v1/answers/check",
        headers={"Authorization": f"Bearer {token}"},
        json={"answer": answered, "scope": "rag-intro"},
        timeout=60,
    ).json()
    assert checked["valid"] is True and checked["checkedAgainstStore"] is True


def test_a_revoked_token_is_refused_without_a_restart(served: tuple[Served, str, Path]) -> None:
    server, _, home = served
    token = make_token(home, "rag-intro", rights="read")
    ask = {"scope": "rag-intro", "question": "invoice export"}
    headers = {"Authorization": f"Bearer {token}"}
    allowed = httpx.post(server.url + "/v1/memory/context", json=ask, headers=headers)
    assert allowed.status_code == 200
    listed = json.loads(cli("token", "list", "--json", "--home", str(home)).stdout)
    mine = [t["id"] for t in listed if t["rights"] == ["read"]]
    assert len(mine) == 1 and token not in json.dumps(listed)
    assert cli("token", "revoke", mine[0], "--home", str(home)).returncode == 0
    refused = httpx.post(server.url + "/v1/memory/context", json=ask, headers=headers)
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"


def test_a_streamed_body_over_the_limit_is_cut_off(served: tuple[Served, str, Path]) -> None:
    server, token, _ = served

    def body() -> Iterator[bytes]:  # no Content-Length: the server must count
        for _ in range(12):
            yield b"x" * (1024 * 1024)

    response = httpx.post(
        server.url + "/v1/memory/context",
        content=body(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        timeout=60,
    )
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"


def test_openapi_and_docs_are_served(served: tuple[Served, str, Path]) -> None:
    server, _, _ = served
    spec = httpx.get(server.url + "/openapi.json").json()
    assert {"/v1/memory/context", "/v1/memory/remember", "/v1/answers", "/v1/health"} <= set(
        spec["paths"]
    )
    assert httpx.get(server.url + "/docs").status_code == 200


def test_no_public_address_without_tokens(tmp_path: Path) -> None:
    done = cli("serve", "--host", "0.0.0.0", "--home", str(tmp_path / "empty"))
    assert done.returncode == 2
    assert "no tokens exist yet" in done.stderr


def test_several_workers_share_one_store_and_stop_cleanly(tmp_path: Path) -> None:
    home = tmp_path / "home"
    token = make_token(home, "w")
    server = Served(home, "--workers", "2")
    try:
        headers = {"Authorization": f"Bearer {token}"}
        stored = httpx.post(
            server.url + "/v1/memory/remember",
            headers=headers,
            json={
                "scope": "w",
                "source": "t",
                "passages": [{"text": "The wall was rebuilt in 1884."}],
            },
        )
        assert stored.status_code == 200, stored.text
        # New connections land on either worker; every one must see the write.
        for _ in range(12):
            reply = httpx.post(
                server.url + "/v1/memory/context",
                headers=headers,
                json={"scope": "w", "question": "When was the wall rebuilt?"},
            )
            assert reply.status_code == 200 and reply.json()["verdict"]["state"] == "grounded"
    finally:
        server.stop()
    assert server.proc.returncode in (0, 143)
    assert not (home / "run" / "server.json").exists()  # the embedded FalkorDB was stopped
    assert list((home / "run" / "clients").iterdir()) == []
