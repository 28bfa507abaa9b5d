"""Building the served app: in the `citegraph serve` process, or in each of its workers."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from dataclasses import replace

from fastapi import FastAPI
from uvicorn.protocols.http.h11_impl import H11Protocol

from ...config import Settings, load_settings
from ...service.tokens import TokenFile
from ...workspace import Workspace
from .app import create_app


def serving(settings: Settings) -> Settings:
    """A request that times out keeps its worker thread until the store answers: the store's
    query timeout is capped at the request timeout, so such threads cannot pile up behind a
    hung store."""
    return replace(
        settings, query_timeout_s=min(settings.query_timeout_s, settings.request_timeout_s)
    )


def from_environment() -> FastAPI:
    """The app for one worker process, configured by CITEGRAPH_* (set by `citegraph serve`);
    it opens a workspace of its own and closes it when the worker stops."""
    settings = serving(load_settings())
    workspace = Workspace(settings)
    return create_app(workspace, TokenFile(settings.tokens_path), close_at_shutdown=True)


class NoDelayH11(H11Protocol):
    """HTTP/1.1 with Nagle's algorithm off on every connection. Workers get their listening
    socket from the parent process, and asyncio then leaves Nagle on for the connections (it
    looks for the TCP protocol number, which the handed-over socket does not report): each
    response then waited about 40 ms for the client's delayed ACK."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)
