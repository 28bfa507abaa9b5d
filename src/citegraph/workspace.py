"""The facade: open a workspace, pick a scope, ingest, list, show, delete."""

from __future__ import annotations

import atexit
import re
import threading
import time
import weakref
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from .answer.ask import answer_from
from .answer.followup import Turn, rewrite
from .answer.types import Answer
from .config import Settings, load_settings
from .errors import DocumentNotFound, InvalidDocument, InvalidQuestion, InvalidScopeName
from .extract.offline import Extractor, OfflineExtractor
from .extract.remember import Facts, Passage, RememberResult, store_facts
from .extract.run import extract_documents
from .health import PING_TIMEOUT_S, GraphHealth, GraphState, Reviver, probe
from .ingest import pipeline
from .ingest.pipeline import DocumentGroups, Progress
from .ingest.sources import SourceFile, expand, media_type_for
from .models.chat import ChatModel
from .models.embeddings import Embedder, embedder_from_setting
from .retrieve.context import DEFAULT_BUDGET_BYTES, gather
from .retrieve.evidence import Evidence, TraversalPolicy
from .retrieve.keywords import TermStats
from .retrieve.meaning import embed_documents
from .store.documents import DocumentRepository
from .store.embedded import EmbeddedServer
from .store.entities import EntityRepository
from .store.graph import FalkorStore, GraphStore
from .store.schema import (
    INDEXES,
    VECTOR_INDEX,
    ensure_indexes,
    ensure_vector_index,
    index_states,
    wait_for_indexes,
)
from .types import Chunk, Document, IngestResult, IngestStatus, TextOrigin

SCOPE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
GRAPH_PREFIX = "citegraph:"
ANY_NODE = "MATCH (n) RETURN 1 LIMIT 1"
# How long keyword statistics may be reused before they are counted again.
STATS_TTL_S = 10.0


def validate_scope_name(name: str) -> str:
    if not isinstance(name, str) or not SCOPE_NAME.fullmatch(name):
        raise InvalidScopeName(
            f"invalid scope name {name!r}: use 1 to 64 characters from A-Z a-z 0-9 _ -, "
            "starting with a letter or digit"
        )
    return name


