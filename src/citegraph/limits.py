"""Every limit and default of a request, defined once: the core enforces them, and the HTTP
API, the MCP tools, the CLI and the OpenAPI document read them from here. Settings that a
deployment may change (the question length, the body size) live in config.Settings, with
their defaults here."""

from __future__ import annotations

from .errors import InvalidRequest

# Retrieval: how many evidence items, and how many graph steps from the seeds.
DEFAULT_K = 8
MAX_K = 50
DEFAULT_HOPS = 2
MAX_HOPS = 3

# How many relations a listing holds unless asked for another number.
RELATIONS_LIMIT = 1000

# Graded walks (impact, paths): hops from the entity, and how many entities a result lists.
DEFAULT_WALK_HOPS = 3
MAX_WALK_HOPS = 5
MAX_WALK_ENTITIES = 200

# Questions about the graph (Text2Cypher): how long the model's query may run, how many rows
# come back (CITEGRAPH_GRAPH_QUERY_TIMEOUT_MS, CITEGRAPH_GRAPH_QUERY_MAX_ROWS).
DEFAULT_GRAPH_QUERY_TIMEOUT_MS = 2_000
DEFAULT_GRAPH_QUERY_ROWS = 50
MAX_GRAPH_QUERY_ROWS = 1_000
# What one query may use in the embedded store (FalkorDB's QUERY_MEM_CAPACITY): a model's
# query that builds a huge list fails instead of exhausting the machine.
QUERY_MEMORY_BYTES = 1024 * 1024 * 1024

# A question, and each earlier turn of a conversation (CITEGRAPH_MAX_QUESTION_CHARS).
DEFAULT_MAX_QUESTION_CHARS = 2000
# An earlier answer may be longer than a question: a few quoted sentences.
ANSWER_LIMIT_FACTOR = 4

# Scope names: also a graph's name in the store, so a closed alphabet.
SCOPE_NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_-]*"
MAX_SCOPE_NAME = 64

# What a caller may remember in one call: names and types, entities and relations, passages.
MAX_NAME = 200
MAX_ITEMS = 200

# What one answer check may ask for: its cost is linear in both (bench/check.py).
MAX_CHECK_CITATIONS = 5_000
MAX_CHECK_ITEM_BYTES = 4 * 1024 * 1024


def within_limit(field: str, text: str, limit: int) -> str:
    """`text`, or `InvalidRequest` naming the field when it is longer than `limit`."""
    if len(text) > limit:
        raise InvalidRequest(f"{field}: {len(text):,} characters; the limit is {limit:,}")
    return text


def check_history(turns: list[tuple[str, str]], limit: int) -> None:
    """Earlier turns go to the chat model with the question: each within the limits."""
    for n, (question, answer) in enumerate(turns):
        within_limit(f"history.{n}.question", question, limit)
        within_limit(f"history.{n}.answer", answer, limit * ANSWER_LIMIT_FACTOR)
