"""Model calls asked ahead (extract/ahead.py): up to `concurrency` in flight while replies
are grounded in order; the same stored result as one call at a time; the budget held with
calls in flight; replies paid for and not taken cached for the next run; a failed call is
the run's error, with nothing left hanging."""

from __future__ import annotations

import itertools
import json
import re
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from citegraph import ChatModelError, Message, ScriptedChat, Workspace
from citegraph.config import load_settings
from citegraph.extract.ahead import AskAhead
from citegraph.extract.calls import Spending
from citegraph.extract.cost import TokenBudget
from citegraph.extract.llm import GLEAN_PROMPT, LLMExtractor
from citegraph.models.openai_chat import OpenAIChat
from citegraph.testing import OpenAIStubServer

from helpers import cli, counted_usage, env_with, replying

SERVICES = ["checkout", "payment", "fraud", "rules", "cart", "pricing", "search", "ads", "mail"]
TEXT = "\n\n".join(
    f"The {a} service calls the {b} service for every request, step {n}."
    for n, (a, b) in enumerate(itertools.pairwise(SERVICES))
).encode()


def _reply(messages: Sequence[Message]) -> str:
    """Every relation of the passage, quoted."""
    passage = messages[-1].content.split("Passage:\n", 1)[1]
    stated = re.findall(r"The (\w+) service calls the (\w+) service", passage)
    return json.dumps({
        "entities": [{"name": f"{n} service", "type": "service"} for pair in stated for n in pair],
        "relations": [{"source": f"{a} service", "target": f"{b} service", "type": "calls",
                       "quote": f"The {a} service calls the {b} service"} for a, b in stated],
    })  # fmt: skip


class SlowModel(ScriptedChat):
    """Replies after a pause, counting the calls in flight at once."""

    def __init__(self, fail_on: str | None = None) -> None:
        super().__init__(self._answer, name="slow")
        self.fail_on = fail_on
        self._lock = threading.Lock()
        self.in_flight = self.most_in_flight = 0

    def _answer(self, messages: Sequence[Message]) -> str:
        with self._lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            time.sleep(0.05)
            if self.fail_on is not None and self.fail_on in messages[-1].content:
                raise ChatModelError("the chat model 'slow' failed: 503")
            return _reply(messages)
        finally:
            with self._lock:
                self.in_flight -= 1


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    settings = replace(load_settings(home=tmp_path / "home"), chunk_bytes=80, extract=False)
    with Workspace(settings) as ws:
        yield ws


def _stated(workspace: Workspace, scope: str) -> list[tuple[str, str, int, int]]:
    return sorted(
        (r.source, r.target, r.start_byte, r.end_byte)
        for r in workspace.scope(scope).relations()
        if not r.weak
    )


def test_calls_are_in_flight_together_and_the_result_is_the_same(workspace: Workspace) -> None:
    one, many = SlowModel(), SlowModel()
    for name, model, concurrency in (("one", one, 1), ("many", many, 4)):
        scope = workspace.scope(name)
        scope.ingest(TEXT, name="services.md")
        run = scope.extract(LLMExtractor(model, chunks_per_call=1, concurrency=concurrency))
        assert (run.calls, run.relations) == (8, 8)
    assert one.most_in_flight == 1
    assert 2 <= many.most_in_flight <= 4
    assert _stated(workspace, "one") == _stated(workspace, "many")
    assert len(_stated(workspace, "many")) == 8


def test_calls_of_many_small_documents_are_in_flight_together(workspace: Workspace) -> None:
    """Each document one window: the reader reads ahead across documents, not within one."""
    model = SlowModel()
    scope = workspace.scope("s")
    paragraphs = TEXT.decode().split("\n\n")
    scope.ingest_many([(f"p{n}.md", p.encode()) for n, p in enumerate(paragraphs)])
    run = scope.extract(LLMExtractor(model, concurrency=4))
    assert (run.documents, run.calls, run.relations) == (8, 8, 8)
    assert 2 <= model.most_in_flight <= 4


