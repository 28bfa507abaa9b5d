"""Network off in tests: any connection from the test process to an address that is not
loopback (or a unix socket) fails at once with `NetworkBlocked`, as does a name lookup that is
not for loopback. Tests reach only what they start themselves: FalkorDB on a unix socket or a
loopback port, the OpenAI-compatible stub, `citegraph serve` on 127.0.0.1."""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", ""}


class NetworkBlocked(ConnectionRefusedError):
    """An OSError, so that clients report it as the connection failure it is."""


def _is_loopback(host: object) -> bool:
    if not isinstance(host, str):
        return False
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _check(family: int, address: Any) -> None:
    if family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address[0]):
        raise NetworkBlocked(f"a test tried to connect to {address!r}: tests stay on loopback")


def block_network() -> None:
    if getattr(socket.socket.connect, "_guarded", False):
        return
    connect, connect_ex, getaddrinfo = (
        socket.socket.connect,
        socket.socket.connect_ex,
        socket.getaddrinfo,
    )

    def guarded_connect(self: socket.socket, address: Any) -> None:
        _check(self.family, address)
        connect(self, address)

    def guarded_connect_ex(self: socket.socket, address: Any) -> int:
        _check(self.family, address)
        return connect_ex(self, address)

    def guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        if name is not None and not _is_loopback(name):
            raise NetworkBlocked(f"a test tried to look up {name!r}: tests stay on loopback")
        return getaddrinfo(host, *args, **kwargs)

    guarded_connect._guarded = True  # type: ignore[attr-defined]
    socket.socket.connect = guarded_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = guarded_connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = guarded_getaddrinfo
