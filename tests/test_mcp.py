"""`citegraph mcp` driven by the MCP SDK's own client over stdio: list, then call each tool."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from citegraph.testing.stub_server import OpenAIStubServer

from helpers import CITEGRAPH

CALLS = "The checkout-service calls the payment-service for every order."
NORTHWIND = "Northwind Retail reports that the invoice export drops the currency column."


def _session(home: Path, *scopes: str, extra: dict[str, str] | None = None) -> Client:
    args = ["mcp", "--home", str(home)]
    for scope in scopes:
        args += ["--scope", scope]
    # The SDK passes only a few variables to the server: pass the tests' settings on (among
    # them no linger, so that the store stops with the server).
    env = {k: v for k, v in os.environ.items() if k.startswith("CITEGRAPH_")}
    env.update(extra or {})
    return Client(
        StdioServerParameters(command=CITEGRAPH, args=args, env=env), read_timeout_seconds=120
    )


def _structured(result: Any) -> dict[str, Any]:
    assert result.is_error is False, result.content
    content: dict[str, Any] = result.structured_content
    return content


async def _conversation(home: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with _session(home, "agent-a", "agent-b") as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        seen["tools"] = tools
        seen["remember"] = _structured(
            await client.call_tool(
                "memory_remember",
                {
                    "source": "support ticket 4471",
                    "entities": [
                        {"name": "Northwind Retail", "type": "Company"},
                        {"name": "Invoice export", "type": "Feature"},
                    ],
                    "relations": [
                        {"source": "Northwind Retail", "target": "Invoice export",
                         "type": "REPORTED_BUG_IN"},
                    ],
                    "passages": [
                        {"text": NORTHWIND, "mentions": ["Northwind Retail", "Invoice export",
                                                         "Contoso"]},
                    ],
                },
            )
        )  # fmt: skip
        seen["grounded"] = _structured(
            await client.call_tool(
                "memory_context",
                {"question": "What does Northwind Retail report about the invoice export?"},
            )
        )
        seen["answer"] = _structured(
            await client.call_tool(
                "answer",
                {"question": "What does Northwind Retail report about the invoice export?"},
            )
        )
        seen["refusal"] = _structured(
            await client.call_tool("answer", {"question": "What does Contoso say about payroll?"})
        )
        seen["check"] = _structured(
            await client.call_tool("check_answer", {"answer": seen["answer"], "scope": "agent-a"})
        )
        tampered = dict(seen["answer"])
        claim = dict(tampered["claims"][0])
        citation = dict(claim["citations"][0])
        citation["quote"] = citation["quote"].replace("currency", "date")
        claim["citations"] = [citation]
        tampered["claims"] = [claim]
        seen["check_tampered"] = _structured(
            await client.call_tool("check_answer", {"answer": tampered})
        )
        seen["remember_calls"] = _structured(
            await client.call_tool(
                "memory_remember",
                {
                    "source": "architecture notes",
                    "entities": [{"name": "checkout-service", "type": "service"},
                                 {"name": "payment-service", "type": "service"}],
                    "relations": [{"source": "checkout-service", "target": "payment-service",
                                   "type": "calls"}],
                    "passages": [{"text": CALLS,
                                  "mentions": ["checkout-service", "payment-service"]}],
                },
            )
        )  # fmt: skip
        seen["impact"] = _structured(
            await client.call_tool("graph_impact", {"entity": "payment-service"})
        )
        seen["entities"] = _structured(
            await client.call_tool("entities", {"name": "Payment-Service"})
        )
        seen["paths"] = _structured(
            await client.call_tool(
                "graph_paths", {"source": "checkout-service", "target": "payment-service"}
            )
        )
        seen["impact_b"] = _structured(
            await client.call_tool(
                "graph_impact", {"entity": "payment-service", "scope": "agent-b"}
            )
        )
        seen["impact_closed"] = await client.call_tool(
            "graph_impact", {"entity": "payment-service", "scope": "not-open"}
        )
        seen["impact_hops"] = await client.call_tool(
            "graph_impact", {"entity": "payment-service", "max_hops": 9}
        )
        seen["reports"] = _structured(await client.call_tool("community_reports", {}))
        seen["graph_query_off"] = await client.call_tool(
            "graph_query", {"question": "How many documents are there?"}
        )
        seen["other_scope"] = await client.call_tool(
            "memory_context", {"question": "invoice export", "scope": "agent-b"}
        )
        seen["closed_scope"] = await client.call_tool(
            "memory_context", {"question": "invoice export", "scope": "not-open"}
        )
        seen["bad_k"] = await client.call_tool("memory_context", {"question": "invoice", "k": 500})
        seen["too_long"] = await client.call_tool("memory_context", {"question": "invoice " * 300})
        # The HTTP caps hold here too (security review, issue 11, item 11).
        many = [{"name": f"Entity {n}", "type": "Thing"} for n in range(201)]
        seen["too_many"] = await client.call_tool(
            "memory_remember", {"source": "bulk", "entities": many}
        )
        seen["long_source"] = await client.call_tool(
            "memory_remember", {"source": "s" * 1_000_000, "entities": many[:1]}
        )
    return seen


def test_every_tool_over_stdio(tmp_path: Path) -> None:
    seen = asyncio.run(_conversation(tmp_path / "home"))
    tools = seen["tools"]
    tools_named = {
        "memory_context", "memory_remember", "answer", "check_answer", "relations",
        "graph_impact", "graph_paths", "graph_query", "community_reports", "entities",
    }  # fmt: skip
    assert set(tools) == tools_named
    # Nothing adopted here: no reports, said as such (and never citable).
    assert seen["reports"]["reports"] == [] and seen["reports"]["citable"] is False
    rules = tools["memory_context"].description
    for rule in ("verdict.state", "grounded", "citation", "I don't know"):
        assert rule in rules
    assert "refus" in tools["answer"].description

    assert seen["remember"]["mentionsLocated"] == 2
    assert seen["remember"]["relationsGrounded"] == 1
    # Not in the passage, so not stored, and said so.
    assert seen["remember"]["unlocated"] == ["passage 1: mention 'Contoso' is not in its text"]

    grounded = seen["grounded"]
    assert grounded["verdict"]["state"] == "grounded"
    assert any("currency column" in item["text"] for item in grounded["items"])

    assert seen["answer"]["disposition"] == "answered"
    refusal = seen["refusal"]
    assert refusal["disposition"] == "refused" and refusal["reason"] == "no-evidence"
    assert refusal["text"] is None

    assert seen["check"]["valid"] is True and seen["check"]["checkedAgainstStore"] is True
    assert seen["check_tampered"]["valid"] is False and seen["check_tampered"]["problems"]

    other = _structured(seen["other_scope"])  # open to this server, but empty: says so
    assert other["verdict"]["state"] == "nothing_stored" and other["items"] == []
    closed = seen["closed_scope"]
    assert closed.is_error is True and "not open to this server" in closed.content[0].text
    assert seen["bad_k"].is_error is True
    assert seen["too_many"].is_error is True and "200" in seen["too_many"].content[0].text
    assert seen["long_source"].is_error is True

    impact = seen["impact"]
    assert impact["format"] == "citegraph-impact/1" and impact["status"] == "ok"
    [affected] = impact["affected"]
    assert affected["entity"]["name"] == "checkout-service" and affected["grade"] == "supported"
    [hop] = affected["paths"][0]["hops"]
    assert (hop["subject"], hop["relation"], hop["object"]) == (
        "checkout-service", "calls", "payment-service",
    )  # fmt: skip
    assert hop["evidence"]["quote"] == CALLS and impact["policy"]["default"] is True
    assert seen["paths"]["paths"][0]["grade"] == "supported"
    identities = seen["entities"]
    assert identities["format"] == "citegraph-entities/1"
    assert "service:payment-service" in [i["key"] for i in identities["identities"]]
    # Every document (the remembered passages) is extracted, and the listing says so.
    coverage = identities["extraction"]
    assert coverage["documents"] >= 1 and coverage["notExtracted"] == 0 and coverage["note"] is None
    assert impact["extraction"] == coverage
    assert "ambiguous" in tools["entities"].description
    assert seen["impact_b"]["status"] == "unknown"  # another scope holds nothing of it
    assert seen["impact_hops"].is_error is True
    closed_walk = seen["impact_closed"]
    assert closed_walk.is_error is True and "not open to this server" in closed_walk.content[0].text
    assert "graded" in tools["graph_impact"].description
    off = seen["graph_query_off"]  # experimental, off unless the server turns it on
    assert off.is_error is True and "CITEGRAPH_TEXT2CYPHER" in off.content[0].text
    too_long = seen["too_long"]
    assert too_long.is_error is True and "question: 2,400 characters" in too_long.content[0].text


CALLS_QUERY = (
    "MATCH (a:Entity)-[r:RELATES]->(b:Entity) WHERE r.type = 'calls' RETURN a.name, b.name, r"
)


async def _graph_conversation(home: Path, url: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    turned_on = {
        "CITEGRAPH_TEXT2CYPHER": "on", "CITEGRAPH_CHAT_MODEL": "stub",
        "CITEGRAPH_CHAT_BASE_URL": url, "CITEGRAPH_CHAT_API_KEY": "test",
    }  # fmt: skip
    async with _session(home, "agent-a", "agent-b", extra=turned_on) as client:
        _structured(
            await client.call_tool(
                "memory_remember",
                {
                    "source": "architecture notes",
                    "relations": [{"source": "checkout-service", "target": "payment-service",
                                   "type": "calls"}],
                    "entities": [{"name": "checkout-service", "type": "service"},
                                 {"name": "payment-service", "type": "service"}],
                    "passages": [{"text": CALLS,
                                  "mentions": ["checkout-service", "payment-service"]}],
                },
            )
        )  # fmt: skip
        question = {"question": "Which services call which?"}
        seen["a"] = _structured(await client.call_tool("graph_query", question))
        seen["b"] = _structured(
            await client.call_tool("graph_query", {**question, "scope": "agent-b"})
        )
        seen["closed"] = await client.call_tool("graph_query", {**question, "scope": "nope"})
    return seen


def test_graph_query_over_stdio(tmp_path: Path) -> None:
    with OpenAIStubServer(lambda messages: CALLS_QUERY) as stub:
        seen = asyncio.run(_graph_conversation(tmp_path / "home", stub.url))
        schema_sent = stub.requests[0]["messages"][1]["content"]
    a = seen["a"]
    assert a["format"] == "citegraph-graph-query/1" and a["disposition"] == "answered"
    assert a["rows"][0][:2] == ["checkout-service", "payment-service"]
    assert a["citations"] and a["uncitedRows"] == []
    for cited in a["citations"]:  # every row's relation, read from the stored bytes
        assert [c["quote"] for c in cited["citations"]] == [CALLS]
    assert a["receipt"]["chatCalls"] == 1 and a["cypher"].endswith("LIMIT 51")
    assert "(:Entity)" in schema_sent and "embedding" not in schema_sent
    b = seen["b"]  # another scope: it holds nothing, and says so
    assert b["disposition"] == "refused" and b["reason"] == "not-allowed"
    assert "no node or relationship stored in this scope has it" in b["detail"]
    closed = seen["closed"]
    assert closed.is_error is True and "not open to this server" in closed.content[0].text
