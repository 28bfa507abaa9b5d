"""`check` covers what a reader reads: the answer text is its claims' texts, a claim worded as
its quotes is exactly them, and a model's own wording is marked as such. One character edited in
the answer text, a claim's text, a quote or a span is a named problem; the untouched export
passes (issue 12: "Neil Armstrong commands Artemis II." used to pass)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import citegraph
from citegraph import Scope, ScriptedChat
from citegraph.audit.check import check
from citegraph.audit.export import from_json, to_json

from helpers import cli

TEXT = (
    b"Reid Wiseman commands Artemis II. Victor Glover is the pilot, and Christina Koch and "
    b"Jeremy Hansen are mission specialists. The crew will fly around the Moon."
)
QUESTION = "Who commands Artemis II?"
MODEL_REPLY = json.dumps({
    "answer": "The commander is Reid Wiseman, a NASA astronaut.",
    "claims": [{"text": "The commander of Artemis II is Reid Wiseman.",
                "citations": [{"evidence": "E1", "quote": "Reid Wiseman commands Artemis II."}]}],
})  # fmt: skip

Edit = Callable[[dict[str, Any]], None]


def _answer_text(d: dict[str, Any]) -> None:
    d["text"] = d["text"].replace("Reid", "Neil", 1)


def _claim_text(d: dict[str, Any]) -> None:
    d["claims"][0]["text"] = d["claims"][0]["text"].replace("Reid", "Neil", 1)


def _quote(d: dict[str, Any]) -> None:
    citation = d["claims"][0]["citations"][0]
    citation["quote"] = citation["quote"].replace("Reid", "Neil", 1)


def _span(d: dict[str, Any]) -> None:
    d["claims"][0]["citations"][0]["startByte"] += 1


EDITS: dict[str, Edit] = {
    "answer text": _answer_text, "claim text": _claim_text, "quote": _quote, "span": _span,
}  # fmt: skip


def _exports(scope: Scope) -> dict[str, dict[str, Any]]:
    scope.ingest(TEXT, name="crew.txt")
    offline = scope.ask(QUESTION)
    model = scope.ask(QUESTION, model=ScriptedChat([MODEL_REPLY], name="scripted"))
    assert offline.disposition.value == model.disposition.value == "answered"
    return {"offline": json.loads(to_json(offline)), "model": json.loads(to_json(model))}


def test_the_text_is_the_claims_and_each_claim_says_whose_words(scope: Scope) -> None:
    exports = _exports(scope)
    offline, model = exports["offline"], exports["model"]
    assert [c["wording"] for c in offline["claims"]] == ["quoted"] * len(offline["claims"])
    assert offline["text"] == " ".join(" ".join(c["text"].split()) for c in offline["claims"])
    # The model's prose outside its claims ("a NASA astronaut") is not shown as cited.
    assert model["text"] == "The commander of Artemis II is Reid Wiseman."
    assert [c["wording"] for c in model["claims"]] == ["model"]
    for document in exports.values():
        assert check(from_json(json.dumps(document))) == []


@pytest.mark.parametrize("edit", sorted(EDITS))
@pytest.mark.parametrize("answerer", ["offline", "model"])
def test_one_character_edited_is_a_named_problem(scope: Scope, answerer: str, edit: str) -> None:
    genuine = _exports(scope)[answerer]
    forged = copy.deepcopy(genuine)
    EDITS[edit](forged)
    assert forged != genuine
    problems = check(from_json(json.dumps(forged)))
    assert problems, f"{answerer}: an edited {edit} passed the check"
    assert all(p.startswith(("claim 1", "the answer text")) for p in problems), problems


def test_a_quoted_claim_edited_with_its_answer_text_is_still_caught(scope: Scope) -> None:
    forged = _exports(scope)["offline"]
    _claim_text(forged)
    forged["text"] = " ".join(" ".join(c["text"].split()) for c in forged["claims"])
    assert check(from_json(json.dumps(forged))) == [
        "claim 1: its text is not its quotes, as its wording says"
    ]


def test_the_check_command_names_the_edit(tmp_path: Path) -> None:
    with citegraph.open(tmp_path / "home") as ws:
        forged = _exports(ws.scope("s"))["model"]
    _claim_text(forged)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    done = cli("check", str(path))
    assert done.returncode == 1
    assert "the answer text is not the text of its claims" in " ".join(done.stderr.split())
