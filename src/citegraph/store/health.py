"""Is the graph store answering? And bringing an embedded one back when it died."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from ..errors import StoreError, StoreLoading, StoreUnavailable

# A store that takes longer than this to answer a PING is called degraded, not ok; one that
# gives no answer in PING_TIMEOUT_S is down.
SLOW_PING_S = 1.0
PING_TIMEOUT_S = 3.0


class GraphState(StrEnum):
    OK = "ok"
    DEGRADED = "degraded"  # answers, but slowly or while still loading its data
    DOWN = "down"  # does not answer


@dataclass(frozen=True)
class StorageStats:
    """What the embedded store keeps on disk: a snapshot base and an append-only tail."""

    stored_bytes: int  # base + tail
    tail_bytes: int  # replayed command by command at the next start
    last_compaction: float | None  # unix time the current base was written; None: never
    compactions: int
    compacting: bool | None  # a compaction is running now (None: the store did not say)


@dataclass(frozen=True)
class NodeHealth:
    """One node of a store by URL, asked directly."""

    address: str
    role: str  # primary, replica, or unknown (it did not answer)
    state: str  # ok, down (no answer), or failed (the cluster marks it failed)
    detail: str
    ping_ms: float | None = None
    slots: str | None = None  # a cluster master's slot ranges


@dataclass(frozen=True)
class GraphHealth:
    state: GraphState
    detail: str  # what was found, with the store's own words (paths included)
    ping_ms: float | None = None
    restarting: bool = False  # an embedded store found dead is being started again
    restart_error: str | None = None  # why the last restart failed
    storage: StorageStats | None = None  # embedded store only
    housekeeping: tuple[str, ...] = ()  # scopes whose cleanup failed, and why
    kind: str = "embedded"  # embedded, server, replicated or cluster
    nodes: tuple[NodeHealth, ...] = ()  # a store by URL: each of its nodes

    def public_detail(self) -> str:
        """The detail without paths or the store's own words, for callers without a token."""
        if self.state is GraphState.OK:
            return "the graph store answers"
        if self.state is GraphState.DEGRADED:
            down = sum(1 for n in self.nodes if n.state != "ok")
            if down:
                return f"the graph store answers, but {down} of {len(self.nodes)} nodes do not"
            return "the graph store answers, but slowly or while it loads its data"
        said = "the graph store does not answer"
        if self.restarting:
            said += "; the embedded FalkorDB is restarting"
        elif self.restart_error:
            said += "; restarting it failed (see the server's log)"
        return said


def probe(ping: Callable[[], object]) -> GraphHealth:
    """One PING, judged. Never raises for a store that is down: that is the answer."""
    started = time.perf_counter()
    try:
        ping()
    except StoreLoading as exc:
        return GraphHealth(GraphState.DEGRADED, str(exc))
    except StoreUnavailable as exc:
        return GraphHealth(GraphState.DOWN, str(exc))
    except StoreError as exc:  # it answers, but refuses: a full disk (MISCONF), say
        return GraphHealth(GraphState.DEGRADED, f"the graph store answers but refuses: {exc}")
    elapsed = time.perf_counter() - started
    if elapsed > SLOW_PING_S:
        return GraphHealth(
            GraphState.DEGRADED, f"the graph store took {elapsed:.1f}s to answer", elapsed * 1000
        )
    return GraphHealth(GraphState.OK, "the graph store answers", elapsed * 1000)


class Reviver:
    """Runs one restart at a time in the background; callers never wait for it. It waits
    `delay_s` first, doubled after each failed restart (up to a minute), so a server that dies
    again at once is not restarted in a tight loop."""

    def __init__(
        self, restart: Callable[[], object], on_done: Callable[[], None], delay_s: float = 1.0
    ):
        self._restart = restart
        self._delay_s = delay_s
        self._failures = 0
        self._on_done = on_done
        self._lock = threading.Lock()
        self._cancelled = threading.Event()
        self._thread: threading.Thread | None = None
        self.last_error: str | None = None
        self.restarts = 0

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> bool:
        """Begin a restart unless one is under way; True when this call began one."""
        with self._lock:
            if self.running or self._cancelled.is_set():
                return False
            self._thread = threading.Thread(target=self._run, name="citegraph-revive", daemon=True)
            self._thread.start()
            return True

    def wait(self, timeout_s: float | None = None) -> None:
        thread = self._thread
        if thread is not None:
            thread.join(timeout_s)

    def cancel(self, timeout_s: float | None = None) -> None:
        """No more restarts; wait for one under way to end (the workspace is closing)."""
        with self._lock:
            self._cancelled.set()
        self.wait(timeout_s)

    def _run(self) -> None:
        if self._cancelled.wait(min(60.0, self._delay_s * 2**self._failures)):
            return
        try:
            self._restart()
        except Exception as exc:  # any failure must back off, not end the thread silently
            self.last_error = str(exc) or type(exc).__name__
            self._failures += 1
        else:
            self.last_error = None
            self._failures = 0
            self.restarts += 1
            self._on_done()
