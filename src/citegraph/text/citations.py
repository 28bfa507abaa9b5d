"""From a quote and the chunk it should be in, to a `Citation` with document byte offsets."""

from __future__ import annotations

from ..ingest.pdf import page_of
from ..values.documents import Chunk, Citation, Document, Grounding
from .fold import FoldedText
from .quotes import QuoteNotFound, locate_in


def cite(
    quote: str, chunk: Chunk, document: Document, folded: FoldedText | None = None
) -> Citation | QuoteNotFound:
    """Locate `quote` in `chunk` (never across chunks) and cite it in `document`'s stored text.

    Pass `folded` (a `FoldedText` of `chunk.text`) to reuse it across quotes of one chunk.
    """
    if chunk.document_id != document.id:
        raise ValueError(f"chunk {chunk.id} is not part of document {document.id}")
    target = folded if folded is not None else FoldedText(chunk.text)
    if target.text is not chunk.text and target.text != chunk.text:
        raise ValueError("the prepared text is not this chunk's text")
    match = locate_in(quote, target)
    if isinstance(match, QuoteNotFound):
        return match
    start = chunk.start_byte + match.start_byte
    end = chunk.start_byte + match.end_byte
    pages = document.page_starts
    return Citation(
        document_id=document.id,
        chunk_id=chunk.id,
        start_byte=start,
        end_byte=end,
        quote=match.text,
        grounding=Grounding.SOURCE,
        page=page_of(pages, start) if pages else None,
        end_page=page_of(pages, end - 1) if pages else None,
        text_origin=document.origin,
    )
