"""The command line: thin over the API, JSON for scripts, one-line errors with exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citegraph.surfaces.cli.main import app

from conftest import dataset

runner = CliRunner()


@pytest.fixture
def home(tmp_path: Path) -> str:
    return str(tmp_path / "home")


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_ingest_docs_show_delete_round_trip(home: str, tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.md").write_text("# Title\n\nFirst paragraph.\n")
    (folder / "sub" / "b.txt").write_text("Second file.\n")
    (folder / "image.png").write_bytes(b"\x89PNG")
    (folder / ".hidden.txt").write_text("not ingested")
    code, out, _ = _run("ingest", str(folder), "--home", home, "--scope", "cli", "--json")
    assert code == 0
    report = json.loads(out)
    assert [r["document"]["name"] for r in report["results"]] == ["notes/a.md", "notes/sub/b.txt"]
    assert {r["status"] for r in report["results"]} == {"created"}
    assert report["skipped"] == [str(folder.resolve() / "image.png")]

    code, out, _ = _run("ingest", str(folder), "--home", home, "--scope", "cli", "--json")
    assert {r["status"] for r in json.loads(out)["results"]} == {"unchanged"}

    code, out, _ = _run("docs", "--home", home, "--scope", "cli", "--json")
    docs = json.loads(out)
    assert [d["name"] for d in docs] == ["notes/a.md", "notes/sub/b.txt"]

    code, out, _ = _run("show", "notes/a.md", "--home", home, "--scope", "cli", "--json")
    shown = json.loads(out)
    assert shown["chunks"][0]["startByte"] == 0
    assert "".join(c["text"] for c in shown["chunks"]) == "# Title\n\nFirst paragraph.\n"

    code, out, _ = _run("show", docs[0]["id"], "--home", home, "--scope", "cli")
    assert code == 0 and "[0, 26)" in out

    code, out, _ = _run("delete", "notes/a.md", "--home", home, "--scope", "cli")
    assert code == 0 and "deleted notes/a.md" in out
    code, out, _ = _run("docs", "--home", home, "--scope", "cli", "--json")
    assert [d["name"] for d in json.loads(out)] == ["notes/sub/b.txt"]


def test_pdf_pages_in_show(home: str) -> None:
    pdf = dataset("pdfs/pypdf__Seige_of_Vicksburg_Sample_OCR.pdf")
    assert _run("ingest", str(pdf), "--home", home)[0] == 0
    _code, out, _ = _run("show", pdf.name, "--home", home, "--json")
    pages = [(c["page"], c["endPage"]) for c in json.loads(out)["chunks"]]
    assert pages[0][0] == 1 and pages[-1][1] == 6


def test_bad_file_in_a_folder_is_reported_and_the_rest_ingested(home: str, tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "good.txt").write_text("fine")
    (folder / "bad.txt").write_bytes(b"\xff\xfe\xfdbinary")
    code, out, err = _run("ingest", str(folder), "--home", home)
    assert code == 1
    assert "good.txt" in out and "error" in out
    assert "bad.txt" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["show", "missing.txt"], 1, "no document 'missing.txt'"),
        (["delete", "missing.txt"], 1, "no document"),
        (["docs", "--scope", "x'}) DETACH DELETE n"], 1, "invalid scope name"),
        (["ingest", "/no/such/path.txt"], 1, "no such file or folder"),
        (["docs", "--url", "redis://127.0.0.1:1"], 3, "graph store"),
    ],
)
def test_errors_are_one_line_with_an_exit_code(
    home: str, args: list[str], code: int, message: str
) -> None:
    exit_code, _out, err = _run(*args, "--home", home)
    assert exit_code == code
    assert message in " ".join(err.split())
    assert "Traceback" not in err
    assert err.strip().startswith("error:")


def test_help_teaches() -> None:
    code, out, _ = _run("--help")
    assert code == 0
    for command in ("ingest", "docs", "show", "delete", "context", "ask", "scopes", "demo"):
        assert command in out
    assert "Exit codes" in out
    code, out, _ = _run("ingest", "--help")
    assert "--origin-kind" in out and "--json" in out


def test_the_list_of_commands_gives_each_one_line() -> None:
    from citegraph.surfaces.cli.main import summary

    for command in app.registered_commands:
        assert command.short_help and "\n" not in command.short_help, command.name
    # The first sentence; a long one cut at its colon, never inside parentheses.
    assert summary("Ingest files.\nEach document is stored.") == "Ingest files."
    long = "If NAME changes, what breaks: " + "every entity that depends on it " * 4
    assert summary(long) == "If NAME changes, what breaks"
    wrapped = "Run it on stdio (tools: a, b,\n" + "c, d, " * 20 + "e)."
    assert summary(wrapped) == " ".join(wrapped.split())  # no colon outside parentheses


def test_the_mcp_command_names_every_tool(tmp_path: Path) -> None:
    import asyncio

    import citegraph
    from citegraph.surfaces.mcp import build_server

    code, out, _ = _run("mcp", "--help")
    text = " ".join(out.replace("│", " ").split())
    with citegraph.open(tmp_path / "home") as ws:
        names = [tool.name for tool in asyncio.run(build_server(ws, ["default"]).list_tools())]
    assert code == 0 and len(names) >= 10
    for name in names:
        assert name in text, name


def test_derived_text_origin_from_the_command_line(home: str, tmp_path: Path) -> None:
    text = tmp_path / "scan.txt"
    text.write_text("Text read off a scanned page.")
    code, out, _ = _run(
        "ingest",
        str(text),
        "--home",
        home,
        "--json",
        "--origin-kind",
        "ocr",
        "--origin-source",
        "scan.pdf",
        "--origin-method",
        "tesseract 5",
    )
    assert code == 0
    doc = json.loads(out)["results"][0]["document"]
    assert doc["origin"] == {"kind": "ocr", "source": "scan.pdf", "method": "tesseract 5"}
    assert _run("ingest", str(text), "--home", home, "--origin-kind", "ocr")[0] == 2


def test_demo_runs(tmp_path: Path) -> None:
    code, out, _ = _run("demo", "--home", str(tmp_path / "demo"))
    assert code == 0
    assert "sample_corpus/checkout-service.md" in out
    assert "MISMATCH" not in out and "= stored text" in out
    assert "verified)" in out and "refused (model-declined)" in out


def test_context_for_people_and_for_scripts(home: str, tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text(
        "The checkoutservice calls the payment-gateway to capture the card.\n\n"
        "The payment-gateway times out after ten seconds.\n"
    )
    assert _run("ingest", str(notes), "--home", home)[0] == 0
    code, out, err = _run("context", "What does the checkoutservice call?", "--home", home)
    assert code == 0
    assert "verdict: grounded" in out and "E1 notes.md bytes [0," in out
    assert "search by meaning was skipped" in " ".join(err.split())
    code, out, _ = _run(
        "context", "When does the checkoutservice retry?", "--home", home, "--json", "--k", "1"
    )
    evidence = json.loads(out)
    assert evidence["verdict"]["state"] == "related"
    assert evidence["verdict"]["uncovered"] == ["retry"]
    assert len(evidence["items"]) == 1 and evidence["items"][0]["citable"] is True
    code, _, err = _run("context", "the of and", "--home", home)
    assert code == 1 and "no content words" in err
    code, _, err = _run("context", "anything?", "--home", home, "--hops", "4")
    assert code == 2 and "hops" in err  # a command-line mistake (issue 12)


def test_ask_answers_with_verified_quotes_or_refuses(home: str, tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text(
        "When the payment gateway times out, checkout releases the reserved stock.\n\n"
        "The pricing service keeps a pool of 64 database connections.\n"
    )
    assert _run("ingest", str(notes), "--home", home)[0] == 0
    code, out, _ = _run("ask", "What does checkout do when the gateway times out?", "--home", home)
    assert code == 0 and "answered by extractive" in out
    assert "releases the reserved stock" in out
    code, out, _ = _run(
        "ask", "What does checkout do when the gateway catches fire?", "--home", home, "--json"
    )
    assert code == 4
    answer = json.loads(out)
    assert answer["disposition"] == "refused" and answer["reason"] == "model-declined"
    assert answer["text"] is None and answer["claims"] == []
    code, out, _ = _run("ask", "Who won the chess final in Reykjavik?", "--home", home)
    assert code == 4 and "refused (no-evidence)" in " ".join(out.split())


def test_ask_export_and_check(home: str, tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("When the payment gateway times out, checkout releases the reserved stock.\n")
    assert _run("ingest", str(notes), "--home", home)[0] == 0
    exported = tmp_path / "answer.json"
    question = "What does checkout do when the gateway times out?"
    code, _, _ = _run("ask", question, "--home", home, "--export", str(exported))
    assert code == 0
    code, out, _ = _run("check", str(exported))
    assert code == 0 and "1 citation(s) verified" in out
    data = json.loads(exported.read_text())
    data["claims"][0]["citations"][0]["quote"] = "checkout releases the reserved stack"
    exported.write_text(json.dumps(data))
    code, _, err = _run("check", str(exported))
    assert code == 1 and "problem:" in err
    code, _, err = _run("check", str(tmp_path / "missing.json"))
    assert code == 1 and "cannot read" in err


def test_chat_keeps_the_conversation(home: str, tmp_path: Path) -> None:
    notes = tmp_path / "artemis.md"
    notes.write_text(
        "Reid Wiseman commands Artemis II, the first crewed flight of the program. "
        "Wiseman works for NASA, the space organization of the United States.\n"
    )
    assert _run("ingest", str(notes), "--home", home)[0] == 0
    result = runner.invoke(
        app,
        ["chat", "--home", home],
        input="Who commands Artemis II?\nWhich organization does he work for?\n\n",
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    out = " ".join(result.stdout.split())
    assert "asked as: Which organization does Reid Wiseman work for?" in out
    assert out.count("answered by extractive") == 2 and "NASA" in out
