"""Chat models: the seam answers are written through.

`ChatModel` is a small protocol; `ScriptedChat` (replies from a list or a function) ships in the
library so tests and demos never need a network. An OpenAI-compatible client comes next.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Message:
    role: str  # "system", "user" or "assistant"
    content: str


@dataclass(frozen=True)
class ChatReply:
    text: str
    input_tokens: int | None = None
    output_tokens: int | None = None


class ChatModel(Protocol):
    name: str

    def complete(self, messages: Sequence[Message]) -> ChatReply: ...


class ScriptedChat:
    """Replies from a list (in order) or from a function of the messages; counts its calls."""

    def __init__(
        self,
        replies: Sequence[str] | Callable[[Sequence[Message]], str],
        name: str = "scripted",
    ):
        self.name = name
        self._replies = replies
        self.calls: list[list[Message]] = []

    def complete(self, messages: Sequence[Message]) -> ChatReply:
        self.calls.append(list(messages))
        if callable(self._replies):
            return ChatReply(self._replies(messages))
        if len(self.calls) > len(self._replies):
            raise RuntimeError(
                f"the script has {len(self._replies)} replies; call {len(self.calls)}"
            )
        return ChatReply(self._replies[len(self.calls) - 1])
