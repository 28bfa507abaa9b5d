"""One exception tree for citegraph.

`UsageError` and its children are mistakes the caller can fix (bad input, a name that is not
there). `RuntimeFailure` and its children are things that went wrong around a correct request
(the graph store is down, an index is not ready). Callers that only want to tell "your fault"
from "our fault" catch those two.
"""

from __future__ import annotations


class CitegraphError(Exception):
    """Base of every error citegraph raises on purpose."""


class UsageError(CitegraphError):
    """The request cannot be carried out as asked; fixing the input fixes it."""


class InvalidRequest(UsageError):
    """A request field out of its bounds (limits.py); the message starts with the field."""


class InvalidScopeName(UsageError):
    """A scope name outside the documented safe alphabet."""


class InvalidDocument(UsageError):
    """Input that cannot be stored as a document (bad encoding, binary, empty, corrupt PDF...)."""


class InputNotFound(UsageError):
    """A path given to ingest does not exist."""


class DocumentNotFound(UsageError):
    """No document with that id or name in the scope."""


class InvalidQuestion(UsageError):
    """A question that cannot be looked up as asked (empty, too long, no content words)."""


class FeatureOff(UsageError):
    """An experimental feature that is off here (or lacks what it needs, such as a model)."""


class AdoptionError(UsageError):
    """Another tool's output that cannot be adopted: a file missing, damaged or of no known
    layout; the message names the file and what is wrong."""


class ConfigError(UsageError):
    """A setting has a value citegraph cannot use."""


class RuntimeFailure(CitegraphError):
    """Something outside the request failed; the request itself may be fine."""


class StoreUnavailable(RuntimeFailure):
    """The graph store cannot be reached, started, or went away during the request."""


class StoreLoading(StoreUnavailable):
    """The graph store answers but is still loading its data (after a start or restart)."""


class EmbeddingModelMissing(RuntimeFailure):
    """An embedding model is configured but cannot be used (not installed, cannot load)."""


class ChatModelError(RuntimeFailure):
    """The chat model could not be reached or sent something unusable (never a refusal)."""


class StoreError(RuntimeFailure):
    """The graph store answered with an error."""


class StoreNotSaving(StoreError):
    """The graph store holds writes it cannot save to disk (a full disk, say). What it holds
    may not survive its next stop, so nothing is read from it or written to it until it can."""


class IndexNotReady(RuntimeFailure):
    """An index is still being built; reading it now would look like 'no results'."""


__all__ = [
    "AdoptionError",
    "ChatModelError",
    "CitegraphError",
    "ConfigError",
    "DocumentNotFound",
    "EmbeddingModelMissing",
    "FeatureOff",
    "IndexNotReady",
    "InputNotFound",
    "InvalidDocument",
    "InvalidQuestion",
    "InvalidRequest",
    "InvalidScopeName",
    "RuntimeFailure",
    "StoreError",
    "StoreLoading",
    "StoreNotSaving",
    "StoreUnavailable",
    "UsageError",
]
