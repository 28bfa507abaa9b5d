"""A graph question end to end: schema, the model's query, the gate, the store's plan, the
read-only run with a timeout, rows cut to their bounds, citations.

At most two chat calls: the query, and one repair when the store's EXPLAIN refuses it (the
store's error is given back; the same query twice is refused). Every refusal is a value with
its reason, never an exception; a store that is down or a chat model that fails is an error.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..errors import StoreError, StoreUnavailable
from ..models.chat import ChatModel, Message
from ..store.graph import GraphHandle
from ..values.answers import Disposition, Receipt
from ..values.graphq import GraphAnswer, GraphRefusal, GraphSchema
from . import prompt
from .citing import cite_rows
from .gate import Allowed, Bounds, NotAllowed, check
from .rows import RowShaper
from .schema import describe

DEFAULT_TIMEOUT_MS = 2_000
# Operations of a plan that write or read files: refused however the query spelt them.
_WRITING_PLAN_STEPS = ("Create", "Merge", "MergeCreate", "Update", "Delete", "Foreach", "Load CSV")


@dataclass
class _Spent:
    calls: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None
    model_ms: float = 0.0
    written: list[str] = field(default_factory=list)

    def ask(self, chat: ChatModel, messages: list[Message]) -> str:
        started = time.perf_counter()
        reply = chat.complete(messages)
        self.model_ms += (time.perf_counter() - started) * 1000
        self.calls += 1
        if reply.input_tokens is not None:
            self.input_tokens = (self.input_tokens or 0) + reply.input_tokens
        if reply.output_tokens is not None:
            self.output_tokens = (self.output_tokens or 0) + reply.output_tokens
        return reply.text


class _Refused(Exception):
    def __init__(self, reason: GraphRefusal, detail: str, cypher: str | None = None):
        super().__init__(detail)
        self.reason, self.detail, self.cypher = reason, detail, cypher


def ask_graph(
    question: str,
    graph: GraphHandle,
    schema: GraphSchema,
    chat: ChatModel,
    bounds: Bounds | None = None,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    warnings: tuple[str, ...] = (),
) -> GraphAnswer:
    bounds = bounds or Bounds()
    spent = _Spent()
    started = time.perf_counter()
    try:
        allowed = _write_query(question, graph, schema, chat, bounds, spent)
        query_started = time.perf_counter()
        columns, rows = _run(graph, allowed.cypher, timeout_ms)
        shaper = RowShaper()
        # The limit pushed in lets one row more through, to tell that rows were cut.
        shaped = shaper.rows(rows, bounds.max_rows)
        citations = cite_rows(graph, rows[: bounds.max_rows])
        query_ms = (time.perf_counter() - query_started) * 1000
    except _Refused as refused:
        return GraphAnswer(
            question, Disposition.REFUSED, _receipt(chat, spent, started, 0.0),
            cypher=refused.cypher, written=tuple(spent.written), reason=refused.reason,
            detail=refused.detail, warnings=warnings,
        )  # fmt: skip
    cited_rows = {c.row for c in citations}
    return GraphAnswer(
        question, Disposition.ANSWERED, _receipt(chat, spent, started, query_ms),
        cypher=allowed.cypher, written=tuple(spent.written), columns=tuple(columns),
        rows=shaped, citations=tuple(citations),
        uncited_rows=tuple(i for i in range(len(shaped)) if i not in cited_rows),
        limits_reached=tuple(sorted(shaper.limits)), warnings=warnings,
    )  # fmt: skip


def _receipt(chat: ChatModel, spent: _Spent, started: float, query_ms: float) -> Receipt:
    total_ms = (time.perf_counter() - started) * 1000
    return Receipt(
        answerer=chat.name, chat_calls=spent.calls, input_tokens=spent.input_tokens,
        output_tokens=spent.output_tokens, retrieval_ms=round(query_ms, 2),
        answer_ms=round(total_ms - query_ms, 2),
    )  # fmt: skip


def _write_query(
    question: str,
    graph: GraphHandle,
    schema: GraphSchema,
    chat: ChatModel,
    bounds: Bounds,
    spent: _Spent,
) -> Allowed:
    messages = prompt.messages(question, describe(schema))
    reply = spent.ask(chat, messages)
    first = _attempt(reply, graph, schema, bounds, spent)
    if isinstance(first, Allowed):
        return first
    # One repair round, with the store's (or the gate's) words.
    retry = spent.ask(chat, prompt.repair(messages, reply, first))
    second = _attempt(retry, graph, schema, bounds, spent)
    if spent.written[-1].strip() == spent.written[-2].strip():
        raise _Refused(
            GraphRefusal.INVALID_QUERY,
            f"the repair wrote the same query again; the first one failed: {first}",
            spent.written[-1],
        )
    if isinstance(second, Allowed):
        return second
    raise _Refused(GraphRefusal.INVALID_QUERY, second, spent.written[-1])


def _attempt(
    reply: str, graph: GraphHandle, schema: GraphSchema, bounds: Bounds, spent: _Spent
) -> Allowed | str:
    """The query allowed to run, or why the store cannot run it (worth a repair); raises for
    every other refusal."""
    read = prompt.read_reply(reply)
    if read.declined is not None:
        raise _Refused(GraphRefusal.MODEL_DECLINED, read.declined)
    if read.query is None:
        raise _Refused(GraphRefusal.UNREADABLE_RESPONSE, read.unreadable or "not a query")
    spent.written.append(read.query)
    verdict = check(read.query, schema, bounds)
    if isinstance(verdict, NotAllowed):
        if verdict.malformed:
            return verdict.why
        raise _Refused(GraphRefusal.NOT_ALLOWED, verdict.why, read.query)
    error = _plan_error(graph, verdict.cypher)
    return verdict if error is None else error


def _plan_error(graph: GraphHandle, cypher: str) -> str | None:
    """The store's objection to the query (None: it has a plan that only reads)."""
    try:
        plan = graph.explain(cypher)
    except StoreUnavailable:
        raise
    except StoreError as exc:
        return _store_words(exc)
    for line in plan:
        step = line.strip().split(" | ")[0].strip()
        if step in _WRITING_PLAN_STEPS:
            raise _Refused(GraphRefusal.NOT_ALLOWED, f"the store's plan has a {step} step", cypher)
    return None


def _run(graph: GraphHandle, cypher: str, timeout_ms: int) -> tuple[list[str], list[list[Any]]]:
    try:
        return graph.read_table(cypher, timeout_ms)
    except StoreUnavailable:
        raise
    except StoreError as exc:
        words = _store_words(exc)
        if "timed out" in words.lower():
            words = f"the query ran past its time limit ({timeout_ms:,} ms)"
        elif "mem consumption" in words.lower():
            words = f"the query needed more memory than a query may use ({words})"
        raise _Refused(GraphRefusal.QUERY_FAILED, words, cypher) from None


def _store_words(exc: StoreError) -> str:
    """What the store said (the error the StoreError was raised from), for the model's repair
    and the refusal's detail."""
    return str(exc.__cause__ or exc)
