"""`citegraph mcp`: the memory and answer tools for agents, over stdio (the official SDK).

The tool descriptions are what an agent reads, so they carry the rules: read the verdict
first, answer only when grounded, quote citations, say "I don't know" and why otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from .. import __version__
from ..errors import CitegraphError, InvalidRequest, StoreUnavailable
from ..limits import (
    DEFAULT_HOPS,
    DEFAULT_K,
    DEFAULT_WALK_HOPS,
    MAX_HOPS,
    MAX_ITEMS,
    MAX_K,
    MAX_NAME,
    MAX_WALK_HOPS,
    within_limit,
)
from ..scope import OpenScopes, Scope
from ..service import knowledge_shapes, shapes
from ..service.checking import check_answer
from ..service.graph_query_shapes import graph_query_shape
from ..service.requests import (
    EntityIn,
    PassageIn,
    RelationIn,
    TurnIn,
    facts_from,
    passages_from,
    turns_from,
)
from ..service.shapes import wire
from ..service.walk_shapes import impact_shape, paths_shape
from ..values.answers import Answer
from ..values.evidence import Evidence
from ..values.facts import EntityIdentity, StoredRelation
from ..values.graphq import GraphAnswer
from ..values.paths import ImpactResult, PathsResult
from ..values.proposals import ExtractionCoverage
from ..workspace import Workspace

T = TypeVar("T")

RULES = """\
Rules for answering from citegraph:
1. Call memory_context (or answer) with the question in plain words before answering about
   stored knowledge.
2. Read verdict.state before the items.
3. Answer from the items only when verdict.state is "grounded", after reading them; quote
   each item's `citation` for every fact you use.
4. On "related", say what the store holds and name the words in verdict.uncovered that it
   holds nothing about.
5. On "uncited", "nothing_stored" or "could_not_judge", say "I don't know" and why; never fill
   the gap from your own knowledge as if it came from the store.
"""

CONTEXT_DOC = f"""Cited passages and facts for a question, with a verdict on whether the
store covers it. {RULES}"""

REMEMBER_DOC = """Store facts you already know, with the passage that says them. Each mention
is located in its passage before it is kept; mentions that cannot be located come back in
`unlocated` and are NOT stored. A relation is citable only when one passage mentions both ends;
otherwise it is returned in `relations_asserted`."""

ANSWER_DOC = f"""An answer built only from quotes proven to be in the stored text, or a
refusal with its reason (disposition "refused", reason e.g. no-evidence). A refusal is the
truthful result: relay it as "I don't know" with the reason; do not answer around it. Quote the
claims' citations when you pass the answer on. {RULES}"""

RELATIONS_DOC = """The relations stored (those touching `entity` when given), each with the quote
it was located at, its polarity (affirmed/negated) and modality (actual/hypothetical/planned).
Quote a relation's `quote` when you use it; a negated or hypothetical one is not a fact. A
`description`, where present, is a model's own words about the relation: context only, never
quote it as evidence."""

ENTITIES_DOC = """Every entity a name can mean (case and spacing aside), most mentioned first: each
with its `key` (type:name), type, mention count and aliases (its spellings, and names a source
says it is also called, such as an acronym's definition). Several identities mean the name is
ambiguous: pass the `key` of the one you mean to graph_impact or graph_paths; never assume."""

REPORTS_DOC = """Community reports an adopted GraphRAG output brought (those about `entity` when
given): that tool's summaries of groups of entities, in its words. Context only: never quote a
report as evidence; cite the passages or relations it points to instead."""

IMPACT_DOC = """If this entity changes, what is affected (direction "dependents"), or what it needs
("dependencies"): each entity with its best paths, every hop graded against its own sentence.
Read `status` first: "ambiguous" lists candidates (call again with one's `key`), "unknown"
offers close spellings; neither walks anything. Only `supported` hops have a sentence that
states them: quote their evidence. Say `inferred` and `insufficient` hops are unconfirmed, with
their reason; never present them as facts. `truncated` means more were found than listed."""

PATHS_DOC = """How two entities are connected: the best paths, each hop graded (supported,
inferred, insufficient) with its verified quote or the reason it has none. An empty list means
no connection within max_hops under the policy, not that none exists anywhere."""

