"""The embedded store's persistence: what is on disk, how long loading it should take, and
compaction (rewriting the append-only history as one snapshot).

FalkorDB replays the commands of the append-only tail one by one when it starts. An index
created inside that tail is only built once loading has finished, so every later query in
the tail that looks things up by key scans whole labels: replay time grows with the square of
the tail (measured: a 5.3 MB tail with the scope's indexes in it took 14.5 s to load, the same
commands 0.64 s against a live server). Indexes held in the snapshot base are rebuilt while
the base loads, before the tail, so a short tail after a recent base loads in time linear in
its size. Hence the policy: compact when a scope's indexes are created, when the tail grows
past a share of the base, and at a clean close when the tail is worth it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger("citegraph")

# Redis rewrites by itself once the append-only files exceed this and have grown by this
# share since the last base (tail replay then stays well under the base's load time).
AUTO_REWRITE_PERCENT = 25
AUTO_REWRITE_MIN = "1mb"
# At a clean close, a tail at least this long is compacted (about 30 ms of replay saved); a
# keeper, which nobody waits for, compacts any tail.
COMPACT_AT_CLOSE_BYTES = 256 * 1024
# With a tail this short or shorter, the server answers once the base is decoded and builds
# its indexes in the background (FalkorDB's DELAY_INDEXING); the tail is then replayed
# without them, which only a short tail can afford.
DELAYED_INDEXING_MAX_TAIL = 16 * 1024
# Start-up allowance, generous on purpose: a limit to fail a stuck start, not a target.
MIN_START_TIMEOUT_S = 60.0
BASE_S_PER_MB = 0.5
TAIL_S_PER_MB = 4.0
_MB = 1024 * 1024


@dataclass(frozen=True)
class StoreFiles:
    """The append-only files of a data directory, as its manifest lists them."""

    base_bytes: int
    tail_bytes: int
    base_written: float | None  # when the current base was written (the last compaction)
    compactions: int  # bases written after the first, empty one

    @property
    def stored_bytes(self) -> int:
        return self.base_bytes + self.tail_bytes

    def load_estimate_s(self) -> float:
        return (self.base_bytes * BASE_S_PER_MB + self.tail_bytes * TAIL_S_PER_MB) / _MB

    def start_timeout_s(self) -> float:
        return max(MIN_START_TIMEOUT_S, 3 * self.load_estimate_s())


def read_files(data_dir: Path) -> StoreFiles:
    """Sizes from the manifest (Redis 7 multi-part AOF); zeros for a store never started."""
    folder = data_dir / "appendonlydir"
    base = tail = 0
    written: float | None = None
    seq = 0
    try:
        lines = (folder / "appendonly.aof.manifest").read_text().splitlines()
    except OSError:
        return StoreFiles(0, 0, None, 0)
    for line in lines:
        fields = line.split()
        info = dict(zip(fields[::2], fields[1::2], strict=False))
        name, kind = info.get("file"), info.get("type")
        if name is None or kind not in ("b", "i"):
            continue  # history files are deleted once a rewrite is done
        try:
            stat = (folder / name).stat()
        except OSError:
            continue
        if kind == "b":
            base += stat.st_size
            written = stat.st_mtime
            seq = int(info.get("seq", "1"))
        else:
            tail += stat.st_size
    return StoreFiles(base, tail, written, max(0, seq - 1))


def loading_progress(info: dict[str, Any]) -> str:
    """'43% of 120.0 MB loaded, about 9 s left' from INFO persistence of a loading server."""
    if not int(info.get("loading", 0)):
        return "loaded"
    total = int(info.get("loading_total_bytes", 0))
    said = f"{float(info.get('loading_loaded_perc', 0.0)):.0f}% of {total / _MB:.1f} MB loaded"
    eta = int(info.get("loading_eta_seconds", -1))
    return f"{said}, about {eta} s left" if eta >= 0 else said


def rewriting(info: dict[str, Any]) -> bool:
    return bool(
        int(info.get("aof_rewrite_in_progress", 0)) or int(info.get("aof_rewrite_scheduled", 0))
    )


def _client(socket_path: str, timeout_s: float) -> Any:
    """A connection that fails at once when nothing answers: no retries with back-off (a
    health check that retried for seconds would see a server restarted meanwhile)."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis(
        unix_socket_path=socket_path,
        socket_timeout=timeout_s,
        socket_connect_timeout=timeout_s,
        retry=Retry(NoBackoff(), 0),
    )


# A rewrite child whose CPU time has not moved for this long, and that is not waiting on the
# disk, is taken as stuck (seen: FalkorDB's forked child blocked on a futex for good).
REWRITE_STALL_S = 30.0


def _children(pid: int) -> list[int]:
    """The child processes of `pid` (Linux /proc; an empty list elsewhere)."""
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError):
                found.extend(int(c) for c in (task / "children").read_text().split())
    except OSError:
        pass
    return found


