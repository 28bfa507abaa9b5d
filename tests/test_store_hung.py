"""A server that takes connections but never answers (FalkorDB was seen to deadlock while
loading its data) is killed and replaced by the next process that joins it, from the same
files, instead of holding that process until its start timeout."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

import pytest

import citegraph
from citegraph.errors import StoreUnavailable
from citegraph.store import embedded, hang_watch

from helpers import alive, wait_until


def test_a_hung_server_is_replaced_and_nothing_acknowledged_is_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embedded, "HUNG_AFTER_S", 1.0)
    home = tmp_path / "home"
    first = citegraph.open(home)
    first.scope("s").ingest(b"The harbour wall was rebuilt in 1884.", name="wall.txt")
    hung = first.server_pid()
    assert hung is not None
    # As the deadlocked server was: alive, its socket taking connections, answering nothing.
    os.kill(hung, signal.SIGSTOP)
    try:
        started = time.monotonic()
        with citegraph.open(home) as second:
            took = time.monotonic() - started
            assert second.server_pid() not in (None, hung)
            assert not alive(hung)
            stored = second.scope("s").stored_text("wall.txt")
        assert stored == b"The harbour wall was rebuilt in 1884."
        assert took < 20, took  # not the start timeout (60 s or more)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(hung, signal.SIGCONT)
        first.close()


def test_a_server_that_hangs_under_a_call_is_stopped_and_the_call_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that stops answering while a call waits on it: the call fails in seconds
    (not after the query timeout, 60 s in the tests), saying why; the server is started
    again in the background and holds everything acknowledged before."""
    monkeypatch.setattr(hang_watch, "CHECK_AFTER_S", 0.3)
    monkeypatch.setattr(hang_watch, "HUNG_AFTER_S", 1.5)
    home = tmp_path / "home"
    with citegraph.open(home) as ws:
        scope = ws.scope("s")
        scope.ingest(b"The harbour wall was rebuilt in 1884.", name="wall.txt")
        hung = ws.server_pid()
        assert hung is not None
        os.kill(hung, signal.SIGSTOP)  # as the deadlocked server was: alive, answering nothing
        try:
            started = time.monotonic()
            with pytest.raises(StoreUnavailable) as failed:
                scope.ingest(b"The lighthouse was lit in 1890.", name="light.txt")
            took = time.monotonic() - started
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(hung, signal.SIGCONT)
        assert took < 15, took
        assert f"pid {hung}" in str(failed.value) and "answered nothing" in str(failed.value)
        # The watch tells the waiting calls why before it kills and reaps the server
        # (embedded.py kill_hung), so the call may end a moment before the server is gone.
        wait_until(lambda: not alive(hung), 10, "the hung server stopped")
        # Started again in the background, once the watch has seen the old one gone.
        wait_until(lambda: ws.server_pid() not in (None, hung), 60, "a new server")
        ws.wait_for_restart(60)
        assert scope.stored_text("wall.txt") == b"The harbour wall was rebuilt in 1884."
        # The restarted server takes writes; the write cut off is not there.
        assert "light.txt" not in {d.name for d in scope.documents()}
        scope.ingest(b"The lighthouse was lit in 1890.", name="light.txt")
        assert scope.stored_text("light.txt") == b"The lighthouse was lit in 1890."


def test_a_long_query_of_a_server_that_answers_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hang_watch, "CHECK_AFTER_S", 0.2)
    monkeypatch.setattr(hang_watch, "HUNG_AFTER_S", 0.6)
    with citegraph.open(tmp_path / "home") as ws:
        pid = ws.server_pid()
        graph = ws.store.graph("citegraph:long")
        graph.query("CREATE (:Marker)")
        started = time.monotonic()
        # Runs on a worker thread of the server for about 2 s; PING is answered meanwhile.
        [[counted]] = graph.ro_query("UNWIND range(1, 10000000) AS x RETURN count(x)")
        assert counted == 10_000_000
        assert time.monotonic() - started > 0.6  # longer than the watch allows a silence
        assert ws.server_pid() == pid
