"""From a quote and the chunk it should be in, to a `Citation` with document byte offsets."""

from __future__ import annotations

from ..ingest.pdf import pages_of
from ..values.documents import Chunk, Citation, Document, TextOrigin, grounding_of
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
    return at_span(
        document.id, chunk.id, start, end, match.text, document.page_starts, document.origin
    )


def at_span(
    document_id: str,
    chunk_id: str,
    start: int,
    end: int,
    quote: str,
    page_starts: tuple[int, ...],
    origin: TextOrigin | None,
) -> Citation:
    """The citation of the stored bytes [start, end) of a document (`quote`: those bytes),
    with the pages of its first and last byte."""
    page, end_page = pages_of(page_starts, start, end)
    return Citation(
        document_id=document_id,
        chunk_id=chunk_id,
        start_byte=start,
        end_byte=end,
        quote=quote,
        grounding=grounding_of(origin),
        page=page,
        end_page=end_page,
        text_origin=origin,
    )
