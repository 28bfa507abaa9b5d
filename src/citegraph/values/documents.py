"""The public value types. All frozen: a value handed out never changes under the caller."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .proposals import ExtractionReport


@dataclass(frozen=True)
class TextOrigin:
    """Where derived text came from: OCR output, a transcript, a conversion.

    `kind` says what it is ("ocr", "transcript", "conversion", ...), `source` names what it was
    derived from (a file name, a URL), `method` says by what means ("tesseract 5.3", "whisper
    large-v3", "pdfium text layer").
    """

    kind: str
    source: str
    method: str = ""


@dataclass(frozen=True)
class Document:
    """One ingested source. Its stored text is the concatenation of its chunks, in order."""

    id: str
    name: str
    media_type: str
    sha256: str
    size_bytes: int
    chunk_count: int
    ingested_at: str
    origin: TextOrigin | None = None
    # For PDFs: byte offset in the stored text where each 1-based page starts (page_starts[0]
    # is page 1 and is always 0). Empty for documents without pages.
    page_starts: tuple[int, ...] = ()
    # A title given with the document (proposed as an entity wherever the text names it).
    title: str | None = None
    # Whether entities were extracted from this version (False after a crash in between).
    extracted: bool = False
    # The embedding model this version's chunks were embedded with, if any.
    embedded_with: str | None = None
    # What extracted its entities and relations ("offline", "llm:<model>:<prompt version>").
    extracted_with: str | None = None

    @property
    def page_count(self) -> int:
        return len(self.page_starts)


@dataclass(frozen=True)
class Chunk:
    """A contiguous byte range [start_byte, end_byte) of one document's stored UTF-8 text."""

    id: str
    document_id: str
    ordinal: int
    start_byte: int
    end_byte: int
    text: str
    page: int | None = None
    end_page: int | None = None
    # Page furniture only (a PDF's running header or footer): kept, never evidence.
    furniture: bool = False


def page_range(page: int | None, end_page: int | None) -> str:
    """ "" without pages, "3" for one page, "3-5" for a span that runs over several."""
    if page is None:
        return ""
    return str(page) if end_page in (None, page) else f"{page}-{end_page}"


class IngestStatus(StrEnum):
    CREATED = "created"
    REPLACED = "replaced"
    UNCHANGED = "unchanged"


@dataclass(frozen=True)
class IngestResult:
    """What one ingest did to one document."""

    document: Document
    status: IngestStatus
    warnings: tuple[str, ...] = field(default=())
    # What extraction cost, kept and dropped (by reason); None when it did not run.
    extraction: ExtractionReport | None = None


class Grounding(StrEnum):
    """What a citation's span is a span of."""

    SOURCE = "source"  # the document's stored text (every chunk citegraph ingested)
    CHUNK = "chunk"  # only a chunk's own text (adopted from another tool's graph; reserved)


# The origin kind of a chunk adopted from another tool's graph and found in no source: its
# own text is all that is stored.
ADOPTED_CHUNK = "adopted-chunk"


def grounding_of(origin: TextOrigin | None) -> Grounding:
    """What a citation of text with this origin is a span of."""
    if origin is not None and origin.kind == ADOPTED_CHUNK:
        return Grounding.CHUNK
    return Grounding.SOURCE


@dataclass(frozen=True)
class Citation:
    """A quote proven to be in stored text: where, and the stored bytes themselves.

    `start_byte`/`end_byte` are offsets in the document's stored text (for `source` grounding);
    `quote` is the stored text of that span, emphasis marks and original punctuation included,
    not the caller's copy. `page`/`end_page` are the pages of the first and last byte (PDFs).
    """

    document_id: str
    chunk_id: str
    start_byte: int
    end_byte: int
    quote: str
    grounding: Grounding = Grounding.SOURCE
    page: int | None = None
    end_page: int | None = None
    text_origin: TextOrigin | None = None
