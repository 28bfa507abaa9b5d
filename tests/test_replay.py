"""Recorded conversations replay at zero calls; an unrecorded one is an error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citegraph import ChatModelError, Scope, ScriptedChat
from citegraph.models.replay import ReplayChat


def test_record_then_replay_at_zero_calls(scope: Scope, tmp_path: Path) -> None:
    scope.ingest(b"Reid Wiseman commands Artemis II.", name="a.md")
    cassette = tmp_path / "artemis.json"
    reply = json.dumps(
        {
            "answer": "Reid Wiseman",
            "claims": [
                {"text": "Reid Wiseman", "citations": [{"evidence": "E1", "quote": "Reid Wiseman"}]}
            ],
        }
    )
    live = ScriptedChat([reply])
    first = scope.ask("Who commands Artemis II?", model=ReplayChat(cassette, live))
    assert len(live.calls) == 1 and cassette.exists()
    replay = ReplayChat(cassette)
    again = scope.ask("Who commands Artemis II?", model=replay)
    assert replay.replayed == 1
    assert again.citations == first.citations and again.text == first.text
    with pytest.raises(ChatModelError, match="no recording"):
        scope.ask("Who commands Artemis III?", model=replay)
