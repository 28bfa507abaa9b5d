"""Question sets for `citegraph eval`: SQuAD 2.0 JSON, HotpotQA JSON, and our own JSONL.

JSONL (one object per line; docs/evaluation.md):

    {"question": "...", "answers": ["..."], "documents": ["notes/a.md"], "answerable": true}

`answers`: strings one of which a correct answer's quotes must hold (empty when unanswerable);
`documents`: the names of the documents that hold the answer (all of them must be retrieved
for the question to count as recalled); `answerable` defaults to whether `answers` is empty.
SQuAD and HotpotQA files carry their own corpus (the paragraphs); JSONL needs a scope that
holds its documents, or a corpus to ingest.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..errors import UsageError

Format = Literal["squad", "hotpot", "jsonl"]


@dataclass(frozen=True)
class EvalQuestion:
    question: str
    answers: tuple[str, ...]
    documents: tuple[str, ...]  # the gold documents, by name
    answerable: bool


@dataclass(frozen=True)
class QuestionSet:
    format: Format
    questions: tuple[EvalQuestion, ...]
    # (name, text, title) of the documents the set carries with it; empty for JSONL.
    corpus: tuple[tuple[str, bytes, str], ...] = ()


def _squad(data: dict[str, Any]) -> QuestionSet:
    corpus: list[tuple[str, bytes, str]] = []
    questions: list[EvalQuestion] = []
    for article in data["data"]:
        title = str(article["title"]).replace("_", " ")
        for index, paragraph in enumerate(article["paragraphs"]):
            name = f"{article['title']}/{index}"
            corpus.append((name, str(paragraph["context"]).encode(), title))
            for qa in paragraph["qas"]:
                answers = tuple(str(a["text"]) for a in qa.get("answers", []))
                impossible = bool(qa.get("is_impossible", False))
                questions.append(
                    EvalQuestion(str(qa["question"]), answers, (name,), not impossible)
                )
    return QuestionSet("squad", tuple(questions), tuple(corpus))


def _hotpot(data: list[dict[str, Any]]) -> QuestionSet:
    paragraphs: dict[str, str] = {}
    questions: list[EvalQuestion] = []
    for example in data:
        for title, sentences in example["context"]:
            paragraphs.setdefault(str(title), "".join(sentences))
        gold = tuple(dict.fromkeys(str(title) for title, _ in example["supporting_facts"]))
        answer = str(example.get("answer", ""))
        questions.append(EvalQuestion(str(example["question"]), (answer,), gold, True))
    corpus = tuple((title, text.encode(), title) for title, text in paragraphs.items())
    return QuestionSet("hotpot", tuple(questions), corpus)


def _jsonl(text: str, label: str) -> QuestionSet:
    questions: list[EvalQuestion] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            question = row["question"]
            answers = tuple(row.get("answers", ()))
            documents = tuple(row.get("documents", ()))
            answerable = bool(row.get("answerable", bool(answers)))
        except (ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"{label}, line {number}: not a question object ({exc})") from None
        if not isinstance(question, str) or not question.strip():
            raise UsageError(f"{label}, line {number}: `question` must be a non-empty string")
        if not all(isinstance(v, str) for v in (*answers, *documents)):
            raise UsageError(f"{label}, line {number}: answers and documents must be strings")
        questions.append(EvalQuestion(question, answers, documents, answerable))
    if not questions:
        raise UsageError(f"{label}: no questions in it")
    return QuestionSet("jsonl", tuple(questions))


def load(path: Path, fmt: Format | None = None) -> QuestionSet:
    """Read a question set, its format given or told by its content."""
    if not path.is_file():
        raise UsageError(f"{path}: no such file")
    text = path.read_text(encoding="utf-8")
    if fmt == "jsonl" or (fmt is None and path.suffix == ".jsonl"):
        return _jsonl(text, str(path))
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"{path}: not JSON ({exc}); JSONL files end in .jsonl") from None
    try:
        if fmt == "squad" or (fmt is None and isinstance(data, dict) and "data" in data):
            return _squad(data)
        if fmt == "hotpot" or (fmt is None and isinstance(data, list)):
            return _hotpot(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise UsageError(f"{path}: not a {fmt or 'SQuAD or HotpotQA'} file ({exc})") from None
    raise UsageError(f"{path}: neither SQuAD (an object with `data`) nor HotpotQA (a list)")
