"""Where a question starts in the graph: names, close spellings, type words, keywords."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz

from ..extract.mentions import normalise_name
from ..store.graph import GraphHandle
from ..store.queries.retrieval import (
    ALIASES_OF,
    ENTITIES_BY_NORM,
    ENTITIES_BY_PREFIX,
    ENTITIES_BY_TYPE,
    ENTITY_TYPES,
    prefix_ranges,
)
from ..text.words import STOPWORDS, stem, tokens

# Close spellings: a question phrase matches a stored name when rapidfuzz's ratio (0 to 100)
# is at least this, the phrase has at least MIN_FUZZY_CHARS characters and shares the name's
# first three characters. Documented in docs/retrieval.md.
FUZZY_THRESHOLD = 88.0
MIN_FUZZY_CHARS = 5
MAX_GRAM_WORDS = 5


@dataclass(frozen=True)
class SeedEntity:
    key: str
    name: str
    how: str  # "name", "alias", "close-spelling", "type"
    matched: str = ""  # the words of the question that found it


def phrases(question: str) -> list[str]:
    """Normalised word sequences of the question (1 to MAX_GRAM_WORDS words), longest first,
    skipping any that start or end with a stopword."""
    words = tokens(question)
    grams: list[str] = []
    for size in range(min(MAX_GRAM_WORDS, len(words)), 0, -1):
        for start in range(len(words) - size + 1):
            gram = words[start : start + size]
            if gram[0].casefold() in STOPWORDS or gram[-1].casefold() in STOPWORDS:
                continue
            grams.append(normalise_name(" ".join(gram)))
    return list(dict.fromkeys(grams))


def by_name(graph: GraphHandle, grams: list[str]) -> list[SeedEntity]:
    """Stored names the question says, then what a source says they are also called
    ("FAA" defined as "Federal Aviation Administration"), found by the same words."""
    if not grams:
        return []
    rows = graph.ro_query(ENTITIES_BY_NORM, {"norms": grams})
    named = [SeedEntity(key, name, "name", gram) for key, name, _type, gram in rows]
    if not named:
        return named
    matched = {s.key: s.matched for s in named}
    aliases = graph.ro_query(ALIASES_OF, {"keys": list(matched)})
    also = [
        SeedEntity(key, name, "alias", matched[seed])
        for seed, key, name in aliases
        if key not in matched
    ]
    return named + list({s.key: s for s in also}.values())


def by_close_spelling(graph: GraphHandle, grams: list[str]) -> list[SeedEntity]:
    """Stored names close to a question phrase (exact matches included: callers set those
    apart, since this runs alongside the exact look-up)."""
    wanted = [g for g in grams if len(g) >= MIN_FUZZY_CHARS]
    if not wanted:
        return []
    prefixes = sorted({g[:3] for g in wanted})
    rows = graph.ro_query(ENTITIES_BY_PREFIX, {"prefixes": prefix_ranges(prefixes)})
    found: list[SeedEntity] = []
    for key, name, norm in rows:
        scored = [(fuzz.ratio(g, norm), g) for g in wanted if g[:3] == norm[:3]]
        best, gram = max(scored, default=(0.0, ""))
        if best >= FUZZY_THRESHOLD:
            found.append(SeedEntity(key, name, "close-spelling", gram))
    return found


def entity_types(graph: GraphHandle) -> list[str]:
    return [row[0] for row in graph.ro_query(ENTITY_TYPES) if row[0]]


def by_type_word(
    graph: GraphHandle, question: str, limit: int, types: list[str]
) -> list[SeedEntity]:
    """Entities of a type the question names ("companies" finds entities of type Company)."""
    words = {stem(w): w for w in tokens(question) if w.casefold() not in STOPWORDS}
    named: dict[str, str] = {}
    for kind in types:
        head = stem(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", kind).split()[-1])
        if head in words:
            named[kind] = words[head]
    if not named:
        return []
    rows = graph.ro_query(ENTITIES_BY_TYPE, {"types": list(named), "limit": limit})
    return [SeedEntity(key, name, "type", named[kind]) for key, name, kind in rows]
