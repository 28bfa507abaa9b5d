"""`ask`: evidence, then an answer written by a model or the extractive answerer, then proof."""

from __future__ import annotations

import time
from dataclasses import replace

from ..models.chat import ChatModel, ChatReply, Message
from ..values.answers import Answer, Disposition, Receipt, RefusalReason, Rewrite
from ..values.evidence import Evidence
from . import steps
from .extractive import ExtractiveAnswerer
from .steps import OnStep
from .verify import Refusal, verify

SYSTEM = """You answer questions only from the evidence items given, and you prove every claim.
Reply with JSON only, one of:
{"answer": "...", "claims": [{"text": "...", "citations": [{"evidence": "E1", "quote": "..."}]}]}
{"declined": "why the evidence does not answer the question"}
Rules: every claim cites at least one evidence item by its id (E1, E2, ...), never a context
passage (C1, ...); each quote is copied exactly from the item it names; if the evidence does not
answer the question, decline."""


def prompt(question: str, evidence: Evidence) -> list[Message]:
    lines = []
    for item in evidence.items:
        lines.append(f"[{item.id}] (from {item.document_name})\n{item.text}")
    for passage in evidence.context:
        lines.append(f"[{passage.id}] context only, never cite\n{passage.text}")
    body = "\n\n".join(lines)
    return [
        Message("system", SYSTEM),
        Message("user", f"Evidence:\n\n{body}\n\nQuestion: {question}"),
    ]


def answer_from(
    question: str,
    evidence: Evidence,
    model: ChatModel | None,
    retrieval_ms: float,
    rewrite: Rewrite | None = None,
    rewrite_reply: ChatReply | None = None,
    on_step: OnStep = steps.ignore,
) -> Answer:
    answer = _answer(question, evidence, model, retrieval_ms, on_step)
    on_step("verification", steps.verification(answer))
    if rewrite is None:
        return answer
    receipt = answer.receipt
    if rewrite_reply is not None:
        receipt = replace(
            receipt,
            chat_calls=receipt.chat_calls + 1,
            input_tokens=_add(receipt.input_tokens, rewrite_reply.input_tokens),
            output_tokens=_add(receipt.output_tokens, rewrite_reply.output_tokens),
        )
    return replace(answer, question=rewrite.original, rewrite=rewrite, receipt=receipt)


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None and b is None else (a or 0) + (b or 0)


def _answer(
    question: str,
    evidence: Evidence,
    model: ChatModel | None,
    retrieval_ms: float,
    on_step: OnStep,
) -> Answer:
    started = time.perf_counter()
    if not evidence.items:
        on_step("model", "not asked: nothing to cite")
        return Answer(
            question, Disposition.REFUSED, evidence,
            Receipt(model.name if model else ExtractiveAnswerer.name, retrieval_ms=retrieval_ms),
            reason=RefusalReason.NO_EVIDENCE,
            detail=f"nothing to cite ({evidence.verdict.state.value})",
        )  # fmt: skip
    calls = 0
    tokens_in: int | None = None
    tokens_out: int | None = None
    if model is None:
        answerer = ExtractiveAnswerer.name
        on_step("model", "none: the offline extractive answerer quotes the evidence")
        reply = ExtractiveAnswerer().reply(question, evidence)
    else:
        answerer = model.name
        on_step("model", f"asking {model.name} (one call)")
        chat = model.complete(prompt(question, evidence))
        calls, reply = 1, chat.text
        tokens_in, tokens_out = chat.input_tokens, chat.output_tokens
    outcome = verify(reply, evidence)
    receipt = Receipt(
        answerer=answerer, chat_calls=calls, input_tokens=tokens_in, output_tokens=tokens_out,
        retrieval_ms=round(retrieval_ms, 2),
        answer_ms=round((time.perf_counter() - started) * 1000, 2),
    )  # fmt: skip
    if isinstance(outcome, Refusal):
        return Answer(
            question, Disposition.REFUSED, evidence, receipt,
            reason=outcome.reason, detail=outcome.detail, problems=outcome.problems,
        )  # fmt: skip
    return Answer(
        question, Disposition.ANSWERED, evidence, receipt,
        text=outcome.text, claims=outcome.claims,
    )  # fmt: skip
