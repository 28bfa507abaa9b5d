"""`context`: gather cited evidence for a question and judge whether it is covered."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..errors import IndexNotReady, InvalidQuestion
from ..extract.mentions import normalise_name
from ..limits import (
    DEFAULT_HOPS,
    DEFAULT_K,
    DEFAULT_MAX_QUESTION_CHARS,
    MAX_HOPS,
    MAX_K,
)
from ..models.embeddings import Embedder
from ..store.graph import GraphHandle
from ..store.queries.retrieval import (
    CHUNK_DETAILS,
    CHUNKS_OF_ENTITIES,
    COUNT_DOCUMENTS,
    NEAREST,
    NEIGHBOUR_CHUNKS,
)
from ..store.schema import INDEXES, VECTOR_INDEX, index_states
from ..text.respell import respell
from ..text.words import content_words, framing, stem, stems, tokens
from ..values.documents import TextOrigin
from ..values.evidence import Evidence, EvidenceItem, TraversalPolicy, Verdict, VerdictState
from . import seeds as seeding
from .bridge import BRIDGE_FROM, bridged, titled
from .keywords import TermStats, bm25_ranked, load_chunk_stats, query_words, scope_weights
from .respelling import respell_words
from .walk import walk

DEFAULT_BUDGET_BYTES = 16_000
RRF_K = 60  # reciprocal rank fusion: score = sum of weight / (RRF_K + rank) over the lists
WEIGHTS = {"keyword": 1.0, "name": 1.0, "type": 1.0, "graph": 1.0}
CANDIDATES_PER_LIST = 50
CONTEXT_PASSAGES = 3

_BRANCHES = ThreadPoolExecutor(max_workers=4, thread_name_prefix="citegraph-context")
# Chunks naming the given entities, best first: an entity named in few chunks says more about
# them than one named everywhere, so each counts ln(1 + chunks / chunks naming it). Entities
# named in more than MAX_NAMED chunks say almost nothing and would cost the most: skipped.
MAX_NAMED = 300


@dataclass(frozen=True)
class _Row:
    chunk_id: str
    document_id: str
    document_name: str
    ordinal: int
    start_byte: int
    end_byte: int
    text: str
    page: int | None
    end_page: int | None
    origin: TextOrigin | None

    @staticmethod
    def of(row: list[Any]) -> _Row:
        origin = TextOrigin(row[9], row[10] or "", row[11] or "") if row[9] else None
        return _Row(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], origin)


# Control characters other than tab and line breaks, and lone surrogates: no stored text can
# hold them (NUL cannot be stored at all), so a question with one is a mistake, said as such.
FORBIDDEN_IN_QUESTION = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def check_question(
    question: str, k: int, hops: int, max_chars: int = DEFAULT_MAX_QUESTION_CHARS
) -> None:
    if not isinstance(question, str) or not question.strip():
        raise InvalidQuestion("the question is empty")
    forbidden = FORBIDDEN_IN_QUESTION.search(question)
    if forbidden is not None:
        raise InvalidQuestion(
            f"the question holds the character U+{ord(forbidden.group()):04X} at position "
            f"{forbidden.start()}: control characters (NUL among them) and lone surrogates "
            "are refused"
        )
    if len(question) > max_chars:
        raise InvalidQuestion(
            f"the question is {len(question):,} characters long; the limit is "
            f"{max_chars:,} (CITEGRAPH_MAX_QUESTION_CHARS)"
        )
    if not 1 <= k <= MAX_K:
        raise InvalidQuestion(f"k must be between 1 and {MAX_K}, got {k}")
    if not 0 <= hops <= MAX_HOPS:
        raise InvalidQuestion(f"hops must be between 0 and {MAX_HOPS}, got {hops}")


def _fuse(lists: dict[str, list[str]]) -> dict[str, tuple[float, list[str]]]:
    fused: dict[str, tuple[float, list[str]]] = {}
    for retriever, chunk_ids in lists.items():
        for rank, chunk_id in enumerate(dict.fromkeys(chunk_ids), start=1):
            score, found_by = fused.get(chunk_id, (0.0, []))
            weight = WEIGHTS.get(retriever, 1.0)
            fused[chunk_id] = (score + weight / (RRF_K + rank), [*found_by, retriever])
    return fused


def gather(
    graph: GraphHandle,
    question: str,
    *,
    k: int = DEFAULT_K,
    hops: int = DEFAULT_HOPS,
    budget_bytes: int = DEFAULT_BUDGET_BYTES,
    max_question_chars: int = DEFAULT_MAX_QUESTION_CHARS,
    policy: TraversalPolicy | None = None,
    stats: TermStats | None = None,
    embedder: Embedder | None = None,
) -> Evidence:
    """Evidence for a standalone question (see docs/retrieval.md). `stats` caches the
    scope's word statistics between calls."""
    check_question(question, k, hops, max_question_chars)
    policy = policy or TraversalPolicy()
    words = content_words(question)
    if not words:
        raise InvalidQuestion(
            "the question has no content words (only stopwords and question words)"
        )
    skipped: tuple[str, ...] = ()
    if embedder is None:
        skipped = ("meaning: no embedding model is configured, so search by meaning was skipped",)

    def verdict_only(verdict: Verdict) -> Evidence:
        return Evidence(question, (), (), verdict, tuple(words), skipped=skipped, policy=policy)

    if int(graph.ro_query(COUNT_DOCUMENTS)[0][0]) == 0:
        return verdict_only(Verdict(VerdictState.NOTHING_STORED, detail="the scope is empty"))
    required = (*INDEXES, VECTOR_INDEX) if embedder is not None else INDEXES
    states = index_states(graph, required)
    pending = [(lab, prop, kind) for (lab, prop, kind), st in states.items() if st != "OPERATIONAL"]
    if pending:
        return verdict_only(Verdict(
            VerdictState.COULD_NOT_JUDGE,
            stage="meaning" if all(p == VECTOR_INDEX for p in pending) else "keyword",
            detail="indexes not ready: "
            + ", ".join(f"{lab}.{prop}" for lab, prop, _ in pending)
            + f" ({IndexNotReady.__name__})",
        ))  # fmt: skip
    meaning_future = None
    if embedder is not None:
        try:
            [vector] = embedder.embed([question])
        except Exception as exc:  # a model that fails is reported, never read as "nothing"
            return verdict_only(Verdict(
                VerdictState.COULD_NOT_JUDGE, stage="meaning",
                detail=f"the embedding model {embedder.name!r} failed: {exc}",
            ))  # fmt: skip
        meaning_future = _BRANCHES.submit(
            graph.ro_query, NEAREST, {"k": CANDIDATES_PER_LIST, "vector": vector}
        )

    stats = stats or TermStats()
    if stats.chunks == 0:
        load_chunk_stats(graph, stats)
    words, respelled = respell_words(graph, words, stats)
    # The keyword branch is independent of the name and graph branch: it runs alongside (the
    # store answers read queries in parallel), which shortens a call by its slower half.
    keyword_future = _BRANCHES.submit(
        bm25_ranked, graph, query_words(words), stats, CANDIDATES_PER_LIST
    )
    grams = seeding.phrases(question)
    close_future = _BRANCHES.submit(seeding.by_close_spelling, graph, grams)
    named = seeding.by_name(graph, grams)
    if stats.entity_types is None:
        stats.entity_types = seeding.entity_types(graph)
    typed = seeding.by_type_word(graph, question, policy.fanout, stats.entity_types)
    exact_grams = {s.matched for s in named}
    exact_names = {normalise_name(s.name) for s in named}
    close = [
        s
        for s in close_future.result()
        if s.matched not in exact_grams and normalise_name(s.name) not in exact_names
    ]

    name_seeds = list(dict.fromkeys(s.key for s in [*named, *close]))
    name_future = _BRANCHES.submit(_chunks_of, graph, name_seeds, stats) if name_seeds else None
    type_keys = [s.key for s in typed]
    type_future = _BRANCHES.submit(_chunks_of, graph, type_keys, stats) if typed else None
    lists: dict[str, list[str]] = {}
    limits: list[str] = []
    walk_chunks: list[str] = []
    seeds_for_walk = name_seeds or type_keys
    if seeds_for_walk and hops > 0:
        reached = walk(graph, seeds_for_walk, hops, policy)
        if reached.fanout_cut:
            limits.append("fanout")
        if reached.hops_cut:
            limits.append("hops")
        walked = [key for key, hop in sorted(reached.entities.items(), key=lambda kv: kv[1])
                  if hop > 0]  # fmt: skip
        by_hop = sorted(reached.relation_chunks, key=lambda c: reached.relation_chunks[c])
        walk_chunks = by_hop + (_chunks_of(graph, walked, stats) if walked else [])
    if name_future is not None:
        lists["name"] = name_future.result()
    if type_future is not None:
        lists["type"] = type_future.result()
    keyword_hits = keyword_future.result()
    if keyword_hits:
        lists["keyword"] = [chunk_id for chunk_id, _ in keyword_hits]
    if walk_chunks:
        lists["graph"] = walk_chunks
    if meaning_future is not None:
        nearest = [row[0] for row in meaning_future.result()]
        if nearest:
            lists["meaning"] = nearest

    fused = _fuse(lists)
    ranked = _order(fused, keyword_hits, k)
    if hops > 0 and ranked:
        ranked = _titled_first(graph, ranked, fused, [s.name for s in named])
        ranked = _bridge(graph, ranked, fused)
    # Details only for the candidates that can still make it in (the rest count as omitted).
    shortlist = ranked[: 3 * k]
    details = {
        r.chunk_id: r for r in map(_Row.of, graph.ro_query(CHUNK_DETAILS, {"ids": shortlist}))
    }
    items: list[EvidenceItem] = []
    used = 0
    omitted = 0
    omitted += len(ranked) - len(shortlist)
    if len(ranked) > len(shortlist) and "k" not in limits:
        limits.append("k")
    for chunk_id in shortlist:
        row = details.get(chunk_id)
        if row is None:
            continue
        size = row.end_byte - row.start_byte
        if len(items) >= k or used + size > budget_bytes:
            omitted += 1
            if len(items) >= k and "k" not in limits:
                limits.append("k")
            elif len(items) < k and "budget" not in limits:
                limits.append("budget")
            continue
        used += size
        score, found_by = fused[chunk_id]
        items.append(_item(f"E{len(items) + 1}", row, score, tuple(found_by), citable=True))
    context = _context_passages(graph, items, details)
    matched = tuple(dict.fromkeys(s.name for s in [*named, *close, *typed]))
    # The question's words that found a stored name (exactly, by close spelling or as a type
    # word) are covered by that name.
    matched_words = " ".join(s.matched for s in [*named, *close, *typed])
    verdict = _verdict(words, items, matched, matched_words, respelled)
    return Evidence(
        question=question,
        items=tuple(items),
        context=context,
        verdict=verdict,
        content_words=tuple(words),
        seeds=matched,
        skipped=skipped,
        policy=policy,
        omitted_items=omitted,
        limits_reached=tuple(limits),
        term_weights=scope_weights(words, stats),
    )


