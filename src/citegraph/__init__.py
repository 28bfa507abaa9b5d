"""citegraph: citation-first GraphRAG.

import citegraph
with citegraph.open() as ws:            # embedded FalkorDB in ~/.citegraph
    scope = ws.scope("notes")
    scope.ingest("docs/")
    for doc in scope.documents():
        print(doc.name, doc.chunk_count)
"""

from importlib.metadata import PackageNotFoundError as _PackageNotFoundError
from importlib.metadata import version as _version

from .answer.extractive import ExtractiveAnswerer
from .answer.followup import Rewrite, RewriteOutcome, Turn
from .answer.types import Answer, Claim, Disposition, Receipt, RefusalReason
from .audit.export import check, from_json, to_json
from .config import Settings, load_settings
from .errors import (
    ChatModelError,
    CitegraphError,
    ConfigError,
    DocumentNotFound,
    EmbeddingModelMissing,
    IndexNotReady,
    InputNotFound,
    InvalidDocument,
    InvalidQuestion,
    InvalidScopeName,
    RuntimeFailure,
    StoreError,
    StoreLoading,
    StoreUnavailable,
    UsageError,
)
from .extract.offline import Candidate, Extractor, OfflineExtractor
from .extract.remember import EntityFact, Facts, Passage, RelationFact, RememberResult
from .health import GraphHealth, GraphState
from .models.chat import ChatModel, ChatReply, Message, ScriptedChat
from .models.embeddings import Embedder, HashingEmbedder, SentenceTransformerEmbedder
from .models.openai_chat import OpenAIChat
from .models.replay import ReplayChat
from .retrieve.evidence import (
    Evidence,
    EvidenceItem,
    TraversalPolicy,
    Verdict,
    VerdictState,
)
from .text.citations import cite
from .text.fold import FoldedText
from .text.quotes import NotFoundReason, QuoteMatch, QuoteNotFound, locate, locate_in
from .types import (
    Chunk,
    Citation,
    Document,
    Grounding,
    IngestResult,
    IngestStatus,
    TextOrigin,
)
from .workspace import Scope, Workspace, open

try:
    __version__ = _version("citegraph")
except _PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0+unknown"

__all__ = [
    "Answer",
    "Candidate",
    "ChatModel",
    "ChatModelError",
    "ChatReply",
    "Chunk",
    "Citation",
    "CitegraphError",
    "Claim",
    "ConfigError",
    "Disposition",
    "Document",
    "DocumentNotFound",
    "Embedder",
    "EmbeddingModelMissing",
    "EntityFact",
    "Evidence",
    "EvidenceItem",
    "ExtractiveAnswerer",
    "Extractor",
    "Facts",
    "FoldedText",
    "GraphHealth",
    "GraphState",
    "Grounding",
    "HashingEmbedder",
    "IndexNotReady",
    "IngestResult",
    "IngestStatus",
    "InputNotFound",
    "InvalidDocument",
    "InvalidQuestion",
    "InvalidScopeName",
    "Message",
    "NotFoundReason",
    "OfflineExtractor",
    "OpenAIChat",
    "Passage",
    "QuoteMatch",
    "QuoteNotFound",
    "Receipt",
    "RefusalReason",
    "RelationFact",
    "RememberResult",
    "ReplayChat",
    "Rewrite",
    "RewriteOutcome",
    "RuntimeFailure",
    "Scope",
    "ScriptedChat",
    "SentenceTransformerEmbedder",
    "Settings",
    "StoreError",
    "StoreLoading",
    "StoreUnavailable",
    "TextOrigin",
    "TraversalPolicy",
    "Turn",
    "UsageError",
    "Verdict",
    "VerdictState",
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
