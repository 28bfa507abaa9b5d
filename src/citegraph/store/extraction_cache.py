"""Model replies to extraction prompts, kept in the scope's graph: re-extracting unchanged
chunk bytes with the same prompt, model and parameters makes no call."""

from __future__ import annotations

from datetime import UTC, datetime

from ..models.chat import ChatReply
from .graph import GraphHandle
from .queries.extraction import COUNT_REPLIES, GET_REPLIES, PUT_REPLY


class GraphExtractionCache:
    def __init__(self, graph: GraphHandle):
        self.graph = graph

    def get_many(self, keys: list[str]) -> dict[str, ChatReply]:
        if not keys:
            return {}
        rows = self.graph.ro_query(GET_REPLIES, {"keys": keys})
        return {str(k): ChatReply(str(text), i, o) for k, text, i, o in rows}

    def put(self, key: str, reply: ChatReply, model: str) -> None:
        self.graph.query(
            PUT_REPLY,
            {
                "key": key,
                "text": reply.text,
                "input_tokens": reply.input_tokens,
                "output_tokens": reply.output_tokens,
                "model": model,
                "stored_at": datetime.now(UTC).isoformat(timespec="seconds"),
            },
        )

    def size(self) -> int:
        return int(self.graph.ro_query(COUNT_REPLIES)[0][0])
