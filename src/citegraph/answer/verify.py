"""Reading a model's reply and proving every quote in it, or saying why not.

The reply must be the JSON asked for, optionally inside one code fence:
`{"answer": ..., "claims": [{"text": ..., "citations": [{"evidence": "E2", "quote": ...}]}]}`
or `{"declined": "why"}`. One bad citation refuses the whole answer: a real citation cannot
vouch for a fabricated one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..text.fold import FoldedText
from ..text.quotes import QuoteNotFound, locate_in
from ..values.answers import Claim, RefusalReason, answer_text, wording_of
from ..values.documents import Citation, grounding_of
from ..values.evidence import Evidence, EvidenceItem

MAX_REPLY_CHARS = 200_000
_FENCE = re.compile(r"\A```[a-zA-Z]*\n(.*)\n```\Z", re.S)


@dataclass(frozen=True)
class Verified:
    text: str
    claims: tuple[Claim, ...]


@dataclass(frozen=True)
class Refusal:
    reason: RefusalReason
    detail: str
    problems: tuple[str, ...] = ()


def _parse(reply: str) -> dict[str, Any] | Refusal:
    if len(reply) > MAX_REPLY_CHARS:
        return Refusal(
            RefusalReason.UNREADABLE_RESPONSE,
            f"the reply is {len(reply):,} characters; at most {MAX_REPLY_CHARS:,} are read",
        )
    body = reply.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    try:
        data = json.loads(body)
    except ValueError:
        return Refusal(RefusalReason.UNREADABLE_RESPONSE, "the reply is not JSON")
    if not isinstance(data, dict):
        return Refusal(RefusalReason.UNREADABLE_RESPONSE, "the reply is not a JSON object")
    return data


def verify(reply: str, evidence: Evidence) -> Verified | Refusal:
    data = _parse(reply)
    if isinstance(data, Refusal):
        return data
    if "declined" in data:
        why = data["declined"]
        return Refusal(RefusalReason.MODEL_DECLINED, why if isinstance(why, str) else "declined")
    answer, claims = data.get("answer"), data.get("claims")
    if not isinstance(answer, str) or not answer.strip() or not isinstance(claims, list):
        return Refusal(
            RefusalReason.UNREADABLE_RESPONSE,
            'expected {"answer": text, "claims": [...]} or {"declined": why}',
        )
    if not claims:
        return Refusal(RefusalReason.NO_CITATIONS, "the answer makes no cited claim")
    items = {item.id: item for item in evidence.items if item.citable}
    context_ids = {item.id for item in evidence.context}
    prepared: dict[str, FoldedText] = {}
    verified: list[Claim] = []
    problems: list[str] = []
    reason: RefusalReason | None = None
    for number, claim in enumerate(claims, start=1):
        checked = _claim(claim, number, items, context_ids, prepared, problems)
        if isinstance(checked, RefusalReason):
            reason = reason or checked
        else:
            verified.append(checked)
    if reason is not None:
        return Refusal(reason, problems[0], tuple(problems))
    # What a reader reads is the claims, each with its citations: prose the model wrote
    # outside them ("answer") is not shown as if it were cited.
    return Verified(answer_text(tuple(verified)), tuple(verified))


def _claim(
    claim: Any,
    number: int,
    items: dict[str, EvidenceItem],
    context_ids: set[str],
    prepared: dict[str, FoldedText],
    problems: list[str],
) -> Claim | RefusalReason:
    if not isinstance(claim, dict) or not isinstance(claim.get("text"), str):
        problems.append(f"claim {number} is not {{'text': ..., 'citations': [...]}}")
        return RefusalReason.UNREADABLE_RESPONSE
    citations = claim.get("citations")
    if not isinstance(citations, list):
        problems.append(f"claim {number}: citations is not a list")
        return RefusalReason.UNREADABLE_RESPONSE
    if not citations:
        problems.append(f"claim {number} cites nothing")
        return RefusalReason.NO_CITATIONS
    found: list[Citation] = []
    for cited in citations:
        if not (
            isinstance(cited, dict)
            and isinstance(cited.get("evidence"), str)
            and isinstance(cited.get("quote"), str)
        ):
            problems.append(f"claim {number}: a citation is not {{'evidence': id, 'quote': text}}")
            return RefusalReason.UNREADABLE_RESPONSE
        item_id, quote = cited["evidence"], cited["quote"]
        item = items.get(item_id)
        if item is None:
            kind = (
                "a context passage, which is never citable"
                if item_id in context_ids
                else ("not an evidence item that was given")
            )
            problems.append(f"claim {number} cites {item_id!r}: {kind}")
            return RefusalReason.CITATION_NOT_FOUND
        target = prepared.setdefault(item_id, FoldedText(item.text))
        match = locate_in(quote, target)
        if isinstance(match, QuoteNotFound):
            problems.append(
                f"claim {number}: the quote is not in {item_id} ({match.reason.value}: "
                f"{match.detail})"
            )
            return RefusalReason.CITATION_NOT_FOUND
        found.append(
            Citation(
                document_id=item.document_id,
                chunk_id=item.chunk_id,
                start_byte=item.start_byte + match.start_byte,
                end_byte=item.start_byte + match.end_byte,
                quote=match.text,
                grounding=grounding_of(item.text_origin),
                page=item.page,
                end_page=item.end_page,
                text_origin=item.text_origin,
            )
        )
    cited = tuple(found)
    return Claim(
        claim["text"],
        cited,
        tuple(c["evidence"] for c in citations),
        wording_of(claim["text"], cited),
    )
