"""The edge audit (issue 17): a sample of stated relations, verdicts kept on the relations in
the scope, and the error rate they measure, through the Python API and over HTTP."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from citegraph import Workspace
from citegraph.errors import InvalidRequest
from citegraph.surfaces.http import TokenFile, create_app

FIXTURES = Path(__file__).parent / "fixtures"


def test_sample_verdicts_and_the_measured_rate(workspace: Workspace) -> None:
    scope = workspace.scope(f"audit{os.getpid()}")
    scope.ingest(FIXTURES / "harbor")
    before = scope.audit_summary()
    assert before.audited == 0 and before.error_rate is None and before.stated > 5
    sample = scope.audit_sample(50)
    assert len(sample) == before.stated  # every stated relation, none judged yet
    for relation in sample:
        stored = scope.stored_text(relation.document_id)
        assert stored[relation.start_byte : relation.end_byte] == relation.quote.encode()
    judged = [(r.id, "wrong" if i == 0 else "right") for i, r in enumerate(sample[:4])]
    assert scope.record_audit(judged) == 4
    after = scope.audit_summary()
    assert (after.audited, after.wrong, after.error_rate) == (4, 1, 0.25)
    # Judged relations leave the sample; the verdicts stay on the relations in the scope.
    left = {r.id for r in scope.audit_sample(50)}
    assert left == {r.id for r in sample[4:]}
    again = workspace.scope(scope.name).audit_summary()
    assert (again.audited, again.wrong) == (4, 1)
    # A verdict on a relation that is not there marks nothing; a bad one is refused.
    assert scope.record_audit([('["x:y","calls","x:z","doc_0",0]', "right")]) == 0
    with pytest.raises(InvalidRequest, match="not a relation id"):
        scope.record_audit([("nonsense", "right")])
    with pytest.raises(InvalidRequest, match="right or wrong"):
        scope.record_audit([(sample[5].id, "maybe")])
    with pytest.raises(InvalidRequest, match="1 to 50"):
        scope.audit_sample(0)


def test_over_http_read_and_write_rights(workspace: Workspace, tmp_path: Path) -> None:
    name = f"audit_http{os.getpid()}"
    workspace.scope(name).ingest(FIXTURES / "harbor")
    tokens = TokenFile(tmp_path / "tokens.json")
    reader = {"Authorization": f"Bearer {tokens.create([name], 'read')}"}
    writer = {"Authorization": f"Bearer {tokens.create([name], 'read,write')}"}
    client = TestClient(create_app(workspace, tokens))
    sample = client.get("/v1/audit/sample", params={"scope": name, "n": 3}, headers=reader)
    assert sample.status_code == 200 and sample.json()["format"] == "citegraph-audit-sample/1"
    [first, *_] = sample.json()["relations"]
    body = {"scope": name, "verdicts": [{"relation": first["id"], "verdict": "wrong"}]}
    assert client.post("/v1/audit/verdicts", json=body, headers=reader).status_code == 403
    marked = client.post("/v1/audit/verdicts", json=body, headers=writer)
    assert marked.status_code == 200, marked.text
    assert marked.json()["marked"] == 1 and marked.json()["audited"] == 1
    summary = client.get("/v1/audit/summary", params={"scope": name}, headers=reader).json()
    assert (summary["wrong"], summary["errorRate"]) == (1, 1.0)
