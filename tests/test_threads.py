"""The core under concurrent callers, as the HTTP service uses it (one scope, many threads).

Readers and a writer on one scope at once: tests/test_store_contract.py, on every backend."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import snowballstemmer

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
