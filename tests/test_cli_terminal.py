"""Stored names and text cannot drive the terminal: the CLI shows control characters and
bidirectional overrides as escapes, and keeps --json exact (security review, item 7)."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import cli

HOSTILE_NAME = "notes\x1b]0;HACKED-TITLE\x07\u202e.txt"
HOSTILE_TEXT = (
    "The harbour master keeps the tide tables.\x1b[2J\x1b[H Verified by the board. "
    "The ledger is blue.\n"
)
CONTROLS = ("\x1b", "\x07", "\u202e")


def _clean(output: str) -> None:
    for control in CONTROLS:
        assert control not in output, repr(output)


def test_names_and_text_with_terminal_controls_are_shown_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / HOSTILE_NAME).write_text(HOSTILE_TEXT)
    home = str(tmp_path / "home")
    ingested = cli("ingest", str(folder / HOSTILE_NAME), "--home", home)
    assert ingested.returncode == 0, ingested.stderr
    _clean(ingested.stdout + ingested.stderr)

    for args in (
        ["docs"],
        ["show", HOSTILE_NAME],
        ["context", "Where does the harbour master keep the tide tables?"],
        ["ask", "Where does the harbour master keep the tide tables?"],
    ):
        done = cli(*args, "--home", home)
        assert done.returncode == 0, (args, done.stderr)
        _clean(done.stdout + done.stderr)
        if args[0] in ("docs", "show"):
            assert "\\x1b" in done.stdout, done.stdout  # shown, not acted on
        if args[0] == "show":
            assert "\\u202e" in done.stdout and "\\x07" in done.stdout, done.stdout

    listed = cli("docs", "--home", home, "--json")
    assert [d["name"] for d in json.loads(listed.stdout)] == [HOSTILE_NAME]  # exact
    missing = cli("show", "nothing\x1b[2J", "--home", home)
    assert missing.returncode == 1
    _clean(missing.stderr)
