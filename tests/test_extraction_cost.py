"""Model extraction with its cost under control (issue 13): replies cached by (chunk bytes,
prompt, model, parameters), an estimate before spending, a hard token budget, and extraction
run after ingest."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from citegraph import Message, ScriptedChat, Workspace
from citegraph.config import load_settings
from citegraph.extract.llm import LLMExtractor
from citegraph.models.openai_chat import OpenAIChat
from citegraph.testing import OpenAIStubServer

from helpers import cli, counted_usage, env_with, replying, sent_tokens

PARAGRAPHS = [
    f"The {name} service calls the {callee} service for every order it handles, day {n}."
    for n, (name, callee) in enumerate(
        [("checkout", "payment"), ("payment", "fraud"), ("fraud", "rules"), ("cart", "pricing")]
    )
]
TEXT = "\n\n".join(PARAGRAPHS).encode() + b"\n"


def _reply(messages: Sequence[Message]) -> str:
    """A model that states the one relation of its passage, quoting it."""
    passage = messages[-1].content.split("Passage:\n", 1)[1].strip()
    words = passage.split()
    source, target = f"{words[1]} service", f"{words[5]} service"
    return json.dumps({
        "entities": [{"name": source, "type": "service"}, {"name": target, "type": "service"}],
        "relations": [{"source": source, "target": target, "type": "calls",
                       "quote": passage.split(" for every")[0]}],
    })  # fmt: skip


@pytest.fixture
def chat() -> ScriptedChat:
    return ScriptedChat(_reply, name="scripted-a")


@pytest.fixture
def workspace(tmp_path: Path, chat: ScriptedChat) -> Iterator[Workspace]:
    settings = replace(load_settings(home=tmp_path / "home"), chunk_bytes=100)
    with Workspace(settings, extractor=LLMExtractor(chat, chunks_per_call=1)) as ws:
        yield ws


def test_unchanged_bytes_cost_no_call_and_an_edit_costs_one(
    workspace: Workspace, chat: ScriptedChat
) -> None:
    scope = workspace.scope("s")
    [first] = scope.ingest(TEXT, name="orders.md")
    assert first.document.chunk_count == 4
    assert first.extraction is not None and first.extraction.calls == 4
    assert first.extraction.relations == 4
    assert first.document.extracted_with == "llm:scripted-a:extract/1"
    assert len(chat.calls) == 4
    # The same bytes again: nothing to do at all.
    scope.ingest(TEXT, name="orders.md")
    assert len(chat.calls) == 4
    # One paragraph edited: a call for that chunk only, the others' replies from the cache.
    edited = TEXT.replace(b"day 2.", b"day 9.")
    [second] = scope.ingest(edited, name="orders.md")
    assert second.extraction is not None
    assert (second.extraction.calls, second.extraction.cached) == (1, 3)
    assert len(chat.calls) == 5
    assert second.extraction.relations == 4
    assert len([r for r in scope.relations() if not r.weak]) == 4


def test_another_model_or_prompt_extracts_again(workspace: Workspace, chat: ScriptedChat) -> None:
    scope = workspace.scope("s")
    scope.ingest(TEXT, name="orders.md")
    assert len(chat.calls) == 4
    # The same model: nothing left to extract.
    assert scope.extract(LLMExtractor(chat, chunks_per_call=1)).documents == 0
    other = ScriptedChat(_reply, name="scripted-b")
    run = scope.extract(LLMExtractor(other, chunks_per_call=1))
    assert (run.documents, run.calls, run.cached) == (1, 4, 0)
    assert scope.document("orders.md").extracted_with == "llm:scripted-b:extract/1"
    # Back to the first model, another schema: another prompt, so new calls.
    run = scope.extract(LLMExtractor(chat, entity_types=("person",), chunks_per_call=1))
    assert (run.calls, run.cached) == (4, 0)
    # And the first prompt again: every reply is cached.
    run = scope.extract(LLMExtractor(chat, chunks_per_call=1))
    assert (run.calls, run.cached) == (0, 4)
    assert len([r for r in scope.relations() if not r.weak]) == 4  # replaced, not added


def test_the_estimate_counts_what_is_sent_and_the_budget_holds(tmp_path: Path) -> None:
    counted: list[int] = []

    def usage(messages: list[dict[str, str]], reply: str) -> tuple[int, int]:
        counted.append(sent_tokens(messages))  # the prompt the stub received
        return counted_usage(messages, reply)

    settings = replace(load_settings(home=tmp_path / "home"), chunk_bytes=100, extract=False)
    with OpenAIStubServer(replying(_reply), usage=usage) as server, Workspace(settings) as ws:
        scope = ws.scope("s")
        scope.ingest(TEXT, name="orders.md")
        scope.ingest(TEXT.replace(b"order", b"basket"), name="baskets.md")
        assert not scope.document("orders.md").extracted  # searchable, not yet extracted
        assert scope.context("Which service calls the fraud service?").items
        chat = OpenAIChat("stub", base_url=server.url, api_key="x")
        extractor = LLMExtractor(chat, chunks_per_call=1)
        estimate = scope.extraction_estimate(extractor)
        assert (estimate.documents, estimate.chunks, estimate.calls) == (2, 8, 8)
        assert server.requests == []  # an estimate spends nothing
        # A budget for part of the work: no call is made that could pass it.
        budget = estimate.prompt_tokens // 2 + 1000
        run = scope.extract(extractor, max_tokens=budget)
        assert run.stopped is not None and "budget" in run.stopped
        assert 0 < run.calls < 8 and run.left == 2 - run.documents
        assert run.input_tokens + run.output_tokens <= budget
        assert len(server.requests) == run.calls
        # The next run goes on; the replies already paid for are reused, none bought twice.
        rest = scope.extract(extractor)
        assert rest.stopped is None and rest.documents == run.left
        assert run.calls + rest.calls == 8 and len(server.requests) == 8
        assert estimate.prompt_tokens == sum(counted)  # what was estimated is what was sent
        assert len([r for r in scope.relations() if not r.weak]) == 8


def test_extract_command_estimates_runs_and_says_when_the_budget_stops_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    doc = tmp_path / "deploy.yaml"
    doc.write_text(
        "kind: Deployment\nmetadata:\n  name: checkout\nspec:\n  env:\n"
        '    - name: PAYMENT_ADDR\n      value: "payment:50051"\n'
    )
    off = env_with(CITEGRAPH_EXTRACT="false")
    assert cli("ingest", str(doc), "--home", str(home), env=off).returncode == 0
    assert json.loads(cli("relations", "--home", str(home), "--json").stdout)["relations"] == []
    estimate = cli("extract", "--estimate", "--json", "--home", str(home))
    assert estimate.returncode == 0, estimate.stderr
    assert json.loads(estimate.stdout) | {"prompt_tokens": 0} == {
        "extractor": "offline", "documents": 1, "chunks": 1, "cached": 0, "calls": 0,
        "prompt_tokens": 0,
    }  # fmt: skip
    done = cli("extract", "--home", str(home))
    assert done.returncode == 0, done.stderr
    assert "1 document(s) extracted" in done.stdout and "1 relation(s)" in done.stdout
    listed = json.loads(cli("relations", "--home", str(home), "--json").stdout)["relations"]
    assert [(r["source"], r["type"], r["target"]) for r in listed] == [
        ("checkout", "calls", "payment")
    ]
    assert (listed[0]["document"], listed[0]["page"]) == ("deploy.yaml", None)
    shown = cli("relations", "--home", str(home), "--limit", "1")
    assert shown.returncode == 0, shown.stderr
    assert "checkout --calls--> payment" in shown.stdout and "deploy.yaml" in shown.stdout
    assert "the first 1 shown" in " ".join(shown.stderr.split())  # never cut off silently
    cut = json.loads(cli("relations", "--home", str(home), "--limit", "1", "--json").stdout)
    whole = json.loads(cli("relations", "--home", str(home), "--json").stdout)
    assert (cut["truncated"], whole["truncated"]) == (True, False)
    again = cli("extract", "--home", str(home))
    assert again.returncode == 0 and "0 document(s) extracted" in again.stdout
    no_model = cli("extract", "--llm", "--home", str(home))
    assert no_model.returncode == 2 and "CITEGRAPH_CHAT_MODEL" in no_model.stderr


def test_a_budget_stop_from_the_command_line_exits_4(tmp_path: Path) -> None:
    home = tmp_path / "home"
    off = env_with(CITEGRAPH_EXTRACT="false", CITEGRAPH_CHUNK_BYTES="100")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "orders.md").write_bytes(TEXT)
    (tmp_path / "docs" / "baskets.md").write_bytes(TEXT.replace(b"order", b"basket"))
    assert cli("ingest", str(tmp_path / "docs"), "--home", str(home), env=off).returncode == 0

    with OpenAIStubServer(replying(_reply), usage=counted_usage) as server:
        env = env_with(CITEGRAPH_CHAT_BASE_URL=server.url, CITEGRAPH_CHAT_API_KEY="x")
        args = ("extract", "--llm", "--model", "stub", "--home", str(home))
        figures = json.loads(cli(*args, "--estimate", "--json", env=env).stdout)
        # Four chunks a document, one call for each document's four chunks.
        assert (figures["chunks"], figures["calls"]) == (8, 2) and server.requests == []
        # Room for the first call and its reply allowance, not for a second.
        budget = figures["prompt_tokens"] // 2 + 1000 + 20
        stopped = cli(*args, "--max-tokens", str(budget), env=env)
        assert stopped.returncode == 4, stopped.stderr
        assert "stopped:" in stopped.stderr and "1 document(s) left" in stopped.stderr
        assert len(server.requests) == 1
        finished = cli(*args, env=env)
        assert finished.returncode == 0, finished.stderr
        said = (stopped.stdout, stopped.stderr, finished.stdout, finished.stderr)
        assert "1 document(s) extracted" in finished.stdout, said
        assert len(server.requests) == 2
