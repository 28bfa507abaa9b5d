"""What a new user tripped over on the command line (issue 12), each fixed and kept fixed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import citegraph
from citegraph import Turn
from citegraph.audit.export import from_json, to_document, to_json
from citegraph.surfaces.cli.main import app

from conftest import dataset

runner = CliRunner()


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def alice(tmp_path: Path) -> str:
    home = str(tmp_path / "home")
    code, _, err = _run("ingest", str(dataset("alice/pg11_alice_body.txt")), "--home", home,
                        "-s", "book")  # fmt: skip
    assert code == 0, err
    return home


def test_ask_names_documents_and_quotes_in_text_order(alice: str) -> None:
    code, out, _ = _run("ask", "Who said Treacle in the story?", "--home", alice, "-s", "book")
    assert code == 0, out
    flat = " ".join(out.split())
    assert "pg11_alice_body.txt, bytes [" in flat and "doc_" not in flat
    assert "““" not in flat and "””" not in flat  # no quote marks added around quote marks
    starts = [int(s) for s in re.findall(r"bytes \[(\d+),", flat)]
    assert starts and starts == sorted(starts)


def test_a_mistyped_scope_says_which_scopes_hold_something(alice: str) -> None:
    code, _, err = _run("docs", "--home", alice, "-s", "bokk")
    assert code == 0
    assert "scope 'bokk' holds no documents; scopes that do: book" in " ".join(err.split())
    code, _, err = _run("ask", "Who is the Queen?", "--home", alice, "-s", "bokk")
    assert code == 4 and "scopes that do: book" in " ".join(err.split())
    code, _, err = _run("context", "Who is the Queen?", "--home", alice, "-s", "bokk")
    assert code == 0 and "scopes that do: book" in " ".join(err.split())


@pytest.mark.parametrize(
    ("command", "option"),
    [("ask", ["--k", "0"]), ("ask", ["--k", "51"]), ("context", ["--hops", "9"]),
     ("context", ["--k", "0"])],
)  # fmt: skip
def test_out_of_bounds_options_are_command_line_mistakes(
    tmp_path: Path, command: str, option: list[str]
) -> None:
    code, _, err = _run(command, "Who is the Queen?", "--home", str(tmp_path / "h"), *option)
    assert code == 2, err
    assert option[0] in err


def test_ask_export_says_where_it_wrote(alice: str, tmp_path: Path) -> None:
    path = tmp_path / "answer.json"
    code, _, err = _run("ask", "Who said Treacle?", "--home", alice, "-s", "book",
                        "--export", str(path))  # fmt: skip
    assert code == 0 and path.exists()
    # The message is wrapped to the terminal's width, a long path anywhere inside it.
    assert f"wrote{path}" in "".join(err.split())


def test_an_unsupported_suffix_names_the_option_and_skipped_files_are_named(
    tmp_path: Path,
) -> None:
    home = str(tmp_path / "home")
    config = tmp_path / "deploy.cfg"
    config.write_text("replicas = 3\n")
    code, _, err = _run("ingest", str(config), "--home", home)
    said = " ".join(err.split())  # the message is wrapped to the terminal's width
    assert code == 1 and "--type text/plain" in said
    assert "media_type=" not in said.replace("media_type='text/plain' in Python", "")
    code, out, err = _run("ingest", str(config), "--home", home, "--type", "text/plain", "--json")
    assert code == 0, err
    assert json.loads(out)["results"][0]["document"]["mediaType"] == "text/plain"
    code, _, err = _run("ingest", str(config), "--home", home, "--type", "image/png")
    assert code == 2 and "--type image/png" in err
    folder = tmp_path / "repo"
    folder.mkdir()
    (folder / "README.md").write_text("# Repo\n\nIt deploys three replicas.\n")
    (folder / "values.cfg").write_text("replicas = 3\n")
    code, _, err = _run("ingest", str(folder), "--home", home)
    said = "".join(err.split())
    assert code == 0 and "values.cfg" in said and "skipped1file(s)" in said


def test_an_answer_asked_with_history_carries_its_rewrite(tmp_path: Path) -> None:
    with citegraph.open(tmp_path / "home") as ws:
        scope = ws.scope("s")
        scope.ingest(b"Reid Wiseman commands Artemis II. Wiseman works for NASA.", name="a.md")
        answer = scope.ask(
            "Which organization does he work for?",
            [Turn("Who commands Artemis II?", "Reid Wiseman commands Artemis II.")],
        )
        standalone = scope.ask("Who commands Artemis II?")
    rewrite = to_document(answer)["rewrite"]
    assert rewrite["original"] == "Which organization does he work for?"
    assert "Wiseman" in rewrite["question"] and rewrite["outcome"] == "rewritten"
    assert rewrite["turnsUsed"] == 1 and rewrite["turnsDropped"] == 0
    assert from_json(to_json(answer)).rewrite == answer.rewrite
    assert to_document(standalone)["rewrite"] is None
