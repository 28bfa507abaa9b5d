"""What the model is asked, and how its reply is read.

The model gets fixed instructions, the schema, and the question; it replies with one Cypher
query (bare, or in one code fence) or with `DECLINE: why`. A repair round sends back the
store's error for the query it wrote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..models.chat import Message

PROMPT_VERSION = "graphq-2"

INSTRUCTIONS = """You write one read-only Cypher query (FalkorDB dialect) that answers a \
question about a knowledge graph built from documents.
Rules:
- Reply with the query only, or with one ```cypher code block holding it.
- Read only: MATCH, OPTIONAL MATCH, WITH, UNWIND, WHERE, RETURN, ORDER BY, SKIP, LIMIT.
- Use only the labels, relationship types and properties listed in the schema, spelt exactly.
- Write values into the query as literals; there are no parameters.
- Return whole nodes and relationships (for example RETURN c, r) when the answer is about \
passages, mentions or relations, so that the answer can cite them.
- Relations between entities are [:RELATES] edges; their kind is the edge's `type` property.
- Two entities named in one sentence have [:MENTIONED_IN] edges into one Chunk with the same \
`s_start` (no edge joins them).
- If the graph cannot answer the question, reply DECLINE: followed by the reason."""

_FENCE = re.compile(r"```[A-Za-z]*[ \t]*\n?(.*?)```", re.DOTALL)
_DECLINE = re.compile(r"^\s*DECLINE\s*:?\s*(.*)$", re.DOTALL | re.IGNORECASE)
# The first word of anything that could be meant as Cypher: read or not, the gate decides.
_CYPHER_WORDS = frozenset(
    "MATCH OPTIONAL WITH UNWIND RETURN CALL CREATE MERGE SET DELETE DETACH REMOVE DROP "
    "FOREACH LOAD USE PROFILE EXPLAIN SHOW UNION GRANT REVOKE DENY ALTER".split()
)


def messages(question: str, schema: str) -> list[Message]:
    return [
        Message("system", INSTRUCTIONS),
        Message("user", f"Schema:\n{schema}\n\nQuestion: {question}"),
    ]


def repair(earlier: list[Message], reply: str, error: str) -> list[Message]:
    return [
        *earlier,
        Message("assistant", reply),
        Message(
            "user",
            f"The store refused that query:\n{error}\nWrite a corrected query (a different one), "
            "or DECLINE: with the reason.",
        ),
    ]


@dataclass(frozen=True)
class Reply:
    query: str | None = None
    declined: str | None = None
    unreadable: str | None = None


def read_reply(text: str) -> Reply:
    decline = _DECLINE.match(text)
    if decline:
        return Reply(declined=decline.group(1).strip() or "no reason given")
    fences = _FENCE.findall(text)
    if len(fences) > 1:
        return Reply(unreadable="more than one code block")
    if fences:
        outside = _FENCE.sub("", text).strip()
        if outside:
            return Reply(unreadable="text around the code block")
        query = fences[0].strip()
    else:
        query = text.strip()
    if not query:
        return Reply(unreadable="an empty reply")
    first = re.split(r"[^A-Za-z]", query.split(None, 1)[0], maxsplit=1)[0].upper()
    prose = first.isascii() and first.isalpha() and first not in _CYPHER_WORDS
    if prose and query.split(None, 1)[0].isascii():
        return Reply(unreadable=f"the reply does not start with a Cypher clause ({first[:20]!r})")
    return Reply(query=query)
