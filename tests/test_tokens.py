"""The tokens file: hashes only, private, and safe to edit from several processes at once."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from citegraph import UsageError
from citegraph.surfaces.http import TokenFile

from helpers import ROOT

CREATE_MANY = """
import sys
from pathlib import Path
from citegraph.service.tokens import TokenFile
tokens = TokenFile(Path(sys.argv[1]))
for _ in range(25):
    tokens.create(["s"], "read")
"""


def test_a_token_is_stored_only_as_a_hash(tmp_path: Path) -> None:
    tokens = TokenFile(tmp_path / "tokens.json")
    token = tokens.create(["s1"], "read")
    stored = (tmp_path / "tokens.json").read_text()
    assert token not in stored and token[3:] not in stored
    assert (tmp_path / "tokens.json").stat().st_mode & 0o777 == 0o600
    assert tokens.find(token) is not None and tokens.find(token + "x") is None


def test_edits_from_several_processes_are_all_kept(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    survivor = TokenFile(path).create(["s"], "read,write")
    doomed = TokenFile(path)
    victim = doomed.create(["s"], "read")
    record = doomed.find(victim)
    assert record is not None
    writers = [
        subprocess.Popen([sys.executable, "-c", CREATE_MANY, str(path)], cwd=ROOT) for _ in range(4)
    ]
    doomed.revoke(record.id)  # while the others write
    assert all(w.wait(120) == 0 for w in writers)
    kept = json.loads(path.read_text())["tokens"]
    assert len(kept) == 1 + 4 * 25
    fresh = TokenFile(path)
    assert fresh.find(victim) is None and fresh.find(survivor) is not None


def test_bad_requests_for_tokens(tmp_path: Path) -> None:
    tokens = TokenFile(tmp_path / "tokens.json")
    with pytest.raises(UsageError, match="at least one scope"):
        tokens.create([], "read")
    with pytest.raises(UsageError, match="unknown right 'admin'"):
        tokens.create(["s"], "read,admin")
    with pytest.raises(UsageError, match="invalid scope name"):
        tokens.create(["bad name"], "read")
    with pytest.raises(UsageError, match="no token with id"):
        tokens.revoke("nope")
    (tmp_path / "tokens.json").write_text("{not json")
    with pytest.raises(UsageError, match="cannot be read"):
        TokenFile(tmp_path / "tokens.json").records()
