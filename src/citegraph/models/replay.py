"""Record-and-replay: a chat model that answers recorded conversations from a cassette file.

With an inner model, a conversation not yet on the cassette is sent to it and recorded; without
one, it is an error (never an invented reply). Recorded conversations replay at zero calls.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from ..errors import ChatModelError
from .chat import ChatModel, ChatReply, Message

FORMAT = "citegraph-cassette/1"


def conversation_key(messages: Sequence[Message]) -> str:
    canonical = json.dumps([[m.role, m.content] for m in messages], ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ReplayChat:
    def __init__(self, cassette: str | Path, inner: ChatModel | None = None, name: str = ""):
        self.path = Path(cassette)
        self.inner = inner
        self.name = name or (inner.name if inner is not None else "replay")
        self.recorded: dict[str, ChatReply] = {}
        self.replayed = 0
        if self.path.exists():
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT:
                raise ChatModelError(f"{self.path}: not a {FORMAT} file")
            for entry in data["entries"]:
                self.recorded[entry["key"]] = ChatReply(
                    entry["text"], entry.get("inputTokens"), entry.get("outputTokens")
                )

    def complete(self, messages: Sequence[Message]) -> ChatReply:
        key = conversation_key(messages)
        if key in self.recorded:
            self.replayed += 1
            return self.recorded[key]
        if self.inner is None:
            raise ChatModelError(
                f"{self.path}: no recording of this conversation, and no model to record from"
            )
        reply = self.inner.complete(messages)
        self.recorded[key] = reply
        self._save()
        return reply

    def _save(self) -> None:
        entries = [
            {"key": k, "text": r.text, "inputTokens": r.input_tokens,
             "outputTokens": r.output_tokens}
            for k, r in self.recorded.items()
        ]  # fmt: skip
        temporary = self.path.with_suffix(self.path.suffix + ".tmp")
        temporary.write_text(
            json.dumps({"format": FORMAT, "entries": entries}, ensure_ascii=False, indent=2),
            encoding="utf-8",
        )
        temporary.replace(self.path)  # atomic: a crash never leaves half a cassette
