"""One JSON shape per value: the CLI's --json, the HTTP reply, the MCP tool's result and the
answer export of the same evidence, answer and remembered facts are the same JSON (but for the
HTTP envelope's `ok`, and an answer's clock readings), and each validates against the schema
the OpenAPI document publishes."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from fastapi.testclient import TestClient
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from typer.testing import CliRunner

import citegraph
from citegraph.audit.export import to_document
from citegraph.surfaces.cli.main import app as cli_app
from citegraph.surfaces.http import TokenFile, create_app

from helpers import CITEGRAPH

QUESTION = "What does Northwind Retail report about the invoice export?"
REMEMBER = {
    "source": "support ticket 4471",
    "entities": [{"name": "Northwind Retail", "type": "Company"},
                 {"name": "Invoice export", "type": "Feature"}],
    "relations": [{"source": "Northwind Retail", "target": "Invoice export",
                   "type": "REPORTED_BUG_IN"}],
    "passages": [{"text": "Northwind Retail reports that the invoice export drops the currency "
                          "column for orders in euros.",
                  "mentions": ["Northwind Retail", "Invoice export", "Contoso"]}],
}  # fmt: skip
# Clock readings: when an answer was written, and how long its steps took.
CLOCKS = {"createdAt"}
RECEIPT_CLOCKS = {"retrievalMs", "answerMs"}


def _unclocked(answer: dict[str, Any]) -> dict[str, Any]:
    kept = {k: v for k, v in answer.items() if k not in CLOCKS}
    kept["receipt"] = {k: v for k, v in answer["receipt"].items() if k not in RECEIPT_CLOCKS}
    return kept


def _mcp(home: Path, scope: str, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async def run() -> list[Any]:
        env = {k: v for k, v in os.environ.items() if k.startswith("CITEGRAPH_")}
        args = ["mcp", "--home", str(home), "--scope", scope]
        params = StdioServerParameters(command=CITEGRAPH, args=args, env=env)
        results = []
        async with Client(params, read_timeout_seconds=120) as client:
            for tool, arguments in calls:
                result = await client.call_tool(tool, arguments)
                assert result.is_error is False, result.content
                results.append(result.structured_content)
        return results

    return asyncio.run(run())


@pytest.fixture(scope="module")
def surfaces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Each value, as each surface sends it, for one store."""
    home = tmp_path_factory.mktemp("shapes") / "home"
    seen: dict[str, Any] = {}
    with citegraph.open(home) as ws:
        tokens = TokenFile(home.parent / "tokens.json")
        auth = {"Authorization": f"Bearer {tokens.create(['http', 'mcp'], 'read,write')}"}
        http = TestClient(create_app(ws, tokens))
        seen["openapi"] = http.get("/openapi.json").json()
        facts = {"entities": REMEMBER["entities"], "relations": REMEMBER["relations"]}
        body = {"scope": "http", "source": REMEMBER["source"], "facts": facts,
                "passages": REMEMBER["passages"]}  # fmt: skip
        seen["remember.http"] = http.post("/v1/memory/remember", json=body, headers=auth).json()
        [seen["remember.mcp"]] = _mcp(home, "mcp", [("memory_remember", REMEMBER)])
        seen["evidence.http"] = http.post(
            "/v1/memory/context", json={"scope": "mcp", "question": QUESTION}, headers=auth
        ).json()
        seen["answer.http"] = http.post(
            "/v1/answers", json={"scope": "mcp", "question": QUESTION}, headers=auth
        ).json()
        seen["answer.export"] = to_document(ws.scope("mcp").ask(QUESTION))
        seen["relations.http"] = http.get(
            "/v1/memory/relations",
            params={"scope": "mcp", "entity": "Northwind Retail"},
            headers=auth,
        ).json()
    asked = {"question": QUESTION}
    seen["evidence.mcp"], seen["answer.mcp"], seen["relations.mcp"] = _mcp(
        home,
        "mcp",
        [
            ("memory_context", asked),
            ("answer", asked),
            ("relations", {"entity": "Northwind Retail"}),
        ],
    )
    runner = CliRunner()
    listed = runner.invoke(
        cli_app,
        ["relations", "--entity", "Northwind Retail", "--home", str(home), "-s", "mcp", "--json"],
    )
    assert listed.exit_code == 0, listed.output
    seen["relations.cli"] = json.loads(listed.stdout)
    for value, command in (("evidence", "context"), ("answer", "ask")):
        done = runner.invoke(
            cli_app, [command, QUESTION, "--home", str(home), "-s", "mcp", "--json"]
        )
        assert done.exit_code == 0, done.output
        seen[f"{value}.cli"] = json.loads(done.stdout)
    return seen


