"""The facade: open a workspace (a graph store), pick a scope, check the store's health."""

from __future__ import annotations

import atexit
import contextlib
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .config import Settings, load_settings
from .errors import StoreError, StoreLoading
from .extract.modality import DEFAULT_CUES, CueTable, load_cues
from .models.chat import ChatModel
from .models.embeddings import Embedder, embedder_from_setting
from .scope import GRAPH_PREFIX, Scope, validate_scope_name
from .store.aof import rewriting, server_persistence
from .store.embedded import EmbeddedServer
from .store.graph import FalkorStore, GraphStore, names_a_missing_graph
from .store.hang_watch import HangWatch
from .store.health import PING_TIMEOUT_S, GraphHealth, GraphState, Reviver, StorageStats, probe
from .store.queries.schema import ANY_NODE
from .store.registry import ScopeRegistry

if TYPE_CHECKING:
    from .extract.calls import ProposingExtractor
    from .extract.offline import Extractor
    from .store.move import MoveReport

__all__ = ["Scope", "Workspace", "open", "validate_scope_name"]


class Workspace:
    """A connection to a graph store: embedded in a home directory, or a FalkorDB server."""

    def __init__(
        self,
        settings: Settings,
        extractor: Extractor | ProposingExtractor | None = None,
        embedder: Embedder | None = None,
        server: EmbeddedServer | None = None,
        chat: ChatModel | None = None,
    ):
        """`server`: an embedded server whose `begin_join` was called (the command line
        starts the server before it imports this module, so that the two overlap). `chat`:
        the model answers use, instead of the one the settings name (CITEGRAPH_CHAT_MODEL)."""
        self.settings = settings
        self._chat = chat
        # Search by meaning: an explicit embedder, or the one CITEGRAPH_EMBED_MODEL names. A
        # configured model that cannot load is an error here, not a silent fallback.
        self.embedder: Embedder | None = (
            embedder if embedder is not None else embedder_from_setting(settings.embed_model)
        )
        # The extractor runs at ingest; made on first use (reading needs none).
        self._extractor = extractor
        self._extraction_off = False
        # The negation and modality cues relations are read with; a bad file fails here.
        self.cues: CueTable = (
            DEFAULT_CUES if settings.cues_file is None else load_cues(settings.cues_file)
        )
        self._server: EmbeddedServer | None = None
        self._hang_watch: HangWatch | None = None
        self._closed = False
        # Scopes whose housekeeping (cleanup of abandoned staging) failed, with why.
        self.housekeeping: dict[str, str] = {}
        self._housekeeping_lock = threading.Lock()
        # Bumped each time the embedded server is restarted under this workspace.
        self.generation = 0
        self._reviver = Reviver(self._restart_server, self._restarted, settings.restart_delay_s)
        if settings.graph_url:
            self.store: GraphStore = FalkorStore(
                url=settings.graph_url, timeout_s=settings.query_timeout_s
            )
            self.where = self.store.where  # no password
        else:
            if server is None:
                server = EmbeddedServer.from_settings(settings)
                server.begin_join()
            self._server = server
            sock = server.finish_join()
            try:
                self.store = FalkorStore(unix_socket=sock, timeout_s=settings.query_timeout_s)
            except BaseException:
                self._server.leave()
                raise
            self.where = str(settings.home)
        self.store.ping()
        if self._server is not None and isinstance(self.store, FalkorStore):
            # Started once the server answered: a thread left by a failed open would linger.
            self._hang_watch = HangWatch(
                self.store.in_flight, _answers(self.store), self._kill_hung
            )
        self.registry = ScopeRegistry(self.store, GRAPH_PREFIX)
        _open_workspaces.add(self)

    @property
    def chat_model(self) -> ChatModel | None:
        """The chat model every surface answers with: the one given, else the one the
        settings name (an OpenAI-compatible endpoint), else None: the offline extractive
        answerer. Answers say which in their receipt."""
        if self._chat is None and self.settings.chat_model:
            from .models.openai_chat import OpenAIChat

            self._chat = OpenAIChat.from_settings(self.settings)
        return self._chat

    @property
    def extractor(self) -> Extractor | ProposingExtractor | None:
        """What finds entities at ingest: the one given, else the offline extractor, unless
        CITEGRAPH_EXTRACT is off (None: no extraction)."""
        if self._extractor is None and self.settings.extract and not self._extraction_off:
            from .extract.offline import OfflineExtractor

            self._extractor = OfflineExtractor(self.cues)
        return self._extractor

    @extractor.setter
    def extractor(self, value: Extractor | ProposingExtractor | None) -> None:
        """Change what ingest extracts with; None turns extraction at ingest off (documents
        are then stored unextracted, and `scope.extract()` extracts them later)."""
        self._extractor = value
        self._extraction_off = value is None

    @property
    def index_timeout_s(self) -> float:
        """How long to wait for indexes: CITEGRAPH_INDEX_TIMEOUT, or at least 60 s and, for a
        large embedded store, as long as its start is allowed (it rebuilds its indexes after
        it begins to answer)."""
        if self.settings.index_timeout_s is not None:
            return self.settings.index_timeout_s
        if self._server is None:
            return 60.0
        return max(60.0, self._server.files().start_timeout_s())

    @property
    def embedded(self) -> bool:
        return self._server is not None

    @property
    def store_kind(self) -> str:
        """embedded, server, replicated (a primary with read replicas) or cluster."""
        if self._server is not None:
            return "embedded"
        return str(getattr(self.store, "kind", "server"))

    def server_pid(self) -> int | None:
        return self._server.server_pid() if self._server is not None else None

    def health(self) -> GraphHealth:
        """Whether the graph store answers, what the embedded store holds on disk, and which
        scopes' housekeeping failed. An embedded server found dead (killed, crashed) is
        restarted in the background; this call reports what it found, never waits."""
        found = self._probe()
        storage = self.storage(ask_server=found.state is not GraphState.DOWN)
        found = replace(
            found,
            storage=storage,
            housekeeping=self.housekeeping_problems(),
            kind=self.store_kind,
        )
        return found if self._server is not None else self._with_nodes(found)

    def _with_nodes(self, found: GraphHealth) -> GraphHealth:
        """Each node of a store by URL; one down while the store still answers (a replica, a
        master a cluster has failed over) makes it degraded, not down."""
        nodes_of = getattr(self.store, "nodes", None)
        nodes = tuple(nodes_of()) if nodes_of is not None else ()
        found = replace(found, nodes=nodes)
        down = [n for n in nodes if n.state != "ok"]
        if down and found.state is GraphState.OK:
            named = ", ".join(f"{n.role} {n.address} {n.state}" for n in down)
            return replace(
                found,
                state=GraphState.DEGRADED,
                detail=f"{found.detail}, but {len(down)} of {len(nodes)} nodes do not: {named}",
            )
        return found

    def housekeeping_problems(self) -> tuple[str, ...]:
        """'scope: why' for each scope whose housekeeping failed, as health() reports them."""
        with self._housekeeping_lock:
            return tuple(f"{scope}: {why}" for scope, why in sorted(self.housekeeping.items()))

    def storage(self, ask_server: bool = True) -> StorageStats | None:
        """The embedded store's files: stored bytes, tail, last compaction (None by URL);
        with `ask_server`, also whether a compaction is running."""
        if self._server is None:
            return None
        files = self._server.files()
        compacting: bool | None = None
        if ask_server:
            with contextlib.suppress(Exception):  # a store that does not answer: files only
                compacting = rewriting(server_persistence(self._server.socket_path, 1.0))
        return StorageStats(
            stored_bytes=files.stored_bytes,
            tail_bytes=files.tail_bytes,
            last_compaction=files.base_written if files.compactions else None,
            compactions=files.compactions,
            compacting=compacting,
        )

    def _probe(self) -> GraphHealth:
        found = probe(lambda: self.store.ping(PING_TIMEOUT_S))
        if found.state is not GraphState.DOWN or self._server is None or self._closed:
            return found
        if self._reviver.running or (self._server_gone() and self._reviver.start()):
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

    def _server_gone(self, grace_s: float = 0.5) -> bool:
        """Whether the embedded server process is gone. A killed server can reset its
        connections a moment before the kernel has it gone: allow it that moment."""
        assert self._server is not None
        deadline = time.monotonic() + grace_s
        while self._server.server_pid() is not None:
            if time.monotonic() >= deadline:
                return False  # alive, and not answering: hung, not dead
            time.sleep(0.05)
        return True

    def wait_for_restart(self, timeout_s: float | None = None) -> None:
        """Wait for a restart that `health` began, if any (for tests and scripts)."""
        self._reviver.wait(timeout_s)

    def _restart_server(self) -> None:
        assert self._server is not None
        self._server.revive()

    def _restarted(self) -> None:
        self.generation += 1
        if isinstance(self.store, FalkorStore):
            self.store.mark_hung(None)

    def _kill_hung(self, silent_s: float) -> str | None:
        """The embedded server answered nothing under calls in flight: killed, so that they
        fail now saying why, and started again in the background."""
        assert self._server is not None and isinstance(self.store, FalkorStore)
        why = self._server.kill_hung(silent_s, self.store.mark_hung)
        if why is not None:
            self._reviver.start()
        return why

    def schema_changed(self) -> None:
        """A scope's indexes were created: compact the embedded store soon, so that its
        snapshot holds them (an index created in the append-only tail is not used while the
        tail is replayed, which made loading quadratic; docs/embedded-store.md)."""
        if self._server is not None and not self._closed:
            self._server.request_compaction()

    def housekeeping_failed(self, scope: str, problem: str | None) -> None:
        """Record (or clear, with None) a scope's failed housekeeping, for health()."""
        with self._housekeeping_lock:
            if problem is None:
                self.housekeeping.pop(scope, None)
            else:
                self.housekeeping[scope] = problem

    def scope(self, name: str = "default") -> Scope:
        return Scope(self, name)

    def scopes(self) -> list[str]:
        """The scopes that hold something. Reading a scope creates its (empty) graph and
        indexes; such a scope, a typo in a `--scope` say, is not listed."""
        return sorted(name for name in self.registry.names() if self._holds_data(name))

    def _holds_data(self, name: str) -> bool:
        try:
            return bool(self.store.graph(GRAPH_PREFIX + name).ro_query(ANY_NODE))
        except StoreError as exc:
            if names_a_missing_graph(str(exc)):
                return False  # registered, but its graph was deleted from outside
            raise

    def restore(self, path: str | Path, scope: str) -> int:
        """Restore a backup (`Scope.backup`) into `scope`, which must hold nothing: the file is
        checked whole first (a truncated or edited one is refused, `BackupDamaged`), then the
        scope appears all at once. The number of records restored."""
        from .store.backup import read_backup, restore

        name = validate_scope_name(scope)
        backup = read_backup(Path(path))
        timeout = self.index_timeout_s
        restored = restore(self.store, backup, GRAPH_PREFIX + name, timeout)
        self.registry.add(name)
        return restored

    def move_scope(
        self, name: str, to: Workspace, as_name: str | None = None, keep: bool = False
    ) -> MoveReport:
        """Move scope `name` into the store of `to` (as `as_name`): backed up, restored there,
        the copy compared record by record, then this one dropped (kept with `keep`, or when
        it changed during the move: the report says so)."""
        from .store.move import move_scope

        return move_scope(self, name, to, as_name or name, keep)

    def drop_scope(self, name: str) -> None:
        """Delete a scope's whole graph."""
        self.store.graph(GRAPH_PREFIX + validate_scope_name(name)).delete()
        self.registry.remove(name)

    def close(self) -> None:
        """Disconnect; the last workspace open on an embedded home stops its server."""
        if self._closed:
            return
        self._closed = True
        _open_workspaces.discard(self)
        if self._hang_watch is not None:
            self._hang_watch.close()
        self._reviver.cancel(self.settings.start_timeout_s or 60.0)
        if self._server is not None:
            # Let a compaction asked for by this workspace begin before the server may stop.
            self._server.wait_for_compaction(10.0)
        try:
            self.store.close()
        finally:
            if self._server is not None:
                self._server.leave()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _answers(store: FalkorStore) -> Callable[[float], None]:
    """A ping for the hang watch: a server loading its files answers (-LOADING)."""

    def ping(timeout_s: float) -> None:
        with contextlib.suppress(StoreLoading):
            store.ping(timeout_s)

    return ping


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
    chat: ChatModel | None = None,
) -> Workspace:
    """Open a workspace: the embedded FalkorDB in `home` (default ~/.citegraph, or
    CITEGRAPH_HOME), or the FalkorDB server at `url` (or CITEGRAPH_GRAPH_URL).

    `chunk_bytes` overrides the chunk budget (CITEGRAPH_CHUNK_BYTES, default 2000); `chat` the
    chat model answers use (CITEGRAPH_CHAT_MODEL; none: the offline extractive answerer)."""
    settings = load_settings(home=home, url=url)
    if chunk_bytes is not None:
        settings = replace(settings, chunk_bytes=chunk_bytes)
    return Workspace(settings, embedder=embedder, chat=chat)
