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
them from the cache. A gleaning round depends on the reply before it: it is asked ahead once
that reply is back (and could be read, for a first reply), under the same bounds and budget;
one that was not asked ahead by the time its turn comes is asked by the run itself.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

from ..models.chat import ChatReply
from ..values.documents import Chunk, Document
from .calls import CachingExtractor, GleaningExtractor, Spending, Windows, paid, window_text


@dataclass
class _Asked:
    """A call asked ahead: its reply to come, the tokens it reserved, what it cost to send,
    and the conversation it belongs to (the window, the replies before it)."""

    reply: Future[ChatReply]
    reserved: int
    prompt: Callable[[], int]
    text: str
    title: str | None
    earlier: tuple[ChatReply, ...] = ()
    followed: bool = False  # its gleaning round is asked ahead, or never will be


class AskAhead:
    def __init__(self, extractor: CachingExtractor, concurrency: int, spending: Spending):
        self._extractor = extractor
        self._spending = spending
        self._budget = spending.budget
        self._cache = spending.cache
        self._limit = 2 * concurrency  # asked and not yet taken
        self._pool = ThreadPoolExecutor(concurrency, thread_name_prefix="citegraph-ask")
        self._waiting: deque[tuple[str, str, str | None]] = deque()  # (key, text, title)
        self._asked: dict[str, _Asked] = {}
        self._rounds = extractor.gleanings if isinstance(extractor, GleaningExtractor) else 0

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
        so its tokens count): the gleaning rounds of replies already back first, as the run
        takes them before the windows after."""
        if self._rounds and not self._follow():
            return  # a round the budget has no room for comes first: nothing after it
        while self._waiting and len(self._asked) < self._limit:
            key, text, title = self._waiting[0]
            prompt = partial(self._extractor.prompt_tokens, text, title)
            if not self._ask(key, prompt, partial(self._extractor.ask, text, title), text, title):
                return  # left to the run, which stops there when its turn comes
            self._waiting.popleft()

    def _ask(
        self,
        key: str,
        prompt: Callable[[], int],
        ask: Callable[[], ChatReply],
        text: str,
        title: str | None,
        earlier: tuple[ChatReply, ...] = (),
    ) -> bool:
        """Send one call on a worker, its prompt and a reply allowance reserved first;
        False when the budget has no room for it."""
        reserved = prompt() + self._budget.reply_allowance
        if not self._budget.reserve(reserved):
            return False
        self._asked[key] = _Asked(self._pool.submit(ask), reserved, prompt, text, title, earlier)
        return True

    def _follow(self) -> bool:
        """Ask ahead the gleaning round after each reply asked ahead that is back; False
        when the budget had no room for one (then nothing after it is asked ahead)."""
        assert isinstance(self._extractor, GleaningExtractor)
        extractor = self._extractor
        for asked in list(self._asked.values()):
            if len(self._asked) >= self._limit:
                return True
            if asked.followed or not asked.reply.done() or asked.reply.cancelled():
                continue
            if asked.reply.exception() is not None or len(asked.earlier) >= self._rounds:
                asked.followed = True
                continue
            reply = asked.reply.result()
            asked.followed = True
            if not asked.earlier and extractor.read(reply, calls=0).unreadable:
                continue  # no round follows a first reply that could not be read
            earlier = (*asked.earlier, reply)
            text, title = asked.text, asked.title
            key = extractor.glean_key(text, title, earlier)
            if key in self._asked or (self._cache is not None and self._cache.get_many([key])):
                continue  # already asked, or no call to make
            prompt = partial(extractor.glean_prompt_tokens, text, title, earlier)
            glean = partial(extractor.glean, text, title, earlier)
            if not self._ask(key, prompt, glean, text, title, earlier):
                asked.followed = False  # tried again once a reply frees budget
                return False
        return True

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
        try:
            return asked.reply.result()
        finally:
            self._budget.release(asked.reserved)

    def close(self, wait: bool = True) -> None:
        """Ask nothing more; wait for the calls in flight, and count and cache the replies
        not taken (paid for: the next run takes them from the cache). Without `wait` (the
        run was stopped by hand), only what is already back is kept."""
        self._waiting.clear()
        for asked in self._asked.values():
            asked.reply.cancel()  # not started yet: never sent
        self._pool.shutdown(wait=wait)
        left, self._asked = self._asked, {}
        for key, asked in left.items():
            self._budget.release(asked.reserved)
            reply = asked.reply
            if not reply.done() or reply.cancelled() or reply.exception() is not None:
                continue
            paid(self._spending, key, reply.result(), asked.prompt, self._extractor.name)