def _validate(openapi: dict[str, Any], schema_name: str, value: dict[str, Any]) -> None:
    schema = {"$ref": f"#/components/schemas/{schema_name}", "components": openapi["components"]}
    jsonschema.Draft202012Validator(schema).validate(value)


def test_evidence_is_one_shape(surfaces: dict[str, Any]) -> None:
    http = dict(surfaces["evidence.http"])
    assert http.pop("ok") is True
    assert http["format"] == "citegraph-evidence/1" and http["verdict"]["state"] == "grounded"
    assert surfaces["evidence.mcp"] == http
    assert surfaces["evidence.cli"] == http
    assert surfaces["answer.export"]["evidence"] == http
    for value in (http, surfaces["evidence.cli"], surfaces["evidence.mcp"]):
        _validate(surfaces["openapi"], "ContextResponse", {**value, "ok": True})
    assert "documentId" in http["items"][0] and "document_id" not in http["items"][0]


def test_an_answer_is_one_shape(surfaces: dict[str, Any]) -> None:
    http = surfaces["answer.http"]
    assert http["ok"] is True
    answer = _unclocked(http["answer"])
    assert answer["format"] == "citegraph-answer/1" and answer["disposition"] == "answered"
    for other in ("answer.mcp", "answer.cli", "answer.export"):
        assert _unclocked(surfaces[other]) == answer, other
    for value in (http["answer"], surfaces["answer.mcp"], surfaces["answer.cli"]):
        _validate(surfaces["openapi"], "AnswerOut", value)


def test_remembered_facts_are_one_shape(surfaces: dict[str, Any]) -> None:
    http = dict(surfaces["remember.http"])
    assert http.pop("ok") is True
    assert http["format"] == "citegraph-remember/1" and http["mentionsLocated"] == 2
    assert surfaces["remember.mcp"] == http
    for value in (http, surfaces["remember.mcp"]):
        _validate(surfaces["openapi"], "RememberResponse", {**value, "ok": True})


def test_the_openapi_document_describes_an_answer(surfaces: dict[str, Any]) -> None:
    schemas = surfaces["openapi"]["components"]["schemas"]
    answer = schemas["AnswerResponse"]["properties"]["answer"]
    assert answer["$ref"] == "#/components/schemas/AnswerOut"
    assert {"claims", "evidence", "receipt", "disposition"} <= set(
        schemas["AnswerOut"]["properties"]
    )
    # A key the shape does not describe is refused, so the core and the shapes cannot drift.
    with pytest.raises(jsonschema.ValidationError):
        _validate(surfaces["openapi"], "AnswerOut", {**surfaces["answer.mcp"], "extra": 1})


def test_relations_are_one_shape(surfaces: dict[str, Any]) -> None:
    http = dict(surfaces["relations.http"])
    assert http.pop("ok") is True
    assert http["format"] == "citegraph-relations/1" and http["entity"] == "Northwind Retail"
    [stated] = [r for r in http["relations"] if not r["weak"]]
    assert (stated["source"], stated["type"], stated["target"]) == (
        "Northwind Retail", "REPORTED_BUG_IN", "Invoice export",
    )  # fmt: skip
    assert "currency column" in stated["quote"] and stated["citable"] is True
    assert surfaces["relations.mcp"] == http
    assert surfaces["relations.cli"] == http
    _validate(surfaces["openapi"], "RelationsResponse", {**http, "ok": True})
