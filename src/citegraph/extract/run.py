"""Extraction after documents are committed: locate proposed names (and, for an extractor
that proposes them, relations), store what holds, and count what was dropped."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, cast

from ..errors import StoreError
from ..ingest.sources import CONFIGURATION_TYPES
from ..store.documents import DocumentRepository
from ..store.entities import EntityRepository
from ..text.fences import Spans, code_blocks
from ..values.documents import Chunk, Document
from ..values.proposals import ExtractionReport, Proposal
from .acronyms import alias_relations
from .ahead import AskAhead
from .calls import (
    CachingExtractor,
    OutOfBudget,
    ProposingExtractor,
    Spending,
    Windows,
    chunks_per_call,
    concurrency,
    propose,
    window_text,
)
from .code_only import written_only_in_code
from .config_prose import not_prose
from .config_relations import read_yaml
from .config_values import MAX_CONFIG_CHARS, a_lock_file
from .diagrams import diagram_relations, may_hold_diagrams
from .grounding import ground, ground_window
from .mentions import MentionRows, add_chunk_rows, normalise_name, shape_type
from .modality import DEFAULT_CUES, CueTable
from .offline import Extractor
from .prefetch import Prefetch, Read, ReadFailed, Reading
from .properties_relations import properties_relations
from .prose_names import EarlierNames, Names
from .prose_relations import sentence_relations
from .sections import last_heading
from .structural import DocumentText, StructuralRelation, ground_structural
from .table_relations import table_relations
from .toml_relations import toml_relations
from .writes import BackgroundWrites, Rows

# Rows are written in flushes of about this many, also within a document, so that a huge
# document is extracted in bounded memory, and so that the store writes one flush while the
# next is read (writes.py).
_FLUSH_ROWS = 1_000
# Rows read ahead (prefetch.py) are handed to an idle writer once there are this many, rather
# than held until a full flush: the store writes them while the rest are read.
_EAGER_ROWS = 100


class _Batch:
    def __init__(self) -> None:
        self.rows = MentionRows()
        self.relations: list[dict[str, Any]] = []

    def size(self) -> int:
        return len(self.rows.mentions) + len(self.relations)

    def flush(self, writes: RowSink) -> None:
        if self.size():
            writes.put(Rows(self.rows.mentions, self.relations))
            self.rows, self.relations = MentionRows(), []


class RowSink(Protocol):
    def put(self, rows: Rows) -> None: ...


@dataclass
class _HandOver:
    """Rows of a document read ahead, handed over as each chunk is read (prefetch.py)."""

    hand_over: Callable[[Rows], None]

    def put(self, rows: Rows) -> None:
        self.hand_over(rows)


def extract_documents(
    extractor: Extractor | ProposingExtractor,
    documents: Iterable[Document],
    chunks_of: Callable[[Document], Iterable[Chunk]],
    docs: DocumentRepository,
    entities: EntityRepository,
    spending: Spending | None = None,
    replace_earlier: bool = False,
    prefetched: Prefetch | None = None,
    resumed: Iterable[str] = (),
) -> dict[str, ExtractionReport]:
    """Extract from `documents` and store what holds; a report per document extracted.

    Each document is marked extracted afterwards, so that an ingest cut short between the
    commit and this step is finished by the next ingest of the same bytes. A run stopped by
    its budget (`spending.stopped`) marks only the documents it finished. With
    `replace_earlier`, what an earlier extraction stored from each document is removed just
    before the document is extracted (and its mark cleared, so a run stopped before it
    finishes leaves it to the next run). `resumed`: documents an earlier extraction left
    unfinished, whose rows are removed once this run holds them.
    """
    spending = spending if spending is not None else Spending()
    # Two processes never extract one document at once (each would store what it finds):
    # the documents another process is extracting are left to it.
    documents = list(documents)
    claim, claimed = docs.claim_extraction([d.id for d in documents]) if documents else ("", set())
    spending.busy = [d.id for d in documents if d.id not in claimed]
    documents = [d for d in documents if d.id in claimed]
    try:
        # Left unfinished by an extraction cut short (never one running now: that one
        # holds its documents), so what it stored is removed before they are read again.
        stale = [doc_id for doc_id in resumed if doc_id in claimed]
        if stale:
            entities.forget_extraction(stale)
        return _extract_claimed(
            extractor, documents, chunks_of, docs, entities, spending, replace_earlier,
            prefetched,
        )  # fmt: skip
    finally:
        if claim:
            _release(docs, claim)


def _release(docs: DocumentRepository, claim: str) -> None:
    # A store that refuses: the claim, no longer renewed, lapses at its deadline, and the
    # run's own error (if any) is the one raised.
    with contextlib.suppress(StoreError):
        docs.abort_many([claim])


def _extract_claimed(
    extractor: Extractor | ProposingExtractor,
    documents: list[Document],
    chunks_of: Callable[[Document], Iterable[Chunk]],
    docs: DocumentRepository,
    entities: EntityRepository,
    spending: Spending,
    replace_earlier: bool,
    prefetched: Prefetch | None,
) -> dict[str, ExtractionReport]:
    batch = _Batch()
    reports: dict[str, ExtractionReport] = {}
    if isinstance(extractor, CachingExtractor) and concurrency(extractor) > 1:
        spending.ahead = AskAhead(extractor, concurrency(extractor), spending)
        # Read ahead, across documents, for the calls to come.
        chunks_of = spending.ahead.reader(documents, chunks_of, chunks_per_call(extractor))
    writes = BackgroundWrites(entities)
    try:
        try:
            for document in documents:
                if replace_earlier:
                    batch.flush(writes)
                    writes.wait()
                    docs.unmark_extracted([document.id])
                    entities.forget_extraction([document.id])
                reading = prefetched.take(document) if prefetched is not None else None
                if reading is not None:
                    try:
                        reports[document.id] = _take(reading, batch, writes, spending)
                        continue
                    except ReadFailed:  # what it handed over is forgotten, and read again
                        batch.flush(writes)
                        writes.wait()
                        entities.forget_extraction([document.id])
                reports[document.id] = _extract_one(
                    extractor, document, chunks_of, batch, writes, spending
                )
        except OutOfBudget:
            _stop_asking(spending)  # the replies in flight count as spent
            spending.stopped = (
                f"the token budget ({spending.budget.max_tokens}) would be passed by the next "
                f"call; {spending.budget.spent} tokens spent"
            )
        batch.flush(writes)
    except (KeyboardInterrupt, SystemExit):
        _stop_asking(spending, wait=False)  # stopped by hand: no waiting for the model
        writes.close(quiet=True)
        raise
    except BaseException:
        writes.close(quiet=True)
        raise
    finally:
        _stop_asking(spending)
    writes.close()
    if reports:
        docs.mark_extracted(list(reports), name_of(extractor))
    return reports


def _stop_asking(spending: Spending, wait: bool = True) -> None:
    if spending.ahead is not None:
        spending.ahead.close(wait)
        spending.ahead = None


def read_offline(
    extractor: Extractor,
    document: Document,
    chunks: Iterable[Chunk],
    hand_over: Callable[[Rows], None],
) -> Read:
    """Extract one document, handing its rows over chunk by chunk and writing nothing
    (extract/prefetch.py); `chunks` may come as they are made."""
    batch, sizes = _Batch(), []

    def sized() -> Iterator[Chunk]:
        for chunk in chunks:
            if not chunk.furniture:
                sizes.append(len(chunk.text.encode()))
            yield chunk

    sink = _HandOver(hand_over)
    report = _extract_one(extractor, document, lambda _: sized(), batch, sink, Spending(), 1)
    batch.flush(sink)
    return Read(report, sizes)


def _take(
    reading: Reading, batch: _Batch, writes: BackgroundWrites, spending: Spending
) -> ExtractionReport:
    """Queue what is read of one document as it comes: a full flush whenever there is one,
    and what there is whenever the writer is idle. Parts come in reading order, so each
    relation is written with or after the mentions that create its ends."""
    for part in reading.parts():
        batch.rows.mentions.extend(part.mentions)
        batch.relations.extend(part.relations)
        size = batch.size()
        if size >= _FLUSH_ROWS or (size >= _EAGER_ROWS and writes.idle()):
            batch.flush(writes)
    end = reading.end
    assert end is not None  # parts() ended without an error
    if spending.on_chunk is not None:
        for size in end.chunk_bytes:
            spending.on_chunk(size)
    return end.report


_PROPOSES: dict[type, bool] = {}


def _proposes(extractor: object) -> bool:
    """Whether `extractor` is a ProposingExtractor: a Protocol check costs tens of
    microseconds, so it is made once per class, not per document."""
    kind = type(extractor)
    known = _PROPOSES.get(kind)
    if known is None:
        known = _PROPOSES[kind] = isinstance(extractor, ProposingExtractor)
    return known


def name_of(extractor: Extractor | ProposingExtractor) -> str:
    return str(getattr(extractor, "name", "offline"))


def cues_of(extractor: object) -> CueTable:
    """The cues an extractor's relations are read for negation and modality with."""
    cues = getattr(extractor, "cues", None)
    return cues if isinstance(cues, CueTable) else DEFAULT_CUES


