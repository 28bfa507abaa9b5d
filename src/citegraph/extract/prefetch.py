"""Offline extraction read while the store writes the documents.

Ingest writes a group of small documents in one query, and waits for the store while it runs.
The offline extractor needs nothing from the store (only the chunks, made before the write),
so a thread reads the group's names and relations meanwhile, chunk by chunk. Nothing is
written from it before the commit; after it, `extract_documents` takes each document's rows
as the thread hands them over (the store writing the first while the thread reads the rest),
and writes them as it would have written its own. A document the thread did not read (or a
thread that failed before reaching it) is extracted as usual; a thread that fails midway
through a document says so, and that document's rows are forgotten and read again.

A group too large for one query is written in batches of chunks, and each batch is handed to
the thread as it is written (`feed`), so a large document is read while it is stored, not
read back afterwards. What the thread holds before the commit is bounded (MAX_HELD_ROWS):
beyond it, the thread stops, and the document it was in (its handed-over rows forgotten) and
those after it are extracted after the commit as without it.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
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
Reader = Callable[[Extractor, Document, Iterable[Chunk], Callable[[Rows], None]], Read]


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
                self._owner.taken(payload)
                yield payload
            elif kind == "end":
                assert isinstance(payload, Read)
                self.end = payload
                return
            else:
                raise ReadFailed(str(payload))


# What a thread may hold before the commit lets it be written: beyond this many rows, reading
# ahead stops (that document and the rest are extracted after the commit, as without it), so
# memory stays bounded.
MAX_HELD_ROWS = 10_000
# Batches of chunks of a large document waiting to be read: the writer waits beyond this.
_MAX_WAITING_BATCHES = 4


class _Stopped(Exception):
    """Reading ahead stopped: too much held, or the write it went along with failed."""


class Prefetch:
    def __init__(self, extractor: Extractor, read: Reader, max_held_rows: int | None = None):
        self._extractor = extractor
        self._read = read
        self._max_held = MAX_HELD_ROWS if max_held_rows is None else max_held_rows
        self._held = 0
        self._thread: threading.Thread | None = None
        # (kind, document id, payload): "part" Rows, "end" Read, "failed" the error.
        self._events: queue.Queue[tuple[str, str, object]] = queue.Queue()
        # A large document's chunks, batch by batch as they are written: (id, chunks, last).
        self._fed: queue.Queue[tuple[str, list[Chunk], bool]] = queue.Queue(_MAX_WAITING_BATCHES)
        self._stopped = threading.Event()
        self._order: dict[str, int] = {}  # document id -> its place in the reading order
        self._taken = -1  # the place of the last document taken (events before it are gone)
        self._reached = -1  # the place of the document being read (or last read)
        self._failed_at: int | None = None  # the place of the document the thread failed on
        self._changed = threading.Condition()

    def start(self, documents: Sequence[tuple[Document, list[Chunk]]]) -> None:
        """Read `documents` on a thread of their own (once: later calls are ignored)."""
        self._start([(document, chunks) for document, chunks in documents])

    def start_fed(self, documents: Sequence[Document]) -> None:
        """Read `documents`, whose chunks come later through `feed` (a large document,
        written in batches), on a thread of their own."""
        self._start([(document, None) for document in documents])

    def feed(self, document: Document, chunks: list[Chunk], last: bool) -> None:
        """The next chunks of `document` (in order; `last`: its final ones), once they are
        made. Waits while the thread is behind; does nothing once it stopped."""
        while not self._stopped.is_set():
            try:
                self._fed.put((document.id, chunks, last), timeout=0.05)
                return
            except queue.Full:
                continue

    def stop(self) -> None:
        """Stop reading ahead (the write it went along with failed)."""
        self._stopped.set()

    def _start(self, documents: list[tuple[Document, list[Chunk] | None]]) -> None:
        if self._thread is not None:
            return
        self._order = {document.id: place for place, (document, _) in enumerate(documents)}
        self._thread = threading.Thread(
            target=self._run, args=(documents,), name="citegraph-prefetch", daemon=True
        )
        self._thread.start()

    def _fed_chunks(self, document_id: str) -> Iterator[Chunk]:
        while True:
            if self._stopped.is_set():
                raise _Stopped("stopped")
            try:
                doc_id, chunks, last = self._fed.get(timeout=0.05)
            except queue.Empty:
                continue
            assert doc_id == document_id, "chunks fed out of order"
            yield from chunks
            if last:
                return

    def _run(self, documents: list[tuple[Document, list[Chunk] | None]]) -> None:
        document: Document | None = None
        try:
            for place, (document, chunks) in enumerate(documents):
                with self._changed:
                    self._reached = place
                    self._changed.notify_all()

                def hand_over(rows: Rows, doc_id: str = document.id) -> None:
                    with self._changed:
                        self._held += len(rows.mentions) + len(rows.relations)
                        held = self._held
                    if held > self._max_held:
                        raise _Stopped(f"more than {self._max_held} rows read ahead")
                    self._events.put(("part", doc_id, rows))
                    # Give way: a thread waiting for the interpreter (the writer back from
                    # the store, the taker of these rows) runs now, not after the switch
                    # interval (5 ms) of a reader that never waits.
                    time.sleep(0)

                source = chunks if chunks is not None else self._fed_chunks(document.id)
                try:
                    end = self._read(self._extractor, document, source, hand_over)
                except Exception as exc:  # this document is read again after the commit
                    self._stopped.set()  # and so are the ones after it: a feeder waits no more
                    with self._changed:
                        self._failed_at = place
                    self._events.put(("failed", document.id, f"{type(exc).__name__}: {exc}"))
                    return
                self._events.put(("end", document.id, end))
        except BaseException:  # not an error of reading: no taker may wait for it forever
            self._stopped.set()
            if document is not None:
                self._events.put(("failed", document.id, "the reading thread stopped"))
            raise
        finally:
            with self._changed:
                self._reached = len(documents)
                self._changed.notify_all()

    def next_event(self) -> tuple[str, str, object]:
        return self._events.get()

    def taken(self, rows: Rows) -> None:
        """`rows` were taken to be written: no longer held."""
        with self._changed:
            self._held -= len(rows.mentions) + len(rows.relations)

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