GRAPH_QUERY_DOC = """Experimental, off unless the server runs with CITEGRAPH_TEXT2CYPHER=on: a
question about the graph itself (how many documents mention X, which services call Y), answered
by one read-only Cypher query a chat model writes from the scope's schema, checked by a gate,
run read-only with a timeout and a row limit. The answer is rows with the query as run, and
the verified citations of rows holding chunks, mentions or relations; `uncitedRows` cite
nothing. Read `cypher` before trusting the rows; a refusal has its `reason`."""

CHECK_DOC = """Check an answer document (from `answer`, or `citegraph ask --export`): every
quote must be its evidence item's bytes at its span; with `scope`, also the bytes stored
there. `valid` is false, with the problems listed, when any citation does not hold."""


class _Scopes:
    """The scopes this server was started with; the first is the default."""

    def __init__(self, workspace: Workspace, allowed: Sequence[str]):
        self.allowed = tuple(dict.fromkeys(allowed))
        self._open = OpenScopes(workspace)

    def get(self, name: str | None) -> Scope:
        name = name or self.allowed[0]
        if name not in self.allowed:
            raise ToolError(
                f"scope {name!r} is not open to this server; it was started with "
                f"--scope {' --scope '.join(self.allowed)}"
            )
        return self._open.get(name)


def _guarded(workspace: Workspace, work: Callable[[], T]) -> T:
    """Run a tool's work; every failure becomes a tool error that says what it was."""
    try:
        return work()
    except InvalidRequest as exc:  # a limit shared with the HTTP API: it names the field
        raise ToolError(str(exc)) from None
    except CitegraphError as exc:
        if isinstance(exc, StoreUnavailable):
            workspace.health()  # an embedded store found dead is restarted
        raise ToolError(f"{type(exc).__name__}: {exc}") from None


ScopeArg = Annotated[str | None, Field(description="Scope to use; default: the server's first.")]


