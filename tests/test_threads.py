"""The core under concurrent callers, as the HTTP service uses it (one scope, many threads)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import snowballstemmer

from citegraph import Scope
from citegraph.text import words

SENTENCES = [
    "The conditional relationships were hopefully reconsidered by the nationalisation board",
    "Generously, the operational effectiveness of organisations is continually evaluated",
    "Fluently rationalised hypotheses sensationally contradicted their own formalities",
]


def test_stemming_from_many_threads_gives_the_same_stems() -> None:
    vocabulary = sorted({w.lower() for s in SENTENCES for w in s.split()})
    vocabulary += [w + suffix for w in vocabulary for suffix in ("ness", "ational", "fully")]
    words.stem.cache_clear()
    reference = snowballstemmer.stemmer("english")
    expected = {w: reference.stemWord(w) for w in vocabulary}

    def stem_all(_: int) -> dict[str, str]:
        # Bypass the cache so every thread really runs the stemmer, many times over.
        return {w: words.stem.__wrapped__(w) for w in vocabulary * 20}

    with ThreadPoolExecutor(8) as pool:
        for result in pool.map(stem_all, range(16)):
            assert result == expected


def test_context_from_many_threads_while_another_writes(scope: Scope) -> None:
    scope.ingest_many(
        [(f"s{i}.txt", f"{s}. Note {i}.".encode()) for i, s in enumerate(SENTENCES * 5)]
    )
    alone = scope.context("Who reconsidered the conditional relationships?")

    def ask(_: int) -> tuple[str, str]:
        got = scope.context("Who reconsidered the conditional relationships?")
        return got.verdict.state.value, got.items[0].text

    def write(n: int) -> None:
        scope.ingest(f"Unrelated harbour note {n}.".encode(), name=f"w{n}.txt")

    with ThreadPoolExecutor(8) as pool:
        writes = [pool.submit(write, n) for n in range(5)]
        answers = list(pool.map(ask, range(40)))
        for w in writes:
            w.result()
    assert set(answers) == {(alone.verdict.state.value, alone.items[0].text)}
