"""Follow-up questions: rewriting a question that leans on the conversation so it stands alone.

The newest MAX_TURNS turns are used, each earlier answer cut to MAX_ANSWER_CHARS. With a chat
model, one more call asks for the rewrite as `{"question": ...}`; offline, each pronoun is
replaced by the fitting name the conversation was most recently about (never one from quoted
speech), or, when none fits, the question is asked as is with the outcome `unresolved`.
Traced as the OpenTelemetry span `citegraph.rewrite` with the number of turns used and the
outcome, never the text.
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
IMPERSONAL = {"it": "", "its": "'s"}
PLURAL = {"they": "", "them": "", "their": "'s"}
_PRONOUN = re.compile(r"\b(" + "|".join([*PERSONAL, *IMPERSONAL, *PLURAL]) + r")\b", re.IGNORECASE)
# Quoted speech: its "I" and "it" belong to the speaker, never to the conversation.
_SPEECH = re.compile(r"[“\"][^”\"]*[”\"]|‘[^’]*’(?!\w)")
_TITLES = frozenset(
    "mr mrs ms miss dr sir lady lord king queen prince princess duke duchess president "
    "professor prof captain general saint st pope emperor empress".split()
)
# A last word that names a thing, not a person ("Harvard University", "Cart Service").
_THING_WORDS = frozenset(
    "university college school service services company corporation inc ltd bank river city "
    "state country island mountain lake sea ocean street road church cathedral museum "
    "library hospital airport station war battle treaty act law system project team group "
    "party army navy cat dog rabbit bird turtle mouse".split()
)


def recent(history: Sequence[Turn]) -> tuple[list[Turn], int]:
    kept = list(history)[-MAX_TURNS:]
    return [Turn(t.question, t.answer[:MAX_ANSWER_CHARS]) for t in kept], len(history) - len(kept)


def _names(text: str) -> list[str]:
    """Names of `text` outside quoted speech, in order, without contractions ("It’s")."""
    outside = _SPEECH.sub(" ", text)
    return [
        c.name
        for c in OfflineExtractor().candidates(outside)
        if c.type != "title" and "'" not in c.name and "’" not in c.name
    ]


def _is_person(name: str, texts: list[str]) -> bool:
    """A person, as far as shape tells: a title before it somewhere ("the Duchess", "Dr
    Jones"), or two or more capitalised words that do not end in a thing's word."""
    words = name.split()
    if words[0].casefold().rstrip(".") in _TITLES:
        return True
    for text in texts:
        for match in re.finditer(r"(\w+)\.?\s+" + re.escape(name) + r"\b", text):
            if match.group(1).casefold() in _TITLES:
                return True
    return len(words) >= 2 and words[-1].casefold() not in _THING_WORDS and words[0].istitle()


def _offline(question: str, turns: list[Turn]) -> tuple[str, bool]:
    """Replace each pronoun with what it most likely means; whether one was left unresolved.

    The newest turn first, and within a turn its question before its answer: a follow-up is
    about what was just asked. he/she/his/her/him take a person; it/its a name that is not
    one; they/them/their any name."""
    ranked: list[str] = []
    texts: list[str] = []
    for turn in reversed(turns):
        for text in (turn.question, turn.answer):
            texts.append(text)
            ranked.extend(n for n in _names(text) if n not in ranked)
    people = [n for n in ranked if _is_person(n, texts)]
    things = [n for n in ranked if n not in people]
    unresolved = False

    def replace(match: re.Match[str]) -> str:
        nonlocal unresolved
        word = match.group(1).lower()
        if word in PERSONAL:
            pool, suffix = people, PERSONAL[word]
        elif word in IMPERSONAL:
            pool, suffix = things, IMPERSONAL[word]
        else:
            pool, suffix = ranked, PLURAL[word]
        if not pool:
            unresolved = True
            return match.group(0)
        return pool[0] + suffix

    return _PRONOUN.sub(replace, question), unresolved


def rewrite(
    question: str, history: Sequence[Turn], model: ChatModel | None
) -> tuple[Rewrite, ChatReply | None]:
    turns, dropped = recent(history)
    with _tracer.start_as_current_span("citegraph.rewrite") as span:
        reply: ChatReply | None = None
        if not turns:
            result = Rewrite(question, question, RewriteOutcome.UNCHANGED, 0, dropped)
        elif model is None:
            new, unresolved = _offline(question, turns)
            if unresolved:
                # Unsure what a pronoun means: asked as is, and said so.
                new, outcome = question, RewriteOutcome.UNRESOLVED
            elif new == question:
                outcome = RewriteOutcome.UNCHANGED
            else:
                outcome = RewriteOutcome.REWRITTEN
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