def _extract_one(
    extractor: Extractor | ProposingExtractor,
    document: Document,
    chunks_of: Callable[[Document], Iterable[Chunk]],
    batch: _Batch,
    writes: RowSink,
    spending: Spending,
    flush_rows: int = _FLUSH_ROWS,
) -> ExtractionReport:
    """Extract one document into `batch`, flushed to `writes` whenever it holds
    `flush_rows` rows."""
    report = ExtractionReport()
    cues = cues_of(extractor)
    structure = _Structure(document, cues)
    previous: str | None = None
    windows = Windows(chunks_per_call(extractor))
    proposing = _proposes(extractor)

    def ask_window(window: list[Chunk] | None) -> None:
        """One model call for a window of chunks, grounded chunk by chunk."""
        nonlocal previous
        if window is None:
            return
        assert isinstance(extractor, ProposingExtractor)
        proposal = propose(extractor, window_text(window), document.title, spending, report)
        report.calls += proposal.calls
        report.input_tokens += proposal.input_tokens or 0
        report.output_tokens += proposal.output_tokens or 0
        ground_window(
            proposal, document, window, previous, batch.rows, batch.relations, report, cues
        )
        previous = window[-1].text

    open_fence: str | None = None  # a Markdown code block open where the chunk starts
    configuration = document.media_type in CONFIGURATION_TYPES
    earlier = EarlierNames()  # what the document's chunks read so far named
    heading: str | None = None  # the last heading of the chunks read so far
    for chunk in chunks_of(document):
        if configuration:  # its prose: a line's words, a comment apart
            code = not_prose(chunk.text, document.media_type)
        else:
            code, open_fence = code_blocks(chunk.text, open_fence)
        if chunk.furniture:
            continue  # a PDF's running header or footer: names nothing the text says
        before = len(batch.rows.mentions)
        if proposing:
            ask_window(windows.add(chunk))
            names: dict[str, str] = {}
        else:
            offline = cast(Extractor, extractor)
            names = add_chunk_rows(offline, document, chunk, document.title, batch.rows)
            report.mentions += len(batch.rows.mentions) - before
            mentioned = {str(m["key"]) for m in batch.rows.mentions[before:]}
            in_code = written_only_in_code(chunk.text, names, code)
            _prose_relations(
                document,
                chunk,
                names,
                mentioned,
                batch,
                report,
                cues,
                code,
                configuration,
                earlier,
                in_code,
                heading,
            )
            carried = {n: k for n, k in names.items() if n not in in_code} if in_code else names
            earlier.add(carried, chunk.text)
        heading = (last_heading(chunk.text) if not configuration else None) or heading
        structure.add(chunk, names, batch.rows.mentions[before:])
        if spending.on_chunk is not None:
            spending.on_chunk(len(chunk.text.encode()))
        if batch.size() >= flush_rows:
            batch.flush(writes)
    if proposing:
        ask_window(windows.rest())
    structure.ground(batch, report)
    return report


