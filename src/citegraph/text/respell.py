"""Close spellings: a question word read as the stored word it nearly is ("langauge" as
"language"), within a bounded edit distance and never for short words, where one letter
makes another word ("cat", "car")."""

from __future__ import annotations

from collections.abc import Iterable

from rapidfuzz.distance import Levenshtein

MIN_CHARS = 5
QUESTION_WORDS = ("what", "which", "who", "whom", "whose", "when", "where", "why", "how")


def max_edits(word: str) -> int:
    """Edits (insertions, deletions, substitutions) allowed: 1 up to 7 letters, 2 from 8."""
    return 1 if len(word) < 8 else 2


def respell(word: str, vocabulary: Iterable[str]) -> str | None:
    """The word of `vocabulary` (lowercase) that `word` is a close spelling of: the same
    first letter, the fewest edits within `max_edits`, the first in order among equals; None
    when there is none, or `word` is shorter than MIN_CHARS."""
    lowered = word.casefold()
    if len(lowered) < MIN_CHARS or not lowered.isalpha():
        return None
    limit = max_edits(lowered)
    best: tuple[int, str] | None = None
    for stored in vocabulary:
        if stored[:1] != lowered[:1] or abs(len(stored) - len(lowered)) > limit:
            continue
        edits = Levenshtein.distance(lowered, stored, score_cutoff=limit)
        if edits <= limit and stored != lowered and (best is None or edits < best[0]):
            best = (edits, stored)
    return best[1] if best else None


def question_word_typo(word: str) -> str | None:
    """The question word (what, where, ...) a question's first word misspells by one letter
    ("Wat", "Wher"); None otherwise."""
    lowered = word.casefold()
    if len(lowered) < 3 or lowered in QUESTION_WORDS:
        return None
    for wh in QUESTION_WORDS:
        if lowered[:1] == wh[:1] and Levenshtein.distance(lowered, wh, score_cutoff=1) <= 1:
            return wh
    return None