def test_the_budget_holds_with_calls_in_flight_and_paid_replies_are_kept(
    tmp_path: Path,
) -> None:
    settings = replace(load_settings(home=tmp_path / "home"), chunk_bytes=80, extract=False)
    stub = OpenAIStubServer(replying(_reply), usage=counted_usage)
    with stub as server, Workspace(settings) as ws:
        scope = ws.scope("s")
        scope.ingest(TEXT, name="services.md")
        chat = OpenAIChat("stub", base_url=server.url, api_key="x")
        extractor = LLMExtractor(chat, chunks_per_call=1, concurrency=4)
        estimate = scope.extraction_estimate(extractor)
        assert estimate.calls == 8
        # Room for about half the prompts and one reply allowance.
        budget = estimate.prompt_tokens // 2 + 1000
        run = scope.extract(extractor, max_tokens=budget)
        assert run.stopped is not None and run.documents == 0
        assert 0 < run.calls < 8 and len(server.requests) == run.calls
        assert run.input_tokens + run.output_tokens <= budget
        # Every reply paid for is in the cache: the next run buys only the rest.
        rest = scope.extract(extractor)
        assert rest.stopped is None and rest.cached == run.calls
        assert run.calls + rest.calls == 8 == len(server.requests)
        assert len([r for r in scope.relations() if not r.weak]) == 8


def test_a_failed_call_is_the_runs_error_and_nothing_hangs(workspace: Workspace) -> None:
    scope = workspace.scope("s")
    scope.ingest(TEXT, name="services.md")
    model = SlowModel(fail_on="fraud service calls")
    with pytest.raises(ChatModelError, match="503"):
        scope.extract(LLMExtractor(model, chunks_per_call=1, concurrency=4))
    assert model.in_flight == 0  # every call in flight ended before the error was raised
    assert not scope.document("services.md").extracted
    # The replies that came back were cached: the next run asks only for the others.
    healthy = SlowModel()
    run = scope.extract(LLMExtractor(healthy, chunks_per_call=1, concurrency=4))
    assert run.calls + run.cached == 8 and run.cached >= 1
    assert len(healthy.calls) == run.calls


def test_the_extract_command_asks_four_at_a_time_by_default(tmp_path: Path) -> None:
    home = tmp_path / "home"
    doc = tmp_path / "services.md"
    doc.write_bytes(TEXT)
    off = env_with(CITEGRAPH_EXTRACT="false", CITEGRAPH_CHUNK_BYTES="80")
    assert cli("ingest", str(doc), "--home", str(home), env=off).returncode == 0
    lock, seen = threading.Lock(), {"now": 0, "most": 0}

    def respond(messages: list[dict[str, str]]) -> str:
        with lock:
            seen["now"] += 1
            seen["most"] = max(seen["most"], seen["now"])
        time.sleep(0.1)
        with lock:
            seen["now"] -= 1
        return replying(_reply)(messages)

    with OpenAIStubServer(respond) as server:
        env = env_with(CITEGRAPH_CHAT_BASE_URL=server.url, CITEGRAPH_CHAT_API_KEY="x")
        done = cli("extract", "--llm", "--model", "stub", "--home", str(home), "--json", env=env)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["relations"] == 8
    # Four chunks a call by default: two calls, both in flight at once.
    assert len(server.requests) == 2 and seen["most"] == 2


def test_a_window_the_run_asks_itself_is_never_asked_ahead_after(workspace: Workspace) -> None:
    """A window held back by the budget, then reached by the run (which asks it itself once
    the calls before it spent less than they had reserved), must not be asked again."""
    scope = workspace.scope("s")
    text = (
        b"Alpha calls the beta service for every request it serves.\n\n"
        b"Gamma calls the delta service for every request it serves.\n"
    )
    scope.ingest(text, name="d.md")
    document = scope.document("d.md")
    chunks = list(scope.chunks(document.id))
    assert len(chunks) == 2
    chat = ScriptedChat(lambda _: '{"entities": []}', name="counting")
    extractor = LLMExtractor(chat, chunks_per_call=1, concurrency=2)
    budget = TokenBudget(100_000)
    ahead = AskAhead(extractor, 2, Spending(budget=budget))
    assert budget.reserve(100_000)  # nothing fits now: both windows wait
    read = ahead.reader([document], lambda _: chunks, 1)(document)
    assert next(read) == chunks[0] and chat.calls == []  # both planned, neither asked
    budget.release(100_000)
    first = extractor.cache_key(chunks[0].text, document.title)
    assert ahead.take(first) is None  # not asked ahead: the run asks it itself
    ahead.top_up()  # room now: the second window is asked ahead, the first never
    ahead.close()
    asked = [call[-1].content for call in chat.calls]
    assert sum("Alpha" in text for text in asked) == 0
    assert sum("Gamma" in text for text in asked) == 1


