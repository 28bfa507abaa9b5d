"""What a scope knows beyond its passages: the entities and relations extracted from them,
and extraction run again on demand (another extractor, a budget, an estimate first)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import FeatureOff, InvalidQuestion, InvalidRequest, UsageError
from .limits import RELATIONS_LIMIT
from .values.adopted import CommunityReport
from .values.audit import AuditedRelation, AuditSummary, EdgeVerdict
from .values.facts import EntityIdentity, StoredRelation
from .values.graphq import GraphAnswer, GraphSchema
from .values.paths import DEFAULT_WALK_POLICY, Direction, ImpactResult, PathsResult, WalkPolicy
from .values.proposals import ExtractionCoverage, ExtractionEstimate, ExtractionRun

if TYPE_CHECKING:
    from .adopt.model import AdoptReport
    from .extract.calls import ProposingExtractor
    from .extract.offline import Extractor
    from .graphq.schema import SchemaCache
    from .models.chat import ChatModel
    from .store.documents import DocumentRepository
    from .store.entities import EntityRepository
    from .store.graph import GraphHandle
    from .values.documents import Chunk, Document
    from .workspace import Workspace


class ScopeKnowledge:
    """Part of `Scope` (kept apart for size): entities, relations and extraction."""

    workspace: Workspace
    graph: GraphHandle
    _entities: EntityRepository

    def _prepare(self, only: Sequence[tuple[str, str, str]] | None = None) -> DocumentRepository:
        raise NotImplementedError

    def relations(
        self,
        entity: str | None = None,
        limit: int = RELATIONS_LIMIT,
        relation_type: str | None = None,
    ) -> list[StoredRelation]:
        """The relations stored here (those touching `entity`, by name, and those of
        `relation_type`, such as `calls`, `alias-of` or `co-mentioned`, when given), each with
        the quote it was located at, its polarity and modality; stated ones before co-mentions."""
        from .extract.mentions import normalise_name
        from .ingest.pdf import pages_of
        from .values.proposals import model_words

        self._prepare()
        norm = normalise_name(entity) if entity is not None else None

        def pages(
            starts: list[int] | None, start: int | None, end: int | None
        ) -> tuple[int | None, int | None]:
            if starts is None or start is None or end is None:
                return None, None
            return pages_of(starts, start, end)

        return [
            StoredRelation(
                a, a_type, b, b_type, kind, polarity, modality, bool(weak), bool(citable),
                quote, doc, chunk, start, end, origin or "", name, *pages(starts, start, end),
                model_words(description),  # an adopted tool's, too: bounded the same
            )
            for a, a_type, b, b_type, kind, polarity, modality, weak, citable, quote, doc,
            chunk, start, end, origin, name, starts, description in self._entities.relations(
                norm, limit, relation_type
            )
        ]  # fmt: skip

    def extraction_coverage(self) -> ExtractionCoverage:
        """How many stored documents are not extracted yet (and how many of those a running
        extraction holds): entities and relations from them are not in any listing, walk
        or impact answer until they are."""
        documents, pending, now = self._prepare().extraction_coverage()
        return ExtractionCoverage(documents, pending, now)

    def relation_types(self) -> list[str]:
        """The types of the relations stored here (`calls`, `alias-of`...), and
        `co-mentioned` when names share sentences: what `relations(relation_type=...)` finds."""
        self._prepare()
        return self._entities.relation_types()

    def entities(self, name: str) -> list[EntityIdentity]:
        """Every entity `name` can mean (case and spacing aside), each with its type, aliases
        and mention count, most mentioned first: ambiguity is shown, never resolved by a guess."""
        from .extract.mentions import normalise_name

        self._prepare()
        return [
            EntityIdentity(key, shown, kind, _aliases(aliases, stated), int(count))
            for key, shown, kind, aliases, count, stated in self._entities.identities(
                normalise_name(name)
            )
        ]

    def impact(
        self,
        name: str,
        direction: Direction | str = "dependents",
        max_hops: int = 3,
        policy: WalkPolicy | None = None,
    ) -> ImpactResult:
        """Who is affected if `name` changes (`dependents`: those that call, depend on, read
        from... it), or what it depends on (`dependencies`), up to `max_hops` (at most 5)
        away: each entity with its best paths, every hop graded against its own sentence
        (supported, inferred, insufficient) with its verified quote or the reason it has none.

        A name that means several entities returns `status="ambiguous"` with every candidate
        and walks nothing: pass a candidate's key (`type:name`) to pick one. An unknown name
        returns `status="unknown"` with close spellings of stored names."""
        from .paths.walk import impact

        self._prepare()
        found = impact(
            self.graph, name, _direction(direction), max_hops, policy or DEFAULT_WALK_POLICY,
            self.workspace.cues,
        )  # fmt: skip
        return replace(found, extraction=self.extraction_coverage())

    def paths(
        self, a: str, b: str, max_hops: int = 3, policy: WalkPolicy | None = None
    ) -> PathsResult:
        """How `a` is connected to `b`: the best paths of at most `max_hops` (at most 5)
        hops, either way along the relations the policy follows, graded hop by hop."""
        from .paths.walk import paths

        self._prepare()
        walk = policy or DEFAULT_WALK_POLICY
        found = paths(self.graph, a, b, max_hops, walk, self.workspace.cues)
        return replace(found, extraction=self.extraction_coverage())

    def audit_sample(self, n: int = 10) -> list[AuditedRelation]:
        """Up to `n` stated relations (located at a quote) nobody has judged yet, at random:
        for a person to say whether each quote really binds these two entities."""
        from .paths.edge_audit import sample

        self._prepare()
        return sample(self.graph, n)

    def record_audit(self, verdicts: Sequence[tuple[str, EdgeVerdict | str]]) -> int:
        """Keep verdicts (relation id from `audit_sample`, right or wrong) on the relations
        in this scope; how many relations were found and marked."""
        from .paths.edge_audit import record

        self._prepare()
        return record(self.graph, [(rid, str(v)) for rid, v in verdicts])

    def audit_summary(self) -> AuditSummary:
        """The binding error rate the verdicts measure, with its sample size: shown on every
        impact view as a limitation of what it draws."""
        from .paths.edge_audit import summary

        self._prepare()
        return summary(self.graph)

    def adopt(
        self, path: str | Path, tool: str | None = None, sources: str | Path | None = None
    ) -> AdoptReport:
        """Adopt a graph another tool built (a GraphRAG output folder or a LightRAG working
        directory; `tool`, graphrag or lightrag, detected when None): its passages located in
        stored bytes (`sources`: a folder of its source files, for passages its output does
        not hold whole), its entities checked for a
        mention, its relations graded on a sentence naming both ends. The whole output is
        read and checked before anything is stored; adopting it again adds nothing. What was
        kept, located, unsupported or dropped comes back in the report (docs/adopt.md)."""
        from .adopt.read import read_output
        from .adopt.run import adopt_into

        graph = read_output(Path(path), tool)
        folder = Path(sources) if sources is not None else None
        if folder is not None and not folder.is_dir():
            raise InvalidRequest(f"--sources {folder}: not a folder")
        self._prepare()
        return adopt_into(self, graph, folder)  # type: ignore[arg-type]

    def community_reports(
        self, entity: str | None = None, limit: int = 1000
    ) -> list[CommunityReport]:
        """The community reports an adopted graph brought (those about `entity`, by name, when
        given): the tool's summaries, kept as context and never cited (docs/adopt.md)."""
        from .extract.mentions import normalise_name
        from .store.queries.adopt import COMMUNITY_REPORTS

        self._prepare()
        norm = normalise_name(entity) if entity is not None else None
        rows = self.graph.ro_query(COMMUNITY_REPORTS, {"norm": norm, "limit": limit})
        return [
            CommunityReport(key, title or "", summary or "", full or "", tool or "",
                            tuple(sorted(names)))
            for key, title, summary, full, tool, names in rows
        ]  # fmt: skip

    def backup(self, path: str | Path) -> int:
        """Write this scope to `path` (gzip'd JSON lines, checksummed): documents with their
        stored text, chunks with their spans, entities, mentions, relations with their quotes
        and audit verdicts, the extraction cache; not embeddings. `Workspace.restore` reads it
        back. The number of records written."""
        from . import __version__
        from .store.backup import write_backup

        self._prepare()
        name = self.graph.name.split(":", 1)[-1]
        return write_backup(self.graph, name, Path(path), __version__)

    def graph_schema(self) -> GraphSchema:
        """What a question about the graph may name: labels, relationship types and
        properties, with counts and example values (never embeddings or bookkeeping)."""
        from .graphq.schema import read_schema

        self._prepare()
        return read_schema(self.graph)

    def ask_graph(self, question: str, model: ChatModel | None = None) -> GraphAnswer:
        """A question about the graph itself ("how many documents mention X?"), answered by
        one read-only Cypher query that `model` (default: the workspace's chat model) writes
        from the schema. Experimental and off unless `Settings.text2cypher`
        (CITEGRAPH_TEXT2CYPHER=on). The query passes a gate (docs/graph-questions.md) and
        runs read-only with a timeout and a row limit; the answer is rows with the query
        that returned them, citing the chunks, mentions and relations they hold. A refusal
        is an answer with its reason."""
        from .graphq.gate import Bounds
        from .graphq.run import ask_graph
        from .limits import within_limit

        settings = self.workspace.settings
        if not settings.text2cypher:
            raise FeatureOff(
                "questions about the graph (Text2Cypher) are off; turn them on with "
                "CITEGRAPH_TEXT2CYPHER=on (or --text2cypher)"
            )
        chat = model or self.workspace.chat_model
        if chat is None:
            raise FeatureOff(
                "questions about the graph need a chat model to write the query; set "
                "CITEGRAPH_CHAT_MODEL (and CITEGRAPH_CHAT_BASE_URL)"
            )
        if not question.strip():
            raise InvalidQuestion("the question is empty")
        within_limit("question", question, settings.max_question_chars)
        self._prepare()
        schema = self._schema_cache().get(self.graph)
        warnings: tuple[str, ...] = ()
        if self.workspace.store.query_memory_cap() is None:
            warnings = (
                "the store sets no memory limit per query (QUERY_MEM_CAPACITY): a query that "
                "builds a huge list can exhaust its memory before the timeout stops it",
            )
        return ask_graph(
            question, self.graph, schema, chat,
            Bounds(max_rows=settings.graph_query_max_rows),
            settings.graph_query_timeout_ms, warnings,
        )  # fmt: skip

    def _schema_cache(self) -> SchemaCache:
        from .graphq.schema import SchemaCache

        cache: SchemaCache | None = getattr(self, "_graph_schema_cache", None)
        if cache is None:
            cache = SchemaCache()
            self._graph_schema_cache = cache
        return cache

    def _extraction_plan(
        self, extractor: Extractor | ProposingExtractor | None, again: bool
    ) -> tuple[Extractor | ProposingExtractor, list[Document], DocumentRepository]:
        from .extract.offline import OfflineExtractor
        from .extract.run import name_of
        from .ingest.derived import pending_extraction

        chosen = extractor or self.workspace.extractor or OfflineExtractor(self.workspace.cues)
        repo = self._prepare()
        return chosen, pending_extraction(repo.all(), name_of(chosen), again), repo

    def extraction_estimate(
        self, extractor: Extractor | ProposingExtractor | None = None, again: bool = False
    ) -> ExtractionEstimate:
        """What `extract()` would spend: calls (one per window of chunks whose reply is not
        cached) and prompt tokens, counted before anything is spent."""
        from .ingest.derived import estimate

        chosen, pending, repo = self._extraction_plan(extractor, again)
        return estimate(pending, self._chunks_of(repo), self.graph, chosen)

    def extract(
        self,
        extractor: Extractor | ProposingExtractor | None = None,
        *,
        again: bool = False,
        max_tokens: int | None = None,
        on_chunk: Callable[[int], None] | None = None,
    ) -> ExtractionRun:
        """Extract the documents `extractor` (default: the workspace's, else offline) has not
        extracted yet (all of them with `again`), replacing what another extractor stored
        from them. Model replies are cached by chunk bytes, prompt, model and parameters, so
        unchanged chunks cost no call. With `max_tokens`, no call is made that could pass
        it: the run stops, says so, and the documents left are extracted by the next run."""
        from .ingest.derived import extract_again

        chosen, pending, repo = self._extraction_plan(extractor, again)
        done = extract_again(
            pending, self._chunks_of(repo), repo, self._entities, chosen, max_tokens, on_chunk
        )
        self._forget_stats()
        return done

    @staticmethod
    def _chunks_of(repo: DocumentRepository) -> Callable[[Document], Iterable[Chunk]]:
        def chunks_of(document: Document) -> Iterable[Chunk]:
            return repo.chunks(document.id)

        return chunks_of

    def _forget_stats(self) -> None:
        raise NotImplementedError


def _direction(value: Direction | str) -> Direction:
    try:
        return Direction(value)
    except ValueError:
        choices = ", ".join(d.value for d in Direction)
        raise UsageError(f"direction must be one of {choices}, not {value!r}") from None


def _aliases(spellings: list[str] | None, stated: list[str] | None) -> tuple[str, ...]:
    """An entity's own spellings, then the names a source says it is also called."""
    return tuple(dict.fromkeys([*(spellings or ()), *(n for n in stated or () if n)]))
