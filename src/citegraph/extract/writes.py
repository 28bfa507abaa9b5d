"""Extraction's writes, made on a thread of their own.

The store is another process: while it writes one flush of mentions and relations, this
process reads the next chunks, instead of waiting for each write in turn. Writes keep their
order (one thread, a queue); at most `depth` flushes wait, so memory stays bounded; a write
that fails stops the ones after it, and its error is raised to the extracting thread at its
next flush or when it finishes.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from typing import Any

from ..store.entities import EntityRepository


@dataclass
class Rows:
    """One flush: mentions first (they create the entities), then the relations between them."""

    mentions: list[dict[str, Any]] = field(default_factory=list)
    relations: list[dict[str, Any]] = field(default_factory=list)

    def write(self, entities: EntityRepository) -> None:
        entities.write_mentions(self.mentions)
        entities.write_relations(self.relations)


class BackgroundWrites:
    def __init__(self, entities: EntityRepository, depth: int = 2):
        self._entities = entities
        self._queue: queue.Queue[Rows | None] = queue.Queue(maxsize=depth)
        self._error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._run, name="citegraph-extraction-writes", daemon=True
        )
        self._thread.start()

    def _run(self) -> None:
        while True:
            rows = self._queue.get()
            try:
                if rows is None:
                    return
                if self._error is None:  # after a failed write, the rest are dropped
                    rows.write(self._entities)
            except BaseException as exc:  # raised again on the extracting thread
                self._error = exc
            finally:
                self._queue.task_done()

    def put(self, rows: Rows) -> None:
        """Queue a flush (waiting while `depth` flushes are queued)."""
        self._raise()
        if rows.mentions or rows.relations:
            self._queue.put(rows)

    def idle(self) -> bool:
        """Whether every flush queued so far is written."""
        return self._queue.unfinished_tasks == 0

    def wait(self) -> None:
        """Return once every queued flush is written; raise the first write's error."""
        self._queue.join()
        self._raise()

    def close(self, quiet: bool = False) -> None:
        """Write what is queued and stop the thread; raise the first write's error, unless
        `quiet` (the caller is already raising an error of its own)."""
        self._queue.put(None)
        self._thread.join()
        if not quiet:
            self._raise()

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error
