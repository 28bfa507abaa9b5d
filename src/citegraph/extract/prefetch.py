"""Offline extraction read while the store writes the documents.

Ingest writes a group of small documents in one query, and waits for the store while it runs.
The offline extractor needs nothing from the store (only the chunks, made before the write),
so a thread reads the group's names and relations meanwhile, chunk by chunk. Nothing is
written from it before the commit; after it, `extract_documents` takes each document's rows
as the thread hands them over (the store writing the first while the thread reads the rest),
and writes them as it would have written its own. A document the thread did not read (or a
thread that failed before reaching it) is extracted as usual; a thread that fails midway
through a document says so, and that document's rows are forgotten and read again.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..values.documents import Chunk, Document
from ..values.proposals import ExtractionReport
from .offline import Extractor
from .writes import Rows


@dataclass
class Read:
    """The end of one document's reading: its report, and its chunks' sizes (for a progress
    bar, replayed when the rows are taken)."""

    report: ExtractionReport
    chunk_bytes: list[int]


# extract/run.py's reading of one document: each part of its rows is handed to the callback
# as it is read (nothing is written), and the end is returned.
Reader = Callable[[Extractor, Document, Sequence[Chunk], Callable[[Rows], None]], Read]


class ReadFailed(Exception):
    """The reading thread failed in the middle of a document (parts of it were handed over)."""


class Reading:
    """One document as the thread reads it: `parts()` yields its rows in order, then `end`
    holds its report."""

    def __init__(self, owner: Prefetch, document_id: str):
        self._owner = owner
        self._id = document_id
        self.end: Read | None = None

    def parts(self) -> Iterator[Rows]:
        while True:
            kind, doc_id, payload = self._owner.next_event()
            if doc_id != self._id:
                continue  # an earlier document the caller did not take: nothing of it written
            if kind == "part":
                assert isinstance(payload, Rows)
                yield payload
            elif kind == "end":
                assert isinstance(payload, Read)
                self.end = payload
                return
            else:
                raise ReadFailed(str(payload))


class Prefetch:
    def __init__(self, extractor: Extractor, read: Reader):
        self._extractor = extractor
        self._read = read
        self._thread: threading.Thread | None = None
        # (kind, document id, payload): "part" Rows, "end" Read, "failed" the error.
        self._events: queue.Queue[tuple[str, str, object]] = queue.Queue()
        self._order: dict[str, int] = {}  # document id -> its place in the reading order
        self._taken = -1  # the place of the last document taken (events before it are gone)
        self._reached = -1  # the place of the document being read (or last read)
        self._failed_at: int | None = None  # the place of the document the thread failed on
        self._changed = threading.Condition()

    def start(self, documents: Sequence[tuple[Document, list[Chunk]]]) -> None:
        """Read `documents` on a thread of their own (once: later calls are ignored)."""
        if self._thread is not None:
            return
        self._order = {document.id: place for place, (document, _) in enumerate(documents)}
        self._thread = threading.Thread(
            target=self._run, args=(list(documents),), name="citegraph-prefetch", daemon=True
        )
        self._thread.start()

    def _run(self, documents: list[tuple[Document, list[Chunk]]]) -> None:
        try:
            for place, (document, chunks) in enumerate(documents):
                with self._changed:
                    self._reached = place
                    self._changed.notify_all()

                def hand_over(rows: Rows, doc_id: str = document.id) -> None:
                    self._events.put(("part", doc_id, rows))

                try:
                    end = self._read(self._extractor, document, chunks, hand_over)
                except Exception as exc:  # this document is read again after the commit
                    with self._changed:
                        self._failed_at = place
                    self._events.put(("failed", document.id, f"{type(exc).__name__}: {exc}"))
                    return
                self._events.put(("end", document.id, end))
        finally:
            with self._changed:
                self._reached = len(documents)
                self._changed.notify_all()

    def next_event(self) -> tuple[str, str, object]:
        return self._events.get()

    def take(self, document: Document) -> Reading | None:
        """`document` as the thread reads it; None if the thread does not read it (not in
        its group, taken out of order, or the thread failed before reaching it)."""
        place = self._order.get(document.id)
        if self._thread is None or place is None or place <= self._taken:
            return None
        with self._changed:
            self._changed.wait_for(lambda: self._reached >= place)
            if self._failed_at is not None and self._failed_at < place:
                return None  # it failed on an earlier document
            self._taken = place
        return Reading(self, document.id)
