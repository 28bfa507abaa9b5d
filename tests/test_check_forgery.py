"""Exported answers with impossible offsets or forged metadata fail the check, and `citegraph
check` says what it compared against (security review, issue 11, items 2 and 3)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import citegraph
from citegraph.audit.check import check
from citegraph.audit.export import from_json, to_json
from citegraph.audit.store_check import check_against_store
from citegraph.models.chat import ScriptedChat

from helpers import cli

TEXT = b"The board disapproved the merger with Contoso on Monday."
QUOTE = "disapproved the merger with Contoso on Monday."  # runs to the end of the item
Doc = dict[str, Any]


def _export(scope: citegraph.Scope) -> Doc:
    reply = json.dumps(
        {
            "answer": "It was disapproved.",
            "claims": [{"text": "Disapproved.", "citations": [{"evidence": "E1", "quote": QUOTE}]}],
        }
    )
    answer = scope.ask(
        "Did the board disapprove the merger with Contoso?", model=ScriptedChat([reply])
    )
    assert answer.disposition.value == "answered", answer
    document: Doc = json.loads(to_json(answer))
    return document


def _citation(doc: Doc) -> Doc:
    found: Doc = doc["claims"][0]["citations"][0]
    return found


def _item(doc: Doc) -> Doc:
    found: Doc = doc["evidence"]["items"][0]
    return found


def _negative(doc: Doc) -> None:
    # Item and citation moved together below zero: Python's negative slicing still lines up.
    shift = _item(doc)["endByte"] + 200
    for span in (_item(doc), _citation(doc)):
        span.update(startByte=span["startByte"] - shift, endByte=span["endByte"] - shift)


def _long_span(doc: Doc) -> None:
    # A slice past the end of the item's text stops at its end: the bytes still compare equal.
    _citation(doc)["endByte"] = _citation(doc)["startByte"] + 100_000
    _item(doc)["endByte"] = _item(doc)["startByte"] + 200_000


def _page(doc: Doc) -> None:
    _citation(doc)["page"] = 99


def _origin(doc: Doc) -> None:
    _citation(doc)["textOrigin"] = {"kind": "ocr", "source": "forged.pdf", "method": "none"}


FORGERIES: dict[str, Callable[[Doc], None]] = {
    "negative offsets": _negative,
    "a span longer than its quote": _long_span,
    "a page the item does not have": _page,
    "a text origin the item does not have": _origin,
}


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_impossible_offsets_and_forged_metadata_fail_the_offline_check(
    scope: citegraph.Scope, forgery: str
) -> None:
    scope.ingest(TEXT, name="minutes.txt")
    genuine = _export(scope)
    assert check(from_json(json.dumps(genuine))) == []
    forged = copy.deepcopy(genuine)
    FORGERIES[forgery](forged)
    assert check(from_json(json.dumps(forged))) != [], forgery


def test_edits_the_export_agrees_with_fail_only_against_the_store(
    scope: citegraph.Scope,
) -> None:
    scope.ingest(TEXT, name="minutes.txt")
    genuine = _export(scope)
    assert check_against_store(from_json(json.dumps(genuine)), scope) == []
    for edit in ("text", "name", "origin"):
        forged = copy.deepcopy(genuine)
        if edit == "text":  # item and quote edited together: the export agrees with itself
            _item(forged)["text"] = _item(forged)["text"].replace("disapproved", "approved!!!")
            _citation(forged)["quote"] = QUOTE.replace("disapproved", "approved!!!")
        elif edit == "name":
            _item(forged)["documentName"] = "board-approval.txt"
        else:
            origin = {"kind": "ocr", "source": "forged.pdf", "method": "none"}
            _item(forged)["textOrigin"] = _citation(forged)["textOrigin"] = origin
        answer = from_json(json.dumps(forged))
        assert check(answer) == [], edit  # nothing in the export contradicts it
        assert check_against_store(answer, scope) != [], edit


def test_the_check_command_says_what_it_compared_against(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with citegraph.open(home) as ws:
        scope = ws.scope("s")
        scope.ingest(TEXT, name="minutes.txt")
        genuine = _export(scope)
    forged = copy.deepcopy(genuine)
    _item(forged)["text"] = _item(forged)["text"].replace("disapproved", "approved!!!")
    _citation(forged)["quote"] = QUOTE.replace("disapproved", "approved!!!")
    for name, document in (("genuine.json", genuine), ("forged.json", forged)):
        (tmp_path / name).write_text(json.dumps(document))

    offline = cli("check", str(tmp_path / "forged.json"))
    assert offline.returncode == 0
    said = " ".join(offline.stdout.split())  # rich wraps long lines
    assert "against the export's own evidence only, not the stored bytes" in said
    stored = cli("check", str(tmp_path / "forged.json"), "--scope", "s", "--home", str(home))
    assert stored.returncode == 1 and "not the stored bytes at its span" in stored.stderr
    real = cli("check", str(tmp_path / "genuine.json"), "--scope", "s", "--home", str(home))
    assert real.returncode == 0
    assert "against the stored bytes of scope s" in " ".join(real.stdout.split())
