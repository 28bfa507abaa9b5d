"""Negation and modality of a relation's sentence, from a cue table in the spirit of NegEx
and ConText: a cue opens a scope that runs forward to a clause boundary; a relation whose
later end falls in a negation scope is `negated`, in a hypothetical or planned scope is
`hypothetical` or `planned`. Such a relation is stored with its polarity and modality, never as
a plain dependency. The table is data: CUES below (docs/extraction.md lists it)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class Polarity(StrEnum):
    AFFIRMED = "affirmed"
    NEGATED = "negated"


class Modality(StrEnum):
    ACTUAL = "actual"
    HYPOTHETICAL = "hypothetical"
    PLANNED = "planned"


@dataclass(frozen=True)
class Cue:
    words: str  # a phrase, matched on word boundaries, case aside
    kind: str  # "negated", "hypothetical" or "planned"


CUES: tuple[Cue, ...] = (
    *(Cue(w, "negated") for w in (
        "not", "no", "never", "without", "no longer", "instead of", "neither", "nor",
        "cannot", "n't", "none of", "nothing", "stopped", "ceased to",
    )),
    *(Cue(w, "hypothetical") for w in (
        "if", "may", "might", "could", "would", "should", "unless", "whether", "suppose",
        "assuming", "in case", "perhaps", "possibly",
    )),
    *(Cue(w, "planned") for w in (
        "will", "will be", "planned", "plans to", "plan to", "going to", "proposed",
        "proposal", "deprecated", "to be removed", "next quarter", "roadmap", "soon",
    )),
)  # fmt: skip

# Where a cue's scope ends. A negation ends at a comma too ("X does not retry, and calls Y");
# a condition or a plan covers the clause after its comma ("if X, checkout calls Y").
_HARD_STOPS = re.compile(r"[.;:!?]|\b(but|however|whereas|although|though|instead)\b", re.I)
_SOFT_STOPS = re.compile(r",|\b(which|while|and then)\b", re.I)


def _pattern(words: str) -> re.Pattern[str]:
    if words == "n't":
        return re.compile(r"n['’]t\b", re.I)
    return re.compile(
        r"(?<![\w'’])" + re.escape(words).replace(r"\ ", r"\s+") + r"(?![\w'’])", re.I
    )


_COMPILED = tuple((_pattern(c.words), c.kind) for c in CUES)


def _scope_end(text: str, start: int, kind: str) -> int:
    ends = [m.start() for m in _HARD_STOPS.finditer(text, start)]
    if kind == "negated":
        ends += [m.start() for m in _SOFT_STOPS.finditer(text, start)]
    return min(ends, default=len(text))


def assess(text: str, ends: tuple[tuple[int, int], ...]) -> tuple[Polarity, Modality]:
    """The polarity and modality of the relation whose ends are at the character spans `ends`
    of `text` (its sentence, or its quote). A cue counts when its scope, running forward from
    it to a clause boundary, reaches the relation's later end; cues inside a name do not."""
    last = max(end for _, end in ends)
    kinds: set[str] = set()
    for pattern, kind in _COMPILED:
        for match in pattern.finditer(text, 0, last):
            inside_a_name = any(s <= match.start() < e for s, e in ends)
            if not inside_a_name and _scope_end(text, match.end(), kind) >= last:
                kinds.add(kind)
    polarity = Polarity.NEGATED if "negated" in kinds else Polarity.AFFIRMED
    if "hypothetical" in kinds:
        return polarity, Modality.HYPOTHETICAL
    if "planned" in kinds:
        return polarity, Modality.PLANNED
    return polarity, Modality.ACTUAL
