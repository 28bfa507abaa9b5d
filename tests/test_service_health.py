"""FalkorDB killed under a running `citegraph serve`: health tells the truth, calls fail as
errors (never as empty results), and service comes back without restarting the API."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import threading
from pathlib import Path

import httpx
import pytest

from helpers import Served, env_with, falkordb_on_port, free_port, make_token, wait_until

pytestmark = pytest.mark.slow

NORTHWIND = {
    "scope": "h",
    "source": "ticket",
    "facts": {"entities": [{"name": "Northwind Retail", "type": "Company"}]},
    "passages": [
        {
            "text": "Northwind Retail reports that the invoice export drops the currency column.",
            "mentions": ["Northwind Retail"],
        }
    ],
}
QUESTION = {"scope": "h", "question": "What does Northwind Retail report about the invoice export?"}


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _remember_northwind(server: Served, token: str) -> None:
    reply = httpx.post(server.url + "/v1/memory/remember", json=NORTHWIND, headers=_auth(token))
    assert reply.status_code == 200, reply.text


def _assert_down(server: Served, token: str) -> None:
    health = httpx.get(server.url + "/v1/health", timeout=30)
    assert health.status_code == 503, health.text
    assert health.json()["api"] == "ok" and health.json()["graph"]["state"] == "down"
    assert "/" not in health.json()["graph"]["detail"]  # no paths for callers without a token
    failed = httpx.post(
        server.url + "/v1/memory/context", json=QUESTION, headers=_auth(token), timeout=60
    )
    assert failed.status_code == 503, failed.text
    assert failed.json()["ok"] is False
    assert failed.json()["error"]["code"] in ("store_unavailable", "store_loading")


def _grounded_again(server: Served, token: str) -> bool:
    try:
        health = httpx.get(server.url + "/v1/health", timeout=10)
        if health.status_code != 200 or health.json()["graph"]["state"] != "ok":
            return False
        reply = httpx.post(
            server.url + "/v1/memory/context", json=QUESTION, headers=_auth(token), timeout=60
        )
    except httpx.HTTPError:
        return False
    if reply.status_code == 503:  # loading, or the full-text index is being rebuilt
        return False
    assert reply.status_code == 200, reply.text
    return bool(reply.json()["verdict"]["state"] == "grounded")


def test_embedded_falkordb_killed_is_restarted_and_loses_nothing_acknowledged(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    token = make_token(home, "h")
    # A restart delay long enough that "down" can be seen before the restart ends it.
    server = Served(home, env=env_with(CITEGRAPH_RESTART_DELAY="3"))
    acknowledged: dict[str, str] = {}
    unexpected: list[str] = []
    stop = threading.Event()

    def writer() -> None:
        n = 0
        while not stop.is_set():
            name = f"note-{n:04d}.txt"
            data = (f"Note {n} records the tide at the harbour wall. " * 40).encode()
            n += 1
            try:
                reply = httpx.post(
                    server.url + "/v1/documents",
                    data={"scope": "h"},
                    files=[("file", (name, data, "text/plain"))],
                    headers=_auth(token),
                    timeout=60,
                )
            except httpx.HTTPError as exc:
                unexpected.append(repr(exc))
                continue
            if reply.status_code == 200:
                acknowledged[name] = hashlib.sha256(data).hexdigest()
            elif reply.status_code != 503:
                unexpected.append(reply.text)

    try:
        _remember_northwind(server, token)
        thread = threading.Thread(target=writer)
        thread.start()
        wait_until(lambda: len(acknowledged) >= 5, 60, "some acknowledged uploads")
        old_pid = json.loads((home / "run" / "server.json").read_text())["pid"]
        os.kill(old_pid, signal.SIGKILL)
        _assert_down(server, token)
        wait_until(lambda: _grounded_again(server, token), 90, "the graph to come back")
        before = len(acknowledged)
        wait_until(lambda: len(acknowledged) >= before + 3, 60, "uploads after the restart")
        stop.set()
        thread.join(60)
        assert unexpected == []
        assert server.proc.poll() is None  # the same API process throughout
        new_pid = json.loads((home / "run" / "server.json").read_text())["pid"]
        assert new_pid != old_pid
        listed = httpx.get(
            server.url + "/v1/documents", params={"scope": "h"}, headers=_auth(token)
        ).json()["documents"]
        stored = {d["name"]: d["sha256"] for d in listed}
        for name, digest in acknowledged.items():
            assert stored.get(name) == digest, f"{name} was acknowledged but is not whole"
    finally:
        stop.set()
        server.stop()


def test_falkordb_server_killed_is_reconnected_to_when_back(tmp_path: Path) -> None:
    port = free_port()
    falkordb = falkordb_on_port(port, tmp_path / "data")
    home = tmp_path / "home"
    token = make_token(home, "h")
    server = Served(home, "--url", f"redis://127.0.0.1:{port}")
    try:
        _remember_northwind(server, token)
        assert _grounded_again(server, token)
        falkordb.kill()
        falkordb.wait()
        _assert_down(server, token)
        _assert_down(server, token)  # still down: nothing pretends otherwise
        falkordb = falkordb_on_port(port, tmp_path / "data")
        wait_until(lambda: _grounded_again(server, token), 90, "the server to be reconnected")
        assert server.proc.poll() is None
    finally:
        server.stop()
        falkordb.kill()
        falkordb.wait()
