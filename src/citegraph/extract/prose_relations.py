"""Offline relations from engineering prose and Markdown tables.

Sentences: "X calls / depends on / reads from / writes to / sends … to Y" (the verb table in
verbs.py), between names located in the sentence: what the offline extractor found in the
chunk, plus lowercase component phrases ("the cart service", "the orders queue"). A list
after the verb ("calls A, B and C") gives one relation per item, and so do a list of subjects
("X and Y call Z") and two verbs before one object ("reads from and writes to Z"); a subject
set off by an aside ("X, written in Go, calls Y") is still X. A sentence whose subject is
"It" (or "This service") is said of the name that opens the sentence before it, in the same
paragraph or the heading above (a clause after a semicolon, of the sentence's own subject):
"The cart service keeps carts in Redis. It calls the payment service." is quoted whole, so
the quote names both ends.

Table rows: the first cell names the row's subject. A column whose header states a relation
("Calls", "Depends on", "Talks to") relates the subject to each name in that cell; a cell that
reads as a predicate without a subject ("Sends requests to the frontend") relates the subject
to the name after its verb, where that name is one the table's first column or the chunk
names. The quote is the sentence or the row, which grounding then locates like any other.
"""

from __future__ import annotations

import bisect
import itertools
import re

from ..text.fences import Spans, code_blocks
from ..text.sentences import is_heading, sentence_spans
from ..values.proposals import RelationProposal
from .agreement import agrees
from .coordination import MARKDOWN_LINK, OPENING, listed_with
from .grounding import MAX_EVIDENCE_BYTES
from .mentions import normalise_name
from .objects import LIST_JOINER, named_objects, objects_after, past_the_objects
from .prose_names import (
    COMPONENT_WORDS,
    SAME_THING,
    Name,
    Names,
)
from .sentence_names import names_in
from .subjects import PRONOUN_LEADS, subject_of
from .verbs import DEFAULT_VERBS, Stated, VerbTable

_FIRST_WORD = re.compile(r"[\w'’-]+")
# What opens a clause whose subject may be a pronoun: a semicolon, or a conjunction (group 1).
_CLAUSE_OPENER = re.compile(r";\s+|,?\s+(because|since|so|and|but)\s+", re.I)
# A pronoun subject opening a sentence (or a clause after a semicolon: "; it calls").
_PRONOUN = re.compile(r"(?:[-*+]\s+)?(It|This service|The service|This component)(?![\w-])", re.I)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r\f\v]*\n")  # as chunking reads one (CRLF too)


_PATH_STARTS = ("/", "./", "../", "~/")


def _add(
    found: list[RelationProposal],
    quote: str,
    a: str,
    b: str,
    kind: str,
    at: tuple[int, int] | None = None,
) -> None:
    """Propose a relation (`at`: where in `quote` its ends were read, when known). A path
    names a file or a folder, not a component ("reads the sizes below `/mnt`"); a licence
    is none either."""
    if a.startswith(_PATH_STARTS) or b.startswith(_PATH_STARTS):
        return
    if _LICENCE.search(a) or _LICENCE.search(b):
        return  # "does not use the GPL": a licence is no component
    if not _part_of(normalise_name(a), normalise_name(b)):
        a_at, b_at = at if at is not None else (None, None)
        found.append(RelationProposal(a, b, kind, quote, source_at=a_at, target_at=b_at))


# A licence's name: "MIT License", "Apache Licence", "the GPL", "LGPLv3", "MPL-2.0".
_LICENCE = re.compile(
    r"(?i:\blicen[cs]e\b)|^(?:A|L)?GPL(?:-?v?[0-9.]+)?$|^(?:MPL|EPL|CDDL)(?:-?[0-9.]+)?$"
)


def _part_of(a: str, b: str) -> bool:
    """Whether one name is the other or its last words ("HTTP Load Generator" and "load
    generator"): a thing and the head of its own name state no dependency."""
    shorter, longer = sorted((a, b), key=len)
    return f" {longer}".endswith(f" {shorter}")  # "Kafka Connect reads from Kafka" stands


