"""Relations read from a document's structure (configuration, diagrams written as code), and
their grounding.

Structure spans chunks: a manifest names its owner at the top and its settings far below, a
diagram defines a node's label lines before its edges. So these relations are found on the
whole stored text and then grounded like any other: the evidence (the setting, the edge
line) must be the stored bytes at its span, lie in one chunk and be at most 600 bytes; each
end is named at a located span, inside the evidence or, where the structure binds it
elsewhere (the owner of a setting, a node's label), at that binding, kept with the relation.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..text.quotes import QuoteMatch
from ..values.documents import Chunk, Document
from ..values.proposals import DropReason, ExtractionReport
from .grounding import MAX_EVIDENCE_BYTES
from .mentions import MentionRows, entity_key, mention_row
from .modality import DEFAULT_CUES, CueTable, Modality, Polarity, assess
from .sections import Headings, planned


@dataclass(frozen=True)
class Located:
    """`text` at character offsets [start, end) of a document's stored text."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class StructuralRelation:
    type: str
    evidence: Located  # the words that state the relation
    source: Located  # where each end is named: in the evidence, or where it is bound
    target: Located
    # Set where what is around the quote says it (feature_flags.py, a diagram's branch),
    # else read from the quote.
    modality: str | None = None
    polarity: str | None = None


class DocumentText:
    """A document's stored text as its chunks, for locating character spans in them."""

    def __init__(self, chunks: Sequence[Chunk]):
        self.chunks = list(chunks)
        self.starts: list[int] = []
        at = 0
        for chunk in self.chunks:
            self.starts.append(at)
            at += len(chunk.text)
        self.text = "".join(c.text for c in self.chunks)

    @cached_property
    def headings(self) -> Headings:
        """The text's headings, read once for all its relations (sections.py)."""
        return Headings(self.text)

    def chunk_of(self, span: Located) -> tuple[Chunk, int] | None:
        """The chunk holding the whole span, and the chunk's first character offset."""
        index = bisect.bisect_right(self.starts, span.start) - 1
        if index < 0:
            return None
        chunk, first = self.chunks[index], self.starts[index]
        if span.end > first + len(chunk.text):
            return None
        return chunk, first

    def holds(self, span: Located) -> bool:
        return 0 <= span.start <= span.end <= len(self.text) and (
            self.text[span.start : span.end] == span.text
        )

    def match(self, span: Located) -> QuoteMatch:
        """The span as a match in its chunk (chunk offsets), as mentions are stored."""
        found = self.chunk_of(span)
        assert found is not None
        chunk, first = found
        start = len(chunk.text[: span.start - first].encode())
        return QuoteMatch(
            start_byte=start,
            end_byte=start + len(span.text.encode()),
            start_char=span.start - first,
            end_char=span.end - first,
            text=span.text,
            count=1,
        )

    def byte_span(self, span: Located) -> tuple[int, int]:
        """Document byte offsets of a span (it lies in one chunk)."""
        found = self.chunk_of(span)
        assert found is not None
        chunk, first = found
        before = chunk.text[: span.start - first].encode()
        inside = span.text.encode()
        return chunk.start_byte + len(before), chunk.start_byte + len(before) + len(inside)


def ground_structural(
    found: Sequence[StructuralRelation],
    document: Document,
    text: DocumentText,
    type_of: Any,
    rows: MentionRows,
    relations: list[dict[str, Any]],
    report: ExtractionReport,
    mentioned: set[tuple[str, str]],
    cues: CueTable = DEFAULT_CUES,
) -> None:
    """Keep what holds (mentions of both ends, the relation); count what does not.
    `type_of(name)` gives an end's entity type; `mentioned`: (entity key, chunk id) pairs
    whose mention is already stored."""
    for relation in found:
        spans = (relation.evidence, relation.source, relation.target)
        if not all(text.holds(s) and s.text.strip() for s in spans):
            report.drop(DropReason.NOT_IN_SOURCE)
            continue
        home = text.chunk_of(relation.evidence)
        if home is None:
            report.drop(DropReason.CROSS_CHUNK)
            continue
        if len(relation.evidence.text.encode()) > MAX_EVIDENCE_BYTES:
            report.drop(DropReason.TOO_LONG)
            continue
        ends = []
        for end in (relation.source, relation.target):
            holder = text.chunk_of(end)
            if holder is None:
                break
            kind = type_of(end.text)
            ends.append((entity_key(end.text, kind), end, kind, holder[0]))
        if len(ends) < 2:
            report.drop(DropReason.CROSS_CHUNK)
            continue
        for key, end, kind, chunk in ends:
            if (key, chunk.id) not in mentioned:
                mentioned.add((key, chunk.id))
                rows.mentions.append(
                    mention_row(key, end.text, kind, chunk, document, text.match(end))
                )
                report.mentions += 1
        keys = (ends[0][0], ends[1][0])
        relations.append(relation_row(relation, keys, text, text, home[0], document.id, cues))
        report.relations += 1


def relation_row(
    relation: StructuralRelation,
    keys: tuple[str, str],
    there: DocumentText,
    here: DocumentText,
    home: Chunk,
    document_id: str,
    cues: CueTable,
) -> dict[str, Any]:
    """The stored row of a grounded relation (keys: its ends' entities): its quote and
    target located in `there` (document `document_id`, chunk `home`), its source in `here`,
    the same text or another file's. Polarity and modality are read from the quote around
    the ends it holds."""
    evidence = relation.evidence
    inside = tuple(
        (e.start - evidence.start, e.end - evidence.start)
        for e, text in ((relation.source, here), (relation.target, there))
        if text is there and evidence.start <= e.start and e.end <= evidence.end
    )
    polarity, modality = assess(evidence.text, inside or ((0, 0),), cues)
    if relation.modality is not None:
        modality = Modality(relation.modality)
    elif modality is Modality.ACTUAL and planned(there.headings.before(evidence.start), cues):
        modality = Modality.PLANNED  # a table or a diagram under "## Roadmap"
    if relation.polarity is not None:
        polarity = Polarity(relation.polarity)
    start, stop = there.byte_span(evidence)
    (a_start, a_end), (b_start, b_end) = (
        here.byte_span(relation.source),
        there.byte_span(relation.target),
    )
    return {
        "a": keys[0], "b": keys[1], "type": relation.type,
        "polarity": polarity.value, "modality": modality.value,
        "quote": evidence.text, "chunk_id": home.id, "document_id": document_id,
        "start_byte": start, "end_byte": stop,
        "a_start_byte": a_start, "a_end_byte": a_end,
        "b_start_byte": b_start, "b_end_byte": b_end,
    }  # fmt: skip
