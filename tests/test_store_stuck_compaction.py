"""A compaction whose forked child hangs (seen: FalkorDB's rewrite child blocked on a futex
for good) is stopped once its CPU time stands still, instead of holding a clean close for
the whole compaction allowance (600 s); the previous files stay in use and nothing is lost."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from pathlib import Path

import pytest
import redis

import citegraph
from citegraph.store import aof

from helpers import alive

DOCUMENT = b"The tide table for the north harbour lists two high waters a day.\n" * 6000


def _stop_rewrite_children(server_pid: int, done: threading.Event, stopped: list[int]) -> None:
    """Freeze every rewrite child the server forks, as the hung child was frozen."""
    while not done.is_set():
        for child in aof._children(server_pid):
            if child not in stopped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child, signal.SIGSTOP)
                    stopped.append(child)
        time.sleep(0.01)


def test_a_stuck_compaction_child_is_stopped_and_the_close_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(aof, "REWRITE_STALL_S", 2.0)
    home = tmp_path / "home"
    ws = citegraph.open(home)
    ws.scope("s").ingest(DOCUMENT, name="tides.txt")
    assert ws._server is not None
    ws._server.wait_for_compaction(60)  # the one asked for when the scope's indexes were made
    ws.scope("s").ingest(DOCUMENT + b"Revised.\n", name="tides-2.txt")
    assert ws._server.files().tail_bytes >= aof.COMPACT_AT_CLOSE_BYTES  # the close compacts
    server_pid = ws.server_pid()
    assert server_pid is not None
    # Slow the child down (per key) so that it is caught alive, then freeze it.
    client = redis.Redis(unix_socket_path=ws._server.socket_path)
    client.config_set("rdb-key-save-delay", 100_000)
    client.close()
    done, stopped = threading.Event(), []
    freezer = threading.Thread(target=_stop_rewrite_children, args=(server_pid, done, stopped))
    freezer.start()
    try:
        started = time.monotonic()
        ws.close()
        took = time.monotonic() - started
    finally:
        done.set()
        freezer.join()
        for child in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)
    assert stopped, "no compaction child was seen"
    assert took < 30, took  # the stall window and a stop, not the 600 s allowance
    assert not alive(server_pid)
    with citegraph.open(home) as again:
        assert again.scope("s").stored_text("tides.txt") == DOCUMENT
        assert again.scope("s").stored_text("tides-2.txt") == DOCUMENT + b"Revised.\n"


def test_a_slow_child_that_keeps_working_is_not_taken_as_stuck() -> None:
    """The watch judges CPU time: a busy process of ours is never stuck, a stopped one is."""
    import subprocess
    import sys

    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        watch = aof.StallWatch(os.getpid(), stall_s=1.0)
        deadline = time.monotonic() + 2.5
        stuck: set[int] = set()
        while time.monotonic() < deadline:
            child = watch.stuck_child()
            if child is not None:
                stuck.add(child)
            time.sleep(0.1)
        assert busy.pid not in stuck
        assert idle.pid in stuck
    finally:
        for proc in (busy, idle):
            proc.kill()
            proc.wait()
