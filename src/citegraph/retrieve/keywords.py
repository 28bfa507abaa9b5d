"""Keyword search: candidates from the full-text index, ranked by BM25.

FalkorDB's full-text index finds the chunks that hold any of the question's words, but its
score does not weigh a word by its rarity against the length of the chunk the way BM25 does,
and on the HotpotQA benchmark that ordering was far worse than BM25's. So the index supplies
candidates, and this module ranks them with BM25 (k1 = 1.2, b = 0.75): term frequencies and
lengths from the candidates' own text, document frequencies from the index (one count query
per word, cached per scope until the next write).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from ..store.graph import GraphHandle
from ..store.queries.retrieval import CANDIDATE_CHUNKS, CHUNK_STATS, TERM_COUNT
from ..text.words import STOPWORDS, stem, tokens

K1 = 1.2
B = 0.75
CANDIDATES = 200
DF_CAP_MIN = 2000


@dataclass
class TermStats:
    """Document frequencies and collection size for one scope; dropped after any write."""

    generation: int = -1
    chunks: int = 0
    average_words: float = 1.0
    frequencies: dict[str, int] = field(default_factory=dict)
    entity_types: list[str] | None = None


def query_words(content: list[str]) -> list[str]:
    """The words to search for: letters and digits only, so no full-text operator survives."""
    words = [w.lower() for w in re.findall(r"[^\W_]+", " ".join(content))]
    return [w for w in dict.fromkeys(words) if w not in STOPWORDS]


def load_chunk_stats(graph: GraphHandle, stats: TermStats) -> None:
    count, average_bytes = graph.ro_query(CHUNK_STATS)[0]
    stats.chunks = max(1, int(count))
    # Words per chunk, estimated from bytes (about six bytes a word in prose).
    stats.average_words = max(1.0, float(average_bytes or 6.0) / 6.0)


def bm25_ranked(
    graph: GraphHandle, words: list[str], stats: TermStats, limit: int
) -> list[tuple[str, float]]:
    if not words:
        return []
    rows = graph.ro_query(
        CANDIDATE_CHUNKS,
        {
            "query": " | ".join(words),
            "limit": CANDIDATES,
            "over": CANDIDATES + CANDIDATES // 4,
            "wide": CANDIDATES + CANDIDATES // 2,
        },
    )
    if not rows:
        return []
    if stats.chunks == 0:
        load_chunk_stats(graph, stats)
    query_stems = {stem(w): w for w in words}
    for word in query_stems.values():
        if word not in stats.frequencies:
            counted = graph.ro_query(TERM_COUNT, {"term": word, "cap": DF_CAP_MIN})
            stats.frequencies[word] = int(counted[0][0])
    idf: dict[str, float] = {}
    for key, word in query_stems.items():
        df = stats.frequencies[word]
        idf[key] = math.log(1 + (stats.chunks - df + 0.5) / (df + 0.5))
    scored: list[tuple[str, float]] = []
    for chunk_id, text, _ in rows:
        counts = Counter(stem(t) for t in tokens(text))
        length = sum(counts.values())
        norm = K1 * (1 - B + B * length / stats.average_words)
        score = sum(
            idf[key] * counts[key] * (K1 + 1) / (counts[key] + norm) for key in idf if counts[key]
        )
        scored.append((chunk_id, score))
    scored.sort(key=lambda pair: (-pair[1], pair[0]))
    return scored[:limit]


def scope_weights(words: list[str], stats: TermStats) -> tuple[tuple[str, float], ...]:
    """(stem, inverse document frequency in the scope's chunks) of the question's words whose
    frequency this call counted (TermStats keeps them)."""
    found: dict[str, float] = {}
    for word in query_words(words):
        df = stats.frequencies.get(word)
        if df is not None:
            found.setdefault(stem(word), math.log(1 + stats.chunks / (df + 0.5)))
    return tuple(found.items())
