"""A listing of entities and relations, and a graded walk, say when documents are not extracted
yet (extraction off at ingest, run later with `extract`, cut short, or running now), instead of
reading as complete: "no relations" from a scope nobody has read for relations is no answer."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from citegraph import ExtractionCoverage, ScriptedChat, Workspace
from citegraph.config import load_settings
from citegraph.store.documents import DocumentRepository
from citegraph.surfaces.http import TokenFile, create_app

from conftest import dataset
from helpers import cli

BOUTIQUE = dataset("engineering_docs/google_microservices-demo")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def workspace(home: Path) -> Iterator[Workspace]:
    settings = replace(load_settings(home=home), extract=False)
    with Workspace(settings) as ws:
        yield ws


def test_listings_say_what_is_not_extracted_until_it_is(
    workspace: Workspace, home: Path, tmp_path: Path
) -> None:
    scope = workspace.scope("shop")
    assert scope.extraction_coverage() == ExtractionCoverage(0, 0, 0)
    stored = scope.ingest(BOUTIQUE)  # its docs and manifests, extraction off
    documents = len(stored)
    assert documents >= 20
    coverage = scope.extraction_coverage()
    assert coverage == ExtractionCoverage(documents, documents, 0) and not coverage.complete
    assert scope.relations() == [] and scope.entities("frontend") == []
    note = coverage.note("shop")
    assert note is not None and f"{documents} of {documents} document(s) not extracted" in note
    walk = scope.impact("productcatalogservice")
    assert walk.status == "unknown" and walk.extraction == coverage

    # Another process extracting some of them: said as such.
    other = DocumentRepository(scope.graph)
    held = [d.id for d in scope.documents()[:3]]
    claim, taken = other.claim_extraction(held)
    assert taken == set(held)
    assert scope.extraction_coverage().extracting_now == 3
    other.abort_many([claim])
    assert scope.extraction_coverage().extracting_now == 0

    listed = cli("relations", "--scope", "shop", "--home", str(home), "--json")
    assert listed.returncode == 0, listed.stderr
    said = json.loads(listed.stdout)
    assert said["relations"] == [] and said["extraction"]["notExtracted"] == documents
    assert "not extracted yet" in " ".join(listed.stderr.split())
    named = cli("entities", "frontend", "--scope", "shop", "--home", str(home))
    assert "citegraph extract --scope shop" in " ".join(named.stderr.split())

    tokens = TokenFile(tmp_path / "tokens.json")
    headers = {"Authorization": f"Bearer {tokens.create(['shop'], 'read')}"}
    client = TestClient(create_app(workspace, tokens, ScriptedChat([])))
    body = client.get("/v1/memory/relations", params={"scope": "shop"}, headers=headers).json()
    assert body["extraction"]["notExtracted"] == documents and body["extraction"]["note"]
    walked = client.post(
        "/v1/impact", json={"scope": "shop", "entity": "frontend"}, headers=headers
    ).json()
    assert walked["extraction"]["notExtracted"] == documents

    run = scope.extract()
    assert run.documents == documents and run.left == 0
    assert scope.extraction_coverage() == ExtractionCoverage(documents, 0, 0)
    calls = scope.relations(relation_type="calls")
    assert len(calls) >= 17  # the manifest's calls, read now
    listed = cli("relations", "--scope", "shop", "--home", str(home), "--json", "--type", "calls")
    said = json.loads(listed.stdout)
    assert said["extraction"] == {
        "documents": documents, "notExtracted": 0, "extractingNow": 0, "note": None,
    }  # fmt: skip
    assert "not extracted" not in listed.stderr
    # A type the scope does not hold: the listing says which it does.
    assert {"calls", "alias-of", "co-mentioned"} <= set(scope.relation_types())
    typo = cli("relations", "--scope", "shop", "--home", str(home), "--type", "callz")
    said = " ".join(typo.stderr.split())
    assert "no relations of type callz in shop" in said and "the types stored there:" in said
    assert "calls" in said.split("the types stored there:")[1]
    body = client.get(
        "/v1/memory/entities", params={"scope": "shop", "name": "frontend"}, headers=headers
    )
    assert body.json()["extraction"]["notExtracted"] == 0 and body.json()["identities"]