class Scope:
    """One tenant or project: one named graph. Nothing crosses scopes."""

    def __init__(self, workspace: Workspace, name: str):
        self.workspace = workspace
        self.name = validate_scope_name(name)
        self.graph = workspace.store.graph(GRAPH_PREFIX + name)
        self._repo = DocumentRepository(self.graph)
        self._entities = EntityRepository(self.graph)
        # Word statistics for keyword ranking: reset by this object's writes, and every
        # STATS_TTL_S, so that writes through other processes or objects are seen too.
        self._term_stats = TermStats()
        self._stats_born = time.monotonic()
        self._ready_generation = -1  # the workspace's store generation last prepared
        self._ready_lock = threading.Lock()

    @property
    def _required_indexes(self) -> tuple[tuple[str, str, str], ...]:
        return (*INDEXES, VECTOR_INDEX) if self.workspace.embedder is not None else INDEXES

    def _prepare(self) -> DocumentRepository:
        with self._ready_lock:
            # Prepared again after the store was restarted: it may hold staging to clean.
            if self._ready_generation != self.workspace.generation:
                generation = self.workspace.generation
                ensure_indexes(self.graph)
                embedder = self.workspace.embedder
                if embedder is not None:
                    ensure_vector_index(self.graph, embedder.name, embedder.dimensions)
                wait_for_indexes(
                    self.graph, self.workspace.settings.index_timeout_s, self._required_indexes
                )
                self._repo.drop_abandoned_staging()
                self._ready_generation = generation
        return self._repo

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
    ) -> list[IngestResult]:
        """Ingest a file, a folder (recursively) or bytes. One result per document.

        Each document is checked in full before any of it is stored, and stored atomically. In
        a folder, files go in name order and the first bad one stops the call with
        `InvalidDocument`: nothing of it is stored, and the files before it stay stored.
        """
        if isinstance(source, bytes):
            if name is None:
                raise InvalidDocument("ingesting bytes needs name=")
            kind = media_type or media_type_for(name, source)
            return self.store_parsed([pipeline.parse(source, name, kind, origin, title)], progress)
        files, _skipped = expand([Path(source)])
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
            )
            for item in items
        )
        return self._store_grouped(parsed, progress)

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
        try:
            data = file.path.read_bytes()
        except OSError as exc:
            raise InvalidDocument(f"{file.path}: cannot read: {exc.strerror}") from None
        return pipeline.parse(data, label, kind, origin, title)

    def store_parsed(
        self, group: Sequence[pipeline.ParsedDocument], progress: Progress | None = None
    ) -> list[IngestResult]:
        """Store parsed documents with distinct names; they become visible together."""
        written: dict[str, list[Chunk]] = {}
        repo = self._prepare()
        self._forget_stats()
        results = pipeline.store_many(
            repo, group, self.workspace.settings.chunk_bytes, progress, written
        )
        if self.workspace.extractor is not None:
            pending = [r.document for r in results if not r.document.extracted]
            extract_documents(
                self.workspace.extractor,
                pending,
                lambda doc: written.get(doc.id) or repo.chunks(doc.id),
                repo,
                self._entities,
            )
            if any(r.status is IngestStatus.REPLACED for r in results):
                self._entities.drop_orphans()
            results = [replace(r, document=replace(r.document, extracted=True)) for r in results]
        embedder = self.workspace.embedder
        if embedder is not None:
            stale = [r.document for r in results if r.document.embedded_with != embedder.name]
            embed_documents(
                embedder,
                stale,
                lambda doc: written.get(doc.id) or repo.chunks(doc.id),
                self.graph,
                repo,
            )
            results = [
                replace(r, document=replace(r.document, embedded_with=embedder.name))
                for r in results
            ]
        # The full-text (and vector) index must be usable before success is reported.
        wait_for_indexes(
            self.graph, self.workspace.settings.index_timeout_s, self._required_indexes
        )
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
        k: int = 8,
        hops: int = 2,
        model: ChatModel | None = None,
    ) -> Answer:
        """Answer with verified citations, or refuse with a reason (docs/answers.md). Without a
        model, the offline extractive answerer quotes the evidence. With `history` (oldest
        first), the question is first rewritten to stand alone."""
        rewritten, reply = rewrite(question, history or (), model) if history else (None, None)
        asked = rewritten.question if rewritten is not None else question
        started = time.perf_counter()
        evidence = self.context(asked, k=k, hops=hops)
        elapsed = (time.perf_counter() - started) * 1000
        return answer_from(asked, evidence, model, elapsed, rewritten, reply)

    def context(
        self,
        question: str,
        *,
        k: int = 8,
        hops: int = 2,
        budget_bytes: int = DEFAULT_BUDGET_BYTES,
        policy: TraversalPolicy | None = None,
        **unexpected: object,
    ) -> Evidence:
        """Cited evidence for a standalone question, with a verdict (docs/retrieval.md)."""
        if "history" in unexpected:
            raise InvalidQuestion(
                "context takes standalone questions only; rewrite a follow-up first "
                "(ask() does that)"
            )
        if unexpected:
            raise TypeError(f"unexpected arguments: {', '.join(unexpected)}")
        self._prepare()
        return gather(
            self.graph,
            question,
            k=k,
            hops=hops,
            budget_bytes=budget_bytes,
            policy=policy,
            stats=self._current_stats(),
            embedder=self.workspace.embedder,
        )

    # -- reading ------------------------------------------------------------------------------

    def documents(self) -> list[Document]:
        return self._prepare().all()

    def document(self, id_or_name: str) -> Document:
        repo = self._prepare()
        doc = repo.by_id(id_or_name) or repo.by_name(id_or_name)
        if doc is None:
            raise DocumentNotFound(f"no document {id_or_name!r} in scope {self.name!r}")
        return doc

    def chunks(self, id_or_name: str) -> Iterator[Chunk]:
        doc = self.document(id_or_name)
        return iter(self._repo.chunks(doc.id))

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
        if self._repo.delete(doc.id) is None:
            raise DocumentNotFound(f"no document {id_or_name!r} in scope {self.name!r}")
        self._entities.drop_orphans()
        self._forget_stats()
        return doc

    def _forget_stats(self) -> None:
        self._term_stats = TermStats()
        self._stats_born = time.monotonic()

    def _current_stats(self) -> TermStats:
        if time.monotonic() - self._stats_born > STATS_TTL_S:
            self._forget_stats()
        return self._term_stats


