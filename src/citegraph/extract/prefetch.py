"""Offline extraction read while the store writes the documents.

Ingest writes a group of small documents in one query, and waits for the store while it runs.
The offline extractor needs nothing from the store (only the chunks, made before the write),
so a thread reads the group's names and relations meanwhile. Nothing is written from it before
the commit: `extract_documents` takes what was read, document by document, and writes it as
it would have written its own; a document the thread did not read (or a thread that failed)
is extracted as usual.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..values.documents import Chunk, Document
from ..values.proposals import ExtractionReport
from .mentions import MentionRows
from .offline import Extractor


@dataclass
class Prefetched:
    """What extracting one document found: its report, rows, and its chunks' sizes (for a
    progress bar, replayed when the rows are taken)."""

    report: ExtractionReport
    mentions: MentionRows
    relations: list[dict[str, object]]
    chunk_bytes: list[int]


# extract/run.py's reading of one document into rows, without writing them.
Reader = Callable[[Extractor, Document, Sequence[Chunk]], Prefetched]


class Prefetch:
    def __init__(self, extractor: Extractor, read: Reader):
        self._extractor = extractor
        self._read = read
        self._thread: threading.Thread | None = None
        self._done: dict[str, Prefetched] = {}
        self._failed = False

    def start(self, documents: Sequence[tuple[Document, list[Chunk]]]) -> None:
        """Read `documents` on a thread of their own (once: later calls are ignored)."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(
            target=self._run, args=(list(documents),), name="citegraph-prefetch", daemon=True
        )
        self._thread.start()

    def _run(self, documents: list[tuple[Document, list[Chunk]]]) -> None:
        try:
            for document, chunks in documents:
                self._done[document.id] = self._read(self._extractor, document, chunks)
        except Exception:  # extracted as usual after the commit, where an error is reported
            self._failed = True

    def take(self, document: Document) -> Prefetched | None:
        """What was read of `document` (waiting for the thread); None if it was not read."""
        if self._thread is None:
            return None
        self._thread.join()
        if self._failed:
            return None
        return self._done.pop(document.id, None)
