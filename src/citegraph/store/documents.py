"""Documents and chunks in one scope's graph: staged writes, atomic commit, reads, deletes.

A new version of a document is written under a `StagingDocument` node that no reader looks at.
One final query then deletes the old version (if any) and relabels the staging node
`Document`. FalkorDB runs each query atomically, so a reader sees the old version or the new
one, and a crash at any point leaves at most an orphaned staging node, which is removed the next
time the scope is opened.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterable
from typing import Any

from ..errors import StoreError
from ..values.documents import Chunk, Document, TextOrigin
from .graph import GraphHandle
from .leases import DEFAULT_TTL_S, KEEPER, host_id
from .processes import pid_alive, process_start
from .queries.documents import (
    ADD_CHUNKS,
    CLAIM_EXTRACTION,
    COMMIT,
    CONFIGURATION,
    CREATE_STAGING,
    DELETE_DOCUMENT,
    DROP_STAGING,
    EXTRACTION_COVERAGE,
    FIND_BY_ID,
    FIND_BY_NAMES,
    HOLDS_MARKS,
    LIST_CHUNKS,
    LIST_DOCUMENTS,
    LIST_STAGING,
    MARK_EMBEDDED,
    MARK_EXTRACTED,
    UNMARK_EXTRACTED,
    WRITE_WHOLE,
)


def _doc(row: list[Any]) -> Document:
    origin = TextOrigin(row[7], row[8] or "", row[9] or "") if row[7] else None
    return Document(
        id=row[0], name=row[1], media_type=row[2], sha256=row[3], size_bytes=row[4],
        chunk_count=row[5], ingested_at=row[6], origin=origin,
        page_starts=tuple(row[10] or ()), title=row[11], extracted=bool(row[12]),
        embedded_with=row[13], extracted_with=row[14],
    )  # fmt: skip


def _doc_row(doc: Document) -> dict[str, Any]:
    """A document's stored fields; in this order, the first of WRITE_WHOLE's document row."""
    origin = doc.origin
    return {
        "id": doc.id, "name": doc.name, "media_type": doc.media_type, "sha256": doc.sha256,
        "size_bytes": doc.size_bytes, "ingested_at": doc.ingested_at,
        "origin_kind": origin.kind if origin else None,
        "origin_source": origin.source if origin else None,
        "origin_method": origin.method if origin else None,
        "page_starts": list(doc.page_starts),
        "title": doc.title,
    }  # fmt: skip


def _chunk_row(c: Chunk) -> list[Any]:
    """A chunk as queries/documents.py's chunk rows list it."""
    return [
        c.id, c.ordinal, c.start_byte, c.end_byte, c.text, c.page, c.end_page,
        True if c.furniture else None,  # absent on ordinary chunks
    ]  # fmt: skip


def _chunk(row: list[Any]) -> Chunk:
    return Chunk(
        id=row[0], document_id=row[1], ordinal=row[2], start_byte=row[3], end_byte=row[4],
        text=row[5], page=row[6], end_page=row[7], furniture=bool(row[8]),
    )  # fmt: skip


