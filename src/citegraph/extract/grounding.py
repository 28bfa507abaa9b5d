"""Grounding: every proposed mention and relation is located in its chunk's stored bytes with
the quote matcher before anything is kept. A relation is kept only when its evidence quote is
in this chunk, at most MAX_EVIDENCE_BYTES long, and names both of its ends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..text.fold import FoldedText
from ..text.quotes import QuoteMatch, locate_in
from ..values.documents import Chunk, Document
from ..values.proposals import DropReason, ExtractionReport, Proposal
from .mentions import (
    MentionRows,
    entity_key,
    locate_name,
    mention_row,
    normalise_name,
    shape_type,
)
from .modality import DEFAULT_CUES, CueTable, Modality, assess
from .sections import in_a_planned_section

MAX_EVIDENCE_BYTES = 600
# An end of a relation that no proposed entity names gets this type.
UNTYPED = "entity"


# What tells one stored statement from another: its ends, type, quote's place, polarity and
# modality.
Statement = tuple[str, str, str, int, str, str]


def ground(
    proposal: Proposal,
    document: Document,
    chunk: Chunk,
    siblings: Sequence[str],
    rows: MentionRows,
    relations: list[dict[str, Any]],
    report: ExtractionReport,
    known: Mapping[str, str] | None = None,
    mentioned: set[str] | None = None,
    fallback_type: str | None = None,
    kept: set[Statement] | None = None,
    cues: CueTable = DEFAULT_CUES,
    heading: str | None = None,
) -> None:
    """Add what holds to `rows` (mentions) and `relations`; count what does not in `report`.
    `siblings`: texts near this chunk (the chunk before it, and the two joined), to tell a
    quote from another chunk or across a chunk boundary (cross-chunk) from one that is nowhere
    (not-in-source). `known`: types of names already found in the chunk (the offline layer),
    `mentioned`: entity keys whose mention in this chunk is already stored; `kept`: the
    relations (ends, type, start byte) already kept from this chunk; `cues`: what negation
    and modality are read from; `heading`: the last heading of the document's earlier
    chunks (sections.py)."""
    if _unreadable(proposal, report):
        return
    folded = FoldedText(chunk.text)
    types = {normalise_name(n): t for n, t in (known or {}).items()}
    located: set[str] = mentioned if mentioned is not None else set()
    for entity in proposal.entities:
        match = locate_name(entity.name, folded)
        if match is None:
            report.drop(DropReason.NOT_IN_SOURCE)
            continue
        key = entity_key(entity.name, entity.type)
        types.setdefault(normalise_name(entity.name), entity.type)
        if key not in located:
            located.add(key)
            rows.mentions.append(mention_row(key, entity.name, entity.type, chunk, document, match))
            report.mentions += 1
    # A quote is located where the chunk first says it, so a statement the chunk makes twice
    # ("Cloud Service Mesh (CSM)" in two paragraphs) is one relation, stored once.
    kept = kept if kept is not None else set()
    for relation in proposal.relations:
        evidence = locate_in(relation.quote, folded)
        if not isinstance(evidence, QuoteMatch):
            elsewhere = any(
                isinstance(locate_in(relation.quote, FoldedText(s)), QuoteMatch) for s in siblings
            )
            report.drop(DropReason.CROSS_CHUNK if elsewhere else DropReason.NOT_IN_SOURCE)
            continue
        if evidence.end_byte - evidence.start_byte > MAX_EVIDENCE_BYTES:
            report.drop(DropReason.TOO_LONG)
            continue
        quoted = FoldedText(evidence.text)
        ends = []
        spans: list[tuple[int, int]] = []
        for name, hint in ((relation.source, relation.source_at),
                           (relation.target, relation.target_at)):  # fmt: skip
            inside = _read_at(evidence.text, name, hint) or locate_name(name, quoted)
            if inside is None:
                break
            kind = (
                types.get(normalise_name(name))
                or fallback_type
                or (shape_type(name) if known is not None else UNTYPED)
            )
            key = entity_key(name, kind)
            # The end's mention: where it is named inside the quote, in chunk offsets.
            at = QuoteMatch(
                start_byte=evidence.start_byte + inside.start_byte,
                end_byte=evidence.start_byte + inside.end_byte,
                start_char=evidence.start_char + inside.start_char,
                end_char=evidence.start_char + inside.end_char,
                text=inside.text,
                count=1,
            )
            ends.append((key, name, kind, at))
            spans.append((inside.start_char, inside.end_char))
        if len(ends) < 2:
            report.drop(DropReason.ENDS_NOT_IN_QUOTE)
            continue
        # Negated, hypothetical or planned: stored as such, never as a plain dependency.
        polarity, modality = assess(evidence.text, tuple(spans), cues)
        if modality is Modality.ACTUAL and in_a_planned_section(
            chunk.text, evidence.start_char, cues, heading
        ):
            modality = Modality.PLANNED  # under "## Proposed features": what is to be
        # One statement, one relation; a sentence that says it and its negation holds both.
        same = (ends[0][0], ends[1][0], relation.type, evidence.start_byte, polarity.value,
                modality.value)  # fmt: skip
        if same in kept:
            continue
        kept.add(same)
        for key, name, kind, at in ends:
            if key not in located:
                located.add(key)
                rows.mentions.append(mention_row(key, name, kind, chunk, document, at))
                report.mentions += 1
        relations.append({
            "a": ends[0][0], "b": ends[1][0], "type": relation.type,
            "polarity": polarity.value, "modality": modality.value,
            "quote": evidence.text, "chunk_id": chunk.id, "document_id": document.id,
            "start_byte": chunk.start_byte + evidence.start_byte,
            "end_byte": chunk.start_byte + evidence.end_byte,
            "a_start_byte": chunk.start_byte + ends[0][3].start_byte,
            "a_end_byte": chunk.start_byte + ends[0][3].end_byte,
            "b_start_byte": chunk.start_byte + ends[1][3].start_byte,
            "b_end_byte": chunk.start_byte + ends[1][3].end_byte,
            "description": relation.description,  # the model's words: stored, never cited
        })  # fmt: skip
        report.relations += 1


def _read_at(quote: str, name: str, at: int | None) -> QuoteMatch | None:
    """The name where the extractor read it in the located `quote` (`at`, characters), if
    the quote holds exactly that name there."""
    if at is None or at < 0 or quote[at : at + len(name)] != name:
        return None
    start = len(quote[:at].encode())
    end = start + len(name.encode())
    return QuoteMatch(start, end, at, at + len(name), name, 1)


def _unreadable(proposal: Proposal, report: ExtractionReport) -> bool:
    """Count the replies that were not the JSON asked for (the first call's, and gleaning
    rounds'); True when the first was one, so nothing was proposed."""
    unread = int(proposal.unreadable) + proposal.unreadable_gleanings
    if unread:
        report.drop(DropReason.UNREADABLE_REPLY, unread)
    return proposal.unreadable


def ground_window(
    proposal: Proposal,
    document: Document,
    chunks: Sequence[Chunk],
    before: str | None,
    rows: MentionRows,
    relations: list[dict[str, Any]],
    report: ExtractionReport,
    cues: CueTable = DEFAULT_CUES,
) -> None:
    """Ground a proposal made for several consecutive chunks (one model call): each name is
    located in every chunk that holds it, each relation in the one chunk that holds its
    quote; a quote that only the chunks joined hold crosses a boundary (cross-chunk)."""
    if len(chunks) == 1:
        near = (before, before + chunks[0].text) if before is not None else ()
        ground(proposal, document, chunks[0], near, rows, relations, report, cues=cues)
        return
    if _unreadable(proposal, report):
        return
    folded = [FoldedText(c.text) for c in chunks]
    seen: dict[str, set[str]] = {c.id: set() for c in chunks}
    for entity in proposal.entities:
        key = entity_key(entity.name, entity.type)
        found = False
        for chunk, text in zip(chunks, folded, strict=True):
            match = locate_name(entity.name, text)
            if match is None:
                continue
            found = True
            if key not in seen[chunk.id]:
                seen[chunk.id].add(key)
                rows.mentions.append(
                    mention_row(key, entity.name, entity.type, chunk, document, match)
                )
                report.mentions += 1
        if not found:
            report.drop(DropReason.NOT_IN_SOURCE)
    types = {e.name: e.type for e in proposal.entities}
    kept: dict[str, set[Statement]] = {c.id: set() for c in chunks}
    joined = "".join(c.text for c in chunks)
    for relation in proposal.relations:
        home = next(
            (c for c, t in zip(chunks, folded, strict=True)
             if relation.quote.strip() and isinstance(locate_in(relation.quote, t), QuoteMatch)),
            None,
        )  # fmt: skip
        if home is None:
            wider = [joined] + ([before + chunks[0].text] if before is not None else [])
            elsewhere = relation.quote.strip() and any(
                isinstance(locate_in(relation.quote, FoldedText(w)), QuoteMatch) for w in wider
            )
            report.drop(DropReason.CROSS_CHUNK if elsewhere else DropReason.NOT_IN_SOURCE)
            continue
        single = Proposal(relations=(relation,))
        ground(single, document, home, (), rows, relations, report, types, seen[home.id],
               UNTYPED, kept[home.id], cues)  # fmt: skip
