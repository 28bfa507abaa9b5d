"""`citegraph-answer/1`: one JSON document per answer or refusal, and an offline `check`.

camelCase names, enums as their values, UTC time, the toolkit's version, and the evidence the
answer was written from, so that `check` needs nothing but the document.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ..errors import UsageError
from ..values.answers import (
    Answer,
    Claim,
    Disposition,
    Receipt,
    RefusalReason,
    Rewrite,
    RewriteOutcome,
    Wording,
    wording_of,
)
from ..values.documents import Citation, Grounding, TextOrigin, page_range
from ..values.evidence import Evidence, EvidenceItem, TraversalPolicy, Verdict, VerdictState

FORMAT = "citegraph-answer/1"


def _origin(origin: TextOrigin | None) -> dict[str, str] | None:
    return (
        None
        if origin is None
        else {"kind": origin.kind, "source": origin.source, "method": origin.method}
    )


_NAMES = {str: "a string", int: "a whole number", float: "a number", bool: "true or false",
          list: "a list", dict: "an object", type(None): "null"}  # fmt: skip


def _get(d: dict[str, Any], key: str, *kinds: type) -> Any:
    """d[key], if it is one of `kinds` (a document from elsewhere may hold anything)."""
    value = d[key]
    # bool is an int in Python, but true is not a byte offset.
    if isinstance(value, bool) and bool not in kinds:
        ok = False
    else:
        ok = isinstance(value, kinds) or (float in kinds and isinstance(value, int))
    if not ok:
        wanted = " or ".join(_NAMES.get(k, k.__name__) for k in kinds)
        raise ValueError(f"{key!r} must be {wanted}, not {type(value).__name__}")
    return value


def _strings(d: dict[str, Any], key: str) -> tuple[str, ...]:
    values = _get(d, key, list)
    if not all(isinstance(v, str) for v in values):
        raise ValueError(f"{key!r} must be a list of strings")
    return tuple(values)


def _from_origin(data: Any) -> TextOrigin | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError("'textOrigin' must be an object or null")
    return TextOrigin(_get(data, "kind", str), _get(data, "source", str), _get(data, "method", str))


EVIDENCE_FORMAT = "citegraph-evidence/1"


def citation_label(item: EvidenceItem) -> str:
    """How to cite an item in prose: its document, byte span and pages."""
    where = f"{item.document_name}, bytes {item.start_byte}-{item.end_byte}"
    pages = page_range(item.page, item.end_page)
    if pages:
        where += f", page {pages}"
    return where


def _item(item: EvidenceItem) -> dict[str, Any]:
    return {
        "id": item.id,
        "citation": citation_label(item),
        "documentId": item.document_id,
        "documentName": item.document_name,
        "chunkId": item.chunk_id,
        "startByte": item.start_byte,
        "endByte": item.end_byte,
        "text": item.text,
        "score": item.score,
        "retrievers": list(item.retrievers),
        "page": item.page,
        "endPage": item.end_page,
        "textOrigin": _origin(item.text_origin),
        "citable": item.citable,
    }


def _from_item(d: dict[str, Any]) -> EvidenceItem:
    return EvidenceItem(
        id=_get(d, "id", str),
        document_id=_get(d, "documentId", str),
        document_name=_get(d, "documentName", str),
        chunk_id=_get(d, "chunkId", str),
        start_byte=_get(d, "startByte", int),
        end_byte=_get(d, "endByte", int),
        text=_get(d, "text", str),
        score=_get(d, "score", float),
        retrievers=_strings(d, "retrievers"),
        page=_get(d, "page", int, type(None)),
        end_page=_get(d, "endPage", int, type(None)),
        text_origin=_from_origin(d["textOrigin"]),
        citable=_get(d, "citable", bool),
    )


def _citation(c: Citation, evidence_id: str) -> dict[str, Any]:
    return {
        "evidence": evidence_id,
        "documentId": c.document_id,
        "chunkId": c.chunk_id,
        "startByte": c.start_byte,
        "endByte": c.end_byte,
        "quote": c.quote,
        "grounding": c.grounding.value,
        "page": c.page,
        "endPage": c.end_page,
        "textOrigin": _origin(c.text_origin),
    }


def _from_citation(d: dict[str, Any]) -> Citation:
    return Citation(
        document_id=_get(d, "documentId", str),
        chunk_id=_get(d, "chunkId", str),
        start_byte=_get(d, "startByte", int),
        end_byte=_get(d, "endByte", int),
        quote=_get(d, "quote", str),
        grounding=Grounding(d["grounding"]),
        page=_get(d, "page", int, type(None)),
        end_page=_get(d, "endPage", int, type(None)),
        text_origin=_from_origin(d["textOrigin"]),
    )


def _rewrite(rewrite: Rewrite | None) -> dict[str, Any] | None:
    """A follow-up question rewritten to stand alone: what was asked, and what was searched."""
    if rewrite is None:
        return None
    return {
        "original": rewrite.original,
        "question": rewrite.question,
        "outcome": rewrite.outcome.value,
        "turnsUsed": rewrite.turns_used,
        "turnsDropped": rewrite.turns_dropped,
    }


def _from_rewrite(d: Any) -> Rewrite | None:
    if d is None:
        return None
    if not isinstance(d, dict):
        raise ValueError("'rewrite' must be an object or null")
    return Rewrite(
        _get(d, "original", str),
        _get(d, "question", str),
        RewriteOutcome(_get(d, "outcome", str)),
        _get(d, "turnsUsed", int),
        _get(d, "turnsDropped", int),
    )


def _from_claim(c: dict[str, Any]) -> Claim:
    text = _get(c, "text", str)
    citations = tuple(_from_citation(x) for x in _get(c, "citations", list))
    # Documents written before claims said whose words they are: judged by their text.
    said = Wording(_get(c, "wording", str)) if "wording" in c else wording_of(text, citations)
    evidence_ids = tuple(_get(x, "evidence", str) for x in c["citations"])
    return Claim(text, citations, evidence_ids, said)


def to_json(answer: Answer, version: str = "") -> str:
    return json.dumps(to_document(answer, version), ensure_ascii=False, indent=2)


def to_document(answer: Answer, version: str = "") -> dict[str, Any]:
    """The citegraph-answer/1 document as JSON-ready values (what `to_json` writes)."""
    if not version:
        from .. import __version__ as version
    evidence = answer.evidence
    return {
        "format": FORMAT,
        "version": version,
        "createdAt": datetime.now(UTC).isoformat(timespec="seconds"),
        "question": answer.question,
        "rewrite": _rewrite(answer.rewrite),
        "disposition": answer.disposition.value,
        "text": answer.text,
        "reason": answer.reason.value if answer.reason else None,
        "detail": answer.detail,
        "problems": list(answer.problems),
        "claims": [
            {
                "text": claim.text,
                "wording": claim.wording.value,
                "citations": [
                    _citation(c, e)
                    for c, e in zip(claim.citations, claim.evidence_ids, strict=True)
                ],
            }
            for claim in answer.claims
        ],
        "receipt": {
            "answerer": answer.receipt.answerer,
            "chatCalls": answer.receipt.chat_calls,
            "inputTokens": answer.receipt.input_tokens,
            "outputTokens": answer.receipt.output_tokens,
            "retrievalMs": answer.receipt.retrieval_ms,
            "answerMs": answer.receipt.answer_ms,
        },
        "evidence": evidence_json(evidence),
    }


def evidence_json(evidence: Evidence) -> dict[str, Any]:
    """The citegraph-evidence/1 value: what `context` returns on every surface, and what an
    answer document carries as the evidence it was written from."""
    verdict = evidence.verdict
    return {
        "format": EVIDENCE_FORMAT,
        "question": evidence.question,
        "verdict": {
            "state": verdict.state.value,
            "uncovered": list(verdict.uncovered),
            "matchedNames": list(verdict.matched_names),
            "stage": verdict.stage,
            "detail": verdict.detail,
            "respelled": [{"asked": a, "stored": b} for a, b in verdict.respelled],
        },
        "items": [_item(i) for i in evidence.items],
        "context": [_item(i) for i in evidence.context],
        "contentWords": list(evidence.content_words),
        "skipped": list(evidence.skipped),
        "limitsReached": list(evidence.limits_reached),
        "omittedItems": evidence.omitted_items,
    }


def from_json(text: str) -> Answer:
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"not a readable {FORMAT} document: {exc}") from None
    return from_document(document)


def from_document(d: Any) -> Answer:
    """An answer from a parsed citegraph-answer/1 document; UsageError, saying what is wrong,
    for anything else."""
    try:
        if d.get("format") != FORMAT:
            raise UsageError(f"not a {FORMAT} document (format: {d.get('format')!r})")
        ev = d["evidence"]
        v = ev["verdict"]
        evidence = Evidence(
            question=d["question"],
            items=tuple(_from_item(i) for i in _get(ev, "items", list)),
            context=tuple(_from_item(i) for i in _get(ev, "context", list)),
            verdict=Verdict(
                VerdictState(v["state"]),
                tuple(v["uncovered"]),
                tuple(v["matchedNames"]),
                v["stage"],
                v["detail"],
                # Written since close spellings were reported; absent before.
                tuple((r["asked"], r["stored"]) for r in v.get("respelled", ())),
            ),
            content_words=tuple(ev["contentWords"]),
            policy=TraversalPolicy(),
            # Written since evidence became one value on every surface; absent before.
            skipped=_strings(ev, "skipped") if "skipped" in ev else (),
            limits_reached=_strings(ev, "limitsReached") if "limitsReached" in ev else (),
            omitted_items=_get(ev, "omittedItems", int) if "omittedItems" in ev else 0,
        )
        r = d["receipt"]
        claims = tuple(_from_claim(c) for c in _get(d, "claims", list))
        return Answer(
            question=_get(d, "question", str),
            disposition=Disposition(d["disposition"]),
            evidence=evidence,
            receipt=Receipt(
                r["answerer"],
                r["chatCalls"],
                r["inputTokens"],
                r["outputTokens"],
                r["retrievalMs"],
                r["answerMs"],
            ),
            text=_get(d, "text", str, type(None)),
            claims=claims,
            reason=RefusalReason(d["reason"]) if d["reason"] else None,
            detail=_get(d, "detail", str),
            problems=_strings(d, "problems"),
            rewrite=_from_rewrite(d.get("rewrite")),
        )
    except UsageError:
        raise
    except KeyError as exc:
        raise UsageError(f"not a readable {FORMAT} document: no field {exc}") from None
    except (ValueError, TypeError, AttributeError) as exc:
        raise UsageError(f"not a readable {FORMAT} document: {exc}") from None
