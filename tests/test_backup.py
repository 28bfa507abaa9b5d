"""Backup and restore of a scope (issue 18): a round trip with the shared corpora keeps every
document's bytes, chunk spans, entity, relation, quote and audit verdict, field by field; a
truncated or edited file is refused with a named problem, and nothing is restored from it."""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from typing import Any

import pytest

from citegraph import Scope, Workspace
from citegraph.errors import InvalidRequest
from citegraph.store.backup import BackupDamaged

from conftest import dataset
from helpers import cli, everything_in

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def original(workspace: Workspace) -> Scope:
    scope = workspace.scope(f"backup{os.getpid()}")
    scope.ingest(dataset("engineering_docs/google_microservices-demo"))
    scope.ingest(dataset("pdfs/pdfplumber__federal-register-2020-17221.pdf"))
    scope.ingest(FIXTURES / "harbor")
    sample = scope.audit_sample(3)
    scope.record_audit([(sample[0].id, "wrong"), (sample[1].id, "right")])
    return scope


def test_a_round_trip_keepseverything_in(
    workspace: Workspace, original: Scope, tmp_path: Path
) -> None:
    path = tmp_path / "scope.cgb"
    written = original.backup(path)
    assert written > 1000
    name = f"restored{os.getpid()}"
    assert workspace.restore(path, name) == written
    restored = workspace.scope(name)
    before, after = everything_in(original), everything_in(restored)
    for key in before:
        assert after[key] == before[key], key
    assert any(chunk[4] for chunk in after["chunks"])  # PDF pages came back too
    assert after["audit"].audited == 2 and after["audit"].wrong == 1
    # What the restored scope answers is what the original answered.
    question = "What language is the currency service written in?"
    assert restored.ask(question).citations == original.ask(question).citations
    assert name in workspace.scopes()
    # A scope that holds something is never overwritten.
    with pytest.raises(InvalidRequest, match="already holds data"):
        workspace.restore(path, name)


def _damaged(path: Path, name: str, change: Any) -> Path:
    lines = gzip.decompress(path.read_bytes()).split(b"\n")
    bad = path.with_name(name)
    bad.write_bytes(gzip.compress(b"\n".join(change(lines))))
    return bad


def test_damaged_files_are_refused_by_name(
    workspace: Workspace, original: Scope, tmp_path: Path
) -> None:
    path = tmp_path / "scope.cgb"
    original.backup(path)
    whole = path.read_bytes()
    cut = tmp_path / "cut.cgb"
    cut.write_bytes(whole[: len(whole) // 2])
    cases = {
        "truncated": (cut, "not a whole gzip file"),
        "lines lost": (_damaged(path, "lost.cgb", lambda ls: ls[: len(ls) // 2]), "cut short"),
        "a quote edited": (
            _damaged(path, "edited.cgb", lambda ls: [x.replace(b"journal", b"JOURNAL") for x in ls]),  # noqa: E501
            "checksum mismatch",
        ),
        "not a backup": (
            _damaged(path, "other.cgb", lambda ls: [b'{"format": "x"}']), "not a citegraph-backup/1"
        ),
    }  # fmt: skip
    for name, (bad, problem) in cases.items():
        target = f"never{os.getpid()}_{name.replace(' ', '_')}"
        with pytest.raises(BackupDamaged, match=problem):
            workspace.restore(bad, target)
        assert target not in workspace.scopes(), name


def test_backup_and_restore_commands(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert (
        cli("ingest", str(FIXTURES / "harbor"), "--home", str(home), "--scope", "a").returncode == 0
    )
    file = tmp_path / "a.cgb"
    done = cli("backup", str(file), "--scope", "a", "--home", str(home))
    assert done.returncode == 0, done.stderr
    restored = cli("restore", str(file), "--scope", "b", "--home", str(home))
    assert restored.returncode == 0, restored.stderr
    again = cli("restore", str(file), "--scope", "b", "--home", str(home))
    assert again.returncode != 0 and "already holds data" in again.stderr + again.stdout
    listed = cli("scopes", "--home", str(home)).stdout.split()
    assert "a" in listed and "b" in listed


def test_a_restore_that_fails_part_way_leaves_nothing(
    workspace: Workspace, original: Scope, tmp_path: Path
) -> None:
    import hashlib
    import json

    path = tmp_path / "scope.cgb"
    original.backup(path)
    lines = gzip.decompress(path.read_bytes()).split(b"\n")[:-2]  # without the end record
    # A whole, well-formed file whose relationships name a chunk it no longer holds.
    chunk = next(i for i, x in enumerate(lines) if x.startswith(b'{"node":"Chunk"'))
    kept = lines[:chunk] + lines[chunk + 1 :]
    digest = hashlib.sha256(b"".join(x + b"\n" for x in kept)).hexdigest()
    end = json.dumps({"end": len(kept) - 1, "sha256": digest}).encode()
    odd = tmp_path / "odd.cgb"
    odd.write_bytes(gzip.compress(b"\n".join([*kept, end]) + b"\n"))
    name = f"partial{os.getpid()}"
    with pytest.raises(BackupDamaged, match="name an end the backup does not hold"):
        workspace.restore(odd, name)
    assert name not in workspace.scopes()
    assert workspace.scope(name).documents() == []
