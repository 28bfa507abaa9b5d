"""citegraph: citation-first GraphRAG.

import citegraph
with citegraph.open() as ws:            # embedded FalkorDB in ~/.citegraph
    scope = ws.scope("notes")
    scope.ingest("docs/")
    for doc in scope.documents():
        print(doc.name, doc.chunk_count)
"""

import importlib as _importlib
import typing as _typing

from .errors import (
    AdoptionError,
    ChatModelError,
    CitegraphError,
    ConfigError,
    DocumentNotFound,
    EmbeddingModelMissing,
    FeatureOff,
    IndexNotReady,
    InputNotFound,
    InvalidDocument,
    InvalidQuestion,
    InvalidScopeName,
    RuntimeFailure,
    StoreError,
    StoreLoading,
    StoreNotSaving,
    StoreUnavailable,
    UsageError,
)

# Everything else is imported when first used, so that `import citegraph` (and the
# command line, which starts with it) does not load the HTTP, MCP, model and PDF stacks.
_LAZY: dict[str, str] = {
    "Affected": ".values.paths",
    "Answer": ".values.answers",
    "AuditSummary": ".values.audit",
    "AuditedRelation": ".values.audit",
    "Candidate": ".extract.offline",
    "ChatModel": ".models.chat",
    "ChatReply": ".models.chat",
    "Chunk": ".values.documents",
    "Citation": ".values.documents",
    "Claim": ".values.answers",
    "Direction": ".values.paths",
    "Disposition": ".values.answers",
    "Document": ".values.documents",
    "EdgeVerdict": ".values.audit",
    "Embedder": ".models.embeddings",
    "EntityFact": ".values.facts",
    "EntityRef": ".values.paths",
    "Evidence": ".values.evidence",
    "EvidenceItem": ".values.evidence",
    "ExtractionCoverage": ".values.proposals",
    "ExtractionEstimate": ".values.proposals",
    "ExtractionRun": ".values.proposals",
    "ExtractiveAnswerer": ".answer.extractive",
    "Extractor": ".extract.offline",
    "Facts": ".values.facts",
    "FoldedText": ".text.fold",
    "Grade": ".values.paths",
    "GradedPath": ".values.paths",
    "GraphAnswer": ".values.graphq",
    "GraphHealth": ".store.health",
    "GraphRefusal": ".values.graphq",
    "GraphSchema": ".values.graphq",
    "GraphState": ".store.health",
    "Grounding": ".values.documents",
    "HashingEmbedder": ".models.embeddings",
    "Hop": ".values.paths",
    "Identity": ".values.paths",
    "ImpactResult": ".values.paths",
    "IngestResult": ".values.documents",
    "IngestStatus": ".values.documents",
    "LLMExtractor": ".extract.llm",
    "Message": ".models.chat",
    "NotFoundReason": ".text.quotes",
    "OfflineExtractor": ".extract.offline",
    "OpenAIChat": ".models.openai_chat",
    "Passage": ".values.facts",
    "PathsResult": ".values.paths",
    "QuoteMatch": ".text.quotes",
    "QuoteNotFound": ".text.quotes",
    "Receipt": ".values.answers",
    "RefusalReason": ".values.answers",
    "RelationFact": ".values.facts",
    "RowCitations": ".values.graphq",
    "RememberResult": ".values.facts",
    "ReplayChat": ".models.replay",
    "Rewrite": ".values.answers",
    "RewriteOutcome": ".values.answers",
    "Scope": ".workspace",
    "ScriptedChat": ".models.chat",
    "SentenceTransformerEmbedder": ".models.embeddings",
    "Settings": ".config",
    "TextOrigin": ".values.documents",
    "TraversalPolicy": ".values.evidence",
    "Turn": ".values.answers",
    "Unresolved": ".values.paths",
    "Verdict": ".values.evidence",
    "VerdictState": ".values.evidence",
    "WalkPolicy": ".values.paths",
    "Workspace": ".workspace",
    "check": ".audit.check",
    "cite": ".text.citations",
    "from_json": ".audit.export",
    "load_settings": ".config",
    "locate": ".text.quotes",
    "locate_in": ".text.quotes",
    "open": ".workspace",
    "to_json": ".audit.export",
}