def _stated(
    sentence: str, names: list[Name], verbs: VerbTable, written: str | None = None
) -> list[tuple[Name, Name, str]]:
    """(source, target, type) of each relation `sentence` states between `names`. A name
    listed after a verb that is the subject of a later verb opens a clause of its own ("X
    calls A and B writes to C": X does not call B). `written`: the sentence as written, when
    `sentence` reads its links as their text: a verb's word closing a link's text is a
    title's noun ("[Function calls][expr] - Transform values")."""
    written = sentence if written is None else written
    clauses: list[tuple[Name, list[Name], Stated]] = []
    for index, (left, right) in enumerate(itertools.pairwise(names)):
        stated = verbs.stated_relation(sentence[left.end : right.start])
        if stated is None:
            stated = _around_a_name(sentence, names, index, verbs)
            if stated is None:
                continue
        else:
            stated = _a_later_predicate(sentence[left.end : right.start], stated, verbs)
        verb_start, verb_end = left.end + stated.start, left.end + stated.end
        word = _FIRST_WORD.match(sentence, verb_start)
        if word is not None and written[word.end() : word.end() + 1] == "]":
            continue  # the last word of a link's text: a title, no verb
        subject = subject_of(sentence, names, verb_start)
        if subject is None or not agrees(sentence, names, subject, verb_start):
            continue
        objects = objects_after(sentence, names, verb_end)
        further = past_the_objects(sentence, names, verb_start, stated, objects, verbs)
        if further is not None:
            objects, stated = further
        said = [(objects, stated)]
        if not objects:  # "reads from and writes to X": both verbs take X
            second = _and_another_verb(sentence, names, verb_end, verbs)
            if second is not None:
                objects = objects_after(sentence, names, verb_end + second.end)
                said = [(objects, stated), (objects, second)]
        said = [(named_objects(sentence, targets), verb) for targets, verb in said]
        for one in (*listed_with(sentence, names, subject, verb_start), subject):
            clauses += [(one, targets, verb) for targets, verb in said]
    subjects = {subject for subject, _, _ in clauses}
    found: list[tuple[Name, Name, str]] = []
    for subject, targets, stated in clauses:
        for target in targets[:1] + [t for t in targets[1:] if t not in subjects]:
            pair = (target, subject) if stated.passive else (subject, target)
            found.append((*pair, stated.type))
    return found


# "and" or "but" joining two predicates, an adverb of sequence after it ("and then calls").
_NEXT_PREDICATE = re.compile(r"\s*,?\s+(?:and|but)\s+(?:(?:then|also|later|finally)\s+)?")
# An infinitive of purpose after a verb's object ("uses a client in order to read from").
_PURPOSE = re.compile(r"\s+(?:in\s+order\s+)?to\s+(?=[a-z])")


def _a_later_predicate(gap: str, stated: Stated, verbs: VerbTable) -> Stated:
    """The verb phrase of the predicate right before the next name, when the one `stated`
    found first in the `gap` between two names took an object of its own that names nothing
    ("uses local caches and calls the ledger": the ledger is called, not used; "uses map
    types to pass configurations to Ceph"); else `stated`."""
    joined = _NEXT_PREDICATE.search(gap, stated.end)
    if joined is None and stated.type == "uses":
        # "uses map types to pass configurations to Ceph": what is used serves the user's
        # purpose, and the user does it (where "configures a proxy to send" the proxy would)
        joined = _PURPOSE.search(gap, stated.end)
    if joined is None:
        return stated
    own_object = gap[stated.end : joined.start()]
    if not re.search(r"\w", own_object) or re.search(r"[;:.!?()\[\]]", own_object):
        return stated  # "reads from and writes to X": both take X (_and_another_verb)
    later = verbs.stated_relation(gap[joined.end() :])
    if later is None or later.start != 0:
        return stated
    return Stated(later.type, later.passive, joined.end(), joined.end() + later.end)


def _and_another_verb(
    sentence: str, names: list[Name], verb_end: int, verbs: VerbTable
) -> Stated | None:
    """A second verb phrase right after "and", before the verb's object ("reads from and
    writes to PostgreSQL"), placed from `verb_end`; None if there is none."""
    following = [n for n in names if n.start >= verb_end]
    if not following:
        return None
    gap = sentence[verb_end : following[0].start]
    joined = re.match(r"\s+and\s+", gap)
    if joined is None:
        return None
    second = verbs.stated_relation(gap[joined.end() :])
    if second is None or second.start != 0:
        return None
    return Stated(second.type, second.passive, joined.end(), joined.end() + second.end)


def _around_a_name(sentence: str, names: list[Name], index: int, verbs: VerbTable) -> Stated | None:
    """A phrase with a gap that holds the next name ("publishes an OrderCreated event to
    Kafka": the event is what is sent, Kafka where), read from `names[index]` over
    `names[index + 1]` to the name after it; None when the words before or after that name
    state something of their own."""
    if index + 2 >= len(names):
        return None
    left, middle, right = names[index], names[index + 1], names[index + 2]
    if verbs.stated_relation(sentence[middle.end : right.start]) is not None:
        return None
    stated = verbs.stated_relation(sentence[left.end : right.start])
    if stated is None or left.end + stated.start >= middle.start:
        return None  # the phrase starts after the name: not a gap around it
    return stated if left.end + stated.end <= right.start else None


