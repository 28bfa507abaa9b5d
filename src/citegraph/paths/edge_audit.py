"""The edge audit: a sample of stated relations for a person to judge, their verdicts kept on
the relations themselves (in the scope), and the error rate they measure, which every impact
view shows as a limitation of what it draws."""

from __future__ import annotations

import json
import time

from ..errors import InvalidRequest
from ..store.graph import GraphHandle
from ..store.queries.audit import AUDIT_MARK, AUDIT_SAMPLE, AUDIT_SUMMARY
from ..values.audit import AuditedRelation, AuditSummary, EdgeVerdict

MAX_SAMPLE = 50
MAX_VERDICTS = 200


def sample(graph: GraphHandle, n: int) -> list[AuditedRelation]:
    """Up to `n` stated relations not yet judged, at random."""
    if not 1 <= n <= MAX_SAMPLE:
        raise InvalidRequest(f"n: {n}; a sample holds 1 to {MAX_SAMPLE} relations")
    found = []
    for row in graph.ro_query(AUDIT_SAMPLE, {"n": n}):
        (a_key, a, a_type, b_key, b, b_type, kind, polarity, modality, quote, doc, chunk,
         start, end) = row  # fmt: skip
        found.append(AuditedRelation(
            _relation_id(a_key, kind, b_key, doc, int(start)), a_key, a, a_type, b_key, b,
            b_type, kind, polarity, modality, quote, doc, chunk, int(start), int(end),
        ))  # fmt: skip
    return found


def record(graph: GraphHandle, verdicts: list[tuple[str, str]]) -> int:
    """Keep each verdict on its relation; how many relations were found and marked."""
    if len(verdicts) > MAX_VERDICTS:
        raise InvalidRequest(f"verdicts: {len(verdicts)}; at most {MAX_VERDICTS} at a time")
    rows = []
    now = time.time()
    for relation_id, verdict in verdicts:
        a_key, kind, b_key, doc, start = _parse(relation_id)
        if verdict not in (EdgeVerdict.RIGHT.value, EdgeVerdict.WRONG.value):
            raise InvalidRequest(f"verdict: {verdict!r}; right or wrong")
        rows.append({
            "a": a_key, "type": kind, "b": b_key, "document_id": doc, "start_byte": start,
            "verdict": EdgeVerdict(verdict).value, "at": now,
        })  # fmt: skip
    if not rows:
        return 0
    result = graph.query(AUDIT_MARK, {"verdicts": rows})
    return int(result[0][0]) if result else 0


def summary(graph: GraphHandle) -> AuditSummary:
    counts = {verdict: int(n) for verdict, n in graph.ro_query(AUDIT_SUMMARY)}
    wrong = counts.get(EdgeVerdict.WRONG.value, 0)
    audited = wrong + counts.get(EdgeVerdict.RIGHT.value, 0)
    return AuditSummary(stated=sum(counts.values()), audited=audited, wrong=wrong)


def _relation_id(a_key: str, kind: str, b_key: str, document_id: str, start: int) -> str:
    return json.dumps([a_key, kind, b_key, document_id, start], separators=(",", ":"))


def _parse(relation_id: str) -> tuple[str, str, str, str, int]:
    try:
        a_key, kind, b_key, doc, start = json.loads(relation_id)
        if not all(isinstance(x, str) for x in (a_key, kind, b_key, doc)) or not isinstance(
            start, int
        ):
            raise ValueError
    except (ValueError, TypeError):
        raise InvalidRequest(
            f"relation: {relation_id[:80]!r} is not a relation id from a sample"
        ) from None
    return a_key, kind, b_key, doc, start
