"""/v1/audit: the edge audit. A sample of stated relations for a person to judge, their
verdicts kept on the relations (write right), and the error rate those verdicts measure."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from ...paths.edge_audit import MAX_SAMPLE
from ...service import requests as r
from ...service.audit_shapes import AuditSummaryOut, sample_shape, summary_shape
from ...service.tokens import Right
from . import bodies as b
from .deps import ScopeQuery, Services, Token

router = APIRouter(prefix="/v1/audit", tags=["audit"])


@router.get("/sample", response_model=b.AuditSampleResponse)
async def audit_sample(
    service: Services,
    token: Token,
    scope: ScopeQuery,
    n: Annotated[int, Query(ge=1, le=MAX_SAMPLE, description="How many relations.")] = 10,
) -> b.AuditSampleResponse:
    """Stated relations (located at a quote) nobody has judged yet, at random: for a person
    to say whether each quote really states this relation between these two entities."""
    target = service.scope(token, scope, Right.READ)
    found = await service.guard.run(lambda: target.audit_sample(n))
    return b.AuditSampleResponse.model_validate(sample_shape(found).model_dump())


@router.post("/verdicts", response_model=b.AuditSummaryResponse)
async def audit_verdicts(
    service: Services, token: Token, body: r.AuditVerdictsRequest
) -> b.AuditSummaryResponse:
    """Keep verdicts (right or wrong) on the relations of a sample; answers the summary
    after them, with how many relations were found and marked."""
    target = service.scope(token, body.scope, Right.WRITE)
    pairs = [(v.relation, v.verdict) for v in body.verdicts]

    def mark() -> AuditSummaryOut:
        marked = target.record_audit(pairs)
        return summary_shape(target.audit_summary(), marked)

    shaped = await service.guard.run(mark)
    return b.AuditSummaryResponse.model_validate(shaped.model_dump())


@router.get("/summary", response_model=b.AuditSummaryResponse)
async def audit_summary(
    service: Services, token: Token, scope: ScopeQuery
) -> b.AuditSummaryResponse:
    """The binding error rate measured so far, with its sample size (audited): every impact
    view shows it as a limitation of what it draws."""
    target = service.scope(token, scope, Right.READ)
    found = await service.guard.run(target.audit_summary)
    return b.AuditSummaryResponse.model_validate(summary_shape(found).model_dump())