def build_server(workspace: Workspace, scopes: Sequence[str]) -> MCPServer:
    for name in scopes:
        workspace.scope(name)  # checks the name now rather than at the first call
    open_scopes = _Scopes(workspace, scopes)
    limit = workspace.settings.max_question_chars
    server = MCPServer(
        name="citegraph", version=__version__, instructions=RULES, log_level="WARNING"
    )

    @server.tool(description=CONTEXT_DOC)
    def memory_context(
        question: Annotated[str, Field(description="A standalone question, in plain words.")],
        scope: ScopeArg = None,
        k: Annotated[int, Field(ge=1, le=MAX_K, description="Items to return.")] = DEFAULT_K,
        hops: Annotated[int, Field(ge=0, le=MAX_HOPS, description="Graph steps.")] = DEFAULT_HOPS,
    ) -> dict[str, Any]:
        def work() -> Evidence:
            within_limit("question", question, limit)
            return open_scopes.get(scope).context(question, k=k, hops=hops)

        return wire(shapes.evidence_shape(_guarded(workspace, work)))

    @server.tool(description=REMEMBER_DOC)
    def memory_remember(
        source: Annotated[
            str,
            Field(min_length=1, max_length=MAX_NAME, description="Where these facts come from."),
        ],
        # The same caps as the HTTP body, from limits.py.
        entities: Annotated[list[EntityIn] | None, Field(max_length=MAX_ITEMS)] = None,
        relations: Annotated[list[RelationIn] | None, Field(max_length=MAX_ITEMS)] = None,
        passages: Annotated[list[PassageIn] | None, Field(max_length=MAX_ITEMS)] = None,
        scope: ScopeArg = None,
    ) -> dict[str, Any]:
        facts = facts_from(entities or [], relations or [])
        texts = passages_from(passages or [])
        result = _guarded(workspace, lambda: open_scopes.get(scope).remember(source, facts, texts))
        return wire(shapes.remember_shape(result))

    @server.tool(description=ANSWER_DOC)
    def answer(
        question: Annotated[str, Field(description="The question, in plain words.")],
        history: list[TurnIn] | None = None,
        scope: ScopeArg = None,
    ) -> dict[str, Any]:
        def work() -> Answer:
            within_limit("question", question, limit)
            turns = turns_from(list(history or ()), limit)
            return open_scopes.get(scope).ask(question, turns)

        return wire(shapes.answer_shape(_guarded(workspace, work)))

    @server.tool(description=RELATIONS_DOC)
    def relations(
        entity: Annotated[
            str | None, Field(max_length=MAX_NAME, description="Only those touching this name.")
        ] = None,
        relation_type: Annotated[
            str | None,
            Field(max_length=MAX_NAME, description="Only this type: calls, alias-of, ..."),
        ] = None,
        scope: ScopeArg = None,
    ) -> dict[str, Any]:
        def work() -> tuple[str, list[StoredRelation], ExtractionCoverage]:
            target = open_scopes.get(scope)
            found = target.relations(entity, relation_type=relation_type)
            return target.name, found, target.extraction_coverage()

        name, found, coverage = _guarded(workspace, work)
        return wire(
            knowledge_shapes.relations_shape(
                entity, found, relation_type=relation_type, coverage=coverage, scope=name
            )
        )

    @server.tool(description=ENTITIES_DOC)
    def entities(
        name: Annotated[str, Field(min_length=1, max_length=MAX_NAME)],
        scope: ScopeArg = None,
    ) -> dict[str, Any]:
        def work() -> tuple[str, list[EntityIdentity], ExtractionCoverage]:
            target = open_scopes.get(scope)
            return target.name, target.entities(name), target.extraction_coverage()

        scope_name, found, coverage = _guarded(workspace, work)
        return wire(knowledge_shapes.entities_shape(name, found, coverage, scope_name))

    @server.tool(description=REPORTS_DOC)
    def community_reports(
        entity: Annotated[
            str | None, Field(max_length=MAX_NAME, description="Only those about this name.")
        ] = None,
        scope: ScopeArg = None,
    ) -> dict[str, Any]:
        from ..service.adopt_shapes import community_reports_shape

        found = _guarded(workspace, lambda: open_scopes.get(scope).community_reports(entity))
        return wire(community_reports_shape(entity, found))

    @server.tool(description=IMPACT_DOC)
    def graph_impact(
        entity: Annotated[
            str, Field(min_length=1, max_length=MAX_NAME, description="A name, or a key.")
        ],
        direction: Annotated[
            Literal["dependents", "dependencies"], Field(description="Which way to walk.")
        ] = "dependents",
        max_hops: Annotated[int, Field(ge=1, le=MAX_WALK_HOPS)] = DEFAULT_WALK_HOPS,
        scope: ScopeArg = None,
    ) -> dict[str, Any]:
        def work() -> tuple[str, ImpactResult]:
            target = open_scopes.get(scope)
            return target.name, target.impact(entity, direction, max_hops)

        name, result = _guarded(workspace, work)
        return wire(impact_shape(result, name))

    @server.tool(description=PATHS_DOC)
    def graph_paths(
        source: Annotated[str, Field(min_length=1, max_length=MAX_NAME)],
        target: Annotated[str, Field(min_length=1, max_length=MAX_NAME)],
        max_hops: Annotated[int, Field(ge=1, le=MAX_WALK_HOPS)] = DEFAULT_WALK_HOPS,
        scope: ScopeArg = None,
    ) -> dict[str, Any]:
        def work() -> tuple[str, PathsResult]:
            chosen = open_scopes.get(scope)
            return chosen.name, chosen.paths(source, target, max_hops)

        name, result = _guarded(workspace, work)
        return wire(paths_shape(result, name))

    @server.tool(description=GRAPH_QUERY_DOC)
    def graph_query(
        question: Annotated[
            str, Field(min_length=1, description="A question about the graph, in plain words.")
        ],
        scope: ScopeArg = None,
    ) -> dict[str, Any]:
        def work() -> GraphAnswer:
            within_limit("question", question, limit)
            return open_scopes.get(scope).ask_graph(question)

        return wire(graph_query_shape(_guarded(workspace, work)))

    @server.tool(name="check_answer", description=CHECK_DOC)
    def check_answer_tool(
        answer: Annotated[dict[str, Any], Field(description="A citegraph-answer/1 document.")],
        scope: Annotated[
            str | None, Field(description="Also compare with the bytes stored in this scope.")
        ] = None,
    ) -> dict[str, Any]:
        target = open_scopes.get(scope) if scope else None
        return wire(_guarded(workspace, lambda: check_answer(answer, target)))

    return server