class DocumentRepository:
    def __init__(
        self, graph: GraphHandle, lease_ttl_s: float = DEFAULT_TTL_S, host: str | None = None
    ):
        self.graph = graph
        self.lease_ttl_s = lease_ttl_s
        self.host = host_id(host)

    def by_name(self, name: str) -> Document | None:
        return self.by_names([name]).get(name)

    def by_names(self, names: list[str]) -> dict[str, Document]:
        return {row[1]: _doc(row) for row in self.graph.ro_query(FIND_BY_NAMES, {"names": names})}

    def by_id(self, doc_id: str) -> Document | None:
        rows = self.graph.ro_query(FIND_BY_ID, {"id": doc_id})
        return _doc(rows[0]) if rows else None

    def all(self) -> list[Document]:
        return [_doc(row) for row in self.graph.ro_query(LIST_DOCUMENTS)]

    def chunks(self, doc_id: str, batch: int = 1000) -> Iterable[Chunk]:
        skip = 0
        while True:
            rows = self.graph.ro_query(LIST_CHUNKS, {"id": doc_id, "skip": skip, "limit": batch})
            yield from (_chunk(row) for row in rows)
            if len(rows) < batch:
                return
            skip += batch

    def configuration(
        self, types: tuple[str, ...], marks: tuple[str, ...]
    ) -> list[tuple[Document, list[Chunk]]]:
        """Every document of `types`, with its chunks in order when its text holds any of
        `marks` (else none), read at one moment (a mark split between chunks is not seen)."""
        rows = self.graph.ro_query(CONFIGURATION, {"types": list(types), "marks": list(marks)})
        found = []
        for row in rows:
            chunks = sorted((_chunk(c) for c in row[-1]), key=lambda c: c.ordinal)
            found.append((_doc(row[:-1]), chunks))
        return found

    def hold_marks(self, doc_ids: list[str], marks: tuple[str, ...]) -> bool:
        """Whether any of these documents holds any of `marks` in its text."""
        if not doc_ids:
            return False
        return bool(self.graph.ro_query(HOLDS_MARKS, {"ids": doc_ids, "marks": list(marks)}))

    def extraction_coverage(self) -> tuple[int, int, int]:
        """Documents stored, those not extracted yet, and those of them being extracted now."""
        rows = self.graph.ro_query(EXTRACTION_COVERAGE)
        if not rows:
            return 0, 0, 0
        documents, pending, now = rows[0]
        return int(documents or 0), int(pending or 0), int(now or 0)

    def mark_extracted(self, doc_ids: list[str], by: str) -> None:
        self.graph.query(MARK_EXTRACTED, {"ids": doc_ids, "by": by})

    def unmark_extracted(self, doc_ids: list[str]) -> None:
        self.graph.query(UNMARK_EXTRACTED, {"ids": doc_ids})

    def mark_embedded(self, doc_ids: list[str], model: str) -> None:
        self.graph.query(MARK_EMBEDDED, {"ids": doc_ids, "model": model})

    def delete(self, doc_id: str) -> int | None:
        """Delete a document and its chunks; the number of chunks, or None if not there."""
        rows = self.graph.query(DELETE_DOCUMENT, {"id": doc_id})
        return int(rows[0][0]) if rows else None

    # -- staged writes ------------------------------------------------------------------------

    def begin_many(self, docs: list[Document]) -> list[str]:
        """Create a staging node (and its lease) per document; return their keys."""
        keys = [uuid.uuid4().hex for _ in docs]
        KEEPER.hold(self.graph, keys, self.lease_ttl_s)
        rows = [{"key": key, **_doc_row(doc)} for key, doc in zip(keys, docs, strict=True)]
        try:
            self.graph.query(
                CREATE_STAGING,
                {
                    "docs": rows, "owner_host": self.host, "owner_pid": os.getpid(),
                    "owner_start": process_start(os.getpid()),
                    "ttl_ms": int(self.lease_ttl_s * 1000),
                },
            )  # fmt: skip
        except BaseException:
            KEEPER.release(keys)
            raise
        return keys

    def add_chunks(self, chunks: list[tuple[str, Chunk]]) -> None:
        """Add chunks, each to the staging document of its key."""
        rows = [[key, _chunk_row(c)] for key, c in chunks]
        self.graph.query(ADD_CHUNKS, {"rows": rows})

    def write_whole(self, docs: list[tuple[Document, list[Chunk]]]) -> list[bool]:
        """Write documents with all their chunks in one atomic query (for small groups); for
        each, whether it replaced an older version."""
        rows = [[*_doc_row(doc).values(), [_chunk_row(c) for c in chunks]] for doc, chunks in docs]
        written = {row[0]: bool(row[1]) for row in self.graph.query(WRITE_WHOLE, {"docs": rows})}
        return [written[doc.name] for doc, _ in docs]

    def commit_many(self, keys: list[str], chunk_counts: list[int]) -> list[bool]:
        """Make the staged versions the documents, in one atomic query; for each key, whether
        it replaced an older version."""
        items = [{"key": k, "chunk_count": n} for k, n in zip(keys, chunk_counts, strict=True)]
        try:
            rows = self.graph.query(COMMIT, {"items": items})
        finally:
            KEEPER.release(keys)
        replaced = {row[0]: bool(row[1]) for row in rows}
        if set(replaced) != set(keys):
            raise StoreError("a staged document vanished before its commit")
        return [replaced[k] for k in keys]

    def claim_extraction(self, doc_ids: list[str]) -> tuple[str, set[str]]:
        """Claim `doc_ids` for this process's extraction; the claim's key (release it with
        `abort_many`) and the ids claimed: those no other live claim holds."""
        key = f"extract-{uuid.uuid4().hex}"
        KEEPER.hold(self.graph, [key], self.lease_ttl_s)
        try:
            rows = self.graph.query(
                CLAIM_EXTRACTION,
                {
                    "ids": doc_ids, "key": key, "owner_host": self.host,
                    "owner_pid": os.getpid(), "owner_start": process_start(os.getpid()),
                    "ttl_ms": int(self.lease_ttl_s * 1000),
                },
            )  # fmt: skip
        except BaseException:
            KEEPER.release([key])
            raise
        return key, set(rows[0][0]) if rows else set()

    def abort_many(self, keys: list[str]) -> None:
        KEEPER.release(keys)
        self.graph.query(DROP_STAGING, {"keys": keys})

    def drop_abandoned_staging(self) -> int:
        """Remove staging left by crashed ingests: a lease past its deadline (any machine's),
        a dead writer on this machine, or this process's own staging it no longer holds."""
        dropped = 0
        for key, host, pid, start, expired in self.graph.query(LIST_STAGING):
            if KEEPER.holds(key):
                abandoned = False  # ours, being written
            elif expired:
                abandoned = True  # not renewed in time: its writer is gone or stalled
            elif host == self.host:
                abandoned = pid == os.getpid() or not pid_alive(int(pid), start)
            else:
                abandoned = False  # another machine's writer, its lease still running
            if abandoned:
                self.graph.query(DROP_STAGING, {"keys": [key]})
                dropped += 1
        return dropped