def _prose_relations(
    document: Document,
    chunk: Chunk,
    names: dict[str, str],
    mentioned: set[str],
    batch: _Batch,
    report: ExtractionReport,
    cues: CueTable = DEFAULT_CUES,
    code: Spans | None = None,
    configuration: bool = False,
    earlier: EarlierNames | None = None,
    in_code: set[str] | None = None,
    heading: str | None = None,
) -> None:
    """Relations stated in the chunk's sentences and table rows, and the acronyms it defines,
    grounded like any other (`code`: the chunk's code blocks, from `code_blocks`, or what of
    a `configuration` file is not prose, from `not_prose`; `earlier`: names the document's
    earlier chunks hold; `in_code`: names the chunk writes only in code, found only as
    spelled there; `heading`: the earlier chunks' last heading)."""
    verbs = cues.verbs
    verb = verbs.any_verb(chunk.text)
    aliases = alias_relations(chunk.text)
    if not verb and "|" not in chunk.text and not aliases:
        return  # most chunks: no verb of the table, no table, no acronym defined
    known = Names(names, earlier.by_lower if earlier is not None else None, in_code or ())
    proposed = [
        *(
            sentence_relations(chunk.text, known, True, verbs, code, not configuration)
            if verb
            else ()
        ),
        *table_relations(chunk.text, known, verbs),  # it looks for a table itself
        *aliases,
    ]
    if proposed:
        proposal = Proposal(relations=tuple(proposed))
        ground(
            proposal,
            document,
            chunk,
            (),
            batch.rows,
            batch.relations,
            report,
            earlier.types_of(proposed, names) if earlier is not None else names,
            mentioned,
            cues=cues,
            heading=heading,
        )


