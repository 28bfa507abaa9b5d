"""What another tool's output holds, read into one shape, and what adopting it did."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class AdoptedDocument:
    id: str
    name: str  # its file path or title in the tool's output, else its id
    text: str | None  # the whole text, when the tool kept it


@dataclass(frozen=True)
class AdoptedChunk:
    id: str
    text: str
    document_id: str | None
    order: int = 0


@dataclass(frozen=True)
class AdoptedEntity:
    name: str
    type: str
    description: str  # the tool's words: stored, never cited
    chunk_ids: tuple[str, ...]


@dataclass(frozen=True)
class AdoptedRelation:
    source: str  # entity names, as the tool wrote them
    target: str
    keywords: str
    description: str  # the tool's words: stored, never cited
    weight: float | None
    chunk_ids: tuple[str, ...]


@dataclass(frozen=True)
class AdoptedReport:
    """A community report: the tool's summary of a group of entities. Context, never cited."""

    id: str
    title: str
    summary: str
    full_content: str
    entities: tuple[tuple[str, str], ...]  # (name, type) of the community's entities


@dataclass(frozen=True)
class AdoptedGraph:
    tool: str  # lightrag, graphrag
    version: str  # the layout read, in words
    documents: tuple[AdoptedDocument, ...]
    chunks: tuple[AdoptedChunk, ...]
    entities: tuple[AdoptedEntity, ...]
    relations: tuple[AdoptedRelation, ...]
    reports: tuple[AdoptedReport, ...] = ()


@dataclass
class AdoptReport:
    """What adoption did, by count, with what could not be located or checked listed."""

    tool: str
    version: str
    scope: str
    documents: int = 0  # documents stored (their text, or an adopted chunk's own text)
    chunks: int = 0
    chunks_in_source: int = 0  # located in a document's text or a source file
    chunks_as_own_text: int = 0  # stored as their own text: grounding chunk
    entities: int = 0
    entities_located: int = 0
    entities_unsupported: list[str] = field(default_factory=list)
    same_name_other_type: list[str] = field(default_factory=list)  # kept apart
    mentions: int = 0
    relations: int = 0
    relations_supported: int = 0
    relations_inferred: int = 0
    community_reports: int = 0  # kept as context, linked to their entities, never cited
    dropped: dict[str, int] = field(default_factory=dict)  # by reason
    unlocated_chunks: list[str] = field(default_factory=list)
    run: str = ""  # the tool and a digest of its output
    replaced_run: str | None = None  # the older run of the same tool this one replaced
    removed: dict[str, int] = field(default_factory=dict)  # what only the older run held
