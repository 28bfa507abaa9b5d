"""What a sequence diagram's messages ask and answer (diagrams.py reads Mermaid's and
PlantUML's), and which of its participants are people."""

from __future__ import annotations

import re

from .structural import Located, StructuralRelation


class Exchange:
    """What a sequence diagram's messages ask and answer. A message back to the sender of a
    request not yet answered is its reply, however drawn ("History->>Frontend: Respond
    Succeed" after "Frontend->>History: Respond..."): answering states no dependency. A
    message in an `alt`/`else`, `opt` or `break` block is sent in some runs only."""

    def __init__(self) -> None:
        self.open: list[tuple[str, str]] = []  # (sender, receiver) of requests, oldest first
        self.blocks: list[bool] = []  # each block open: whether it is taken in some runs only

    def block(self, line: str) -> bool:
        """Read `line` if it opens, divides or closes a block; whether it did."""
        keyword = _S_BLOCK.match(line)
        if keyword is None:
            return False
        word = keyword.group(1).lower()
        if word == "end":
            if self.blocks:
                self.blocks.pop()
        elif word not in ("else", "and", "option"):  # (another branch of the block open)
            self.blocks.append(word in _S_SOME_RUNS)
        return True

    def answers(self, sender: str, receiver: str, label: str | None) -> bool:
        """Whether a message from `sender` labelled `label` answers a request `receiver` made
        (and is then closed, with any request made since, unanswered). A message named as
        an operation ("RecordWorkflowTaskStarted", "charge(card)") is a request of its own."""
        if label is not None and _OPERATION.fullmatch(label.strip()) is not None:
            return False
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index] == (receiver, sender):
                del self.open[index:]
                return True
        return False

    def ask(self, kind: str, evidence: Located, a: Located, b: Located) -> StructuralRelation:
        self.open.append((a.text, b.text))
        if any(self.blocks):
            return StructuralRelation(kind, evidence, a, b, "hypothetical", "affirmed")
        return StructuralRelation(kind, evidence, a, b)


# A sequence diagram's blocks: `alt`/`else`, `opt` and `break` hold messages sent in some runs
# only; `loop`, `par`, `critical`, `group`, `rect` and `box` group messages or participants.
# ("end note", "end box": PlantUML's ends of a note or a box of participants, no block's.)
_S_BLOCK = re.compile(
    r"[ \t]*(alt|else|opt|break|loop|par|and|critical|option|group|rect|box|end)"
    r"(?![\w-])(?![ \t]+(?:note|box|ref|legend|header|footer|title)\b)(?![ \t]*[-<=.])"
    r"(?:[ \t]|$)",
    re.I,
)
_S_SOME_RUNS = frozenset({"alt", "opt", "break"})
# A message named as an operation: one identifier opening with a verb ("RecordTaskStarted",
# "get_cart", "AddItem") or a call written with its arguments ("Charge(card)"). Results are
# named otherwise: "Respond Succeed", "WorkflowTask", "History Events".
_OPERATION_VERBS = (
    "get|set|add|create|update|delete|remove|record|poll|put|post|patch|fetch|list|query|send|"
    "start|stop|register|schedule|request|respond|submit|publish|subscribe|notify|call|invoke|"
    "execute|run|read|write|load|save|store|lookup|find|search|validate|check|verify|"
    "authorize|authenticate|login|logout|issue|cancel|complete|commit|process|handle|"
    "dispatch|enqueue|dequeue|reserve|charge|place|ship|convert|describe|signal|terminate|reset"
)
_OPERATION = re.compile(
    rf"(?:(?i:{_OPERATION_VERBS})(?:[A-Z_]\w*)?|[A-Za-z_][\w.]*\([^()\n]*\))(?:<br\s*/?>.*)?"
)


# Participants that are people ("participant User"), as Mermaid's `actor` draws them.
PEOPLE = frozenset(
    "user users developer developers admin administrator customer customers person human "
    "you me".split()
)