class _Structure:
    """A document's chunks kept for reading its structure (configuration, diagrams), while
    the document is small enough to be configuration rather than a corpus."""

    def __init__(self, document: Document, cues: CueTable = DEFAULT_CUES):
        self.document = document
        self.cues = cues
        self.chunks: list[Chunk] | None = []
        self.size = 0
        # Each chunk's names and mention rows, read only if the document states structure.
        self.read: list[tuple[dict[str, str], list[dict[str, object]]]] = []

    def add(self, chunk: Chunk, names: dict[str, str], rows: list[dict[str, object]]) -> None:
        """Keep `chunk`; `rows`: the mention rows written since it was read (each says its
        own chunk: a model call's rows may be for the chunks before it)."""
        if self.chunks is None:
            return
        self.size += len(chunk.text)
        if self.size > MAX_CONFIG_CHARS:
            self.chunks = None  # too big to be configuration: not read for structure
            self.read = []
            return
        self.chunks.append(chunk)
        self.read.append((names, rows))

    def ground(self, batch: _Batch, report: ExtractionReport) -> None:
        media = self.document.media_type
        if self.chunks is None and media in CONFIGURATION_TYPES:
            report.unread = (
                f"configuration over {MAX_CONFIG_CHARS:,} characters is not read for its settings"
            )
        if not self.chunks or a_lock_file(self.document.name):
            return  # (a lock file's keys name packages, not components)
        text = DocumentText(self.chunks)
        found: list[StructuralRelation] = []
        if media in ("application/yaml", "application/json"):
            read = read_yaml(text.text)
            found, report.unread = read.relations, read.error
        elif media == "application/toml":
            found = toml_relations(text.text)
        elif media == "text/x-java-properties":
            found = properties_relations(text.text)
        elif may_hold_diagrams(text.text):
            found = diagram_relations(text.text, self.cues.verbs)
        if not found:
            return
        types: dict[str, str] = {}
        mentioned: set[tuple[str, str]] = set()
        for names, rows in self.read:
            mentioned.update((str(m["key"]), str(m["chunk_id"])) for m in rows)
            for name, kind in names.items():
                types.setdefault(normalise_name(name), kind)

        def type_of(name: str) -> str:
            return types.get(normalise_name(name)) or shape_type(name)

        ground_structural(
            found, self.document, text, type_of, batch.rows, batch.relations, report, mentioned,
            self.cues,
        )  # fmt: skip
