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

from .config import Settings, load_settings
from .errors import (
    CitegraphError,
    ConfigError,
    DocumentNotFound,
    IndexNotReady,
    InputNotFound,
    InvalidDocument,
    InvalidScopeName,
    RuntimeFailure,
    StoreError,
    StoreUnavailable,
    UsageError,
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
    "Chunk",
    "Citation",
    "CitegraphError",
    "ConfigError",
    "Document",
    "DocumentNotFound",
    "FoldedText",
    "Grounding",
    "IndexNotReady",
    "IngestResult",
    "IngestStatus",
    "InputNotFound",
    "InvalidDocument",
    "InvalidScopeName",
    "NotFoundReason",
    "QuoteMatch",
    "QuoteNotFound",
    "RuntimeFailure",
    "Scope",
    "Settings",
    "StoreError",
    "StoreUnavailable",
    "TextOrigin",
    "UsageError",
    "Workspace",
    "__version__",
    "cite",
    "load_settings",
    "locate",
    "locate_in",
    "open",
]
