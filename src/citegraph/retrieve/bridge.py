"""Bridges: the second passage a question needs, reached through what the first one names.

"What stadium does the team who has Kent Baer as the defensive coordinator play its home
games?": the question names Kent Baer; his passage names his team; the team's own passage says
the stadium. After ranking, the names mentioned in the BRIDGE_FROM best passages that are the
title of exactly one document (that thing's own passage) bring that document's first passage in,
right after them, at most MAX_BRIDGES of them. Such items say `bridge` among the retrievers
that found them.
"""

from __future__ import annotations

from ..store.graph import GraphHandle
from ..store.queries.retrieval import BRIDGE_CHUNKS

BRIDGE_FROM = 2
MAX_BRIDGES = 2


def bridged(graph: GraphHandle, top: list[str]) -> list[str]:
    """Chunk ids that the passages `top` lead to (outside their documents), best first."""
    if not top:
        return []
    rows = graph.ro_query(BRIDGE_CHUNKS, {"chunks": top, "limit": 4 * MAX_BRIDGES})
    order = {chunk: index for index, chunk in enumerate(top)}
    found = sorted(rows, key=lambda row: (order.get(row[0], len(top)), row[1], row[2]))
    return list(dict.fromkeys(row[2] for row in found))[:MAX_BRIDGES]
