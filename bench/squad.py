"""SQuAD 2.0 dev-16 as the benchmarks use it: each paragraph a document, and its questions."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

PATH = Path("squad2") / "squad2-dev-16.json"


@dataclass(frozen=True)
class Question:
    text: str
    paragraph: str  # the name of the paragraph's document
    answers: tuple[str, ...]
    impossible: bool


def load(datasets: Path) -> tuple[list[tuple[str, bytes, str]], list[Question]]:
    """(name, text, title) per paragraph, named `<article title>/<index>`, and the questions.

    Raises FileNotFoundError, naming the path, when the data set is absent."""
    path = datasets / PATH
    if not path.exists():
        raise FileNotFoundError(f"SQuAD not found at {path}")
    data = json.loads(path.read_text())
    paragraphs: list[tuple[str, bytes, str]] = []
    questions: list[Question] = []
    for article in data["data"]:
        title = article["title"].replace("_", " ")
        for index, paragraph in enumerate(article["paragraphs"]):
            name = f"{article['title']}/{index}"
            paragraphs.append((name, paragraph["context"].encode(), title))
            for qa in paragraph["qas"]:
                answers = tuple(a["text"] for a in qa.get("answers", []))
                questions.append(
                    Question(qa["question"], name, answers, qa.get("is_impossible", False))
                )
    return paragraphs, questions
