"""The offline extractor: names found by their shape, with no model, deterministically.

It proposes:
- `name`: runs of capitalised words ("Northwind Retail", "Bank of England"), without a leading
  article, and not a lone stopword that merely starts a sentence ("The", "When");
- `acronym`: words of two or more capitals, digits allowed ("NASA", "HTTP2");
- `identifier`: code-like words: with `_` or a dot between letters, camelCase, a backticked
  span, or a lowercase word (hyphens allowed) ending in a software suffix ("origin-mapper",
  "checkoutservice", "payment-gateway");
- `title`: the title given with the document, wherever it appears.

Proposals are only proposals: the pipeline locates each one in its chunk with the quote matcher
before anything is stored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from ..text.words import STOPWORDS


@dataclass(frozen=True)
class Candidate:
    name: str
    type: str


class Extractor(Protocol):
    """Proposes entity names in a chunk's text."""

    def candidates(self, text: str, title: str | None = None) -> list[Candidate]: ...


_WORD = re.compile(r"[^\W_][\w'’.-]*[^\W_]|[^\W_]")
_BACKTICKED = re.compile(r"`([^`\n]{2,60})`")
_CONNECTORS = frozenset({"of", "de", "von", "van", "der", "la", "le", "du", "del", "da", "y"})
_SOFTWARE_SUFFIXES = (
    "service", "mapper", "api", "db", "svc", "server", "worker", "proxy", "gateway", "client",
    "cache", "queue", "indexer", "scheduler", "controller", "manager", "store", "daemon",
)  # fmt: skip
_MAX_NAME_WORDS = 6


_CAMEL = re.compile(r"[a-z]+[A-Z]\w*")
_DOTTED = re.compile(r"[a-z]{2,}\.[a-z]{2,}")


def _kind(word: str) -> str | None:
    # Cheap str tests first: this runs for every word of every chunk.
    bare = word.rstrip(".'’")
    first = bare[:1]
    if first.isupper():
        if len(bare) >= 2 and bare.isupper() and len(bare) <= 10:
            return "acronym"
        return "identifier" if "_" in bare else "capitalised"
    if "_" in bare:
        return "identifier"
    if bare.islower():
        if "." in bare and _DOTTED.search(bare):
            return "identifier"
        if len(bare) > 4 and bare.endswith(_SOFTWARE_SUFFIXES):
            return "identifier"
        return None
    if _CAMEL.fullmatch(bare):
        return "identifier"
    return None


def _opens_sentence(text: str, match: re.Match[str]) -> bool:
    before = text[max(0, match.start() - 8) : match.start()].rstrip(" \t\n\r\"'“‘(")
    return not before or before[-1] in ".!?…:"


class OfflineExtractor:
    """Names by their shape (see the module docstring). Deterministic and model-free."""

    def candidates(self, text: str, title: str | None = None) -> list[Candidate]:
        found: dict[tuple[str, str], Candidate] = {}

        def add(name: str, kind: str) -> None:
            name = name.strip(" .'’-")
            if len(name) >= 2:
                found.setdefault((name, kind), Candidate(name, kind))

        run: list[str] = []
        run_starts_sentence = False
        previous_end = -1
        words = list(_WORD.finditer(text))
        # A lone capitalised word that only ever opens sentences is ordinary ("Use", "Oh").
        mid_sentence = {
            m.group() for m in words if m.group()[:1].isupper() and not _opens_sentence(text, m)
        }

        def flush() -> None:
            if len(run) == 1 and run_starts_sentence and run[0] not in mid_sentence:
                return
            self._flush(run, add)

        for match in words:
            word = match.group()
            kind = _kind(word)
            joined = previous_end >= 0 and text[previous_end : match.start()] == " "
            if kind == "capitalised" or (kind is None and run and joined and word in _CONNECTORS):
                if run and not joined:
                    flush()
                    run = []
                if not run:
                    run_starts_sentence = _opens_sentence(text, match)
                run.append(word)
            else:
                flush()
                run = []
                if kind is not None:
                    add(word, kind)
            previous_end = match.end()
        flush()
        for match in _BACKTICKED.finditer(text):
            add(match.group(1), "identifier")
        if title and title.strip():
            add(title.strip(), "title")
        return list(found.values())

    @staticmethod
    def _flush(run: list[str], add: object) -> None:
        while run and run[-1] in _CONNECTORS:
            run.pop()
        while run and run[0].lower() in STOPWORDS:
            run.pop(0)
        if not run:
            return
        if len(run) > _MAX_NAME_WORDS:
            return
        assert callable(add)
        add(" ".join(run), "name")
