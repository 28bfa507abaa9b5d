"""Running a question set: retrieval recall@k, coverage, precision, refusals by reason,
latency, and the precision-coverage curve of the offline answerer."""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ..answer.extractive import MIN_COVERAGE, ExtractiveAnswerer
from ..errors import InvalidQuestion
from ..values.answers import Answer, Disposition
from ..values.evidence import Evidence
from .questions import EvalQuestion

# The answerer's default is always a point of the curve.
THRESHOLDS = tuple(sorted({0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9, MIN_COVERAGE}))


@dataclass(frozen=True)
class CurvePoint:
    min_coverage: float
    coverage: float
    precision: float
    refused_unanswerable: float
    default: bool


@dataclass
class EvalResult:
    questions: int = 0
    answerable: int = 0
    unanswerable: int = 0
    with_gold_documents: int = 0
    recalled: int = 0  # every gold document among the top-k items
    answered: int = 0  # answerable questions answered
    precise: int = 0  # ... with a gold answer inside a cited quote
    refused_unanswerable: int = 0
    refusals: Counter[str] = field(default_factory=Counter)  # by reason, all questions
    not_asked: Counter[str] = field(default_factory=Counter)
    latencies_ms: list[float] = field(default_factory=list)
    curve: list[CurvePoint] = field(default_factory=list)
    k: int = 8

    @property
    def recall(self) -> float | None:
        return self.recalled / self.with_gold_documents if self.with_gold_documents else None

    @property
    def coverage(self) -> float | None:
        return self.answered / self.answerable if self.answerable else None

    @property
    def precision(self) -> float | None:
        return self.precise / self.answered if self.answered else None

    @property
    def refused_rate(self) -> float | None:
        return self.refused_unanswerable / self.unanswerable if self.unanswerable else None

    def latency(self, share: float) -> float | None:
        if not self.latencies_ms:
            return None
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]

    @property
    def latency_p50(self) -> float | None:
        return statistics.median(self.latencies_ms) if self.latencies_ms else None


def _holds(quotes: list[str], answers: tuple[str, ...]) -> bool:
    return any(a and a in q for a in answers for q in quotes)


def run(
    ask: Callable[[str], Answer],
    questions: list[EvalQuestion],
    k: int,
    curve: bool = True,
    on_question: Callable[[], None] | None = None,
) -> EvalResult:
    """Ask every question; measure. `ask` answers one question (a scope's, with `k` items)."""
    result = EvalResult(k=k)
    kept: list[tuple[EvalQuestion, Evidence]] = []
    for item in questions:
        started = time.perf_counter()
        try:
            answer = ask(item.question)
        except InvalidQuestion as exc:
            result.not_asked[str(exc).split(" (")[0]] += 1
            continue
        finally:
            if on_question is not None:
                on_question()
        result.latencies_ms.append((time.perf_counter() - started) * 1000)
        result.questions += 1
        kept.append((item, answer.evidence))
        if item.documents:
            result.with_gold_documents += 1
            found = {e.document_name for e in answer.evidence.items}
            result.recalled += set(item.documents) <= found
        refused = answer.disposition is Disposition.REFUSED
        if refused:
            result.refusals[answer.reason.value if answer.reason else "refused"] += 1
        if not item.answerable:
            result.unanswerable += 1
            result.refused_unanswerable += refused
            continue
        result.answerable += 1
        if not refused:
            result.answered += 1
            result.precise += _holds([c.quote for c in answer.citations], item.answers)
    if curve:
        result.curve = _curve(kept)
    return result


def _curve(kept: list[tuple[EvalQuestion, Evidence]]) -> list[CurvePoint]:
    """The offline answerer again, on the same evidence, as its min_coverage moves."""
    import json

    points: list[CurvePoint] = []
    for threshold in THRESHOLDS:
        answerer = ExtractiveAnswerer(min_coverage=threshold)
        answerable = answered = precise = unanswerable = refused = 0
        for item, evidence in kept:
            reply = json.loads(answerer.reply(item.question, evidence))
            quotes = None
            if "declined" not in reply:
                quotes = [c["quote"] for claim in reply["claims"] for c in claim["citations"]]
            if not item.answerable:
                unanswerable += 1
                refused += quotes is None
                continue
            answerable += 1
            if quotes is not None:
                answered += 1
                precise += _holds(quotes, item.answers)
        points.append(
            CurvePoint(
                threshold,
                answered / answerable if answerable else 0.0,
                precise / answered if answered else 0.0,
                refused / unanswerable if unanswerable else 0.0,
                threshold == MIN_COVERAGE,
            )
        )
    return points
