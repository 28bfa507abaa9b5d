"""Model calls of extraction: each reply taken from the cache, or asked within the budget
(and then cached), with what it cost counted; gleaning rounds after the first reply; and
calls asked ahead (extract/ahead.py) taken when their window's turn comes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..models.chat import ChatReply
from ..values.documents import Chunk
from ..values.proposals import ExtractionReport, Proposal, merged
from .cost import TokenBudget, count_tokens

if TYPE_CHECKING:
    from .ahead import AskAhead


@runtime_checkable
class ProposingExtractor(Protocol):
    """Proposes entities and relations for a chunk (`LLMExtractor`); grounding keeps what is
    located in the chunk's stored bytes."""

    name: str

    def propose(self, text: str, title: str | None = None) -> Proposal: ...


@runtime_checkable
class CachingExtractor(Protocol):
    """A proposing extractor whose calls can be cached, counted before they are made and
    held to a budget (`LLMExtractor`)."""

    name: str

    def propose(self, text: str, title: str | None = None) -> Proposal: ...
    def cache_key(self, text: str, title: str | None) -> str: ...
    def prompt_tokens(self, text: str, title: str | None) -> int: ...
    def ask(self, text: str, title: str | None) -> ChatReply: ...
    def read(self, reply: ChatReply, calls: int = 1) -> Proposal: ...


@runtime_checkable
class GleaningExtractor(CachingExtractor, Protocol):
    """A caching extractor that may ask again, in the same conversation, for what its
    replies so far missed (`gleanings` rounds; `LLMExtractor`)."""

    gleanings: int

    def glean_key(self, text: str, title: str | None, earlier: Sequence[ChatReply]) -> str: ...
    def glean_prompt_tokens(
        self, text: str, title: str | None, earlier: Sequence[ChatReply]
    ) -> int: ...
    def glean(self, text: str, title: str | None, earlier: Sequence[ChatReply]) -> ChatReply: ...


def chunks_per_call(extractor: object) -> int:
    """How many consecutive chunks one model call covers (1 for an extractor that does not
    say)."""
    return max(1, int(getattr(extractor, "chunks_per_call", 1)))


class Windows:
    """The chunks one model call is sent: `per_call` consecutive chunks of a document, a
    PDF's running headers and footers set aside (they name nothing the text says); a
    document's last window may hold fewer. One rule for extraction, the calls asked ahead
    and the estimate, so that all three send, and cache, the same windows."""

    def __init__(self, per_call: int):
        self.per_call = per_call
        self._window: list[Chunk] = []

    def add(self, chunk: Chunk) -> list[Chunk] | None:
        """Add the next chunk; the window it completes, if it does."""
        if chunk.furniture:
            return None
        self._window.append(chunk)
        if len(self._window) < self.per_call:
            return None
        full, self._window = self._window, []
        return full

    def rest(self) -> list[Chunk] | None:
        """The document's last window, shorter than the others (None if there is none)."""
        rest, self._window = self._window, []
        return rest or None


def window_text(window: Sequence[Chunk]) -> str:
    return "".join(chunk.text for chunk in window)


def concurrency(extractor: object) -> int:
    """How many calls of `extractor` may be in flight at once (1 for one at a time)."""
    return max(1, int(getattr(extractor, "concurrency", 1) or 1))


class ReplyCache(Protocol):
    def get_many(self, keys: list[str]) -> dict[str, ChatReply]: ...
    def put(self, key: str, reply: ChatReply, model: str) -> None: ...


@dataclass
class Spending:
    """What model extraction may spend and reuse: a reply cache, a token budget, and a
    callback per chunk done (a progress bar). `stopped` says why a run ended early."""

    cache: ReplyCache | None = None
    budget: TokenBudget = field(default_factory=lambda: TokenBudget(None))
    on_chunk: Callable[[int], None] | None = None  # the chunk's size in bytes
    stopped: str | None = None
    # What the run spent, documents left unfinished included.
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached: int = 0
    # The calls asked ahead, for an extractor that allows more than one in flight.
    ahead: AskAhead | None = None
    # Documents another process was extracting when the run began: left to it.
    busy: list[str] = field(default_factory=list)


class OutOfBudget(Exception):
    """The next call would pass the token budget."""


def _reply(
    key: str,
    prompt: Callable[[], int],
    ask: Callable[[], ChatReply],
    model: str,
    spending: Spending,
    report: ExtractionReport,
) -> tuple[ChatReply, int]:
    """One call's reply: asked ahead, from the cache, or asked now within the budget (and
    then cached); with the calls it cost (0 from the cache)."""
    reply = spending.ahead.take(key) if spending.ahead is not None else None
    if reply is None:
        if spending.cache is not None:
            cached = spending.cache.get_many([key]).get(key)
            if cached is not None:
                report.cached += 1
                spending.cached += 1
                return cached, 0
        if not spending.budget.admits(prompt()):
            raise OutOfBudget
        reply = ask()
    paid(spending, key, reply, prompt, model)
    if spending.ahead is not None:
        spending.ahead.top_up()  # with this reply's tokens spent
    return reply, 1


def paid(
    spending: Spending, key: str, reply: ChatReply, prompt: Callable[[], int], model: str
) -> None:
    """Count a call made (its tokens as the provider says, else as counted here) and cache
    its reply."""
    spent_in = reply.input_tokens if reply.input_tokens is not None else prompt()
    spent_out = reply.output_tokens if reply.output_tokens is not None else count_tokens(reply.text)
    spending.budget.spend(spent_in + spent_out)
    spending.calls += 1
    spending.input_tokens += reply.input_tokens or 0
    spending.output_tokens += reply.output_tokens or 0
    if spending.cache is not None:
        spending.cache.put(key, reply, model)


def propose(
    extractor: ProposingExtractor,
    text: str,
    title: str | None,
    spending: Spending,
    report: ExtractionReport,
) -> Proposal:
    """What `extractor` proposes for `text`: its first reply, then its gleaning rounds."""
    if not isinstance(extractor, CachingExtractor):
        return extractor.propose(text, title)
    reply, calls = _reply(
        extractor.cache_key(text, title),
        partial(extractor.prompt_tokens, text, title),
        partial(extractor.ask, text, title),
        extractor.name,
        spending,
        report,
    )
    proposal = extractor.read(reply, calls=calls)
    if proposal.unreadable or not isinstance(extractor, GleaningExtractor):
        return proposal  # nothing to glean after a reply that could not be read
    replies = [reply]
    for _ in range(extractor.gleanings):
        earlier = list(replies)
        reply, calls = _reply(
            extractor.glean_key(text, title, earlier),
            partial(extractor.glean_prompt_tokens, text, title, earlier),
            partial(extractor.glean, text, title, earlier),
            extractor.name,
            spending,
            report,
        )
        replies.append(reply)
        proposal = merged(proposal, extractor.read(reply, calls=calls))
    return proposal
