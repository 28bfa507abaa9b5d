"""What is derived from documents just committed: their entities and relations (extraction)
and their embeddings. Both run after the commit, so a document is searchable by keyword as
soon as it is stored, and an ingest cut short here is finished by the next one."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..models.chat import ChatReply
from ..store.documents import DocumentRepository
from ..store.entities import EntityRepository
from ..store.extraction_cache import GraphExtractionCache
from ..store.graph import GraphHandle
from ..values.documents import Chunk, Document, IngestResult, IngestStatus
from ..values.proposals import ExtractionEstimate, ExtractionRun

if TYPE_CHECKING:
    from ..extract.calls import GleaningExtractor, ProposingExtractor
    from ..extract.offline import Extractor
    from ..extract.prefetch import Prefetch
    from ..models.embeddings import Embedder


def prefetch(extractor: Extractor | ProposingExtractor | None) -> Prefetch | None:
    """A reader of the offline extraction while documents are written (extract/prefetch.py);
    None for no extractor, or one that calls a model (its calls wait for the commit)."""
    from ..extract.calls import ProposingExtractor
    from ..extract.prefetch import Prefetch
    from ..extract.run import read_offline

    if extractor is None or isinstance(extractor, ProposingExtractor):
        return None
    return Prefetch(extractor, read_offline)


def extract(
    results: list[IngestResult],
    chunks_of: Callable[[Document], Iterable[Chunk]],
    repo: DocumentRepository,
    entities: EntityRepository,
    extractor: Extractor | ProposingExtractor,
    prefetched: Prefetch | None = None,
) -> list[IngestResult]:
    """Extract from the documents not yet extracted; results with their reports."""
    from ..extract.calls import Spending
    from ..extract.run import extract_documents, name_of

    pending = [r.document for r in results if not r.document.extracted]
    # Committed earlier but not extracted: an extraction was cut short, and what it stored
    # is removed before it runs again.
    resumed = [
        r.document.id
        for r in results
        if r.status is IngestStatus.UNCHANGED and not r.document.extracted
    ]
    spending = Spending(cache=GraphExtractionCache(entities.graph))
    reports = extract_documents(
        extractor, pending, chunks_of, repo, entities, spending, prefetched=prefetched,
        resumed=resumed,
    )  # fmt: skip
    replaced = any(r.status is IngestStatus.REPLACED for r in results)
    if replaced:
        entities.drop_orphans()
    done = [d for d in pending if d.id in reports]
    link_settings_after(done, repo, entities, extractor, force=replaced)
    by = name_of(extractor)
    busy = set(spending.busy)

    def extracted(r: IngestResult) -> IngestResult:
        if r.document.id in reports:
            document = replace(r.document, extracted=True, extracted_with=by)
            report = reports[r.document.id]
            unread = () if report.unread is None else (f"settings not read: {report.unread}",)
            warnings = (*r.warnings, *unread)
            return replace(r, document=document, extraction=report, warnings=warnings)
        if r.document.id in busy:
            elsewhere = "its entities are being extracted by another process, which stores them"
            return replace(r, warnings=(*r.warnings, elsewhere))
        return r

    return [extracted(r) for r in results]


def worth_linking(repo: DocumentRepository, documents: list[Document]) -> bool:
    """Whether these documents define or take a settings map (extract/settings_links.py)."""
    from ..extract.settings_links import worth_linking as worth

    return worth(repo, documents)


def link_settings_after(
    extracted: list[Document],
    repo: DocumentRepository,
    entities: EntityRepository,
    extractor: Extractor | ProposingExtractor | None,
    force: bool = False,
) -> None:
    """After configuration was extracted: the settings workloads take from maps other files
    define (extract/settings_links.py), when what was extracted defines or takes a map, or
    `force` (a version replaced, or a document deleted, that may have)."""
    from ..extract.run import cues_of
    from ..extract.settings_links import CONFIG_TYPES, link_settings, worth_linking

    if (force and any(d.media_type in CONFIG_TYPES for d in extracted)) or worth_linking(
        repo, extracted
    ):
        link_settings(repo, entities, cues_of(extractor))


def pending_extraction(documents: Iterable[Document], by: str, again: bool) -> list[Document]:
    """The documents `by` has not extracted (all of them with `again`). Documents extracted
    before extractors were recorded were extracted offline."""
    return [
        d for d in documents if again or not d.extracted or (d.extracted_with or "offline") != by
    ]


def estimate(
    documents: list[Document],
    chunks_of: Callable[[Document], Iterable[Chunk]],
    graph: GraphHandle,
    extractor: Extractor | ProposingExtractor,
) -> ExtractionEstimate:
    """Calls and prompt tokens extracting `documents` would spend; nothing is spent. A
    gleaning round's prompt also carries the replies before it: those are counted where
    the cache holds them, and otherwise not (reply tokens are not estimated)."""
    from ..extract.calls import (
        CachingExtractor,
        GleaningExtractor,
        Windows,
        chunks_per_call,
        window_text,
    )
    from ..extract.run import name_of

    cache = GraphExtractionCache(graph)
    chunks = cached = calls = tokens = 0
    planned: set[str] = set()  # the first calls' keys counted so far
    per_call = chunks_per_call(extractor)
    glean = extractor if isinstance(extractor, GleaningExtractor) else None
    for document in documents:
        # The windows extraction sends (a PDF's running headers and footers set aside).
        windower = Windows(per_call)
        sent = [w for c in chunks_of(document) if (w := windower.add(c)) is not None]
        sent += [w for w in [windower.rest()] if w is not None]
        chunks += sum(len(w) for w in sent)
        if not isinstance(extractor, CachingExtractor):
            continue
        windows = [window_text(w) for w in sent]
        keys = [extractor.cache_key(w, document.title) for w in windows]
        known = cache.get_many(keys)  # one query per document
        for window, key in zip(windows, keys, strict=True):
            if key in planned:
                # Sent earlier in this run (the same bytes in another document): its reply,
                # and its gleaning rounds', will be in the cache by then.
                cached += 1 + (glean.gleanings if glean is not None else 0)
                continue
            planned.add(key)
            if key in known:
                cached += 1
            else:
                calls += 1
                tokens += extractor.prompt_tokens(window, document.title)
            if glean is not None:
                reply = known.get(key)
                more_calls, more_cached, more_tokens = _gleaning_estimate(
                    glean, window, document.title, reply, cache
                )
                calls, cached, tokens = (
                    calls + more_calls,
                    cached + more_cached,
                    tokens + more_tokens,
                )
    return ExtractionEstimate(name_of(extractor), len(documents), chunks, cached, calls, tokens)


def _gleaning_estimate(
    extractor: GleaningExtractor,
    window: str,
    title: str | None,
    first: ChatReply | None,
    cache: GraphExtractionCache,
) -> tuple[int, int, int]:
    """Calls, cached replies and prompt tokens of a window's gleaning rounds after its
    first reply (`first`: None when it is not cached). A reply not made yet is counted as
    empty in the prompts after it."""
    calls = cached = tokens = 0
    earlier = [first] if first is not None else [ChatReply("")]
    known = first is not None  # every reply in `earlier` is the one the model gave
    for _ in range(extractor.gleanings):
        key = extractor.glean_key(window, title, earlier)
        reply = cache.get_many([key]).get(key) if known else None
        if reply is not None:
            cached += 1
        else:
            calls += 1
            tokens += extractor.glean_prompt_tokens(window, title, earlier)
            known = False
        earlier = [*earlier, reply if reply is not None else ChatReply("")]
    return calls, cached, tokens


def extract_again(
    documents: list[Document],
    chunks_of: Callable[[Document], Iterable[Chunk]],
    repo: DocumentRepository,
    entities: EntityRepository,
    extractor: Extractor | ProposingExtractor,
    max_tokens: int | None = None,
    on_chunk: Callable[[int], None] | None = None,
) -> ExtractionRun:
    """Extract `documents` with `extractor`, replacing what was extracted from them before,
    one document at a time, within a token budget."""
    from ..extract.calls import Spending
    from ..extract.cost import TokenBudget
    from ..extract.run import extract_documents, name_of

    spending = Spending(GraphExtractionCache(entities.graph), TokenBudget(max_tokens), on_chunk)
    reports = extract_documents(
        extractor, documents, chunks_of, repo, entities, spending, replace_earlier=True
    )
    entities.drop_orphans()
    link_settings_after([d for d in documents if d.id in reports], repo, entities, extractor)
    dropped: dict[str, int] = {}
    for report in reports.values():
        for reason, count in report.dropped.items():
            dropped[reason] = dropped.get(reason, 0) + count
    every = list(reports.values())
    return ExtractionRun(
        extractor=name_of(extractor),
        documents=len(reports),
        left=len(documents) - len(reports),
        calls=spending.calls,
        input_tokens=spending.input_tokens,
        output_tokens=spending.output_tokens,
        cached=spending.cached,
        mentions=sum(r.mentions for r in every),
        relations=sum(r.relations for r in every),
        dropped=dropped,
        stopped=spending.stopped,
        busy=len(spending.busy),
        unread=tuple(
            (d.name, reports[d.id].unread or "")
            for d in documents
            if d.id in reports and reports[d.id].unread
        ),
    )


def embed(
    results: list[IngestResult],
    chunks_of: Callable[[Document], Iterable[Chunk]],
    repo: DocumentRepository,
    graph: GraphHandle,
    embedder: Embedder,
) -> list[IngestResult]:
    """Embed the chunks of documents not embedded with `embedder` yet."""
    from ..retrieve.meaning import embed_documents

    stale = [r.document for r in results if r.document.embedded_with != embedder.name]
    embed_documents(embedder, stale, chunks_of, graph, repo)
    return [replace(r, document=replace(r.document, embedded_with=embedder.name)) for r in results]
