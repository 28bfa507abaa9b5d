"""Checking an exported answer, for every surface: offline against the export's own evidence,
and with a scope against the bytes stored there (the same code for `citegraph check --scope`,
`POST /v1/answers/check` and the MCP `check_answer` tool)."""

from __future__ import annotations

from typing import Any

from ..audit.check import check
from ..audit.export import from_document
from ..audit.store_check import check_against_store
from ..errors import InvalidRequest
from ..limits import MAX_CHECK_CITATIONS, MAX_CHECK_ITEM_BYTES
from ..scope import Scope
from ..values.answers import Wording
from .shapes import CheckOut


def check_answer(document: dict[str, Any], target: Scope | None) -> CheckOut:
    """The offline check of an exported answer; with a scope, each quote is also compared
    with the bytes stored there at its span."""
    answer = from_document(document)
    if len(answer.citations) > MAX_CHECK_CITATIONS:
        raise InvalidRequest(
            f"answer: {len(answer.citations):,} citations; a check takes at most "
            f"{MAX_CHECK_CITATIONS:,}"
        )
    for item in (*answer.evidence.items, *answer.evidence.context):
        if len(item.text.encode("utf-8")) > MAX_CHECK_ITEM_BYTES:
            raise InvalidRequest(
                f"answer: evidence item {item.id} is over {MAX_CHECK_ITEM_BYTES:,} bytes"
            )
    problems = check(answer)
    if target is not None and not problems:
        problems = check_against_store(answer, target)
    return CheckOut(
        valid=not problems,
        disposition=answer.disposition.value,
        citations=len(answer.citations),
        problems=problems,
        checked_against_store=target is not None,
        model_worded_claims=sum(c.wording is Wording.MODEL for c in answer.claims),
    )
