"""`citegraph eval`: question sets read, asked, measured and reported."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from citegraph.answer.extractive import MIN_COVERAGE
from citegraph.surfaces.cli.main import app

runner = CliRunner()


def _corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "harbour"
    corpus.mkdir()
    (corpus / "wall.md").write_text(
        "# The wall\n\nThe harbour wall was rebuilt in 1884 after the winter storms.\n"
    )
    (corpus / "ferry.md").write_text(
        "# The ferry\n\nThe ferry to Lundy leaves from Ilfracombe at nine.\n"
    )
    return corpus


def test_a_jsonl_set_over_a_corpus_is_measured_and_reported(tmp_path: Path) -> None:
    questions = tmp_path / "questions.jsonl"
    rows = [
        {"question": "When was the harbour wall rebuilt?", "answers": ["1884"],
         "documents": ["harbour/wall.md"]},
        {"question": "Where does the ferry to Lundy leave from?", "answers": ["Ilfracombe"],
         "documents": ["harbour/ferry.md"]},
        {"question": "Who painted the lighthouse on Lundy?", "answerable": False},
    ]  # fmt: skip
    questions.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    out = tmp_path / "report"
    result = runner.invoke(
        app,
        ["eval", str(questions), "--corpus", str(_corpus(tmp_path)), "--out", str(out),
         "--home", str(tmp_path / "home"), "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.stdout
    figures = json.loads(result.stdout)
    assert (figures["questions"], figures["answerable"], figures["unanswerable"]) == (3, 2, 1)
    assert figures["recall_at_k"] == 1.0
    assert figures["coverage"] == 1.0 and figures["precision"] == 1.0
    assert figures["refused_unanswerable"] == 1.0
    assert figures["refusals"] == {"model-declined": 1} or figures["refusals"] == {"no-evidence": 1}
    assert figures["latency_ms_p50"] > 0 and len(figures["curve"]) >= 5
    report = (out / "report.md").read_text()
    assert "retrieval recall@8" in report and f"| {MIN_COVERAGE:.2f} (default) |" in report
    for plot in ("precision-coverage.png", "refusals.png"):
        assert (out / plot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"![{plot}]({plot})" in report


def test_a_squad_file_brings_its_own_paragraphs(tmp_path: Path) -> None:
    squad = {
        "data": [{"title": "Harbour", "paragraphs": [{
            "context": "The harbour wall was rebuilt in 1884 after the winter storms.",
            "qas": [
                {"question": "When was the harbour wall rebuilt?", "is_impossible": False,
                 "answers": [{"text": "1884", "answer_start": 32}]},
                {"question": "When was the harbour wall painted?", "is_impossible": True,
                 "answers": []},
            ],
        }]}],
    }  # fmt: skip
    path = tmp_path / "tiny-squad.json"
    path.write_text(json.dumps(squad))
    result = runner.invoke(
        app,
        ["eval", str(path), "--out", str(tmp_path / "r"), "--home", str(tmp_path / "h"),
         "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.stdout
    figures = json.loads(result.stdout)
    assert figures["recall_at_k"] == 1.0 and figures["precision"] == 1.0


def test_bad_question_sets_are_refused_with_the_reason(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"question": "fine?"}\n{not json\n')
    home = str(tmp_path / "home")
    result = runner.invoke(app, ["eval", str(broken), "--scope", "x", "--home", home])
    # The message is wrapped to the terminal's width, where a long path may push it over.
    assert result.exit_code == 1 and "line 2" in " ".join(result.stderr.split())
    lonely = tmp_path / "lonely.jsonl"
    lonely.write_text('{"question": "Anything?"}\n')
    result = runner.invoke(app, ["eval", str(lonely), "--home", home])
    assert result.exit_code == 2 and "--scope" in result.stderr
    missing = runner.invoke(app, ["eval", str(tmp_path / "nope.json"), "--home", home])
    assert missing.exit_code == 1 and "no such file" in missing.stderr
