"""A store that cannot save (a full disk): an upload that failed is never listed, by any
client, and every acknowledged upload is there with its sha256 after the store is killed and
started again (security review, item 8: 117 listed, 116 acknowledged).

The full disk is a file size limit on the FalkorDB process: a write past it fails (EFBIG), as
ENOSPC does, through the same path in the store."""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import citegraph
from citegraph import StoreNotSaving
from citegraph.surfaces.http import TokenFile, create_app

from helpers import falkordb_on_port, free_port

pytestmark = pytest.mark.slow

# The append-only file may grow to this; the uploads below cross it after a few dozen.
FILE_LIMIT = 1_500_000
WORDS = "harbour ledger clerk customs river flood archive entry copy tide".split()


def _text(n: int) -> bytes:
    words = itertools.islice(itertools.cycle(WORDS), n % 7, None)
    sentences = [
        f"Entry {n}.{i}: the {next(words)} of Port {n} kept the {next(words)} and the "
        f"{next(words)} for Clerk Number{i}."
        for i in range(120)
    ]
    return " ".join(sentences).encode()


def test_an_upload_that_failed_on_a_full_disk_is_never_listed(tmp_path: Path) -> None:
    port = free_port()
    data = tmp_path / "data"
    falkordb = falkordb_on_port(port, data, file_limit=FILE_LIMIT)
    url = f"redis://127.0.0.1:{port}"
    try:
        workspace = citegraph.open(tmp_path / "home", url=url)
        other = citegraph.open(tmp_path / "other", url=url)  # another client of the store
        tokens = TokenFile(tmp_path / "tokens.json")
        auth = {"Authorization": f"Bearer {tokens.create(['s'], 'read,write')}"}
        http = TestClient(create_app(workspace, tokens))

        acknowledged: dict[str, str] = {}
        failed: list[str] = []
        for n in range(300):
            name, text = f"entry-{n}.txt", _text(n)
            reply = http.post(
                "/v1/documents",
                data={"scope": "s"},
                files=[("file", (name, text, "text/plain"))],
                headers=auth,
            )
            if reply.status_code == 200:
                acknowledged[name] = hashlib.sha256(text).hexdigest()
                continue
            assert reply.status_code == 503, reply.text
            assert reply.json()["error"]["code"] == "store_not_saving", reply.text
            assert "cannot write to its append-only file" in reply.json()["error"]["message"]
            failed.append(name)
            if len(failed) == 2:
                break
        assert len(failed) == 2 and len(acknowledged) > 5, (failed, len(acknowledged))

        # While it cannot save, no client lists anything (it may hold the failed upload).
        listed = http.get("/v1/documents", params={"scope": "s"}, headers=auth)
        assert listed.status_code == 503 and listed.json()["error"]["code"] == "store_not_saving"
        asked = http.post(
            "/v1/memory/context", json={"scope": "s", "question": "Port 3 ledger?"}, headers=auth
        )
        assert asked.status_code == 503, asked.text
        with pytest.raises(StoreNotSaving, match="nothing is listed"):
            other.scope("s").documents()
        health = http.get("/v1/health", headers=auth)
        assert health.status_code == 200, health.text
        assert health.json()["graph"]["state"] == "degraded"
        workspace.close()
        other.close()

        # It stops before it could save; started again with room to write.
        falkordb.kill()
        falkordb.wait()
        falkordb = falkordb_on_port(port, data)
        with citegraph.open(tmp_path / "home", url=url) as again:
            stored = {d.name: d.sha256 for d in again.scope("s").documents()}
        assert stored == acknowledged  # all acknowledged, and no failed upload
    finally:
        falkordb.kill()
        falkordb.wait()


def test_an_answered_write_not_yet_appended_is_waited_for() -> None:
    """With fsync `everysec`, Redis may answer a write while it still holds it in memory (an
    fsync running): an upload is acknowledged only once its commit is in the file, so the
    state read from INFO persistence tells a pending append from a failed one."""
    from citegraph.store.graph import append_state

    saved = {"aof_enabled": 1, "aof_last_write_status": "ok", "aof_buffer_length": 0}
    held = saved | {"aof_buffer_length": 812}
    failed = saved | {"aof_last_write_status": "err", "aof_buffer_length": 812}
    no_aof = {"aof_enabled": 0, "aof_last_write_status": "ok", "aof_buffer_length": 99}
    assert append_state([saved]) == (False, False)
    assert append_state([saved, held]) == (False, True)  # any primary still holding one
    assert append_state([failed]) == (True, True)
    assert append_state([no_aof]) == (False, False)  # a store without a file: nothing waits
