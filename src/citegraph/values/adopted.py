"""What an adopted graph keeps that is not evidence: another tool's community reports."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CommunityReport:
    """A community report another tool wrote (Microsoft GraphRAG): its summary of a group of
    entities, in its words. Context for a reader, never a citation: no stored bytes back it."""

    key: str
    title: str
    summary: str
    full_content: str
    tool: str
    entities: tuple[str, ...]  # the names of the entities it is about, sorted
