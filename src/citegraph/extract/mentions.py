"""Locating proposed names in their chunk, and building the rows the graph stores."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from ..text.fold import FoldedText
from ..text.quotes import QuoteMatch, locate_in
from ..text.sentences import sentence_spans
from ..values.documents import Chunk, Document
from .offline import Candidate, Extractor

# A sentence naming more entities than this links only its first ones (bounded fan-out).
MAX_ENTITIES_PER_SENTENCE = 6


def normalise_name(name: str) -> str:
    """How names are compared: case and runs of whitespace set aside."""
    return " ".join(name.casefold().split())


def entity_key(name: str, kind: str) -> str:
    """Same name, different type: different entities, never merged silently."""
    return f"{kind}:{normalise_name(name)}"


def locate_name(name: str, folded: FoldedText) -> QuoteMatch | None:
    """Locate a name with the quote matcher; failing that, ignoring case (a name written in
    lower case in running text is still the name), when lowering keeps every offset."""
    match = locate_in(name, folded)
    if isinstance(match, QuoteMatch):
        return match
    lowered = folded.text.lower()
    if len(lowered) != len(folded.text):
        return None
    caseless = locate_in(name.lower(), FoldedText(lowered))
    if not isinstance(caseless, QuoteMatch):
        return None
    text = folded.text[caseless.start_char : caseless.end_char]
    return QuoteMatch(
        start_byte=folded.byte_offset(caseless.start_char),
        end_byte=folded.byte_offset(caseless.end_char),
        start_char=caseless.start_char,
        end_char=caseless.end_char,
        text=text,
        count=caseless.count,
    )


def _read_at(candidate: Candidate, folded: FoldedText) -> QuoteMatch | None:
    """The candidate where its extractor read it, if the text holds exactly its name there
    (a check of the stored characters, stricter than the matcher's); else None."""
    start, end = candidate.start, candidate.start + len(candidate.name)
    if start < 0 or folded.text[start:end] != candidate.name:
        return None
    start_byte = folded.byte_offset(start)
    return QuoteMatch(
        start_byte=start_byte,
        end_byte=start_byte + len(candidate.name.encode()),
        start_char=start,
        end_char=end,
        text=candidate.name,
        count=candidate.count,
    )


def mention_row(
    key: str, name: str, kind: str, chunk: Chunk, document: Document, match: QuoteMatch
) -> dict[str, object]:
    """The stored row of a name located at `match` in `chunk` (document offsets)."""
    return {
        "key": key, "name": name, "type": kind, "norm": normalise_name(name),
        "chunk_id": chunk.id, "document_id": document.id,
        "start_byte": chunk.start_byte + match.start_byte,
        "end_byte": chunk.start_byte + match.end_byte,
        "count": match.count,
    }  # fmt: skip


@dataclass
class MentionRows:
    """What extraction of some chunks stores: mentions, and co-mention links."""

    mentions: list[dict[str, object]] = field(default_factory=list)
    links: list[dict[str, object]] = field(default_factory=list)


def add_chunk_rows(
    extractor: Extractor, document: Document, chunk: Chunk, title: str | None, rows: MentionRows
) -> dict[str, str]:
    """Add what extraction finds in one chunk to `rows`; the names located, with their type."""
    folded = FoldedText(chunk.text)
    located: list[tuple[str, QuoteMatch]] = []
    names: dict[str, str] = {}
    for candidate in extractor.candidates(chunk.text, title):
        match = _read_at(candidate, folded) or locate_name(candidate.name, folded)
        if match is None:
            continue  # not in the chunk as written: never stored as if it were
        key = entity_key(candidate.name, candidate.type)
        located.append((key, match))
        names.setdefault(candidate.name, candidate.type)
        rows.mentions.append(
            mention_row(key, candidate.name, candidate.type, chunk, document, match)
        )
    if len(located) > 1:
        _co_mentions(chunk, document, folded, located, rows)
    return names


def shape_type(name: str) -> str:
    """The offline type of a name met outside running text (a table cell, a manifest): what
    the offline extractor calls it when it finds it whole, else by its shape, so that one
    name gets one identity wherever the offline layer meets it."""
    from .offline import OfflineExtractor

    for candidate in OfflineExtractor().candidates(f"see {name} here"):
        if candidate.name == name:
            return candidate.type
    return "identifier" if len(name.split()) == 1 else "name"


def _co_mentions(
    chunk: Chunk,
    document: Document,
    folded: FoldedText,
    located: list[tuple[str, QuoteMatch]],
    rows: MentionRows,
) -> None:
    """Entities named in one sentence get a weak link whose quote is that sentence. Only the
    first occurrence of each name was located, so the link uses the sentence holding it."""
    for start, end in sentence_spans(chunk.text):
        keys = sorted({k for k, m in located if start <= m.start_char and m.end_char <= end})
        for a, b in itertools.combinations(keys[:MAX_ENTITIES_PER_SENTENCE], 2):
            sentence_start = folded.byte_offset(start)
            rows.links.append({
                "a": a, "b": b, "chunk_id": chunk.id, "document_id": document.id,
                "quote": chunk.text[start:end],
                "start_byte": chunk.start_byte + sentence_start,
                "end_byte": chunk.start_byte + folded.byte_offset(end),
            })  # fmt: skip
