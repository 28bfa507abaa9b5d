"""Bounds on what a request may ask for, each refused with a message naming the field."""

from __future__ import annotations

import contextlib
import itertools
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from citegraph import Workspace
from citegraph.surfaces.http import Right, TokenFile, create_app
from citegraph.testing.documents import answer_with_citations

_n = itertools.count()


@pytest.fixture
def client(workspace: Workspace, tmp_path) -> tuple[TestClient, str, str]:  # type: ignore[no-untyped-def]
    name = f"lim{next(_n)}"
    tokens = TokenFile(tmp_path / "tokens.json")
    token = tokens.create([name], "read,write")
    workspace.scope(name).ingest(b"The harbour wall was rebuilt in 1884.", name="wall.txt")
    return TestClient(create_app(workspace, tokens)), token, name


def _post(client: TestClient, token: str, path: str, body: dict[str, object]):  # type: ignore[no-untyped-def]
    return client.post(path, json=body, headers={"Authorization": f"Bearer {token}"})


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("k", 51, "less than or equal to 50"),
        ("k", 0, "greater than or equal to 1"),
        ("hops", 4, "less than or equal to 3"),
        ("hops", -1, "greater than or equal to 0"),
        ("k", "many", "valid integer"),
    ],
)
def test_bounds_name_the_field(client, field: str, value: object, words: str) -> None:  # type: ignore[no-untyped-def]
    http, token, scope = client
    body = {"scope": scope, "question": "When was the wall rebuilt?", field: value}
    reply = _post(http, token, "/v1/memory/context", body)
    assert reply.status_code == 422
    error = reply.json()["error"]
    assert error["code"] == "invalid_request"
    assert error["message"].startswith(f"{field}: ") and words in error["message"]


def test_question_length_limit(client) -> None:  # type: ignore[no-untyped-def]
    http, token, scope = client
    for path, key in (("/v1/memory/context", "question"), ("/v1/answers", "question")):
        reply = _post(http, token, path, {"scope": scope, key: "wall " * 401})
        assert reply.status_code == 422
        assert reply.json()["error"]["message"].startswith(f"{key}: 2,005 characters")
        fits = _post(http, token, path, {"scope": scope, key: "When was the wall rebuilt?"})
        assert fits.status_code == 200


def test_history_turns_have_limits_too(client) -> None:  # type: ignore[no-untyped-def]
    http, token, scope = client
    long_turn = [{"question": "wall " * 401, "answer": ""}]
    reply = _post(
        http, token, "/v1/answers", {"scope": scope, "question": "When?", "history": long_turn}
    )
    assert reply.status_code == 422
    assert reply.json()["error"]["message"].startswith("history.0.question: 2,005 characters")
    long_answer = [{"question": "When was the wall rebuilt?", "answer": "x" * 8001}]
    reply = _post(
        http, token, "/v1/answers", {"scope": scope, "question": "Why?", "history": long_answer}
    )
    assert reply.status_code == 422 and "history.0.answer" in reply.text


