"""The embedded server's unix sockets: the home's path clients connect to, and each server's
own socket behind it.

Every server started for a home listens on a socket of its own (`falkordb.sock.<8 hex>`),
and the home's path (`run/falkordb.sock`) is a link to the running one's. A server that exits
removes its own socket (redis-server does so by path): when all servers of a home shared one
path, an old server stopped a moment after a new one had started on a home made anew
(`rm -rf` and a command at once) removed the new one's socket, and its keeper's SHUTDOWN
could reach the new server.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import socket
import tempfile
import uuid
from pathlib import Path

# sun_path is 108 bytes on Linux, including the terminating NUL.
_MAX_SOCKET_PATH = 100
# A server's own socket is the home's path with this many characters more (".<8 hex>").
_OWN_SUFFIX_CHARS = 9
NO_REPLY = "(no reply)"


def home_socket_path(home: Path) -> str:
    """The path clients of `home` connect to: `run/falkordb.sock`, or, where that (with a
    server's suffix) is too long for a unix socket, one in a private temporary directory
    named after the home."""
    path = str(home / "run" / "falkordb.sock")
    if len(path.encode()) + _OWN_SUFFIX_CHARS <= _MAX_SOCKET_PATH:
        return path
    digest = hashlib.sha256(str(home).encode()).hexdigest()[:16]
    short = Path(tempfile.gettempdir()) / f"citegraph-{os.getuid()}"
    short.mkdir(mode=0o700, exist_ok=True)
    return str(short / f"{digest}.sock")


def own_socket_path(home_path: str) -> str:
    """A new server's own socket, beside the home's path."""
    return f"{home_path}.{uuid.uuid4().hex[: _OWN_SUFFIX_CHARS - 1]}"


def remove_own_sockets(home_path: str) -> None:
    """Remove the sockets (and half-made links) of the home's servers: called while none
    runs, they are leftovers of killed ones."""
    link = Path(home_path)
    for leftover in link.parent.glob(link.name + ".*"):
        leftover.unlink(missing_ok=True)


def link(home_path: str, own: str) -> None:
    """Point the home's path at the server socket `own` (atomically), unless it is that
    socket itself or not beside it (a server started before servers had sockets of their
    own: clients then connect to its socket directly, see `connect_path`)."""
    if own == home_path or Path(own).parent != Path(home_path).parent:
        return
    path, target = Path(home_path), Path(own).name
    with contextlib.suppress(OSError):
        if os.readlink(path) == target:
            return
    temporary = path.with_name(f"{path.name}.link-{os.getpid()}")
    temporary.unlink(missing_ok=True)
    os.symlink(target, temporary)
    temporary.replace(path)


def unlink_link(home_path: str, own: str) -> None:
    """Remove the home's path if it links to `own` (a stopped server's socket)."""
    path = Path(home_path)
    with contextlib.suppress(OSError):
        if os.readlink(path) == Path(own).name:
            path.unlink()


def connect_path(home_path: str, own: str) -> str:
    """Where clients connect: the home's path (a link that follows restarts), or the
    server's own socket where it is not beside the home's path."""
    return home_path if Path(own).parent == Path(home_path).parent else own


def ping(sock: str, timeout: float = 2.0) -> str:
    """Send PING over the unix socket; return the raw first reply line ('' if unreachable,
    NO_REPLY if it took the connection and said nothing)."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(timeout)
            conn.connect(sock)
            conn.sendall(b"PING\r\n")
            try:
                return conn.recv(256).split(b"\r\n", 1)[0].decode("utf-8", "replace")
            except TimeoutError:
                return NO_REPLY
    except OSError:
        return ""


def shutdown(sock: str) -> bool:
    """Ask the server on `sock` to shut down (it fsyncs first); returns once it closed the
    connection (True), or at once if nothing could be asked there (False)."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(30)
            conn.connect(sock)
            conn.sendall(b"SHUTDOWN\r\n")
            with contextlib.suppress(OSError):
                conn.recv(256)  # returns when the server closes the connection
            return True
    except OSError:
        return False
