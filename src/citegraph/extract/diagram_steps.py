"""What a flowchart's node label says it is: a component ("Trace Storage", "OTel Collector",
"`fake.Clientset`"), or a step or a state of a process ("Get next page", "1. Resource
Annotations", "external-dns computes plan", "DNS records updated", "services from Cluster
A"): a flowchart of a process draws no components, and its arrows relate none."""

from __future__ import annotations

import re

from .prose_names import COMPONENT_WORDS, RUNNING_THINGS, SAME_THING
from .verbs import INSTRUCTIONS

# Verbs that open a step ("Get next page", "Return cached zones"), besides the instructions
# to a reader (verbs.py).
_STEP_VERBS = INSTRUCTIONS | frozenset(
    "get return initialize init match compute fetch send write call parse validate wait "
    "retry fail exit skip poll process handle emit publish store load save list watch filter "
    "reject accept generate sign iterate loop resolve lookup look query compare merge split "
    "sort scan collect push pull append register notify mark reload restart resync trigger "
    "become elect acquire release renew".split()
)
_OPENERS = frozenset("if when while for each until unless else".split())
_COMPONENTS = (
    frozenset(COMPONENT_WORDS)
    | SAME_THING
    | RUNNING_THINGS
    | frozenset("balancer manager agent proxy scheduler engine bus registry".split())
)
# Words inside a label that make it a phrase about something, not a name: a preposition, a
# verb in -ing or -ed ("Service running with updated receivers", "DNS records updated").
_PREPOSITIONS = frozenset(
    "from with for of to in on into under over via by through without between per".split()
)
_WORD = re.compile(r"[A-Za-z][\w'’-]*")
# Font Awesome's icons in a label ("fa:fa-server Replica 1"): no words of it.
ICON = re.compile(r"\bfab?:fa-[\w-]+\s*")
_NUMBERED = re.compile(r"\s*\d+[.)]\s")


def a_step(label: str) -> bool:
    """Whether a flowchart node's `label` (its shown line) is a step, a decision or a state
    of a process rather than a component: a question; a verb opening it, or "If", "For
    each"; a step's number ("1. Resource Annotations"); a preposition, or a word in -ing or
    -ed, after its first word in lower case; or a record's box, its fields under a rule."""
    text = ICON.sub("", label).strip(" \t`*_\"'")
    if text.endswith("?") or _NUMBERED.match(text) or "<hr" in text.lower():
        return True  # (a box ruled into a name and its fields, "<b>spec</b><hr>...": a record)
    words = _WORD.findall(text)
    if not words:
        return False
    first = words[0].lower()
    if first in _OPENERS:
        return True
    if first in _STEP_VERBS and len(words) > 1:
        # "Get next page", "Start Leader Election"; not "Query Frontend", "load balancer"
        # (a word for a component closing it)
        return words[-1].lower() not in _COMPONENTS
    return any(
        w in _PREPOSITIONS
        or (w.islower() and len(w) > 4 and w.endswith(("ing", "ed")))
        or (index + 1 < len(words) and _a_finite_verb(w))  # "kubelet restarts pod"
        for index, w in enumerate(words)
        if index > 0
    )


def _a_finite_verb(word: str) -> bool:
    """A step's verb in the third person ("restarts", "fixes", "Becomes")."""
    lowered = word.lower()
    return lowered.endswith("s") and (
        lowered[:-1] in _STEP_VERBS or (lowered.endswith("es") and lowered[:-2] in _STEP_VERBS)
    )
