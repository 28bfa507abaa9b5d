"""What an ingest's extraction kept, dropped (by reason) and cost is on its result on every
surface (issue 13: "counted by reason ... on the ingest result and receipt"; "calls and
tokens per document"): the shared shape's `extraction`, sent by HTTP and the CLI's --json,
and the CLI's table and summary line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from citegraph import ScriptedChat, Workspace
from citegraph.config import load_settings
from citegraph.extract.llm import LLMExtractor
from citegraph.surfaces.http import TokenFile, create_app

from helpers import cli

TEXT = b"The checkout service calls the payment service for every order.\n"
REPLY = json.dumps({
    "entities": [{"name": "checkout service", "type": "service"},
                 {"name": "ledger service", "type": "service"}],
    "relations": [{"source": "checkout service", "target": "payment service", "type": "calls",
                   "quote": "The checkout service calls the payment service"}],
})  # fmt: skip


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    chat = ScriptedChat(lambda _: REPLY, name="scripted-receipt")
    settings = load_settings(home=tmp_path / "home")
    with Workspace(settings, extractor=LLMExtractor(chat, chunks_per_call=1)) as ws:
        yield ws


def test_the_http_ingest_result_says_what_extraction_kept_dropped_and_cost(
    workspace: Workspace, tmp_path: Path
) -> None:
    tokens = TokenFile(tmp_path / "tokens.json")
    token = tokens.create(["s"], "read,write")
    http = TestClient(create_app(workspace, tokens))
    headers = {"Authorization": f"Bearer {token}"}

    def upload(data: bytes) -> dict[str, object]:
        reply = http.post(
            "/v1/documents", data={"scope": "s"}, files={"file": ("orders.md", data)},
            headers=headers,
        )  # fmt: skip
        assert reply.status_code == 200, reply.text
        [result] = reply.json()["results"]
        assert isinstance(result, dict)
        return result

    first = upload(TEXT)
    # The name the passage never says is dropped, and said so; the relation is kept.
    assert first["extraction"] == {
        "mentions": 2, "relations": 1, "dropped": {"not-in-source": 1},
        "calls": 1, "inputTokens": 0, "outputTokens": 0, "cached": 0,
    }  # fmt: skip
    document = first["document"]
    assert isinstance(document, dict)
    assert document["extractedWith"] == "llm:scripted-receipt:extract/1"
    # Unchanged bytes: nothing extracted, nothing spent.
    again = upload(TEXT)
    assert (again["status"], again["extraction"]) == ("unchanged", None)


def test_the_ingest_command_shows_what_extraction_kept_and_dropped(tmp_path: Path) -> None:
    home = tmp_path / "home"
    doc = tmp_path / "faa.md"
    doc.write_text(
        "The Federal Aviation Administration (FAA) certifies aircraft.\n"
        "The checkout service calls the payment service.\n"
    )
    shown = cli("ingest", str(doc), "--home", str(home))
    assert shown.returncode == 0, shown.stderr
    header = next(line for line in shown.stdout.splitlines() if "document" in line)
    assert "mentions" in header and "relations" in header
    said = " ".join(shown.stdout.split())
    assert "extracted from 1 document(s):" in said and "2 relation(s)" in said
    assert "call(s)" not in said  # offline: nothing spent, no figures to read past
    doc.write_text(doc.read_text() + "The cart service reads from the cache service.\n")
    listed = json.loads(cli("ingest", str(doc), "--home", str(home), "--json").stdout)
    [result] = listed["results"]
    assert result["status"] == "replaced"
    assert result["extraction"]["relations"] == 3 and result["extraction"]["calls"] == 0
    assert result["extraction"]["mentions"] >= 6
    assert result["document"]["extractedWith"] == "offline"
    unchanged = json.loads(cli("ingest", str(doc), "--home", str(home), "--json").stdout)
    assert unchanged["results"][0]["extraction"] is None


def test_an_ingest_with_extraction_off_says_nothing_was_extracted(tmp_path: Path) -> None:
    settings = replace(load_settings(home=tmp_path / "home"), extract=False)
    with Workspace(settings) as ws:
        [result] = ws.scope("s").ingest(TEXT, name="orders.md")
    from citegraph.service.shapes import ingested_shape, wire

    shaped = wire(ingested_shape(result))
    assert shaped["extraction"] is None and shaped["document"]["extracted"] is False
