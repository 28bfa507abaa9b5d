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
from citegraph.store import embedded

from helpers import alive


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
