"""Relations stated by Markdown tables: the first cell names a row's subject; a column
headed by a relation relates it to each name in that column's cell, and a cell that reads
as a predicate to the name after its verb (docs/extraction.md). The quote is the row."""

from __future__ import annotations

import re

from ..text.sentences import sentence_spans
from ..values.proposals import RelationProposal
from .coordination import MARKDOWN_LINK
from .objects import objects_after
from .prose_names import COMPONENT_WORDS, SAME_THING, Names
from .prose_relations import _add
from .sentence_names import names_in
from .subjects import PRONOUN_LEADS
from .verbs import DEFAULT_VERBS, Stated, VerbTable


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return inner.split("|")


def _plain(cell: str) -> str:
    return " ".join(MARKDOWN_LINK.sub(r"\1", cell).strip(" *_`").split())


# A first column under one of these headers holds no components, so its rows state no
# relations: "| Language | Persistence |" says Go is written against MySQL, not that Go uses it;
# "| Value | Description |" lists a setting's values ("| `grpc` | Exports via OTLP to ... |");
# "| Dates | Action Items |" a timeline's.
_NO_COMPONENTS_COLUMN = frozenset(
    "language languages runtime framework frameworks platform platforms version versions os "
    "technology technologies tech stack tool tools library libraries package packages license "
    "licence setting settings variable variables option options parameter parameters flag "
    "flags field fields property properties key keys metric metrics environment environments "
    "env var vars stage stages profile profiles overlay overlays tier tiers phase phases step "
    "steps value values scenario scenarios case cases mode modes choice choices date dates "
    "time times when day days week weeks month months year years quarter quarters milestone "
    "milestones deadline deadlines timeline period periods".split()
)


def table_relations(
    text: str, known: Names, verbs: VerbTable = DEFAULT_VERBS
) -> list[RelationProposal]:
    found: list[RelationProposal] = []
    if "|" not in text:
        return found
    lines = text.split("\n")
    index = 0
    while index + 1 < len(lines):
        header, rule = lines[index], lines[index + 1]
        if not (header.lstrip().startswith("|") and re.fullmatch(r"\s*\|?[\s:|-]+\|?\s*", rule)):
            index += 1
            continue
        columns = [verbs.header_relation(_plain(c)) for c in _cells(header)]
        rows = []
        index += 2
        while index < len(lines) and lines[index].lstrip().startswith("|"):
            rows.append(lines[index])
            index += 1
        first = _plain(_cells(header)[0]).lower()
        if first in _NO_COMPONENTS_COLUMN or first.rpartition(" ")[2] in _NO_COMPONENTS_COLUMN:
            # "| Language | Persistence |", "| Environment variable | Use |": a row's first
            # cell is no component
            continue
        subjects = [_plain(_cells(r)[0]) for r in rows]
        table_known = known.extended(s for s in subjects if 0 < len(s) <= 60)
        for row in rows:
            _row_relations(row, columns, table_known, found, verbs)
    return found


_A_ROW_NUMBER = re.compile(r"#?\d+[.)]?")
# Words that may stand for a row's subject before the verb of one of its cells.
_FOR_THE_ROW = frozenset({"it", "this", "the", "which", "that", "and", "also"})


def _said_of_the_row(before: str, subject: str) -> bool:
    """Whether the words `before` a cell's verb leave the row's subject its subject."""
    words = before.split()
    if len(words) > 2:
        return False
    own = {w.lower() for w in subject.split()}
    return all(
        w.lower().strip("`*") in own
        or w.lower() in _FOR_THE_ROW
        or w.lower() in PRONOUN_LEADS
        or w.lower().endswith("ly")  # "Continuously sends"
        or w.lower() in COMPONENT_WORDS
        or w.lower() in SAME_THING
        for w in words
    )


def _row_relations(
    row: str,
    columns: list[Stated | None],
    known: Names,
    found: list[RelationProposal],
    verbs: VerbTable,
) -> None:
    cells = _cells(row)
    subject = _plain(cells[0])
    if not subject or len(subject) > 60 or subject not in row or _A_ROW_NUMBER.fullmatch(subject):
        return  # (a row's number, "| 5 | ... |", is no component)
    if verbs.stated_relation(f" {subject} ") is not None:
        return  # a statement ("| Producer service publishes to Kafka |"), no component
    quote = row.strip()
    for cell, stated in zip(cells[1:], columns[1:], strict=False):
        names = names_in(cell, known)
        if stated is not None:
            for name in names:
                _add(found, quote, subject, name.text, stated.type)
            continue
        for start, end in sentence_spans(cell):
            sentence = cell[start:end]
            predicate = verbs.stated_relation(sentence)
            # A predicate without its subject: the verb among the sentence's first words,
            # after none but the row's own words, a word for it, adverbs or auxiliaries
            # ("GCP requires a GSA" in a row on identity says what GCP requires).
            if predicate is None or not _said_of_the_row(sentence[: predicate.start], subject):
                continue
            in_sentence = names_in(sentence, known)
            for target in objects_after(sentence, in_sentence, predicate.end):
                if predicate.passive:
                    _add(found, quote, target.text, subject, predicate.type)
                else:
                    _add(found, quote, subject, target.text, predicate.type)
