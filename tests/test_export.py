"""Export of answers as JSON documents, and the offline check."""

from __future__ import annotations

import contextlib
import json

import pytest

import citegraph
from citegraph import Scope
from citegraph.audit.check import check
from citegraph.audit.export import FORMAT, from_json, to_json

NOTES = (
    "When the payment gateway times out, checkout releases the reserved stock\u2014and tells "
    "the customer that _nothing_ was charged.\n\nThe pricing service keeps 64 connections.\n"
).encode()


@pytest.fixture
def answered(scope: Scope) -> citegraph.Answer:
    scope.ingest(NOTES, name="checkout.md")
    answer = scope.ask("What does checkout do when the payment gateway times out?")
    assert answer.disposition.value == "answered", answer.detail
    return answer


def test_round_trip_checks_clean(answered: citegraph.Answer) -> None:
    text = to_json(answered)
    data = json.loads(text)
    assert data["format"] == FORMAT and data["disposition"] == "answered"
    assert data["version"] == citegraph.__version__ and data["createdAt"].endswith("+00:00")
    assert "startByte" in data["claims"][0]["citations"][0]
    back = from_json(text)
    assert back.citations == answered.citations
    assert check(back) == []


def test_one_changed_byte_is_named(answered: citegraph.Answer) -> None:
    data = json.loads(to_json(answered))
    citation = data["claims"][0]["citations"][0]
    citation["quote"] = citation["quote"].replace("stock", "stoke")
    problems = check(from_json(json.dumps(data)))
    assert len(problems) == 1 and "not the item's bytes" in problems[0]

    data = json.loads(to_json(answered))
    data["claims"][0]["citations"][0]["startByte"] += 1
    problems = check(from_json(json.dumps(data)))
    assert len(problems) == 1 and "claim 1" in problems[0]

    data = json.loads(to_json(answered))
    data["claims"][0]["citations"][0]["evidence"] = "E7"
    assert "no citable evidence item 'E7'" in check(from_json(json.dumps(data)))[0]


def test_a_refusal_exports_and_checks(scope: Scope) -> None:
    scope.ingest(NOTES, name="checkout.md")
    refused = scope.ask("What does checkout do when the payment gateway catches fire?")
    back = from_json(to_json(refused))
    assert back.reason is citegraph.RefusalReason.MODEL_DECLINED and back.text is None
    assert check(back) == []


@pytest.mark.parametrize("text", ["not json", "{}", json.dumps({"format": FORMAT})])
def test_unreadable_documents_are_a_clear_error(text: str) -> None:
    with pytest.raises(citegraph.UsageError):
        from_json(text)


def _leaves(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))] + [path]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))] + [path]
    return [path]


def test_any_field_of_the_wrong_type_is_a_usage_error(answered: citegraph.Answer) -> None:
    """Found in review: a quote that was a number reached `check` and crashed it (a 500 over
    HTTP). Every field, swapped for every other JSON type, is now a clear error or checks."""
    original = json.loads(to_json(answered))
    replacements: list[object] = [None, True, 7, 2.5, "x", [], {}, [1], {"a": 1}]
    tried = 0
    for path in _leaves(original):
        if not path:
            continue
        for replacement in replacements:
            doc = json.loads(json.dumps(original))
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = replacement
            tried += 1
            with contextlib.suppress(citegraph.UsageError):
                check(from_json(json.dumps(doc)))
    assert tried > 500
