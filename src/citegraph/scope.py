"""A scope: one tenant or project, one named graph. Ingest, remember, context, ask, read, delete."""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import (
    DocumentNotFound,
    InvalidDocument,
    InvalidQuestion,
    InvalidScopeName,
    StoreError,
    StoreNotSaving,
    StoreUnavailable,
)
from .ingest import derived, pipeline
from .ingest.mapped import read_file
from .ingest.pdf_guard import PdfLimits
from .ingest.pipeline import DocumentGroups, Progress
from .ingest.sources import TEXT_TYPES, SourceFile, expand, media_type_for
from .knowledge import ScopeKnowledge
from .limits import (
    ANSWER_LIMIT_FACTOR,
    DEFAULT_HOPS,
    DEFAULT_K,
    MAX_SCOPE_NAME,
    SCOPE_NAME_PATTERN,
)
from .models.chat import ChatModel
from .store.documents import DocumentRepository
from .store.entities import EntityRepository
from .store.leases import host_id
from .store.repair import RepairReport, repair_graph
from .store.schema import (
    DOCUMENT_INDEXES,
    INDEXES,
    VECTOR_INDEX,
    ensure_indexes,
    ensure_vector_index,
    index_states,
    wait_for_indexes,
)
from .values.documents import Chunk, Document, IngestResult, IngestStatus, TextOrigin
from .values.evidence import Evidence, TraversalPolicy

if TYPE_CHECKING:
    # Imported where used: reading documents needs none of the answer, extraction and
    # retrieval code, and a command starts faster without it.
    from .answer.steps import OnStep
    from .extract.prefetch import Prefetch
    from .retrieve.keywords import TermStats
    from .values.answers import Answer, Turn
    from .values.facts import Facts, Passage, RememberResult
    from .workspace import Workspace

log = logging.getLogger("citegraph")
SCOPE_NAME = re.compile(SCOPE_NAME_PATTERN)
GRAPH_PREFIX = "citegraph:"
# How long after a failed cleanup of abandoned staging it is tried again.
HOUSEKEEPING_RETRY_S = 60.0
# How long keyword statistics may be reused before they are counted again.
STATS_TTL_S = 10.0


def validate_scope_name(name: str) -> str:
    if not isinstance(name, str) or not SCOPE_NAME.fullmatch(name) or len(name) > MAX_SCOPE_NAME:
        raise InvalidScopeName(
            f"invalid scope name {name!r}: use 1 to {MAX_SCOPE_NAME} characters from "
            "A-Z a-z 0-9 _ -, starting with a letter or digit"
        )
    return name