if _typing.TYPE_CHECKING:
    __version__: str
    from .answer.extractive import ExtractiveAnswerer
    from .audit.check import check
    from .audit.export import from_json, to_json
    from .config import Settings, load_settings
    from .extract.llm import LLMExtractor
    from .extract.offline import Candidate, Extractor, OfflineExtractor
    from .models.chat import ChatModel, ChatReply, Message, ScriptedChat
    from .models.embeddings import Embedder, HashingEmbedder, SentenceTransformerEmbedder
    from .models.openai_chat import OpenAIChat
    from .models.replay import ReplayChat
    from .store.health import GraphHealth, GraphState
    from .text.citations import cite
    from .text.fold import FoldedText
    from .text.quotes import NotFoundReason, QuoteMatch, QuoteNotFound, locate, locate_in
    from .values.answers import (
        Answer,
        Claim,
        Disposition,
        Receipt,
        RefusalReason,
        Rewrite,
        RewriteOutcome,
        Turn,
    )
    from .values.documents import (
        Chunk,
        Citation,
        Document,
        Grounding,
        IngestResult,
        IngestStatus,
        TextOrigin,
    )
    from .values.evidence import Evidence, EvidenceItem, TraversalPolicy, Verdict, VerdictState
    from .values.facts import EntityFact, Facts, Passage, RelationFact, RememberResult
    from .values.paths import (
        Affected,
        Direction,
        EntityRef,
        Grade,
        GradedPath,
        Hop,
        Identity,
        ImpactResult,
        PathsResult,
        Unresolved,
        WalkPolicy,
    )
    from .values.proposals import ExtractionCoverage, ExtractionEstimate, ExtractionRun
    from .workspace import Scope, Workspace, open


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is not None:
        value = getattr(_importlib.import_module(module, __name__), name)
        globals()[name] = value
        return value
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("citegraph")
        except PackageNotFoundError:  # running from a source tree without installing
            found = "0+unknown"
        globals()["__version__"] = found
        return found
    raise AttributeError(f"module 'citegraph' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "AdoptionError",
    "Affected",
    "Answer",
    "AuditSummary",
    "AuditedRelation",
    "Candidate",
    "ChatModel",
    "ChatModelError",
    "ChatReply",
    "Chunk",
    "Citation",
    "CitegraphError",
    "Claim",
    "ConfigError",
    "Direction",
    "Disposition",
    "Document",
    "DocumentNotFound",
    "EdgeVerdict",
    "Embedder",
    "EmbeddingModelMissing",
    "EntityFact",
    "EntityRef",
    "Evidence",
    "EvidenceItem",
    "ExtractionCoverage",
    "ExtractionEstimate",
    "ExtractionRun",
    "ExtractiveAnswerer",
    "Extractor",
    "Facts",
    "FeatureOff",
    "FoldedText",
    "Grade",
    "GradedPath",
    "GraphAnswer",
    "GraphHealth",
    "GraphRefusal",
    "GraphSchema",
    "GraphState",
    "Grounding",
    "HashingEmbedder",
    "Hop",
    "Identity",
    "ImpactResult",
    "IndexNotReady",
    "IngestResult",
    "IngestStatus",
    "InputNotFound",
    "InvalidDocument",
    "InvalidQuestion",
    "InvalidScopeName",
    "LLMExtractor",
    "Message",
    "NotFoundReason",
    "OfflineExtractor",
    "OpenAIChat",
    "Passage",
    "PathsResult",
    "QuoteMatch",
    "QuoteNotFound",
    "Receipt",
    "RefusalReason",
    "RelationFact",
    "RememberResult",
    "ReplayChat",
    "Rewrite",
    "RewriteOutcome",
    "RowCitations",
    "RuntimeFailure",
    "Scope",
    "ScriptedChat",
    "SentenceTransformerEmbedder",
    "Settings",
    "StoreError",
    "StoreLoading",
    "StoreNotSaving",
    "StoreUnavailable",
    "TextOrigin",
    "TraversalPolicy",
    "Turn",
    "Unresolved",
    "UsageError",
    "Verdict",
    "VerdictState",
    "WalkPolicy",
    "Workspace",
    "__version__",
    "check",
    "cite",
    "from_json",
    "load_settings",
    "locate",
    "locate_in",
    "open",
    "to_json",
]