def test_missing_and_unknown_fields(client) -> None:  # type: ignore[no-untyped-def]
    http, token, scope = client
    missing = _post(http, token, "/v1/memory/context", {"scope": scope})
    assert missing.status_code == 422 and "question: Field required" in missing.text
    extra = _post(http, token, "/v1/memory/context", {"scope": scope, "question": "x", "kk": 3})
    assert extra.status_code == 422 and "kk" in extra.json()["error"]["message"]
    not_json = http.post(
        "/v1/memory/context",
        content=b"{not json",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    assert not_json.status_code == 422 and not_json.json()["ok"] is False


def test_body_limit_from_settings(workspace: Workspace, tmp_path) -> None:  # type: ignore[no-untyped-def]
    tokens = TokenFile(tmp_path / "tokens.json")
    token = tokens.create(["limbody"], "read,write")
    headers = {"Authorization": f"Bearer {token}"}
    with _sharing(workspace, max_body_bytes=4096) as small:
        http = TestClient(create_app(small, tokens))
        big = http.post("/v1/memory/context", content=b"x" * 5000, headers=headers)
        assert big.status_code == 413 and big.json()["error"]["code"] == "payload_too_large"
        upload = http.post(
            "/v1/documents",
            data={"scope": "limbody"},
            files=[("file", ("a.txt", b"y" * 5000, "text/plain"))],
            headers=headers,
        )
        assert upload.status_code == 413
    assert workspace.scope("limbody").documents() == []


def test_a_slow_request_times_out_with_504(workspace: Workspace, tmp_path) -> None:  # type: ignore[no-untyped-def]
    tokens = TokenFile(tmp_path / "tokens.json")
    token = tokens.create(["limslow"], "read")
    record = tokens.find(token)
    assert record is not None

    def slow_context(*_: object, **__: object) -> object:
        time.sleep(1.5)
        raise AssertionError("the caller should have been answered already")

    with _sharing(workspace, request_timeout_s=0.2) as impatient:
        app = create_app(impatient, tokens)
        target = app.state.service.scope(record, "limslow", Right.READ)
        target.context = slow_context  # stands in for a store that is slow to answer
        http = TestClient(app)
        started = time.monotonic()
        reply = http.post(
            "/v1/memory/context",
            json={"scope": "limslow", "question": "anything"},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert reply.status_code == 504 and reply.json()["error"]["code"] == "timeout"
        assert time.monotonic() - started < 1.4


@contextlib.contextmanager
def _sharing(workspace: Workspace, **changes: object) -> Iterator[Workspace]:
    """A second workspace on the same store, with other service settings."""
    other = Workspace(replace(workspace.settings, **changes))  # type: ignore[arg-type]
    try:
        yield other
    finally:
        other.close()


@pytest.mark.parametrize("bad", ["\x00", "\x1b[2J", "\x07", "\x7f"])
def test_control_characters_in_a_question_are_refused(client, bad: str) -> None:  # type: ignore[no-untyped-def]
    """A NUL (or another control character) in a question was answered 200, grounded; no
    stored text can hold one, so it is the caller's mistake (security review, item 10)."""
    http, token, scope = client
    for path, key in (("/v1/memory/context", "question"), ("/v1/answers", "question")):
        reply = _post(http, token, path, {"scope": scope, key: f"When was{bad} the wall rebuilt?"})
        assert reply.status_code == 422, reply.text
        error = reply.json()["error"]
        assert error["code"] == "invalid_question" and "control characters" in error["message"]
    history = [{"question": "When was the wall rebuilt?", "answer": "In 1884."}]
    reply = _post(
        http, token, "/v1/answers", {"scope": scope, "question": f"Why{bad}?", "history": history}
    )
    assert reply.status_code == 422, reply.text


def test_a_name_with_slashes_can_be_deleted_by_name(client) -> None:  # type: ignore[no-untyped-def]
    """Every file ingested from a folder has "/" in its name (security review, item 12)."""
    from urllib.parse import quote

    http, token, scope = client
    headers = {"Authorization": f"Bearer {token}"}
    uploaded = http.post(
        "/v1/documents",
        data={"scope": scope},
        files=[("file", ("notes/2026/tides.txt", b"The tide tables are blue.", "text/plain"))],
        headers=headers,
    )
    assert uploaded.status_code == 200, uploaded.text
    name = uploaded.json()["results"][0]["document"]["name"]
    assert name == "notes/2026/tides.txt"
    deleted = http.delete(
        f"/v1/documents/{quote(name, safe='')}", params={"scope": scope}, headers=headers
    )
    assert deleted.status_code == 200, deleted.text
    assert deleted.json()["deleted"]["name"] == name


@pytest.mark.parametrize(
    ("name", "escaped"),
    [
        ("C:\\Windows\\x.txt", True),  # as httpx and curl send it: each backslash escaped
        ("\\\\server\\share\\x.txt", True),
        ("C:\\Windows\\x.txt", False),  # as browsers send it: backslashes as they are
    ],
)
def test_an_upload_name_keeps_its_backslashes(client, name: str, escaped: bool) -> None:  # type: ignore[no-untyped-def]
    """The multipart parser cut `C:\\Windows\\x.txt` to `x.txt`, which silently replaced the
    stored x.txt (security review, item 12): the name is stored as sent, and deletable by it."""
    from urllib.parse import quote

    http, token, scope = client
    headers = {"Authorization": f"Bearer {token}"}

    def upload(filename: str, text: bytes) -> str:
        sent = filename.replace("\\", "\\\\") if escaped else filename
        body = (
            (
                f'--B\r\nContent-Disposition: form-data; name="scope"\r\n\r\n{scope}\r\n'
                f'--B\r\nContent-Disposition: form-data; name="file"; filename="{sent}"\r\n'
                "Content-Type: text/plain\r\n\r\n"
            ).encode()
            + text
            + b"\r\n--B--\r\n"
        )
        reply = http.post(
            "/v1/documents",
            content=body,
            headers={**headers, "Content-Type": "multipart/form-data; boundary=B"},
        )
        assert reply.status_code == 200, reply.text
        result = reply.json()["results"][0]
        assert result["status"] == "created"
        return str(result["document"]["name"])

    assert upload("x.txt", b"The plain x file.") == "x.txt"
    assert upload(name, b"The Windows path file.") == name
    listed = http.get("/v1/documents", params={"scope": scope}, headers=headers).json()
    assert {"x.txt", name} <= {d["name"] for d in listed["documents"]}
    deleted = http.delete(
        f"/v1/documents/{quote(name, safe='')}", params={"scope": scope}, headers=headers
    )
    assert deleted.status_code == 200, deleted.text
    assert deleted.json()["deleted"]["name"] == name
    kept = http.get("/v1/documents", params={"scope": scope}, headers=headers).json()
    assert "x.txt" in {d["name"] for d in kept["documents"]}


def test_a_check_is_capped_in_citations(client) -> None:  # type: ignore[no-untyped-def]
    """A check's cost grew as citations x item size, and nothing capped either (security
    review, item 4): now at most 5,000 citations and 4 MB items, 422 beyond."""
    http, token, _scope = client
    answer = answer_with_citations("All is well. ", 5_001, 5_001)
    reply = _post(http, token, "/v1/answers/check", {"answer": answer})
    assert reply.status_code == 422, reply.text
    assert "5,001 citations" in reply.json()["error"]["message"]
    answer["claims"][0]["citations"] = answer["claims"][0]["citations"][:5_000]
    fits = _post(http, token, "/v1/answers/check", {"answer": answer})
    assert fits.status_code == 200 and fits.json()["valid"] is True, fits.text