# A keyword hit scoring at least this share of the best one keeps its place (see _order).
STRONG_KEYWORD = 0.5


def _titled_first(
    graph: GraphHandle,
    ranked: list[str],
    fused: dict[str, tuple[float, list[str]]],
    names: list[str],
) -> list[str]:
    """`ranked` with the documents the question names by their titles (bridge.py) first."""
    found = titled(graph, list(dict.fromkeys(names)))
    for chunk in found:
        score, found_by = fused.get(chunk, (0.0, []))
        fused[chunk] = (score, [*found_by, "title"])
    return [*found, *(c for c in ranked if c not in found)]


def _bridge(
    graph: GraphHandle, ranked: list[str], fused: dict[str, tuple[float, list[str]]]
) -> list[str]:
    """`ranked` with the passages the best ones lead to (bridge.py) right after them."""
    top = ranked[:BRIDGE_FROM]
    found = bridged(graph, top, set(fused))
    for chunk in found:
        score, found_by = fused.get(chunk, (0.0, []))
        fused[chunk] = (score, [*found_by, "bridge"])
    return [*top, *found, *(c for c in ranked[BRIDGE_FROM:] if c not in found)]


def _order(
    fused: dict[str, tuple[float, list[str]]], keyword: list[tuple[str, float]], k: int
) -> list[str]:
    """Fused order, except that the best keyword hits keep their places: the first half of
    the k places, and any hit in the top k scoring at least STRONG_KEYWORD of the best. The
    other places go by fused score, where the graph's and the names' finds weigh in. (Plain
    fusion let names common to a whole article push good keyword hits out on SQuAD; this kept
    the keyword recall there and the graph's gain on HotpotQA: docs/benchmarks.md.)"""
    by_score = sorted(fused, key=lambda c: (-fused[c][0], c))
    if not keyword:
        return by_score
    best = keyword[0][1] or 1.0
    kept = {c for c, _ in keyword[: k - k // 2]}
    kept |= {c for c, score in keyword[:k] if score >= STRONG_KEYWORD * best}
    head = [c for c in by_score if c in kept]
    others = [c for c in by_score if c not in head]
    return head + others


def _chunks_of(graph: GraphHandle, keys: list[str], stats: TermStats) -> list[str]:
    if stats.chunks == 0:
        load_chunk_stats(graph, stats)
    rows = graph.ro_query(
        CHUNKS_OF_ENTITIES,
        {
            "keys": keys,
            "limit": CANDIDATES_PER_LIST,
            "chunks": stats.chunks,
            "max_named": MAX_NAMED,
        },
    )
    return [row[0] for row in rows]


def _item(
    item_id: str, row: _Row, score: float, found_by: tuple[str, ...], citable: bool
) -> EvidenceItem:
    return EvidenceItem(
        id=item_id, document_id=row.document_id, document_name=row.document_name,
        chunk_id=row.chunk_id, start_byte=row.start_byte, end_byte=row.end_byte, text=row.text,
        score=round(score, 6), retrievers=found_by, page=row.page, end_page=row.end_page,
        text_origin=row.origin, citable=citable,
    )  # fmt: skip


def _context_passages(
    graph: GraphHandle, items: list[EvidenceItem], details: dict[str, _Row]
) -> tuple[EvidenceItem, ...]:
    """The chunks just before and after the best items: to help reading, never citable."""
    taken = {item.chunk_id for item in items}
    pairs = []
    for item in items[:CONTEXT_PASSAGES]:
        ordinal = details[item.chunk_id].ordinal
        pairs += [{"doc": item.document_id, "ordinal": o} for o in (ordinal - 1, ordinal + 1)]
    rows = [_Row.of(r) for r in graph.ro_query(NEIGHBOUR_CHUNKS, {"pairs": pairs})] if pairs else []
    passages = [r for r in rows if r.chunk_id not in taken]
    return tuple(
        _item(f"C{i}", row, 0.0, ("neighbour",), citable=False)
        for i, row in enumerate(passages[: 2 * CONTEXT_PASSAGES], start=1)
    )


def _verdict(
    words: list[str],
    items: list[EvidenceItem],
    matched: tuple[str, ...],
    matched_words: str,
    respelled_before: tuple[tuple[str, str], ...] = (),
) -> Verdict:
    if not items:
        if matched:
            return Verdict(VerdictState.UNCITED, matched_names=matched,
                           detail="names matched, but no passage that can be cited")  # fmt: skip
        return Verdict(VerdictState.NOTHING_STORED, detail="nothing in this scope matches")
    covered: set[str] = set()
    for item in items:
        covered |= stems(item.text)
    for name in matched:
        covered |= stems(name)
    covered |= stems(matched_words)
    uncovered: list[str] = []
    respelled = list(respelled_before)
    vocabulary: list[str] | None = None
    # `words` come from respelling.respell_words: a misspelt question word ("Wat") is gone.
    for word in words:
        if stem(word) in covered or framing(word):
            continue  # covered, or a word that frames the question ("called", "happen")
        if vocabulary is None:
            vocabulary = sorted({t.casefold() for item in items for t in tokens(item.text)})
        stored = respell(word, vocabulary)
        if stored is not None:
            respelled.append((word, stored))
            continue
        uncovered.append(word)
    if uncovered:
        return Verdict(
            VerdictState.RELATED, uncovered=tuple(uncovered), matched_names=matched,
            respelled=tuple(respelled),
        )  # fmt: skip
    return Verdict(VerdictState.GROUNDED, matched_names=matched, respelled=tuple(respelled))