def _antecedent(text: str, before: tuple[int, int], start: int, known: Names) -> Name | None:
    """The name a pronoun opening the sentence at `start` refers to: the one that opens the
    sentence `before` it, when that one is a heading or in the same paragraph, and names one
    thing (not "X and Y", not "X's cache")."""
    gap = text[before[1] : start]
    previous = text[before[0] : before[1]]
    heading = is_heading(text, before[0])
    if _PARAGRAPH_BREAK.search(gap) and not heading:
        return None
    names = names_in(previous, known)
    if not names or not OPENING.fullmatch(previous[: names[0].start]):
        return None
    first, after = names[0], previous[names[0].end :]
    if after.startswith(("'s", "’s")):
        return None
    if len(names) > 1 and LIST_JOINER.fullmatch(previous[first.end : names[1].start]):
        return None
    if heading and not _a_thing_named(text, first.text, before):
        return None  # "## Architecture" above "The service uses...": a section, no service
    return Name(first.text, before[0] + first.start, before[0] + first.end)


def _a_thing_named(text: str, name: str, heading: tuple[int, int]) -> bool:
    """Whether a heading's name is a component's: it says so ("Cart Service",
    "inventory-service"), is written as no title is (`cartservice`, `OTLP`, `MongoDB`), or
    the text names it outside the heading too. A section's title ("Architecture", "Usage")
    is no antecedent for "The service"."""
    last = re.split(r"[\s_-]+", name.lower())[-1]
    if last in COMPONENT_WORDS or last in SAME_THING:
        return True
    if not re.fullmatch(r"[A-Z][a-z]+(?: [A-Za-z][a-z]*)*", name):
        return True
    elsewhere = re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", re.I)
    return any(not heading[0] <= m.start() < heading[1] for m in elsewhere.finditer(text))


def _pronoun_relations(
    text: str,
    span: tuple[int, int],
    before: tuple[int, int],
    known: Names,
    in_sentence: list[Name],
    verbs: VerbTable,
) -> list[RelationProposal]:
    """Relations of a sentence whose subject is a pronoun, said of its antecedent and quoted
    from the sentence before through this one (`in_sentence`: the names the sentence holds)."""
    start, end = span
    sentence = text[start:end]
    opening = _PRONOUN.match(sentence)
    if opening is None:
        return []
    quote = text[before[0] : end]
    if len(quote.encode()) > MAX_EVIDENCE_BYTES:  # grounding keeps no longer quote
        return []
    referent = _antecedent(text, before, start, known)
    if referent is None:
        return []
    pronoun = Name(opening.group(1), opening.start(1), opening.end(1))
    names = [pronoun, *(n for n in in_sentence if n.start >= pronoun.end)]
    if len(names) < 2:
        return []
    verb = verbs.stated_relation(sentence[pronoun.end : names[1].start])
    lead = sentence[pronoun.end : pronoun.end + verb.start].lower().split() if verb else []
    if verb is None or not all(w.strip(",") in PRONOUN_LEADS or w.endswith("ly") for w in lead):
        return []  # no verb right after it: the pronoun opens a longer subject
    found: list[RelationProposal] = []
    for a, b, kind in _stated(sentence, names, verbs):
        if pronoun in (a, b):
            source = referent.text if a is pronoun else a.named
            target = referent.text if b is pronoun else b.named
            _add(found, quote, source, target, kind)
    return found


def _outside_code(text: str, spans: Spans, blocks: Spans) -> Spans:
    """`spans` (sentences) with the parts in code `blocks` cut out, each piece trimmed of
    whitespace: a sentence run on into a block ends where the block starts."""
    if not blocks:
        return spans
    pieces: Spans = []
    for start, end in spans:
        for block_start, block_end in blocks:
            if block_start >= end or block_end <= start:
                continue
            if block_start > start:
                pieces.append((start, block_start))
            start = max(start, block_end)
        if start < end:
            pieces.append((start, end))
    trimmed = [(a + len(text[a:b]) - len(text[a:b].lstrip()), a + len(text[a:b].rstrip()))
               for a, b in pieces]  # fmt: skip
    return [(a, b) for a, b in trimmed if a < b]


