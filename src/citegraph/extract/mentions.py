"""Locating proposed names in their chunk, and building the rows the graph stores."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from functools import lru_cache

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


def entity_key(name: str, kind: str, norm: str | None = None) -> str:
    """Same name, different type: different entities, never merged silently (`norm`: the
    name normalised, where the caller has it)."""
    return f"{kind}:{normalise_name(name) if norm is None else norm}"


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
    key: str,
    name: str,
    kind: str,
    chunk: Chunk,
    document: Document,
    match: QuoteMatch,
    norm: str | None = None,
) -> dict[str, object]:
    """The stored row of a name located at `match` in `chunk` (document offsets); `norm`:
    the name normalised, where the caller has it."""
    return {
        "key": key, "name": name, "type": kind,
        "norm": normalise_name(name) if norm is None else norm,
        "chunk_id": chunk.id, "document_id": document.id,
        "start_byte": chunk.start_byte + match.start_byte,
        "end_byte": chunk.start_byte + match.end_byte,
        "count": match.count, "sentence": None,
    }  # fmt: skip


@dataclass
class MentionRows:
    """What extraction of some chunks stores: mentions (each with the sentence that links it
    to the other names of that sentence, where the offline layer found it)."""

    mentions: list[dict[str, object]] = field(default_factory=list)


def add_chunk_rows(
    extractor: Extractor, document: Document, chunk: Chunk, title: str | None, rows: MentionRows
) -> dict[str, str]:
    """Add what extraction finds in one chunk to `rows`; the names located, with their type."""
    folded = FoldedText(chunk.text)
    located: list[tuple[str, QuoteMatch, dict[str, object]]] = []
    names: dict[str, str] = {}
    for candidate in extractor.candidates(chunk.text, title):
        match = _read_at(candidate, folded) or locate_name(candidate.name, folded)
        if match is None:
            continue  # not in the chunk as written: never stored as if it were
        norm = normalise_name(candidate.name)
        key = entity_key(candidate.name, candidate.type, norm)
        names.setdefault(candidate.name, candidate.type)
        row = mention_row(key, candidate.name, candidate.type, chunk, document, match, norm)
        located.append((key, match, row))
        rows.mentions.append(row)
    if len(located) > 1:
        _link_by_sentence(chunk, folded, located)
    return names


@lru_cache(maxsize=8192)  # names repeat: settings links meet each service many times
def shape_type(name: str) -> str:
    """The offline type of a name met outside running text (a table cell, a manifest): what
    the offline extractor calls it when it finds it whole, else by its shape, so that one
    name gets one identity wherever the offline layer meets it."""
    from .offline import OfflineExtractor

    for candidate in OfflineExtractor().candidates(f"see {name} here"):
        if candidate.name == name:
            return candidate.type
    return "identifier" if len(name.split()) == 1 else "name"


def _link_by_sentence(
    chunk: Chunk, folded: FoldedText, located: list[tuple[str, QuoteMatch, dict[str, object]]]
) -> None:
    """Entities named in one sentence are co-mentioned: a weak link whose quote is that
    sentence. No link is stored: each mention keeps its sentence (`sentence`: document bytes,
    then the chunk's characters, start and length), and readers pair the mentions of one
    sentence (store/queries/co_mentions.py). Only the first occurrence of a name in a chunk is
    located, so a mention's sentence is the one holding it; a sentence naming more than
    MAX_ENTITIES_PER_SENTENCE entities links only its first ones, by key."""
    spans = sentence_spans(chunk.text)
    if len(spans) == 0:
        return
    starts = [start for start, _ in spans]
    by_sentence: dict[int, list[tuple[str, dict[str, object]]]] = {}
    for key, match, row in located:
        index = bisect.bisect_right(starts, match.start_char) - 1
        if index >= 0 and match.end_char <= spans[index][1]:
            by_sentence.setdefault(index, []).append((key, row))
    for index, members in by_sentence.items():
        keys = sorted({key for key, _ in members})
        if len(keys) < 2:
            continue
        linked = set(keys[:MAX_ENTITIES_PER_SENTENCE])
        start, end = spans[index]
        sentence = [
            chunk.start_byte + folded.byte_offset(start),
            chunk.start_byte + folded.byte_offset(end),
            start,
            end - start,
        ]
        for key, row in members:
            if key in linked:
                row["sentence"] = sentence
                linked.discard(key)  # one mention a key: one link a pair
