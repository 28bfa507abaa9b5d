"""The tests' network guard (tests/network_guard.py) holds: outside loopback, a connection or a
name lookup fails at once; loopback and unix sockets work."""

from __future__ import annotations

import socket
import time

import httpx
import pytest

from citegraph.models.openai_chat import OpenAIChat
from citegraph.testing import OpenAIStubServer

from network_guard import NetworkBlocked


@pytest.mark.parametrize("address", [("192.0.2.1", 80), ("8.8.8.8", 53)])
def test_a_connection_outside_loopback_fails_at_once(address: tuple[str, int]) -> None:
    started = time.monotonic()
    with socket.socket() as sock, pytest.raises(NetworkBlocked):
        sock.connect(address)
    assert time.monotonic() - started < 1


def test_a_name_lookup_fails_and_so_does_a_real_model_endpoint() -> None:
    with pytest.raises(NetworkBlocked):
        socket.getaddrinfo("api.openai.com", 443)
    with pytest.raises(httpx.ConnectError):  # the client wraps it; it never leaves the machine
        httpx.get("https://api.openai.com/v1/models", timeout=2)
    from citegraph import ChatModelError, Message

    with pytest.raises(ChatModelError):
        OpenAIChat("gpt-4o", max_retries=0).complete([Message("user", "hello")])


def test_loopback_works() -> None:
    with OpenAIStubServer(lambda messages: "pong") as stub:
        reply = OpenAIChat("stub", base_url=stub.url).complete([])
    assert reply.text == "pong"