def sentence_relations(
    text: str,
    known: Names,
    checked: bool = False,
    verbs: VerbTable = DEFAULT_VERBS,
    code: Spans | None = None,
    markdown: bool = True,
) -> list[RelationProposal]:
    """Relations stated in the sentences of `text` (`checked`: the caller found that
    `verbs.any_verb(text)`), by the phrases of `verbs`; fenced code is no prose (`code`: the
    text's code blocks, as `code_blocks` gives them for a chunk; None: those the text alone
    shows). In text that is no Markdown (`markdown` false: configuration, whose `#` opens a
    comment), no line is a heading."""
    found: list[RelationProposal] = []
    if not checked and not verbs.any_verb(text):
        return found
    # A sentence starts and ends beside a space or a mark, so a key word is in it exactly
    # when one of the text's key words starts inside it.
    places = verbs.verb_places(text)
    before: tuple[int, int] | None = None
    blocks = code_blocks(text)[0] if code is None else code
    unwrapped = _WRAP.sub(" ", text) if markdown and "\n" in text else text  # (same offsets)
    for start, end in _outside_code(text, sentence_spans(text), blocks):
        sentence = text[start:end]
        if places is None:
            has_verb = verbs.any_verb(sentence)
        else:
            index = bisect.bisect_left(places, start)
            has_verb = index < len(places) and places[index] < end
        previous, before = before, (start, end)
        if sentence.lstrip().startswith("|") or not has_verb:
            continue  # a table (read row by row below), or no verb of the table
        if markdown and is_heading(text, start):
            continue  # a title, not a statement ("## Programmatic use through the API")
        # A link reads as its text: its brackets and target are blanked, offsets kept, so
        # that "The [querier](../querier/) reads from X" has the querier for its subject.
        read = _as_read(unwrapped[start:end])
        names = names_in(read, known)
        if previous is not None:
            found += _pronoun_relations(text, (start, end), previous, known, names, verbs)
        for opener in _CLAUSE_OPENER.finditer(sentence):
            # "X no longer calls Y; it calls Z", "X is stateless because it proxies queries
            # to Y": the clause's pronoun is the sentence's subject (after a conjunction, only
            # when the subject is the one name before it)
            if _PRONOUN.match(sentence, opener.end()) is None:
                continue
            clause = (start + opener.end(), end)
            first = (start, start + opener.start())
            if opener.group(1) and len(names_in(text[first[0] : first[1]], known)) != 1:
                continue
            in_clause = names_in(text[clause[0] : end], known)
            found += _pronoun_relations(text, clause, first, known, in_clause, verbs)
        if len(names) < 2:
            continue
        for a, b, kind in _stated(read, names, verbs, sentence) + _object_relative(
            read, names, verbs
        ):
            _add(found, sentence, a.named, b.named, kind, (a.start, b.start))
    return found


# A relative clause whose pronoun is its verb's object ("the `Parameters` that the `Pipeline`
# requires", "the cache which the Frontend uses"): a name, "that" or "which", a name, then
# the verb (after an auxiliary or an adverb), with nothing named after it in its clause.
_OBJECT_RELATIVE = re.compile(r"[`*_]*\s+(?:that|which)\s+(?:the\s+)?[`*_]*")
_BEFORE_ITS_VERB = re.compile(
    r"[`*_]*\s+(?:(?:can|may|might|will|must|should|would|could|does|do|also|then|always|"
    r"often|usually|still|currently)\s+)*"
)


def _object_relative(
    sentence: str, names: list[Name], verbs: VerbTable
) -> list[tuple[Name, Name, str]]:
    """(source, target, type) of the relations stated by object relative clauses."""
    found: list[tuple[Name, Name, str]] = []
    for index, (thing, doer) in enumerate(itertools.pairwise(names)):
        if not _OBJECT_RELATIVE.fullmatch(sentence, thing.end, doer.start):
            continue
        lead = _BEFORE_ITS_VERB.match(sentence, doer.end)
        clause_end = _CLAUSE_END.search(sentence, doer.end)
        end = clause_end.start() if clause_end else len(sentence)
        if index + 2 < len(names) and names[index + 2].start < end:
            continue  # "the data that X writes to Y": what X writes it to is named
        start = lead.end() if lead else doer.end
        stated = verbs.stated_relation(sentence[start:end])
        if stated is None or stated.start != 0 or stated.passive:
            continue
        if re.search(r"\w", sentence[start + stated.end : end]):
            continue  # "to confirm that Velero is using the correct credentials": its own object
        found.append((doer, thing, stated.type))
    return found


_CLAUSE_END = re.compile(r"[,;:.!?()]|\s(?:and|but|or|to|for|with|in|on|from|by)\s")


def _as_read(sentence: str) -> str:
    """`sentence` with each Markdown link's brackets and target (or reference) as spaces."""
    if "](" not in sentence and "][" not in sentence:
        return sentence
    return MARKDOWN_LINK.sub(
        lambda m: " " + m.group(1) + " " * (len(m.group()) - len(m.group(1)) - 1), sentence
    )


# A line break inside a paragraph wrapped by hand ("a `TaskRun`\nmight use a
# `PersistentVolumeClaim`"): after a line of prose long enough to have been wrapped, before
# a word going on (not a list's item, a table's row, a quote, a label's line), it is a space,
# as Markdown renders it. A short line is one of its own ("Redis\nKafka"), and its break a
# clause's end.
_WRAP = re.compile(r"(?<=[^\n]{30}[\w`),*_])\n(?=[ \t]*[\w`(\[\"“*_])(?![ \t]*[-*+] )")
