"""The keeper: a small process that stops an idle embedded FalkorDB after the linger time.

Started by the last client to leave a home (`python -m citegraph.store.keeper HOME LINGER`).
It checks the home's clients every second; once none has been registered for LINGER seconds,
it compacts the append-only tail (when that pays) and stops the server, then exits. It also
exits when the server is gone or another keeper replaced it. Nothing in it is needed for
correctness: a keeper killed leaves the server running until the next last client leaves.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from .embedded import EmbeddedServer, ServerInfo
from .processes import locked, pid_alive, process_start


def _still_me(path: Path) -> bool:
    try:
        raw = json.loads(path.read_text())
        return int(raw["pid"]) == os.getpid() and raw.get("start") == process_start(os.getpid())
    except (OSError, ValueError, KeyError, TypeError):
        return False


def keep(home: Path, linger_s: float, given: ServerInfo | None = None) -> str:
    """Watch `home`'s server until it is stopped or gone; say what ended the watch. `given`:
    the server as the starting process saw it (the home may be deleted before this starts)."""
    server = EmbeddedServer(home, linger_s=linger_s)
    record = server.run_dir / "keeper.json"
    watched = server._read_info() or given
    if watched is None:
        return "no server to watch"
    idle_since = time.monotonic()
    while True:
        time.sleep(min(1.0, max(0.05, linger_s / 4)))
        if not server.run_dir.is_dir() or not server.data_dir.is_dir():
            # The home was deleted under its server: nothing can use it again.
            if pid_alive(watched.pid, watched.start):
                server._stop(watched, unlink_link=False)  # no lock: the link is not ours
            return f"the home was removed; stopped its server (pid {watched.pid})"
        with locked(server.run_dir / "lock"):
            current = server._read_info()
            if current is not None and current != watched and pid_alive(watched.pid, watched.start):
                # The home was removed and made again between two looks (`rm -rf` and a
                # command at once): another server runs on the new data; this one serves
                # data that is gone, and nobody can reach it.
                server._stop(watched, unlink_link=False)
                return f"the home was made anew; stopped its old server (pid {watched.pid})"
            if not _still_me(record):
                return "replaced by another keeper"
            info = current or watched  # a lost record does not orphan the server
            if not pid_alive(info.pid, info.start):
                record.unlink(missing_ok=True)
                return "the server is gone"
            if server._live_clients():
                idle_since = time.monotonic()
                continue
            if time.monotonic() - idle_since < linger_s:
                continue
        # Idle for the whole linger time. Compacting may take a while: not under the lock.
        server._compact_at_close(info, any_tail=True)
        with locked(server.run_dir / "lock"):
            if server._live_clients():
                idle_since = time.monotonic()
                continue
            if (server._read_info() or watched) == info:
                server._stop(info)
                (server.run_dir / "server.json").unlink(missing_ok=True)
            record.unlink(missing_ok=True)
            return f"stopped the idle server (pid {info.pid}) after {linger_s:g}s"


def main(argv: list[str]) -> int:
    home, linger_s = Path(argv[0]), float(argv[1])
    given = None
    if len(argv) > 2:
        raw = json.loads(argv[2])
        given = ServerInfo(int(raw["pid"]), raw.get("start"), str(raw["socket"]))
    said = keep(home, linger_s, given)
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    print(f"{stamp} keeper {os.getpid()}: {said}", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
