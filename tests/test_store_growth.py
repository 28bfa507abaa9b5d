"""The embedded store at the sizes users have: megabytes of text written by many separate
commands, each starting and stopping the store, then read by a command with default settings.

Before compaction, every start replayed the whole append-only history, and an index created
inside it was not used while it was replayed: 5 MB of text written by 24 commands took minutes
to load, and `citegraph docs` gave up after 30 s."""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path

import pytest

from citegraph.store.aof import read_files
from citegraph.store.processes import pid_alive

from conftest import dataset
from helpers import CITEGRAPH

COMMANDS = 24


def _texts() -> list[tuple[str, str]]:
    """The SQuAD dev articles; where the shared data sets are absent, prose made up of the
    same shape (paragraphs naming many people, places and organisations), so that the test
    never skips."""
    try:
        data = json.loads(dataset("squad2/squad2-dev-16.json").read_text())["data"]
    except pytest.skip.Exception:
        return _made_up_articles()
    return [
        (a["title"], a["title"] + "\n\n" + "\n\n".join(p["context"] for p in a["paragraphs"]))
        for a in data
    ]


def _made_up_articles() -> list[tuple[str, str]]:
    rng = random.Random(10)
    syllables = ["ar", "bel", "cor", "dun", "el", "fen", "gar", "hol", "is", "kem", "lor", "mar"]
    names = ["".join(rng.choice(syllables) for _ in range(3)).capitalize() for _ in range(3000)]
    verbs = ["founded", "visited", "wrote to", "governed", "traded with", "described"]
    articles = []
    for number in range(16):
        paragraphs = []
        for _ in range(60):
            sentences = [
                f"In {rng.randint(1200, 1990)}, {rng.choice(names)} {rng.choice(names)} "
                f"{rng.choice(verbs)} the {rng.choice(names)} Company near {rng.choice(names)}."
                for _ in range(6)
            ]
            paragraphs.append(" ".join(sentences))
        articles.append((f"Article {number}", f"Article {number}\n\n" + "\n\n".join(paragraphs)))
    return articles


def _articles(folder: Path) -> list[Path]:
    texts = _texts()
    files = []
    folder.mkdir(parents=True, exist_ok=True)
    copy = 0
    while sum(f.stat().st_size for f in files) < 5_000_000:
        for number, (_title, text) in enumerate(texts):
            path = folder / f"copy{copy}-{number:02d}.txt"  # a file's name is its document name
            path.write_text(text + "\n", encoding="utf-8")
            files.append(path)
        copy += 1
    return files


def _citegraph(*args: str, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [CITEGRAPH, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


@pytest.mark.slow
def test_megabytes_written_by_many_commands_open_with_default_settings(tmp_path: Path) -> None:
    files = _articles(tmp_path / "text")
    assert sum(f.stat().st_size for f in files) >= 5_000_000
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITEGRAPH_")}
    # Every command starts the store and stops it when it ends: the worst case for loading.
    env["CITEGRAPH_STORE_LINGER"] = "0"
    batches = [files[i::COMMANDS] for i in range(COMMANDS)]
    for batch in batches:
        done = _citegraph(
            "ingest", *map(str, batch), "--home", str(home), "--scope", "squad", "--json",
            env=env, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    try:
        listed = _citegraph(
            "docs", "--home", str(home), "--scope", "squad", "--json", env=env, timeout=300
        )
        assert listed.returncode == 0, listed.stderr
        assert {d["name"] for d in json.loads(listed.stdout)} == {f.name for f in files}
    finally:
        record = home / "run" / "server.json"
        if record.exists():  # a failed start must not leave a server behind the test
            pid = json.loads(record.read_text())["pid"]
            assert not pid_alive(pid), "the last command left its server running"
    stored = read_files(home / "data")
    # The history was compacted: a snapshot base and a short tail, not the whole history.
    assert stored.compactions >= 1
    assert stored.tail_bytes < stored.base_bytes
