"""Follow-up questions: rewriting a question that leans on the conversation so it stands alone.

The newest MAX_TURNS turns are used, each earlier answer cut to MAX_ANSWER_CHARS. With a chat
model, one more call asks for the rewrite as `{"question": ...}`; offline, pronouns are
replaced by the most recent fitting name in the history. Traced as the OpenTelemetry span
`citegraph.rewrite` with the number of turns used and the outcome, never the text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from opentelemetry import trace

from ..extract.offline import OfflineExtractor
from ..models.chat import ChatModel, ChatReply, Message
from ..values.answers import Rewrite, RewriteOutcome, Turn

MAX_TURNS = 6
MAX_ANSWER_CHARS = 1000
_tracer = trace.get_tracer("citegraph")

PERSONAL = {"he": "", "she": "", "his": "'s", "her": "'s", "him": ""}
IMPERSONAL = {"it": "", "they": "", "them": "", "its": "'s", "their": "'s"}
_PRONOUN = re.compile(r"\b(" + "|".join([*PERSONAL, *IMPERSONAL]) + r")\b", re.IGNORECASE)


def recent(history: Sequence[Turn]) -> tuple[list[Turn], int]:
    kept = list(history)[-MAX_TURNS:]
    return [Turn(t.question, t.answer[:MAX_ANSWER_CHARS]) for t in kept], len(history) - len(kept)


def _offline(question: str, turns: list[Turn]) -> str:
    """Replace pronouns with the most recent fitting name: a name of two or more words for
    he/she/his/her/him (people are usually named so), any name for it/they/its/their."""
    extractor = OfflineExtractor()
    people: list[str] = []
    things: list[str] = []
    for turn in turns:
        for text in (turn.question, turn.answer):
            for candidate in extractor.candidates(text):
                if candidate.type == "name" and len(candidate.name.split()) >= 2:
                    people.append(candidate.name)
                things.append(candidate.name)

    def replace(match: re.Match[str]) -> str:
        word = match.group(1).lower()
        pool, suffix = (people, PERSONAL[word]) if word in PERSONAL else (things, IMPERSONAL[word])
        return pool[-1] + suffix if pool else match.group(0)

    return _PRONOUN.sub(replace, question)


def rewrite(
    question: str, history: Sequence[Turn], model: ChatModel | None
) -> tuple[Rewrite, ChatReply | None]:
    turns, dropped = recent(history)
    with _tracer.start_as_current_span("citegraph.rewrite") as span:
        reply: ChatReply | None = None
        if not turns:
            result = Rewrite(question, question, RewriteOutcome.UNCHANGED, 0, dropped)
        elif model is None:
            new = _offline(question, turns)
            outcome = RewriteOutcome.UNCHANGED if new == question else RewriteOutcome.REWRITTEN
            result = Rewrite(question, new, outcome, len(turns), dropped)
        else:
            reply = model.complete(_messages(question, turns))
            result = _read(question, reply.text, len(turns), dropped)
        span.set_attribute("citegraph.turns_used", result.turns_used)
        span.set_attribute("citegraph.turns_dropped", result.turns_dropped)
        span.set_attribute("citegraph.outcome", result.outcome.value)
    return result, reply


def _messages(question: str, turns: list[Turn]) -> list[Message]:
    conversation = "\n".join(f"Q: {t.question}\nA: {t.answer}" for t in turns)
    return [
        Message(
            "system",
            "Rewrite the last question so that it stands alone, naming what its pronouns "
            'refer to. Reply with JSON only: {"question": "..."}',
        ),
        Message("user", f"Conversation so far:\n{conversation}\n\nLast question: {question}"),
    ]


def _read(question: str, text: str, used: int, dropped: int) -> Rewrite:
    body = text.strip()
    fenced = re.match(r"\A```[a-zA-Z]*\n(.*)\n```\Z", body, re.S)
    if fenced:
        body = fenced.group(1).strip()
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    new = data.get("question") if isinstance(data, dict) else None
    if not isinstance(new, str) or not new.strip():
        return Rewrite(question, question, RewriteOutcome.UNREADABLE, used, dropped)
    new = new.strip()
    outcome = RewriteOutcome.UNCHANGED if new == question else RewriteOutcome.REWRITTEN
    return Rewrite(question, new, outcome, used, dropped)
