"""The text layer of a PDF, page by page, with a map from byte offsets to pages."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import InvalidDocument

# Pages are joined by a line holding a form feed, the classic page break in plain text.
PAGE_SEPARATOR = "\n\f\n"


@dataclass(frozen=True)
class PdfText:
    text: bytes
    page_starts: tuple[int, ...]
    warnings: tuple[str, ...]


def page_of(page_starts: tuple[int, ...], offset: int) -> int:
    """The 1-based page holding byte `offset` of the stored text."""
    if not page_starts:
        raise ValueError("the document has no pages")
    return bisect.bisect_right(page_starts, offset)


def pages_of(page_starts: Sequence[int], start: int, end: int) -> tuple[int | None, int | None]:
    """The pages of the first and the last byte (`end - 1`) of the stored bytes [start, end);
    (None, None) for text without pages."""
    if not page_starts:
        return None, None
    starts = tuple(page_starts)
    return page_of(starts, start), page_of(starts, end - 1)


def _clean(raw: str) -> str:
    # pdfium ends lines with CRLF and marks a hyphen it joined across a line break with U+FFFE
    # (a noncharacter); NUL cannot be stored. Documented in docs/ingestion.md.
    return raw.replace("\r\n", "\n").replace("\r", "\n").replace("\ufffe", "-").replace("\x00", "")


def extract_pdf(data: bytes, label: str, max_pages: int | None = None) -> PdfText:
    """Read the text layer of every page, or raise `InvalidDocument` saying why not. Runs in
    this process: `pdf_guard.extract_pdf_guarded` runs it in a bounded child process."""
    if not data:
        raise InvalidDocument(f"{label}: the file is empty (0 bytes); nothing to store")
    import pypdfium2 as pdfium  # only when a PDF is read: it is slow to import

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        message = str(exc)
        if "password" in message.lower():
            raise InvalidDocument(
                f"{label}: the PDF is encrypted and needs a password; decrypt it first"
            ) from None
        raise InvalidDocument(f"{label}: not a readable PDF ({message})") from None
    try:
        parts: list[str] = []
        starts: list[int] = []
        warnings: list[str] = []
        offset = 0
        count = len(pdf)
        if count == 0:
            raise InvalidDocument(f"{label}: the PDF has no pages")
        if max_pages is not None and count > max_pages:
            raise InvalidDocument(
                f"{label}: pdf-too-large: {count:,} pages; at most {max_pages:,} "
                "(CITEGRAPH_PDF_MAX_PAGES)"
            )
        for index in range(count):
            try:
                page = pdf[index]
            except pdfium.PdfiumError as exc:  # a broken page tree (a cycle, a missing page)
                raise InvalidDocument(
                    f"{label}: pdf-unreadable: page {index + 1} of {count} cannot be read ({exc})"
                ) from None
            textpage = page.get_textpage()
            try:
                text = _clean(textpage.get_text_range())
            finally:
                textpage.close()
                page.close()
            if not text.strip():
                warnings.append(
                    f"{label}: page {index + 1} has no text layer (a scanned image?); "
                    "OCR it and ingest the result as derived text to make it citable"
                )
            if index < count - 1:
                text += PAGE_SEPARATOR
            starts.append(offset)
            encoded = text.encode("utf-8")
            offset += len(encoded)
            parts.append(text)
    finally:
        pdf.close()
    if len(warnings) == count:
        raise InvalidDocument(
            f"{label}: no page of the PDF has a text layer (image-only); "
            "OCR it and ingest the result as derived text"
        )
    return PdfText("".join(parts).encode("utf-8"), tuple(starts), tuple(warnings))