class Workspace:
    """A connection to a graph store: embedded in a home directory, or a FalkorDB server."""

    def __init__(
        self,
        settings: Settings,
        extractor: Extractor | None = None,
        embedder: Embedder | None = None,
    ):
        self.settings = settings
        # Search by meaning: an explicit embedder, or the one CITEGRAPH_EMBED_MODEL names. A
        # configured model that cannot load is an error here, not a silent fallback.
        self.embedder: Embedder | None = (
            embedder if embedder is not None else embedder_from_setting(settings.embed_model)
        )
        # The extractor runs at ingest; None turns extraction off.
        self.extractor: Extractor | None = (
            extractor if extractor is not None else OfflineExtractor() if settings.extract else None
        )
        self._server: EmbeddedServer | None = None
        self._closed = False
        # Bumped each time the embedded server is restarted under this workspace.
        self.generation = 0
        self._reviver = Reviver(self._restart_server, self._restarted, settings.restart_delay_s)
        if settings.graph_url:
            self.store: GraphStore = FalkorStore(
                url=settings.graph_url, timeout_s=settings.query_timeout_s
            )
            self.where = settings.graph_url
        else:
            self._server = EmbeddedServer(settings.home, settings.fsync, settings.start_timeout_s)
            sock = self._server.join()
            try:
                self.store = FalkorStore(unix_socket=sock, timeout_s=settings.query_timeout_s)
            except BaseException:
                self._server.leave()
                raise
            self.where = str(settings.home)
        self.store.ping()
        _open_workspaces.add(self)

    @property
    def embedded(self) -> bool:
        return self._server is not None

    def server_pid(self) -> int | None:
        return self._server.server_pid() if self._server is not None else None

    def health(self) -> GraphHealth:
        """Whether the graph store answers. An embedded server found dead (killed, crashed)
        is restarted in the background; this call reports what it found, never waits."""
        found = probe(lambda: self.store.ping(PING_TIMEOUT_S))
        if found.state is not GraphState.DOWN or self._server is None or self._closed:
            return found
        if self._reviver.running or (self._server.server_pid() is None and self._reviver.start()):
            return replace(
                found,
                detail=f"{found.detail}; the embedded FalkorDB is restarting",
                restarting=True,
            )
        if self._reviver.last_error:
            return replace(
                found,
                detail=f"{found.detail}; restart failed: {self._reviver.last_error}",
                restart_error=self._reviver.last_error,
            )
        return found

    def wait_for_restart(self, timeout_s: float | None = None) -> None:
        """Wait for a restart that `health` began, if any (for tests and scripts)."""
        self._reviver.wait(timeout_s)

    def _restart_server(self) -> None:
        assert self._server is not None
        self._server.revive()

    def _restarted(self) -> None:
        self.generation += 1

    def scope(self, name: str = "default") -> Scope:
        return Scope(self, name)

    def scopes(self) -> list[str]:
        """The scopes that hold something. Reading a scope creates its (empty) graph and
        indexes; such a scope, a typo in a `--scope` say, is not listed."""
        names = (g for g in self.store.list_graphs() if g.startswith(GRAPH_PREFIX))
        return sorted(
            name[len(GRAPH_PREFIX) :] for name in names if self.store.graph(name).ro_query(ANY_NODE)
        )

    def drop_scope(self, name: str) -> None:
        """Delete a scope's whole graph."""
        self.store.graph(GRAPH_PREFIX + validate_scope_name(name)).delete()

    def close(self) -> None:
        """Disconnect; the last workspace open on an embedded home stops its server."""
        if self._closed:
            return
        self._closed = True
        _open_workspaces.discard(self)
        self._reviver.cancel(self.settings.start_timeout_s)
        try:
            self.store.close()
        finally:
            if self._server is not None:
                self._server.leave()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_open_workspaces: weakref.WeakSet[Workspace] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for ws in list(_open_workspaces):
        ws.close()


def open(
    home: str | Path | None = None,
    *,
    url: str | None = None,
    chunk_bytes: int | None = None,
    embedder: Embedder | None = None,
) -> Workspace:
    """Open a workspace: the embedded FalkorDB in `home` (default ~/.citegraph, or
    CITEGRAPH_HOME), or the FalkorDB server at `url` (or CITEGRAPH_GRAPH_URL).

    `chunk_bytes` overrides the chunk budget (CITEGRAPH_CHUNK_BYTES, default 2000)."""
    settings = load_settings(home=home, url=url)
    if chunk_bytes is not None:
        settings = replace(settings, chunk_bytes=chunk_bytes)
    return Workspace(settings, embedder=embedder)
