"""Checking an exported answer against the stored bytes of a scope, not only against itself.

`check` (export.py) can only compare an answer with the evidence its export carries: an
export whose item text and quote were edited together passes it. This check reads the cited
documents from the store and compares every cited item and citation with what is stored there:
text, spans, document names, text origins and pages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import UsageError
from ..ingest.pdf import page_of
from ..text.quotes import span_at_word_edges
from ..values.answers import Answer
from ..values.documents import Document

if TYPE_CHECKING:
    from ..scope import Scope


def check_against_store(answer: Answer, scope: Scope) -> list[str]:
    """Problems found by comparing the answer's cited items and citations with the scope's
    stored documents; empty when everything it vouches for is what the store holds."""
    problems: list[str] = []
    documents: dict[str, tuple[Document, bytes] | None] = {}  # each read once

    def stored(document_id: str) -> tuple[Document, bytes] | None:
        if document_id not in documents:
            try:
                documents[document_id] = (
                    scope.document(document_id),
                    scope.stored_text(document_id),
                )
            except UsageError:
                documents[document_id] = None
        return documents[document_id]

    items = {i.id: i for i in answer.evidence.items}
    cited = {item_id for claim in answer.claims for item_id in claim.evidence_ids}
    for item_id in sorted(cited):
        item = items.get(item_id)
        if item is None:
            continue  # the offline check says so
        found = stored(item.document_id)
        if found is None:
            problems.append(f"{item_id}: document {item.document_id!r} is not stored")
            continue
        document, text = found
        if item.document_name != document.name:
            problems.append(f"{item_id}: the store names the document {document.name!r}")
        if item.text_origin != document.origin:
            problems.append(f"{item_id}: its text origin is not the stored document's")
        if text[item.start_byte : item.end_byte] != item.text.encode("utf-8"):
            problems.append(f"{item_id}: its text is not the stored bytes at its span")
    for n, citation in enumerate(answer.citations, start=1):
        found = stored(citation.document_id)
        if found is None:
            problems.append(f"citation {n}: document {citation.document_id!r} is not stored")
            continue
        document, text = found
        start, end = citation.start_byte, citation.end_byte
        if start < 0 or end > len(text) or text[start:end] != citation.quote.encode("utf-8"):
            problems.append(f"citation {n}: the stored bytes at its span are not the quote")
            continue
        if not span_at_word_edges(text, start, end):
            problems.append(f"citation {n}: its span starts or ends inside a stored word")
        if citation.text_origin != document.origin:
            problems.append(f"citation {n}: its text origin is not the stored document's")
        pages = document.page_starts
        expected = (page_of(pages, start), page_of(pages, end - 1)) if pages else (None, None)
        if (citation.page, citation.end_page) != expected:
            problems.append(
                f"citation {n}: pages {citation.page}-{citation.end_page}; the stored "
                f"document puts its bytes on {expected[0]}-{expected[1]}"
            )
    return problems