class SlowGleaner(SlowModel):
    """A slow model whose gleaning rounds add nothing, counting the rounds in flight."""

    def __init__(self) -> None:
        super().__init__()
        self.rounds_in_flight = self.most_rounds_in_flight = 0

    def _answer(self, messages: Sequence[Message]) -> str:
        if messages[-1].content != GLEAN_PROMPT:
            return super()._answer(messages)
        with self._lock:
            self.rounds_in_flight += 1
            self.most_rounds_in_flight = max(self.most_rounds_in_flight, self.rounds_in_flight)
        try:
            time.sleep(0.05)
            return '{"entities": [], "relations": []}'
        finally:
            with self._lock:
                self.rounds_in_flight -= 1


def test_gleaning_rounds_are_asked_ahead_once_their_first_reply_is_back(
    workspace: Workspace,
) -> None:
    one, many = SlowGleaner(), SlowGleaner()
    for name, model, concurrency in (("one", one, 1), ("many", many, 4)):
        scope = workspace.scope(name)
        scope.ingest(TEXT, name="services.md")
        extractor = LLMExtractor(model, chunks_per_call=1, gleanings=1, concurrency=concurrency)
        run = scope.extract(extractor)
        assert (run.calls, run.relations, len(model.calls)) == (16, 8, 16)  # none twice
    assert one.most_rounds_in_flight == 1
    assert many.most_rounds_in_flight >= 2  # rounds of several windows at once
    assert _stated(workspace, "one") == _stated(workspace, "many")
    # Every reply cached, rounds included: another run makes no call.
    again = workspace.scope("many").extract(
        LLMExtractor(many, chunks_per_call=1, gleanings=1, concurrency=4), again=True
    )
    assert (again.calls, again.cached, len(many.calls)) == (0, 16, 16)


def test_no_round_is_asked_ahead_after_an_unreadable_first_reply(workspace: Workspace) -> None:
    model = ScriptedChat(lambda _: "I cannot help with that.", name="unreadable")
    scope = workspace.scope("s")
    scope.ingest(TEXT, name="services.md")
    run = scope.extract(LLMExtractor(model, chunks_per_call=1, gleanings=2, concurrency=4))
    assert run.calls == len(model.calls) == 8
    assert all(call[-1].content != GLEAN_PROMPT for call in model.calls)


def test_the_budget_holds_with_rounds_asked_ahead(tmp_path: Path) -> None:
    settings = replace(load_settings(home=tmp_path / "home"), chunk_bytes=80, extract=False)

    def reply(messages: Sequence[Message]) -> str:
        if messages[-1].content == GLEAN_PROMPT:
            return '{"entities": [], "relations": []}'
        return _reply(messages)

    stub = OpenAIStubServer(replying(reply), usage=counted_usage)
    with stub as server, Workspace(settings) as ws:
        scope = ws.scope("s")
        scope.ingest(TEXT, name="services.md")
        chat = OpenAIChat("stub", base_url=server.url, api_key="x")
        extractor = LLMExtractor(chat, chunks_per_call=1, gleanings=1, concurrency=4)
        estimate = scope.extraction_estimate(extractor)
        assert estimate.calls == 16
        budget = estimate.prompt_tokens // 2 + 1000
        run = scope.extract(extractor, max_tokens=budget)
        assert run.stopped is not None and 0 < run.calls < 16
        assert len(server.requests) == run.calls
        assert run.input_tokens + run.output_tokens <= budget
        rest = scope.extract(extractor)
        assert rest.stopped is None and rest.cached == run.calls
        assert run.calls + rest.calls == 16 == len(server.requests)  # none paid twice
        assert len([r for r in scope.relations() if not r.weak]) == 8
