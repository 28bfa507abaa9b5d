"""The steps of an answer, told as they happen (rewrite, retrieval, walk, model, verification):
what `citegraph serve` streams to the web UI. A step is a name and one line in words."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..values.answers import Answer, Disposition
from ..values.evidence import Evidence

OnStep = Callable[[str, str], None]


def ignore(_name: str, _detail: str) -> None:
    return None


def retrieval(evidence: Evidence, ms: float) -> str:
    found = Counter(r for item in evidence.items for r in item.retrievers)
    by = ", ".join(f"{name} {n}" for name, n in found.most_common()) or "nothing"
    said = f"{len(evidence.items)} item(s) found by {by}; verdict {evidence.verdict.state.value}"
    if evidence.verdict.uncovered:
        said += f" (uncovered: {', '.join(evidence.verdict.uncovered)})"
    if evidence.skipped:
        said += f"; skipped: {'; '.join(evidence.skipped)}"
    return f"{said}; {ms:.0f} ms"


def walk(evidence: Evidence, hops: int) -> str:
    if hops == 0:
        return "no graph steps asked for"
    seeds = ", ".join(evidence.seeds[:5]) or "no stored name in the question"
    walked = sum("graph" in item.retrievers for item in evidence.items)
    cut = [x for x in evidence.limits_reached if x in ("fanout", "hops")]
    said = f"up to {hops} hop(s) from {seeds}; {walked} item(s) reached through the graph"
    return said + (f"; cut by {', '.join(cut)}" if cut else "")


def verification(answer: Answer) -> str:
    if answer.disposition is Disposition.ANSWERED:
        return f"{len(answer.citations)} citation(s), each located in the stored text"
    reason = answer.reason.value if answer.reason else "refused"
    return f"refused ({reason}): {answer.detail}"
