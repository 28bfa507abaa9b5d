"""Parse, chunk and store one document, atomically."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Protocol

from ..errors import InvalidDocument
from ..store.documents import DocumentRepository
from ..values.documents import Chunk, Document, IngestResult, IngestStatus, TextOrigin
from .chunking import chunk_spans
from .decode import stored_text
from .furniture import furniture_spans
from .mapped import TextBuffer, release, sha256_of
from .pdf import pages_of
from .pdf_guard import PdfLimits, extract_pdf_guarded
from .sources import CONFIGURATION_TYPES, TEXT_TYPES, check_media_type

# Write chunks in batches of about this much text: big enough to be fast, small enough that a
# 50 MB document never sits in one query. Small documents share batches.
_BATCH_BYTES = 512 * 1024
_BATCH_CHUNKS = 500

# A group of documents whose text fits in this goes in one query, without staging.
_ONE_QUERY_BYTES = 1024 * 1024

Progress = Callable[[int], None]


class ReadAlong(Protocol):
    """Reads the documents' names while they are written (extract/prefetch.py): given a
    small group's chunks whole just before the one query that writes them, or a large
    group's chunks batch by batch as they are written; stopped if the write fails."""

    def start(self, documents: Sequence[tuple[Document, list[Chunk]]]) -> None: ...
    def start_fed(self, documents: Sequence[Document]) -> None: ...
    def feed(self, document: Document, chunks: list[Chunk], last: bool) -> None: ...
    def stop(self) -> None: ...


@dataclass(frozen=True)
class ParsedDocument:
    name: str
    media_type: str
    text: TextBuffer  # a large file's text is a mapping, not held in memory
    sha256: str
    page_starts: tuple[int, ...] = ()
    origin: TextOrigin | None = None
    warnings: tuple[str, ...] = ()
    title: str | None = None


# Small documents are stored in groups that share queries; a group is held in memory.
GROUP_BYTES = 8 * 2**20
GROUP_DOCUMENTS = 1000


class DocumentGroups:
    """Collects parsed documents into groups to store together (bounded size, distinct names)."""

    def __init__(self) -> None:
        self.pending: list[ParsedDocument] = []
        self._names: set[str] = set()
        self._size = 0

    def add(self, doc: ParsedDocument) -> list[ParsedDocument] | None:
        """Add a document; return the group that is full and must be stored first, if any."""
        full = None
        if self.pending and (
            self._size + len(doc.text) > GROUP_BYTES
            or len(self.pending) >= GROUP_DOCUMENTS
            or doc.name in self._names
        ):
            full = self.take()
        self.pending.append(doc)
        self._names.add(doc.name)
        self._size += len(doc.text)
        return full

    def take(self) -> list[ParsedDocument]:
        group, self.pending, self._names, self._size = self.pending, [], set(), 0
        return group


def parse(
    data: TextBuffer,
    name: str,
    media_type: str,
    origin: TextOrigin | None = None,
    title: str | None = None,
    pdf_limits: PdfLimits | None = None,
) -> ParsedDocument:
    """Check and decode the input; raise `InvalidDocument` before anything is stored."""
    if not name or not name.strip():
        raise InvalidDocument("a document needs a non-empty name")
    check_media_type(media_type, name)
    if media_type in TEXT_TYPES:
        text: TextBuffer = stored_text(data, name)
        page_starts: tuple[int, ...] = ()
        warnings: tuple[str, ...] = ()
    else:
        if origin is not None:
            raise InvalidDocument(
                f"{name}: a TextOrigin describes derived text; ingest the OCR or transcript "
                "text itself (as text/plain or text/markdown), not the PDF"
            )
        pdf = extract_pdf_guarded(bytes(data), name, pdf_limits)
        text, page_starts, warnings = pdf.text, pdf.page_starts, pdf.warnings
    return ParsedDocument(
        name=name,
        media_type=media_type,
        text=text,
        sha256=sha256_of(text),
        page_starts=page_starts,
        origin=origin,
        warnings=warnings,
        title=title,
    )


def document_id(name: str) -> str:
    """Stable for a name within a scope: a new version of a document keeps its id."""
    return "doc_" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]


def _same_version(old: Document, parsed: ParsedDocument) -> bool:
    old_kind = (old.origin.kind, old.origin.source, old.origin.method) if old.origin else None
    new = parsed.origin
    new_kind = (new.kind, new.source, new.method) if new else None
    return (
        old.sha256 == parsed.sha256
        and old.media_type == parsed.media_type
        and old_kind == new_kind
        and old.title == parsed.title
    )


def _chunks(doc: Document, parsed: ParsedDocument, chunk_bytes: int) -> Iterator[Chunk]:
    version = parsed.sha256[:8]
    pages = parsed.page_starts
    outline = parsed.media_type in CONFIGURATION_TYPES
    furniture = furniture_spans(bytes(parsed.text), pages) if pages else []
    # Furniture lines are cut out into chunks of their own, so no chunk mixes them with text.
    breaks = sorted({*pages, *(edge for span in furniture for edge in span)})
    spans = chunk_spans(parsed.text, chunk_bytes, breaks, outline=outline)
    for ordinal, (start, end) in enumerate(spans):
        page, end_page = pages_of(pages, start, end)
        yield Chunk(
            id=f"{doc.id}-{version}-{ordinal}",
            document_id=doc.id,
            ordinal=ordinal,
            start_byte=start,
            end_byte=end,
            text=parsed.text[start:end].decode("utf-8"),
            page=page,
            end_page=end_page,
            furniture=_only_furniture(parsed.text, start, end, furniture),
        )


