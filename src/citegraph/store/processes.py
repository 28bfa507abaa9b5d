"""Processes and file locks, as the embedded store needs them (Linux first, macOS tolerated)."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .embedded import EmbeddedServer, ServerInfo


def process_start(pid: int) -> str | None:
    """The kernel's start time of `pid` ('?' where unknown), or None if it is gone or a zombie.
    With the pid, it names one process even after the pid is reused."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            return "?"
        return "?"  # no /proc (macOS): alive, start time unknown
    fields = stat[stat.rfind(")") + 2 :].split()
    if fields[0] == "Z":
        return None
    return fields[19]


def pid_alive(pid: int, start: str | None = None) -> bool:
    seen = process_start(pid)
    if seen is None:
        return False
    return start is None or seen == "?" or start == "?" or seen == start


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive flock on `path` for the duration of the block (blocking)."""
    with open(path, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def try_lock(path: Path) -> int | None:
    """Open `path` and take an exclusive flock without waiting: the descriptor, or None if
    another open description holds it. The lock lives as long as any copy of the descriptor,
    so a child that inherits it keeps it for its whole life."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except BaseException:
        os.close(fd)
        raise
    return fd


# Keepers started by this process, kept so that they can be reaped.
_keepers: list[subprocess.Popen[bytes]] = []


def ensure_keeper(server: EmbeddedServer, info: ServerInfo) -> None:
    """Under the run lock: make sure one keeper (store/keeper.py) watches the idle server of
    `server.home`, described by `info` (passed on, so that a keeper that starts after the
    home was deleted still knows which server to stop)."""
    if server.keeper_pid() is not None:
        return
    _keepers[:] = [k for k in _keepers if k.poll() is None]  # reap the ones that ended
    command = [
        sys.executable,
        "-m",
        "citegraph.store.keeper",
        str(server.home),
        repr(server.linger_s),
        json.dumps(asdict(info)),
    ]
    with open(server.home / "logs" / "keeper.log", "ab") as log:
        keeper = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
        )
    _keepers.append(keeper)
    (server.run_dir / "keeper.json").write_text(
        json.dumps({"pid": keeper.pid, "start": process_start(keeper.pid)})
    )
