"""Question words the scope does not hold, read as the stored words they nearly spell.

"Wat langauge is the currency service writen in?": "langauge" and "writen" are in no chunk,
so they would find nothing and leave the question uncovered. A word of at least
respell.MIN_CHARS letters that no chunk holds is looked up by close spelling in the full-text
index (one bounded query per such word); the closest stored word within respell.max_edits
replaces it for retrieval and the verdict, and the pair is reported in the verdict.
"""

from __future__ import annotations

from ..store.graph import GraphHandle
from ..store.queries.retrieval import CLOSE_SPELLING_CHUNKS, TERM_COUNT
from ..text.respell import MIN_CHARS, max_edits, question_word_typo, respell
from ..text.words import tokens
from .keywords import DF_CAP_MIN, TermStats


def _held(graph: GraphHandle, word: str, stats: TermStats) -> bool:
    lowered = word.lower()
    if lowered not in stats.frequencies:
        counted = graph.ro_query(TERM_COUNT, {"term": lowered, "cap": DF_CAP_MIN})
        stats.frequencies[lowered] = int(counted[0][0])
    return stats.frequencies[lowered] > 0


def respell_words(
    graph: GraphHandle, words: list[str], stats: TermStats
) -> tuple[list[str], tuple[tuple[str, str], ...]]:
    """`words` with each one no chunk holds replaced by the stored word it nearly spells;
    the replacements as (asked, stored)."""
    found: list[str] = []
    pairs: list[tuple[str, str]] = []
    for index, word in enumerate(words):
        if index == 0 and question_word_typo(word):
            continue  # "Wat ...": a misspelt question word, not a term to search for
        if len(word) < MIN_CHARS or not word.isalpha() or _held(graph, word, stats):
            found.append(word)
            continue
        fuzz = "%" * max_edits(word)
        rows = graph.ro_query(CLOSE_SPELLING_CHUNKS, {"query": f"{fuzz}{word.lower()}{fuzz}"})
        vocabulary = sorted({t.casefold() for (text,) in rows for t in tokens(text)})
        stored = respell(word, vocabulary)
        if stored is None:
            found.append(word)
        else:
            found.append(stored)
            pairs.append((word, stored))
    return found, tuple(pairs)
