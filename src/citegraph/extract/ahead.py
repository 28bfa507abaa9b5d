"""Model calls asked ahead, so that a run waits for one reply at a time at most.

A chat model answers in seconds, and one call per window of chunks, made one after the
other, would make a large upload's extraction last as long as the sum of them. Here the
chunks are read ahead of extraction, across documents, and the first call of each coming
window is sent on a worker thread (at most `concurrency` at once); extraction still takes
each reply in order, grounds it and writes what holds, exactly as it would have without
(calls.py takes a reply asked ahead where it would have asked). Nothing but the model is
called from the workers.

Bounds: at most `2 x concurrency` replies are asked and not yet taken, and the reader holds
the chunks of about that many windows. The budget holds: each call asked ahead reserves its
prompt and a reply allowance first, and a call that does not fit is not asked ahead (the run
then stops where it would have). Replies that came back but were not taken (the run stopped,
or failed) are counted and cached on closing: they were paid for, and the next run takes
them from the cache. Gleaning rounds, which depend on the reply before them, are asked when
their turn comes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial

from ..models.chat import ChatReply
from ..values.documents import Chunk, Document
from .calls import CachingExtractor, Spending, Windows, paid, window_text


class AskAhead:
    def __init__(self, extractor: CachingExtractor, concurrency: int, spending: Spending):
        self._extractor = extractor
        self._spending = spending
        self._budget = spending.budget
        self._cache = spending.cache
        self._limit = 2 * concurrency  # asked and not yet taken
        self._pool = ThreadPoolExecutor(concurrency, thread_name_prefix="citegraph-ask")
        self._waiting: deque[tuple[str, str, str | None]] = deque()  # (key, text, title)
        # key -> (the reply, the tokens reserved, the window's text and title)
        self._asked: dict[str, tuple[Future[ChatReply], int, str, str | None]] = {}

    def reader(
        self,
        documents: Sequence[Document],
        chunks_of: Callable[[Document], Iterable[Chunk]],
        per_call: int,
    ) -> Callable[[Document], Iterator[Chunk]]:
        """A `chunks_of` for extracting `documents` in order, that reads ahead of it: each
        window of `per_call` chunks (a PDF's running headers and footers aside, as extraction
        forms them) is planned to be asked once read, in this document or the ones after it
        (a corpus of small documents has one window each). At most `2 x concurrency` windows'
        chunks are held ahead of extraction."""
        stream = self._stream(documents, chunks_of, per_call)
        held: deque[tuple[str, Chunk | None]] = deque()  # (document id, chunk; None: its end)
        ahead = 0  # chunks of text held

        def pull() -> bool:
            nonlocal ahead
            item = next(stream, None)
            if item is None:
                return False
            held.append(item)
            ahead += item[1] is not None and not item[1].furniture
            return True

        def chunks(document: Document) -> Iterator[Chunk]:
            nonlocal ahead
            while True:
                while ahead <= self._limit * per_call and pull():
                    pass
                if not held:
                    return
                doc_id, chunk = held.popleft()
                if chunk is None:
                    if doc_id == document.id:
                        return
                    continue  # the end of a document extraction did not ask for
                ahead -= not chunk.furniture
                if doc_id == document.id:
                    yield chunk

        return chunks

    def _stream(
        self,
        documents: Sequence[Document],
        chunks_of: Callable[[Document], Iterable[Chunk]],
        per_call: int,
    ) -> Iterator[tuple[str, Chunk | None]]:
        for document in documents:
            windows = Windows(per_call)
            for chunk in chunks_of(document):
                if (window := windows.add(chunk)) is not None:
                    self._plan(window_text(window), document.title)
                yield document.id, chunk
            if (window := windows.rest()) is not None:
                self._plan(window_text(window), document.title)
            yield document.id, None

    def _plan(self, text: str, title: str | None) -> None:
        key = self._extractor.cache_key(text, title)
        if key in self._asked or any(k == key for k, _, _ in self._waiting):
            return  # the same bytes twice: the second is answered from the cache
        if self._cache is not None and self._cache.get_many([key]):
            return  # no call to make
        self._waiting.append((key, text, title))
        self.top_up()

    def top_up(self) -> None:
        """Ask ahead what the limit and the budget now allow (after a reply is paid for,
        so its tokens count)."""
        while self._waiting and len(self._asked) < self._limit:
            key, text, title = self._waiting[0]
            reserved = self._extractor.prompt_tokens(text, title) + self._budget.reply_allowance
            if not self._budget.reserve(reserved):
                return  # left to the run, which stops there when its turn comes
            self._waiting.popleft()
            reply = self._pool.submit(self._extractor.ask, text, title)
            self._asked[key] = (reply, reserved, text, title)

    def take(self, key: str) -> ChatReply | None:
        """The reply asked ahead for `key`, once it is back (its error, if it failed); None
        when it was not asked ahead. Its reservation is released: the caller spends what
        it cost, then calls `top_up`."""
        asked = self._asked.pop(key, None)
        if asked is None:
            # Not asked yet (the budget held it back): the run asks it now, so it must
            # never be asked ahead after that.
            if any(k == key for k, _, _ in self._waiting):
                self._waiting = deque(w for w in self._waiting if w[0] != key)
            return None
        reply, reserved, _, _ = asked
        try:
            return reply.result()
        finally:
            self._budget.release(reserved)

    def close(self, wait: bool = True) -> None:
        """Ask nothing more; wait for the calls in flight, and count and cache the replies
        not taken (paid for: the next run takes them from the cache). Without `wait` (the
        run was stopped by hand), only what is already back is kept."""
        self._waiting.clear()
        for reply, _, _, _ in self._asked.values():
            reply.cancel()  # not started yet: never sent
        self._pool.shutdown(wait=wait)
        asked, self._asked = self._asked, {}
        for key, (reply, reserved, text, title) in asked.items():
            self._budget.release(reserved)
            if not reply.done() or reply.cancelled() or reply.exception() is not None:
                continue
            prompt = partial(self._extractor.prompt_tokens, text, title)
            paid(self._spending, key, reply.result(), prompt, self._extractor.name)