def _only_furniture(
    text: TextBuffer, start: int, end: int, furniture: list[tuple[int, int]]
) -> bool:
    """Whether every byte of [start, end) that is not white space is furniture."""
    if not furniture:
        return False
    position = start
    for low, high in furniture:
        if high <= position or low >= end:
            continue
        if bytes(text[position:low]).strip():
            return False
        position = max(position, high)
    return not bytes(text[position:end]).strip() and position > start


def store_many(
    repo: DocumentRepository,
    group: Sequence[ParsedDocument],
    chunk_bytes: int,
    progress: Progress | None = None,
    written: dict[str, list[Chunk]] | None = None,
    read_along: ReadAlong | None = None,
) -> list[IngestResult]:
    """Store a group of documents (distinct names) through shared queries, in input order.

    When `written` is given, it receives the chunks of small documents (written in one query)
    by document id, so that later steps need not read them back; `read_along` is given the
    chunks as they are written (extraction reads them while the store writes).

    Unchanged documents are reported and skipped. The rest are staged, and then committed
    together by one query: the whole group becomes visible at once, or none of it does.
    """
    names = [p.name for p in group]
    if len(set(names)) != len(names):
        raise InvalidDocument("the same document name appears twice in one ingest")
    existing = repo.by_names(names)
    results: dict[str, IngestResult] = {}
    staged: list[tuple[Document, ParsedDocument]] = []
    now = datetime.now(UTC).isoformat(timespec="seconds")
    for parsed in group:
        old = existing.get(parsed.name)
        if old is not None and _same_version(old, parsed):
            results[parsed.name] = IngestResult(old, IngestStatus.UNCHANGED, parsed.warnings)
            continue
        doc = Document(
            id=document_id(parsed.name),
            name=parsed.name,
            media_type=parsed.media_type,
            sha256=parsed.sha256,
            size_bytes=len(parsed.text),
            chunk_count=0,
            ingested_at=now,
            origin=parsed.origin,
            page_starts=parsed.page_starts,
            title=parsed.title,
        )
        staged.append((doc, parsed))
    if staged:
        counts, replaced = _write(repo, staged, chunk_bytes, progress, written, read_along)
        for (doc, parsed), count, was_replaced in zip(staged, counts, replaced, strict=True):
            status = IngestStatus.REPLACED if was_replaced else IngestStatus.CREATED
            results[doc.name] = IngestResult(
                replace(doc, chunk_count=count), status, parsed.warnings
            )
    return [results[name] for name in names]


def _write(
    repo: DocumentRepository,
    staged: list[tuple[Document, ParsedDocument]],
    chunk_bytes: int,
    progress: Progress | None,
    written: dict[str, list[Chunk]] | None = None,
    read_along: ReadAlong | None = None,
) -> tuple[list[int], list[bool]]:
    """Write new versions; their chunk counts, and whether each replaced an older version."""
    if sum(len(parsed.text) for _, parsed in staged) <= _ONE_QUERY_BYTES:
        whole = [(doc, list(_chunks(doc, parsed, chunk_bytes))) for doc, parsed in staged]
        if read_along is not None:
            read_along.start(whole)
        try:
            replaced = repo.write_whole(whole)
        except BaseException:
            if read_along is not None:
                read_along.stop()
            raise
        if written is not None:
            written.update((doc.id, chunks) for doc, chunks in whole)
        if progress is not None:
            progress(sum(doc.size_bytes for doc, _ in staged))
        return [len(chunks) for _, chunks in whole], replaced
    keys = repo.begin_many([doc for doc, _ in staged])
    try:
        if read_along is not None:
            read_along.start_fed([doc for doc, _ in staged])
        counts = _write_chunks(repo, staged, keys, chunk_bytes, progress, read_along)
        return counts, repo.commit_many(keys, counts)
    except BaseException:
        if read_along is not None:
            read_along.stop()
        _abort_quietly(repo, keys)
        raise


def _write_chunks(
    repo: DocumentRepository,
    staged: list[tuple[Document, ParsedDocument]],
    keys: list[str],
    chunk_bytes: int,
    progress: Progress | None,
    read_along: ReadAlong | None = None,
) -> list[int]:
    counts: list[int] = []
    batch: list[tuple[str, Chunk]] = []
    batch_bytes = 0
    for (doc, parsed), key in zip(staged, keys, strict=True):
        count = 0
        unread: list[Chunk] = []  # this document's chunks not yet given to `read_along`
        for chunk in _chunks(doc, parsed, chunk_bytes):
            batch.append((key, chunk))
            unread.append(chunk)
            batch_bytes += chunk.end_byte - chunk.start_byte
            count += 1
            if batch_bytes >= _BATCH_BYTES or len(batch) >= _BATCH_CHUNKS:
                if read_along is not None:  # read while the store writes them
                    read_along.feed(doc, unread, last=False)
                unread = []
                repo.add_chunks(batch)
                release(parsed.text, chunk.start_byte)
                if progress is not None:
                    progress(batch_bytes)
                batch, batch_bytes = [], 0
        if read_along is not None:
            read_along.feed(doc, unread, last=True)
        counts.append(count)
    if batch:
        repo.add_chunks(batch)
        if progress is not None:
            progress(batch_bytes)
    return counts


def _abort_quietly(repo: DocumentRepository, keys: list[str]) -> None:
    # The store may be the thing that failed; the staging is then dropped at the next open.
    with contextlib.suppress(Exception):
        repo.abort_many(keys)