class Scope(ScopeKnowledge):
    """One tenant or project: one named graph. Nothing crosses scopes."""

    def __init__(self, workspace: Workspace, name: str):
        self.workspace = workspace
        self.name = validate_scope_name(name)
        self.graph = workspace.store.graph(GRAPH_PREFIX + name)
        settings = workspace.settings
        self._repo = DocumentRepository(self.graph, settings.lease_ttl_s, settings.host_id)
        self._entities = EntityRepository(self.graph)
        # Word statistics for keyword ranking: reset by this object's writes, and every
        # STATS_TTL_S, so that writes through other processes or objects are seen too.
        self._term_stats: TermStats | None = None
        self._stats_born = time.monotonic()
        self._ready_generation = -1  # the workspace's store generation last prepared
        self._operational: set[tuple[str, str, str]] = set()  # indexes seen operational
        self._ready_lock = threading.Lock()
        self._housekeep_after = 0.0  # monotonic time of the next cleanup of abandoned staging

    @property
    def _required_indexes(self) -> tuple[tuple[str, str, str], ...]:
        return (*INDEXES, VECTOR_INDEX) if self.workspace.embedder is not None else INDEXES

    def _prepare(self, only: Sequence[tuple[str, str, str]] | None = None) -> DocumentRepository:
        """Make the scope usable: its indexes exist, and those the caller's queries use are
        operational (all of them, or `only` these: listing documents need not wait for the
        chunks' full-text index, which a large store rebuilds in the background after a
        start); abandoned staging is cleaned up."""
        needed = self._required_indexes if only is None else tuple(only)
        self._check_saving()
        with self._ready_lock:
            # Prepared again after the store was restarted: it may hold staging to clean.
            if self._ready_generation != self.workspace.generation:
                self._housekeep_after = 0.0
                self._operational = set()
                generation = self.workspace.generation
                created = ensure_indexes(self.graph)
                embedder = self.workspace.embedder
                if embedder is not None:
                    created += ensure_vector_index(self.graph, embedder.name, embedder.dimensions)
                if created:
                    self.workspace.registry.add(self.name)
                    self.workspace.schema_changed()
                self._ready_generation = generation
            pending = tuple(i for i in needed if i not in self._operational)
            if pending:
                wait_for_indexes(self.graph, self.workspace.index_timeout_s, pending)
                self._operational.update(pending)
            self._housekeep()
        return self._repo

    def _check_saving(self, stored: Sequence[str] = ()) -> None:
        """Refuse while the store holds writes it cannot save: what it would list or cite may
        be gone after its next stop (an upload that failed on a full disk, say)."""
        # After a commit (`stored`), wait until the store has put it in its file.
        problem = self.workspace.store.unsaved_writes(written=bool(stored))
        if problem is None:
            return
        if stored:
            named = ", ".join(stored[:3]) + (f" and {len(stored) - 3} more" if stored[3:] else "")
            raise StoreNotSaving(
                f"{problem}. It took {named} but may not have saved them: they are "
                "saved if it can write again before it stops, and lost if it cannot. Nothing "
                "is listed or cited until it saves; free disk space, then check with "
                "`citegraph docs`."
            )
        raise StoreNotSaving(
            f"{problem}; nothing is listed, cited or stored until it saves what it holds "
            "(free disk space; `citegraph health` says when it can write again)"
        )

    def repair(self, force: bool = False) -> RepairReport:
        """Check this scope's graph and rebuild what can be: missing indexes, staging left by
        writers that are gone (all staging with `force`), chunks of no document. Says what it
        did; see `citegraph repair`."""
        with self._ready_lock:
            report = repair_graph(
                self.graph,
                self.name,
                self.workspace.index_timeout_s,
                force,
                host_id(self.workspace.settings.host_id),
            )
            self._ready_generation = -1  # prepared again at the next use
        if report.indexes_created:
            self.workspace.schema_changed()
        self.workspace.housekeeping_failed(self.name, None)
        return report

    def _housekeep(self) -> None:
        """Drop staging left by crashed ingests. Its failure never blocks reads: it is logged,
        shown by health(), and tried again after HOUSEKEEPING_RETRY_S."""
        if time.monotonic() < self._housekeep_after:
            return
        self._housekeep_after = float("inf")  # once per store generation unless it fails
        try:
            self._repo.drop_abandoned_staging()
        except StoreUnavailable:
            self._housekeep_after = 0.0
            raise
        except Exception as exc:  # a damaged lease record, a store error: never block reads
            self._housekeep_after = time.monotonic() + HOUSEKEEPING_RETRY_S
            problem = f"cleanup of abandoned staging failed: {exc}; `citegraph repair` may help"
            log.warning("scope %s: %s", self.name, problem)
            self.workspace.housekeeping_failed(self.name, problem)
        else:
            self.workspace.housekeeping_failed(self.name, None)

    # -- ingest -------------------------------------------------------------------------------

    def ingest(
        self,
        source: str | Path | bytes,
        *,
        name: str | None = None,
        media_type: str | None = None,
        origin: TextOrigin | None = None,
        title: str | None = None,
        progress: Progress | None = None,
        env_files: bool = False,
    ) -> list[IngestResult]:
        """Ingest a file, a folder (recursively) or bytes. One result per document.

        Each document is checked in full before any of it is stored, and stored atomically. In
        a folder, files go in name order and the first bad one stops the call with
        `InvalidDocument`: nothing of it is stored, and the files before it stay stored.
        Hidden files are skipped, but for `.env` files with `env_files` (compose takes
        settings from them; they often hold secrets, and whatever is stored can be quoted).
        """
        if isinstance(source, bytes):
            if name is None:
                raise InvalidDocument("ingesting bytes needs name=")
            kind = media_type or media_type_for(name, source)
            one = pipeline.parse(source, name, kind, origin, title, self._pdf_limits)
            return self.store_parsed([one], progress)
        files, _skipped = expand([Path(source)], env_files=env_files)
        if (name is not None or title is not None) and (len(files) != 1 or Path(source).is_dir()):
            raise InvalidDocument("name= and title= apply to a single file, not a folder")
        parsed = (
            self.parse_file(file, name=name, media_type=media_type, origin=origin, title=title)
            for file in files
        )
        return self._store_grouped(parsed, progress)

    def ingest_many(
        self,
        items: Iterable[tuple[str, bytes] | tuple[str, bytes, str | None]],
        *,
        media_type: str | None = None,
        origin: TextOrigin | None = None,
        progress: Progress | None = None,
    ) -> list[IngestResult]:
        """Ingest many (name, bytes) or (name, bytes, title) documents; small ones share
        queries, so this is much faster than one `ingest` call each. A bad item stops the call
        as in a folder; a name given twice is stored twice, in order, and the last one stays."""
        parsed = (
            pipeline.parse(
                item[1],
                item[0],
                media_type or media_type_for(item[0], item[1]),
                origin,
                item[2] if len(item) > 2 else None,
                self._pdf_limits,
            )
            for item in items
        )
        return self._store_grouped(parsed, progress)

    @property
    def _pdf_limits(self) -> PdfLimits:
        return PdfLimits.of(self.workspace.settings)

    def parse_file(
        self,
        file: SourceFile,
        *,
        name: str | None = None,
        media_type: str | None = None,
        origin: TextOrigin | None = None,
        title: str | None = None,
    ) -> pipeline.ParsedDocument:
        label = name or file.name
        kind = media_type or media_type_for(file.path.name)
        # A large text file is mapped from a private copy beside the store, not read whole.
        data = read_file(file.path, text=kind in TEXT_TYPES, temp_dir=self.workspace.settings.home)
        return pipeline.parse(data, label, kind, origin, title, self._pdf_limits)

    def store_parsed(
        self, group: Sequence[pipeline.ParsedDocument], progress: Progress | None = None
    ) -> list[IngestResult]:
        """Store parsed documents with distinct names; they become visible together.

        Success means the commit is saved. A store that took the commit but could not save it
        (its append failed on a full disk) makes this raise `StoreNotSaving`. Extraction and
        embedding come after: if the store refuses them, the documents are stored all the
        same, with a warning, and the next ingest of the same files finishes them."""
        written: dict[str, list[Chunk]] = {}
        repo = self._prepare()
        self._forget_stats()
        prefetch = derived.prefetch(self.workspace.extractor)
        try:
            results = pipeline.store_many(
                repo, group, self.workspace.settings.chunk_bytes, progress, written, prefetch
            )
        except StoreError:
            self._check_saving()  # a full disk, rather than a bare refusal of some write
            raise
        self._check_saving(
            [r.document.name for r in results if r.status is not IngestStatus.UNCHANGED]
        )
        try:
            return self._after_commit(repo, results, written, prefetch)
        except StoreError as exc:
            unfinished = (
                f"stored, but its entities or embeddings are not ({exc}); ingest it again to "
                "finish them"
            )
            return [
                r if r.document.extracted else replace(r, warnings=(*r.warnings, unfinished))
                for r in results
            ]

    def _after_commit(
        self,
        repo: DocumentRepository,
        results: list[IngestResult],
        written: dict[str, list[Chunk]],
        prefetch: Prefetch | None = None,
    ) -> list[IngestResult]:
        """Extract, embed and wait for the indexes of documents just committed (`prefetch`:
        the extraction read while the store wrote them)."""

        def chunks_of(doc: Document) -> Iterable[Chunk]:
            return written.get(doc.id) or repo.chunks(doc.id)

        extractor = self.workspace.extractor
        if extractor is not None:
            results = derived.extract(results, chunks_of, repo, self._entities, extractor, prefetch)
        embedder = self.workspace.embedder
        if embedder is not None:
            results = derived.embed(results, chunks_of, repo, self.graph, embedder)
        # The full-text (and vector) index must be usable before success is reported.
        wait_for_indexes(self.graph, self.workspace.index_timeout_s, self._required_indexes)
        self._forget_stats()  # again: a reader may have counted the old state meanwhile
        return results

    def _store_grouped(
        self, parsed: Iterable[pipeline.ParsedDocument], progress: Progress | None
    ) -> list[IngestResult]:
        results: list[IngestResult] = []
        groups = DocumentGroups()
        try:
            for doc in parsed:
                full = groups.add(doc)
                if full:
                    results.extend(self.store_parsed(full, progress))
        finally:
            # Also on a bad input: what was read before it is stored, as documented.
            if groups.pending:
                results.extend(self.store_parsed(groups.take(), progress))
        return results

    # -- facts and evidence -------------------------------------------------------------------

    def remember(
        self, source: str, facts: Facts | None = None, passages: Sequence[Passage] = ()
    ) -> RememberResult:
        """Store facts a caller already knows. Each passage becomes a document whose origin is
        `source`; each mention is located in its passage before it is stored; a relation is
        citable only when one chunk mentions both ends. What could not be located is returned
        in `unlocated`, not stored as if it were grounded."""
        from .extract.remember import store_facts
        from .values.facts import Facts

        result = store_facts(
            lambda items, origin: self.ingest_many(items, media_type="text/plain", origin=origin),
            lambda doc_id: list(self.chunks(doc_id)),
            self._entities,
            source,
            facts or Facts(),
            passages,
        )
        self._forget_stats()
        return result

    def ask(
        self,
        question: str,
        history: Sequence[Turn] | None = None,
        *,
        k: int = DEFAULT_K,
        hops: int = DEFAULT_HOPS,
        model: ChatModel | None = None,
        on_step: OnStep | None = None,
    ) -> Answer:
        """Answer with verified citations, or refuse with a reason (docs/answers.md). The
        model is `model`, else the workspace's (`Workspace.chat_model`: CITEGRAPH_CHAT_MODEL);
        with neither, the offline extractive answerer quotes the evidence. With `history`
        (oldest first), the question is first rewritten to stand alone. `on_step(name,
        detail)` is told each step as it ends: rewrite, retrieval, walk, model, verification."""
        from .answer import steps
        from .answer.ask import answer_from
        from .answer.followup import rewrite
        from .retrieve.context import check_question

        step = on_step or steps.ignore
        model = model or self.workspace.chat_model
        limit = self.workspace.settings.max_question_chars
        check_question(question, k, hops, limit)  # before a rewrite could hide what was asked
        rewritten, reply = rewrite(question, history or (), model) if history else (None, None)
        asked = rewritten.question if rewritten is not None else question
        said = f"{rewritten.outcome.value}: {asked}" if rewritten else "none: a first question"
        step("rewrite", said)
        started = time.perf_counter()
        # A question rewritten to stand alone carries words of earlier turns: a looser limit.
        evidence = self._gather(asked, k, hops, None, None, limit * ANSWER_LIMIT_FACTOR)
        elapsed = (time.perf_counter() - started) * 1000
        step("retrieval", steps.retrieval(evidence, elapsed))
        step("walk", steps.walk(evidence, hops))
        return answer_from(asked, evidence, model, elapsed, rewritten, reply, step)

    def context(
        self,
        question: str,
        *,
        k: int = DEFAULT_K,
        hops: int = DEFAULT_HOPS,
        budget_bytes: int | None = None,
        policy: TraversalPolicy | None = None,
        **unexpected: object,
    ) -> Evidence:
        """Cited evidence for a standalone question, with a verdict (docs/retrieval.md).
        `budget_bytes` defaults to DEFAULT_BUDGET_BYTES of retrieve/context.py."""
        if "history" in unexpected:
            raise InvalidQuestion(
                "context takes standalone questions only; rewrite a follow-up first "
                "(ask() does that)"
            )
        if unexpected:
            raise TypeError(f"unexpected arguments: {', '.join(unexpected)}")
        limit = self.workspace.settings.max_question_chars
        return self._gather(question, k, hops, budget_bytes, policy, limit)

    def _gather(
        self,
        question: str,
        k: int,
        hops: int,
        budget_bytes: int | None,
        policy: TraversalPolicy | None,
        max_question_chars: int,
    ) -> Evidence:
        from .retrieve.context import DEFAULT_BUDGET_BYTES, gather

        self._prepare()
        return gather(
            self.graph,
            question,
            k=k,
            hops=hops,
            budget_bytes=DEFAULT_BUDGET_BYTES if budget_bytes is None else budget_bytes,
            max_question_chars=max_question_chars,
            policy=policy,
            stats=self._current_stats(),
            embedder=self.workspace.embedder,
        )

    # -- reading ------------------------------------------------------------------------------

    def documents(self) -> list[Document]:
        return self._prepare(only=DOCUMENT_INDEXES).all()

    def document(self, id_or_name: str) -> Document:
        repo = self._prepare(only=DOCUMENT_INDEXES)
        doc = repo.by_id(id_or_name) or repo.by_name(id_or_name)
        if doc is None:
            raise DocumentNotFound(f"no document {id_or_name!r} in scope {self.name!r}")
        return doc

    def chunks(self, id_or_name: str) -> Iterator[Chunk]:
        doc = self.document(id_or_name)
        return iter(self._prepare().chunks(doc.id))

    def stored_text(self, id_or_name: str) -> bytes:
        """The document's stored UTF-8 text, rebuilt from its chunks (which tile it)."""
        return b"".join(c.text.encode("utf-8") for c in self.chunks(id_or_name))

    def index_states(self) -> dict[str, str]:
        return {
            f"{lab}.{prop} ({kind})": state
            for (lab, prop, kind), state in index_states(self.graph, self._required_indexes).items()
        }

    # -- deleting -----------------------------------------------------------------------------

    def delete_document(self, id_or_name: str) -> Document:
        """Remove the document and everything that hangs off it; return what was removed."""
        doc = self.document(id_or_name)
        self._forget_stats()
        repo = self._prepare()
        # A map defined twice may be defined once after it: its settings are linked again.
        relink = self.workspace.extractor is not None and derived.worth_linking(repo, [doc])
        if repo.delete(doc.id) is None:
            raise DocumentNotFound(f"no document {id_or_name!r} in scope {self.name!r}")
        if relink:
            derived.link_settings_after(
                [doc], repo, self._entities, self.workspace.extractor, force=True
            )
        self._entities.drop_orphans()
        self._forget_stats()
        return doc

    def _forget_stats(self) -> None:
        self._term_stats = None
        self._stats_born = time.monotonic()

    def _current_stats(self) -> TermStats:
        from .retrieve.keywords import TermStats

        if time.monotonic() - self._stats_born > STATS_TTL_S:
            self._forget_stats()
        if self._term_stats is None:
            self._term_stats = TermStats()
        return self._term_stats


class OpenScopes:
    """One Scope object per name, made on first use and kept, so that its word statistics
    are kept too (a long-running server, the MCP server); safe to share between threads."""

    def __init__(self, workspace: Workspace):
        self.workspace = workspace
        self._open: dict[str, Scope] = {}
        self._lock = threading.Lock()

    def get(self, name: str) -> Scope:
        with self._lock:
            if name not in self._open:
                self._open[name] = self.workspace.scope(name)
            return self._open[name]
