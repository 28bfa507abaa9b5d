"""Shipped for tests, yours and ours: a local OpenAI-compatible chat server over real HTTP.
(The scripted and replayed chat models are in `citegraph.models`.) Nothing here reaches the
network: the server listens on loopback only."""

from .stub_server import Exchange, OpenAIStubServer

__all__ = ["Exchange", "OpenAIStubServer"]
