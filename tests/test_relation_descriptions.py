"""A model's description of a relation (issue 13): stored as the model's words beside the
located quote, listed as such on every surface, never rendered as a citation. Asked for only
with `describe=True` (`extract --llm --describe`), which is another extractor."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from citegraph import ScriptedChat, Workspace
from citegraph.config import load_settings
from citegraph.extract.llm import DESCRIBE_RULE, LLMExtractor
from citegraph.surfaces.http import TokenFile, create_app
from citegraph.testing import OpenAIStubServer
from citegraph.values.proposals import MAX_DESCRIPTION_CHARS

from helpers import cli, env_with, replying

TEXT = b"The checkout service calls the payment service for every order.\n"
QUOTE = "The checkout service calls the payment service"
SAID = "Checkout charges each order through payments, probably over gRPC."


def _reply(description: object) -> str:
    relation = {
        "source": "checkout service", "target": "payment service", "type": "calls",
        "quote": QUOTE, "description": description,
    }  # fmt: skip
    return json.dumps({"entities": [], "relations": [relation]})


def _model(description: object = SAID) -> ScriptedChat:
    return ScriptedChat(lambda _: _reply(description), name="scripted-describe")


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    settings = replace(load_settings(home=tmp_path / "home"), extract=False)
    with Workspace(settings) as ws:
        yield ws


def test_describe_is_asked_only_when_turned_on_and_names_the_extractor() -> None:
    chat = _model()
    plain, described = LLMExtractor(chat), LLMExtractor(chat, describe=True)
    assert DESCRIBE_RULE not in plain.messages("x", None)[0].content
    assert DESCRIBE_RULE in described.messages("x", None)[0].content
    assert described.name == "llm:scripted-describe:extract/1+describe"
    assert plain.cache_key("x", None) != described.cache_key("x", None)


def test_a_description_is_stored_as_the_models_words_and_never_cited(
    workspace: Workspace,
) -> None:
    scope = workspace.scope("s")
    scope.ingest(TEXT, name="checkout.md")
    scope.extract(LLMExtractor(_model(), describe=True))
    [relation] = [r for r in scope.relations() if not r.weak]
    assert (relation.quote, relation.description) == (QUOTE, SAID)
    stored = scope.stored_text(relation.document_id or "")
    assert stored[relation.start_byte : relation.end_byte].decode() == QUOTE
    # A walk cites the located quote, never the description.
    [affected] = scope.impact("payment service").affected
    [hop] = affected.paths[0].hops
    assert hop.evidence is not None and hop.evidence.quote == QUOTE
    # Nor does an answer: its citations are quotes located in the stored text.
    answer = scope.ask("What does the checkout service call?")
    assert all(SAID not in c.quote for c in answer.citations)


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        (None, None),
        ("", None),
        (42, None),
        ("  spread \n over   lines ", "spread over lines"),
        ("x" * 1000, "x" * (MAX_DESCRIPTION_CHARS - 1) + "…"),
    ],
)
def test_a_description_is_kept_only_as_bounded_text(
    workspace: Workspace, given: object, kept: str | None
) -> None:
    scope = workspace.scope("s")
    scope.ingest(TEXT, name="checkout.md")
    scope.extract(LLMExtractor(_model(given)))  # given unasked: kept the same way
    [relation] = [r for r in scope.relations() if not r.weak]
    assert relation.quote == QUOTE and relation.description == kept


def test_http_and_the_cli_list_the_description_as_the_models_words(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with OpenAIStubServer(replying(lambda _messages: _reply(SAID))) as server:
        env = env_with(
            CITEGRAPH_CHAT_BASE_URL=server.url, CITEGRAPH_CHAT_API_KEY="x", CITEGRAPH_EXTRACT="0"
        )
        (tmp_path / "c.md").write_bytes(TEXT)
        done = cli("ingest", str(tmp_path / "c.md"), "--home", str(home), env=env)
        assert done.returncode == 0, done.stderr
        offline = cli("extract", "--describe", "--home", str(home), env=env)
        assert offline.returncode == 2 and "--describe asks a chat model" in offline.stderr
        args = ("extract", "--llm", "--describe", "--model", "stub", "--home", str(home))
        extracted = cli(*args, "--json", env=env)
        assert extracted.returncode == 0, extracted.stderr
        sent: Sequence[dict[str, str]] = server.requests[0]["messages"]
        assert "description" in sent[0]["content"]
    shown = cli("relations", "--home", str(home))
    text = " ".join(shown.stdout.split())
    assert QUOTE in text and f"the model's words, not a citation: {SAID}" in text
    listed = json.loads(cli("relations", "--home", str(home), "--json").stdout)["relations"]
    [stated] = [r for r in listed if not r["weak"]]
    assert (stated["quote"], stated["description"]) == (QUOTE, SAID)
    import citegraph

    with citegraph.open(home) as ws:
        tokens = TokenFile(home.parent / "tokens.json")
        auth = {"Authorization": f"Bearer {tokens.create(['default'], 'read')}"}
        got = TestClient(create_app(ws, tokens)).get(
            "/v1/memory/relations", params={"scope": "default"}, headers=auth
        )
    assert got.status_code == 200, got.text
    [over_http] = [r for r in got.json()["relations"] if not r["weak"]]
    assert over_http["description"] == SAID and over_http["quote"] == QUOTE
