"""Whether a verb in its base form ("call", "use") is said of the name before it: after a
modal or an auxiliary, or of a plural or a list, it is; right after one singular name it is
a noun or an imperative ("the Jaeger query API", "in `docker` use Ctrl+C")."""

from __future__ import annotations

import re

from .coordination import WORD, listed_with
from .prose_names import Name
from .subjects import DETERMINERS

# What may stand between a subject and a verb in its base form ("the frontend can call",
# "X does not use", "X is used to call"): a modal or an auxiliary, "to", a negation.
_BEFORE_A_BASE_FORM = frozenset({
    "can", "could", "may", "might", "must", "shall", "should", "will", "would", "do", "does",
    "did", "to", "not", "never", "cannot", "also", "always", "only", "often", "usually",
    "typically", "generally", "then", "first",
})  # fmt: skip


# Verbs whose object does what a base form after it says ("let the frontend call").
_CAUSATIVES = frozenset({
    "have", "has", "had", "having", "let", "lets", "letting", "make", "makes", "made",
    "making", "help", "helps", "helped", "helping",
})  # fmt: skip
# The verbs of the table in their base form (not "read", also a past; not "made").
_BASE_FORMS = frozenset({
    "call", "invoke", "talk", "connect", "query", "depend", "rely", "require", "need", "use",
    "make", "leverage", "forward", "route", "proxy", "delegate", "request", "fetch", "load",
    "retrieve", "pull", "consume", "subscribe", "write", "store", "save", "persist", "insert",
    "update", "cache", "send", "publish", "emit", "push", "enqueue", "post", "produce",
    "notify",
})  # fmt: skip


# "a" or "an" (and a word, a link's bracket) before a name: what follows the name is the
# head of that noun phrase ("a weekly Office Hours call"), not its verb.
_INDEFINITE_BEFORE = re.compile(r"(?<![\w-])an?\s+(?:[\w-]+\s+)?\[?`?\Z", re.I)


def agrees(text: str, names: list[Name], subject: Name, verb_start: int) -> bool:
    """Whether the verb at `verb_start` can be said of `subject`: a verb in its base form
    ("call", "use", "query") is, after a modal or an auxiliary, for a name in the plural or a
    list of names; right after one singular name it is no verb ("the Jaeger query API": a
    noun; "in `docker` use Ctrl+C": an imperative)."""
    verb = WORD.findall(text[verb_start : verb_start + 40].lower())[:1]
    if not verb or verb[0] not in _BASE_FORMS or subject.end > verb_start:
        return True
    between = WORD.findall(text[subject.end : verb_start].lower())
    if between[-3:] == ["as", "well", "as"]:
        return False  # "know how to run a Kubernetes cluster as well as use kubectl"
    if any(w in _BEFORE_A_BASE_FORM or w.endswith(("n't", "n’t")) for w in between):
        return True
    if not between and _INDEFINITE_BEFORE.search(text, max(0, subject.start - 30), subject.start):
        return False  # "holds a weekly [Office Hours call]": a noun after a name, no verb
    last = subject.text.lower().split()[-1] if subject.text.split() else ""
    plural = last.endswith("s") and not last.endswith(("ss", "us"))
    before = [w for w in WORD.findall(text[max(0, subject.start - 40) : subject.start].lower())
              if w not in DETERMINERS][-1:]  # fmt: skip
    if before and before[0] in _CAUSATIVES:
        return True  # "having the cart service call the payment service"
    return plural or bool(listed_with(text, names, subject, verb_start))
