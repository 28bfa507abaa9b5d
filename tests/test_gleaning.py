"""Gleaning (issue 13): an optional second call, off by default, that asks the model in the
same conversation for what its first reply missed. Each round is a call like the first:
grounded, cached, counted and held to the budget. Also: the estimate counts the chunks
extraction reads (a PDF's running headers and footers are not sent)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from citegraph import Message, ScriptedChat, Workspace
from citegraph.config import load_settings
from citegraph.extract.llm import GLEAN_PROMPT, SCHEMAS, LLMExtractor
from citegraph.testing import OpenAIStubServer

from conftest import dataset
from helpers import cli, counted_usage, env_with, replying, sent_tokens

TEXT = (
    b"The checkout service calls the payment service for every order. "
    b"The checkout service reads from the cart service before it does.\n"
)
FIRST = "The checkout service calls the payment service"
MISSED = "The checkout service reads from the cart service"


def _relation(source: str, target: str, kind: str, quote: str) -> dict[str, str]:
    return {"source": source, "target": target, "type": kind, "quote": quote}


def _model(glean_reply: str | None = None) -> ScriptedChat:
    """A model whose first reply states one relation of two, and whose gleaning reply adds
    the other (again the first, and a name the passage never says)."""

    def reply(messages: Sequence[Message]) -> str:
        if messages[-1].content != GLEAN_PROMPT:
            return json.dumps({
                "entities": [{"name": "checkout service", "type": "service"}],
                "relations": [_relation("checkout service", "payment service", "calls", FIRST)],
            })  # fmt: skip
        if glean_reply is not None:
            return glean_reply
        return json.dumps({
            "entities": [{"name": "inventory service", "type": "service"}],
            "relations": [
                _relation("checkout service", "cart service", "reads", MISSED),
                _relation("checkout service", "payment service", "calls", FIRST),
            ],
        })  # fmt: skip

    return ScriptedChat(reply, name="scripted-glean")


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    settings = replace(load_settings(home=tmp_path / "home"), extract=False)
    with Workspace(settings) as ws:
        yield ws


def _stated(workspace: Workspace) -> list[tuple[str, str, str, str]]:
    scope = workspace.scope("s")
    return sorted((r.source, r.type, r.target, r.quote) for r in scope.relations() if not r.weak)


def test_gleaning_is_off_by_default_and_one_call_is_made(workspace: Workspace) -> None:
    chat = _model()
    extractor = LLMExtractor(chat)
    assert (extractor.gleanings, extractor.name) == (0, "llm:scripted-glean:extract/1")
    scope = workspace.scope("s")
    scope.ingest(TEXT, name="checkout.md")
    run = scope.extract(extractor)
    assert (run.calls, len(chat.calls)) == (1, 1)
    assert [r[1] for r in _stated(workspace)] == ["calls"]


def test_a_gleaning_round_adds_what_the_first_reply_missed_and_is_grounded(
    workspace: Workspace,
) -> None:
    chat = _model()
    scope = workspace.scope("s")
    scope.ingest(TEXT, name="checkout.md")
    run = scope.extract(LLMExtractor(chat, gleanings=1))
    assert (run.calls, len(chat.calls)) == (2, 2)
    # The second call goes on the same conversation: the first reply, then the question.
    second = chat.calls[1]
    assert [m.role for m in second] == ["system", "user", "assistant", "user"]
    assert second[:2] == chat.calls[0] and second[3].content == GLEAN_PROMPT
    assert "payment service" in second[2].content
    # The missed relation is kept, the repeated one once, the name not in the text dropped.
    assert _stated(workspace) == [
        ("checkout service", "calls", "payment service", FIRST),
        ("checkout service", "reads", "cart service", MISSED),
    ]
    assert run.dropped == {"not-in-source": 1}
    assert scope.entities("inventory service") == []
    stored = scope.stored_text(scope.document("checkout.md").id)
    for relation in scope.relations():
        assert stored[relation.start_byte : relation.end_byte].decode() == relation.quote
    assert scope.document("checkout.md").extracted_with == LLMExtractor(chat, gleanings=1).name


def test_gleaning_replies_are_cached_and_only_new_rounds_cost_calls(
    workspace: Workspace,
) -> None:
    chat = _model()
    scope = workspace.scope("s")
    scope.ingest(TEXT, name="checkout.md")
    assert scope.extract(LLMExtractor(chat)).calls == 1
    # Gleaning on: another extractor, so the document is extracted again; its first reply
    # comes from the cache, and only the gleaning round is a call.
    run = scope.extract(LLMExtractor(chat, gleanings=1))
    assert (run.calls, run.cached, len(chat.calls)) == (1, 1, 2)
    assert len(_stated(workspace)) == 2
    # Everything again: both replies from the cache, no call.
    again = scope.extract(LLMExtractor(chat, gleanings=1), again=True)
    assert (again.calls, again.cached, len(chat.calls)) == (0, 2, 2)
    assert len(_stated(workspace)) == 2  # replaced, not added


def test_an_unreadable_gleaning_reply_is_counted_and_the_first_reply_stands(
    workspace: Workspace,
) -> None:
    chat = _model(glean_reply="Sure! I also noticed the cart service.")
    scope = workspace.scope("s")
    scope.ingest(TEXT, name="checkout.md")
    run = scope.extract(LLMExtractor(chat, gleanings=2))
    assert run.calls == 3  # each round asked after the reply before it
    assert run.dropped == {"unreadable-reply": 2}
    assert [r[1] for r in _stated(workspace)] == ["calls"]


def test_no_gleaning_after_an_unreadable_first_reply(workspace: Workspace) -> None:
    chat = ScriptedChat(["I could not find anything."], name="scripted-prose")
    scope = workspace.scope("s")
    scope.ingest(TEXT, name="checkout.md")
    run = scope.extract(LLMExtractor(chat, gleanings=1))
    assert (run.calls, run.dropped) == (1, {"unreadable-reply": 1})


def test_gleaning_calls_are_estimated_and_held_to_the_budget(tmp_path: Path) -> None:
    respond = replying(lambda messages: _model().complete(messages).text)
    settings = replace(load_settings(home=tmp_path / "home"), extract=False)
    stub = OpenAIStubServer(respond, usage=counted_usage)
    with stub as server, Workspace(settings) as ws:
        from citegraph.models.openai_chat import OpenAIChat

        scope = ws.scope("s")
        scope.ingest(TEXT, name="checkout.md")
        extractor = LLMExtractor(OpenAIChat("stub", base_url=server.url, api_key="x"), gleanings=1)
        estimate = scope.extraction_estimate(extractor)
        assert (estimate.calls, estimate.cached) == (2, 0) and server.requests == []
        first_prompt = extractor.prompt_tokens(TEXT.decode(), None)
        assert estimate.prompt_tokens > 2 * first_prompt  # the round's prompt holds the first
        # Room for the first call and its reply allowance, not for the round after it.
        run = scope.extract(extractor, max_tokens=first_prompt + 1000 + 50)
        assert run.stopped is not None and (run.calls, len(server.requests)) == (1, 1)
        # What is left: the round, whose prompt is now known exactly (the first is cached).
        left = scope.extraction_estimate(extractor)
        assert (left.calls, left.cached) == (1, 1)
        finished = scope.extract(extractor)
        assert (finished.calls, finished.cached, len(server.requests)) == (1, 1, 2)
        assert server.requests[1]["messages"][-1]["content"] == GLEAN_PROMPT
        # The round's prompt was sent as estimated once the first reply was known.
        assert left.prompt_tokens == sent_tokens(server.requests[1]["messages"])
        assert scope.extraction_estimate(extractor).calls == 0  # all done
        assert len([r for r in scope.relations() if not r.weak]) == 2


def test_the_general_schema_shows_general_relation_types() -> None:
    chat = ScriptedChat(["{}"])
    entity_types, relation_types = SCHEMAS["general"]
    extractor = LLMExtractor(chat, entity_types=entity_types, relation_types=relation_types)
    system = extractor.messages("x", None)[0].content
    assert "part-of" in system and "person" in system and "calls" not in system
    assert extractor.name != LLMExtractor(chat).name  # another schema, another extractor
    with pytest.raises(ValueError, match="gleanings"):
        LLMExtractor(chat, gleanings=-1)


def test_the_extract_command_gleans_when_asked(tmp_path: Path) -> None:
    home = tmp_path / "home"
    doc = tmp_path / "checkout.md"
    doc.write_bytes(TEXT)
    off = env_with(CITEGRAPH_EXTRACT="false")
    assert cli("ingest", str(doc), "--home", str(home), env=off).returncode == 0
    without_model = cli("extract", "--gleanings", "1", "--home", str(home))
    assert without_model.returncode == 2 and "--llm" in without_model.stderr

    respond = replying(lambda messages: _model().complete(messages).text)
    with OpenAIStubServer(respond) as server:
        env = env_with(CITEGRAPH_CHAT_BASE_URL=server.url, CITEGRAPH_CHAT_API_KEY="x")
        args = ("extract", "--llm", "--model", "stub", "--gleanings", "1", "--home", str(home))
        figures = json.loads(cli(*args, "--estimate", "--json", env=env).stdout)
        assert figures["calls"] == 2 and server.requests == []
        done = cli(*args, "--json", env=env)
        assert done.returncode == 0, done.stderr
        assert (json.loads(done.stdout)["calls"], len(server.requests)) == (2, 2)
    listed = json.loads(cli("relations", "--home", str(home), "--json").stdout)["relations"]
    assert sorted(r["type"] for r in listed if not r["weak"]) == ["calls", "reads"]


def test_the_estimate_counts_only_the_chunks_extraction_sends(workspace: Workspace) -> None:
    """A PDF's running headers and footers are not sent to the model; the estimate counted
    them, so it said calls for windows no run would make, and never found them cached."""
    scope = workspace.scope("s")
    [result] = scope.ingest(dataset("pdfs/pdfplumber__federal-register-2020-17221.pdf"))
    chunks = list(scope.chunks(result.document.id))
    text_chunks = [c for c in chunks if not c.furniture]
    assert len(text_chunks) < len(chunks)
    chat = ScriptedChat(lambda _: '{"entities": [], "relations": []}', name="scripted-empty")
    extractor = LLMExtractor(chat, chunks_per_call=1)
    estimate = scope.extraction_estimate(extractor)
    assert (estimate.chunks, estimate.calls) == (len(text_chunks), len(text_chunks))
    run = scope.extract(extractor)
    assert run.calls == estimate.calls == len(chat.calls)
    after = scope.extraction_estimate(extractor, again=True)
    assert (after.calls, after.cached) == (0, len(text_chunks))


def test_propose_alone_gleans_too() -> None:
    """Without a run (no cache, no budget), `propose` makes the same rounds."""
    chat = _model()
    proposal = LLMExtractor(chat, gleanings=1).propose(TEXT.decode())
    assert (proposal.calls, len(chat.calls)) == (2, 2)
    assert sorted(r.type for r in proposal.relations) == ["calls", "calls", "reads"]
    assert not proposal.unreadable and proposal.unreadable_gleanings == 0


def test_the_estimate_counts_once_what_one_run_sends_twice(workspace: Workspace) -> None:
    """The same bytes in two documents: the run asks once and takes the second reply from
    the cache; the estimate said two calls (376 where 142 were made on 64 files holding four
    copies of each SQuAD article)."""
    scope = workspace.scope("s")
    scope.ingest_many([("a.md", TEXT), ("b.md", TEXT)])
    chat = _model()
    extractor = LLMExtractor(chat, gleanings=1)
    estimate = scope.extraction_estimate(extractor)
    assert (estimate.documents, estimate.calls, estimate.cached) == (2, 2, 2)
    run = scope.extract(extractor)
    assert (run.calls, run.cached) == (estimate.calls, estimate.cached) == (2, 2)
    assert len(chat.calls) == 2
