"""Calls waiting on an embedded server that stopped answering end in seconds, not minutes.

FalkorDB 4.16.3 was seen to deadlock now and then (docs/embedded-store.md): its main thread
waits forever, and every call in flight waited out the query timeout (300 s by default, and
again for each other call of the command). A query that merely runs long leaves the server
answering PING (queries run on worker threads, PING on the main thread). So while a call has
been in flight for `check_after_s`, the watch pings the server on a connection of its own;
when no ping is answered for `hung_after_s`, the server is hung: the watch has it killed (only
the embedded server of this home; what it wrote to its files is kept, and the next start
loads them), and the calls fail at once with `StoreUnavailable` saying why.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

log = logging.getLogger("citegraph.store")

# The same allowance as a joining process gives a server that takes connections and answers
# nothing (store/embedded.py): far beyond any PING of a server that works.
HUNG_AFTER_S = 15.0
CHECK_AFTER_S = 5.0
PING_TIMEOUT_S = 2.0


class InFlight:
    """The calls waiting on the store now, by when each began."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._began: dict[int, float] = {}
        self._tokens = itertools.count()

    @contextmanager
    def call(self) -> Iterator[None]:
        token = next(self._tokens)
        with self._lock:
            self._began[token] = time.monotonic()
        try:
            yield
        finally:
            with self._lock:
                del self._began[token]

    def waited_s(self) -> float:
        """How long the oldest call in flight has waited; 0 when none is."""
        with self._lock:
            oldest = min(self._began.values(), default=None)
        return 0.0 if oldest is None else time.monotonic() - oldest


class HangWatch:
    """A thread that kills a hung server under calls in flight (see the module docstring).

    `ping(timeout_s)` raises when the server gives no answer; `kill(silent_s)` stops the
    hung server and returns why in words (None when there was none to kill)."""

    def __init__(
        self,
        in_flight: InFlight,
        ping: Callable[[float], None],
        kill: Callable[[float], str | None],
        check_after_s: float | None = None,
        hung_after_s: float | None = None,
    ):
        self._in_flight = in_flight
        self._ping = ping
        self._kill = kill
        self._check_after_s = CHECK_AFTER_S if check_after_s is None else check_after_s
        self._hung_after_s = HUNG_AFTER_S if hung_after_s is None else hung_after_s
        self._stop = threading.Event()
        self.killed: str | None = None  # why the last hung server was killed
        self._thread = threading.Thread(target=self._run, name="citegraph-hang-watch", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(PING_TIMEOUT_S + 1)

    def _run(self) -> None:
        unanswered_since: float | None = None
        interval = min(1.0, self._check_after_s / 2)
        while not self._stop.wait(interval):
            if self._in_flight.waited_s() < self._check_after_s:
                unanswered_since = None
                continue
            asked = time.monotonic()
            try:
                self._ping(min(PING_TIMEOUT_S, self._hung_after_s))
            except Exception:
                unanswered_since = asked if unanswered_since is None else unanswered_since
            else:
                unanswered_since = None
                continue
            silent_s = time.monotonic() - unanswered_since
            if silent_s < self._hung_after_s or self._stop.is_set():
                continue
            try:
                self.killed = self._kill(silent_s)
            except Exception as exc:  # never the watch's own end: it tries again
                log.warning("could not stop the hung embedded FalkorDB: %s", exc)
                continue
            if self.killed is not None:
                log.warning("%s", self.killed)
            unanswered_since = None