def _cpu_and_state(pid: int) -> tuple[int, str] | None:
    """(user + system clock ticks, state letter) of `pid`, or None when it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2 :].split()  # the name may hold spaces and parentheses
    return int(fields[11]) + int(fields[12]), fields[0]


class StallWatch:
    """Tells a stuck rewrite child from a slow one by its CPU time. A large graph is one key,
    so the server's progress counters stand still while a slow child works; its CPU time
    does not. A child asleep on the disk ('D') is never taken as stuck."""

    def __init__(self, server_pid: int, stall_s: float):
        self.server_pid = server_pid
        self.stall_s = stall_s
        self._seen: dict[int, tuple[int, float]] = {}  # child -> (cpu ticks, since when)

    def stuck_child(self) -> int | None:
        now = time.monotonic()
        current: dict[int, tuple[int, float]] = {}
        stuck = None
        for child in _children(self.server_pid):
            sample = _cpu_and_state(child)
            if sample is None:
                continue
            ticks, state = sample
            before = self._seen.get(child)
            since = before[1] if before is not None and before[0] == ticks and state != "D" else now
            current[child] = (ticks, since)
            if now - since >= self.stall_s:
                stuck = child
        self._seen = current
        return stuck


def compact(
    socket_path: str,
    wait_s: float | None = None,
    stall_s: float | None = None,
) -> bool:
    """Ask the server at `socket_path` to rewrite its append-only file; with `wait_s`, wait
    for that rewrite to finish. True when a rewrite was begun (or queued) by this call and
    finished or is still running; False when none was begun or a stuck one was stopped.

    While waiting, a rewrite child of the server (a local one: the embedded store) that
    makes no progress for `stall_s` is killed: Redis then drops the half-written snapshot
    and keeps the old files, so nothing is lost, and the caller is not held for the whole
    of `wait_s`. The server's pid is asked of the server itself, so it is never stale."""
    import redis

    client = _client(socket_path, 10.0)
    deadline = time.monotonic() + (wait_s or 0.0)

    def wait() -> bool:
        """False when a stuck rewrite was stopped."""
        watch = StallWatch(int(client.info("server")["process_id"]), stall_s or REWRITE_STALL_S)
        polls = 0
        while rewriting(client.info("persistence")) and time.monotonic() < deadline:
            polls += 1
            if polls % 10 == 0:
                child = watch.stuck_child()
                if child is not None:
                    log.warning(
                        "the store's compaction (pid %d) made no progress for %.0f s; "
                        "stopped it, the previous files stay in use",
                        child,
                        watch.stall_s,
                    )
                    with contextlib.suppress(OSError):
                        os.kill(child, signal.SIGKILL)
                    while rewriting(client.info("persistence")) and time.monotonic() < deadline:
                        time.sleep(0.05)
                    return False
            time.sleep(0.05)
        return True

    try:
        try:
            client.bgrewriteaof()
        except redis.exceptions.ResponseError as exc:
            if "in progress" not in str(exc):
                raise
            if wait_s is None:
                return False
            # One is under way, from a snapshot that may be older than the writes to
            # compact: let it finish (a SHUTDOWN would abandon it), then begin ours.
            if not wait():
                return False
            try:
                client.bgrewriteaof()
            except redis.exceptions.ResponseError as again:
                if "in progress" not in str(again):
                    raise
                # Another process began one after the first ended: its snapshot holds
                # every write made before this call, which is all this call was for.
        if wait_s is not None:
            return wait()
        return True
    finally:
        client.close()


def server_persistence(socket_path: str, timeout_s: float = 3.0) -> dict[str, Any]:
    client = _client(socket_path, timeout_s)
    try:
        return dict(client.info("persistence"))
    finally:
        client.close()


class CompactionRequests:
    """Compactions asked for while a server runs (a scope's indexes were created), run one at
    a time in a background thread. A request made while one runs is kept and run after it:
    the running rewrite's snapshot was taken before the request, so it does not cover it."""

    def __init__(self, socket_path: str):
        self.socket_path = socket_path
        self._lock = threading.Lock()
        self._wanted = False
        self._thread: threading.Thread | None = None

    def request(self) -> None:
        with self._lock:
            self._wanted = True
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="citegraph-compact", daemon=True
                )
                self._thread.start()

    def wait(self, timeout_s: float | None = None) -> None:
        thread = self._thread
        if thread is not None:
            thread.join(timeout_s)

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._wanted:
                    self._thread = None
                    return
                self._wanted = False
            try:
                # Waits out a rewrite under way (its snapshot predates the request), then
                # begins ours and waits for it.
                compact(self.socket_path, wait_s=600)
            except Exception as exc:  # a server gone or refusing: the next request retries
                log.warning("compaction of the embedded store failed: %s", exc)
                with self._lock:
                    self._wanted = False
                    self._thread = None
                return


def format_age(written: float | None) -> str:
    if written is None:
        return "never"
    age = max(0.0, time.time() - written)
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if age >= size:
            return f"{age / size:.0f} {unit} ago"
    return f"{age:.0f} s ago"
