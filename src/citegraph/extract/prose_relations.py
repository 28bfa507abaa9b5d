"""Offline relations from engineering prose and Markdown tables.

Sentences: "X calls / depends on / reads from / writes to / sends … to Y" (the verb table in
verbs.py), between names located in the sentence: what the offline extractor found in the
chunk, plus lowercase component phrases ("the cart service", "the orders queue"). A list
after the verb ("calls A, B and C") gives one relation per item; a subject set off by an
aside ("X, written in Go, calls Y") is still X. A sentence whose subject is "It" (or "This
service") is said of the name that opens the sentence before it, in the same paragraph or the
heading above: "The cart service keeps carts in Redis. It calls the payment service." is
quoted whole, so the quote names both ends.

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

from ..text.sentences import sentence_spans
from ..values.proposals import RelationProposal
from .mentions import normalise_name
from .prose_names import COMPONENT_WORDS, SAME_THING, Name, Names, ends_in_an_amount, names_in
from .verbs import DEFAULT_VERBS, Stated, VerbTable

_LIST_JOINER = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+)\s*(?:the\s+)?")
_LINK = re.compile(r"\[([^\]\n]{1,80})\]\([^)\n]*\)")
# Between a verb and its object: articles and a few words, no clause break.
_MAX_OBJECT_GAP = 40
_MAX_SUBJECT_GAP = 60
# A pronoun subject opening a sentence, and what may come before the name that opens the
# sentence it refers back to (a bullet, a heading's marks, an article).
_PRONOUN = re.compile(r"(?:[-*+]\s+)?(It|This service|The service|This component)(?![\w-])")
_OPENING = re.compile(r"(?:[-*+]\s+|#+\s+)?(?:(?:the|a|an|our)\s+)?", re.I)
_MAX_QUOTE_BYTES = 600  # grounding keeps no longer quote (grounding.py MAX_EVIDENCE_BYTES)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r\f\v]*\n")  # as chunking reads one (CRLF too)
# Between a pronoun subject and its verb: only these ("It also calls", "It does not call");
# another word makes the pronoun part of a longer subject ("The service mesh sends").
_PRONOUN_LEADS = frozenset({
    "also", "then", "now", "only", "still", "directly", "always", "usually", "often",
    "sometimes", "first", "later", "in", "turn", "is", "are", "was", "were", "does", "do",
    "did", "doesn't", "don't", "didn't", "not", "never", "no", "longer", "may", "might",
    "could", "would", "will", "should", "can", "cannot", "won't", "can't",
})  # fmt: skip


_CLAUSE_WORDS = frozenset({
    "and", "or", "but", "which", "that", "who", "whose", "where", "when", "while", "to",
    "then", "so", "because", "if", "instructions",
})  # fmt: skip


def _objects(text: str, names: list[Name], after: int) -> list[Name]:
    """The name right after position `after` (a verb's end), and those listed with it."""
    following = [n for n in names if n.start >= after]
    if not following:
        return []
    gap = text[after : following[0].start]
    words = re.findall(r"[\w'’-]+", gap.lower())
    if (
        len(gap) > _MAX_OBJECT_GAP
        or re.search(r"[.;:!?,()\n]", gap)
        or _CLAUSE_WORDS.intersection(words)
        or ends_in_an_amount(gap)  # "requires 4 GB of RAM": a resource's amount
    ):
        return []
    listed = [following[0]]
    for name in following[1:]:
        if not _LIST_JOINER.fullmatch(text[listed[-1].end : name.start]):
            break
        listed.append(name)
    return listed


# Between a subject and its verb: a few auxiliaries or adverbs ("does not", "also").
_MAX_SUBJECT_WORDS = 4
# Words that give the verb another agent: a pronoun ("the namespace you use", "the cache we
# read from") or a verb that lets someone else act ("X lets you use Y", "X allows clients to
# call Y").
_OTHER_AGENT = frozenset({
    "you", "we", "they", "i", "he", "she", "it", "lets", "let", "allows", "allow",
    "enables", "enable", "helps", "help", "makes", "make",
})  # fmt: skip


def _leaves_the_subject(words: list[str]) -> bool:
    """Whether `words`, between a name (or an aside after it) and a verb, leave the name the
    verb's subject: a few words, none opening a clause or giving the verb another agent."""
    return (
        len(words) <= _MAX_SUBJECT_WORDS
        and not _CLAUSE_WORDS.intersection(words)
        and not _another_agent(words)
    )


def _another_agent(words: list[str]) -> bool:
    """Whether the verb after `words` (the gap after a name) is done by someone else: the
    last pronoun or letting verb is followed only by auxiliaries and adverbs ("the X you
    call", "X lets you use"; not "the X we deployed calls", where "deployed" is ours)."""
    last = max((i for i, w in enumerate(words) if w in _OTHER_AGENT), default=-1)
    return last >= 0 and all(w in _PRONOUN_LEADS for w in words[last + 1 :])


# An aside between a subject and its verb: in commas, parentheses or dashes, closed just
# before the verb (a few words may follow it: "X, written in Go, also calls Y").
_ASIDE = re.compile(
    r"(?:,(?P<comma>[^,\n]{1,160}),|\((?P<paren>[^()\n]{1,160})\)"
    r"|\s[—–](?P<dash>[^—–\n]{1,160})[—–])(?P<rest>[^,;:!?()\[\]—–\n]{0,40})\Z"
)
_ASIDE_ENDS = re.compile(r"[;!?]|\.\s")  # a sentence's end inside it: no aside


def _after_aside(text: str, names: list[Name], verb_start: int) -> Name | None:
    """The name just before an aside that closes just before the verb, if there is one:
    "The cart service, backed by Redis, writes..." is said of the cart service, not Redis."""
    window_start = max(0, verb_start - 240)
    aside = _ASIDE.search(text, window_start, verb_start)
    if aside is None:
        return None
    inside = aside.group("comma") or aside.group("paren") or aside.group("dash") or ""
    rest = re.findall(r"[\w'’-]+", aside.group("rest").lower())
    if _ASIDE_ENDS.search(inside) or not _leaves_the_subject(rest):
        return None
    before = [n for n in names if n.end <= aside.start()]
    if not before or text[before[-1].end : aside.start()].strip("`* "):
        return None  # the aside does not follow a name
    subject = before[-1]
    # The name opens its sentence or clause ("than the PLO, the charter took a stand,
    # calling for..." is no aside after the PLO).
    opening = max(text.rfind(mark, 0, subject.start) for mark in ",;:(\n")
    lead = text[opening + 1 : subject.start].lstrip().rstrip("`*")
    return subject if _OPENING.fullmatch(lead) else None


def _subject(text: str, names: list[Name], verb_start: int) -> Name | None:
    """The name the verb at `verb_start` is said of: the nearest one before it separated
    only by a few words that open no new clause, or one followed by an aside (in commas,
    parentheses or dashes). A verb after "to" (an infinitive) has no subject here."""
    before = [n for n in names if n.end <= verb_start]
    if re.search(r"(?<![\w-])to\s*$", text[:verb_start], re.I):
        return None
    aside = _after_aside(text, before, verb_start)
    if aside is not None:
        return aside
    for name in reversed(before):
        gap = text[name.end : verb_start]
        if len(gap) > _MAX_SUBJECT_GAP or re.search(r"[.;:!?\n()\[\]—–]", gap):
            return None  # (an aside before the verb was read above)
        if gap.startswith(("'s ", "’s ")):
            return None  # "the frontend's help page calls...": the page does, not the frontend
        words = re.findall(r"[\w'’-]+", gap.lower())
        if words and _modifies_a_noun(words[0]):
            return None  # "The `main` branch uses...": the branch does, not main
        return name if "," not in gap and _leaves_the_subject(words) else None
    return None


_PERSONS = frozenset({"you", "we", "they", "i", "he", "she", "it"})  # "the X we deployed"
# Modal verbs and adverbs _PRONOUN_LEADS does not hold: "the frontend must call".
_MORE_LEADS = frozenset({
    "must", "shall", "just", "again", "even", "already", "both", "all", "each", "alone",
    "itself", "too", "thus", "therefore", "however", "otherwise", "ever", "once", "instead",
    "today", "rather", "meanwhile", "thereby", "himself", "herself", "themselves", "isn't",
    "aren't", "wasn't", "weren't", "hasn't", "haven't", "hadn't", "shouldn't", "mustn't",
    "couldn't", "wouldn't", "needn't",
})  # fmt: skip
# Verbs that lead into a verb phrase ("made use of", "has access to"): the name is the subject.
_LEADING_VERBS = frozenset({
    "made", "makes", "has", "have", "had", "gets", "got", "takes", "took", "keeps",
    "kept", "sets", "set", "goes", "went",
})  # fmt: skip


def _modifies_a_noun(next_word: str) -> bool:
    """Whether a name followed by `next_word` (before the verb) is a modifier in a longer
    noun phrase ("the `main` branch", "the frontend make target", "MCP clients connect"):
    the word after it is neither an auxiliary, an adverb, a pronoun, a verb ("made use
    of", "deployed") nor a word for the component itself ("the cart pod")."""
    return not (
        next_word in _PRONOUN_LEADS
        or next_word in _MORE_LEADS
        or next_word in SAME_THING
        or next_word in COMPONENT_WORDS
        or next_word in _PERSONS
        or next_word in _LEADING_VERBS
        or next_word.endswith(("ly", "ed"))
    )


def _add(found: list[RelationProposal], quote: str, a: str, b: str, kind: str) -> None:
    if not _part_of(normalise_name(a), normalise_name(b)):
        found.append(RelationProposal(source=a, target=b, type=kind, quote=quote))


def _part_of(a: str, b: str) -> bool:
    """Whether one name is the other or its last words ("HTTP Load Generator" and "load
    generator"): a thing and the head of its own name state no dependency."""
    shorter, longer = sorted((a, b), key=len)
    return f" {longer}".endswith(f" {shorter}")  # "Kafka Connect reads from Kafka" stands


def _stated(sentence: str, names: list[Name], verbs: VerbTable) -> list[tuple[Name, Name, str]]:
    """(source, target, type) of each relation `sentence` states between `names`."""
    found: list[tuple[Name, Name, str]] = []
    for left, right in itertools.pairwise(names):
        stated = verbs.stated_relation(sentence[left.end : right.start])
        if stated is None:
            continue
        verb_start, verb_end = left.end + stated.start, left.end + stated.end
        subject = _subject(sentence, names, verb_start)
        if subject is None:
            continue
        for target in _objects(sentence, names, verb_end):
            pair = (target, subject) if stated.passive else (subject, target)
            found.append((*pair, stated.type))
    return found


def _antecedent(text: str, before: tuple[int, int], start: int, known: Names) -> Name | None:
    """The name a pronoun opening the sentence at `start` refers to: the one that opens the
    sentence `before` it, when that one is a heading or in the same paragraph, and names one
    thing (not "X and Y", not "X's cache")."""
    gap = text[before[1] : start]
    previous = text[before[0] : before[1]]
    if _PARAGRAPH_BREAK.search(gap) and not previous.startswith("#"):
        return None
    names = names_in(previous, known)
    if not names or not _OPENING.fullmatch(previous[: names[0].start]):
        return None
    first, after = names[0], previous[names[0].end :]
    if after.startswith(("'s", "’s")):
        return None
    if len(names) > 1 and _LIST_JOINER.fullmatch(previous[first.end : names[1].start]):
        return None
    if previous.startswith("#") and not _a_thing_named(text, first.text, before):
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
    if len(quote.encode()) > _MAX_QUOTE_BYTES:
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
    if verb is None or not _PRONOUN_LEADS.issuperset(w.strip(",") for w in lead):
        return []  # no verb right after it: the pronoun opens a longer subject
    found: list[RelationProposal] = []
    for a, b, kind in _stated(sentence, names, verbs):
        if pronoun in (a, b):
            source = referent.text if a is pronoun else a.text
            target = referent.text if b is pronoun else b.text
            _add(found, quote, source, target, kind)
    return found


def sentence_relations(
    text: str, known: Names, checked: bool = False, verbs: VerbTable = DEFAULT_VERBS
) -> list[RelationProposal]:
    """Relations stated in the sentences of `text` (`checked`: the caller found that
    `verbs.any_verb(text)`), by the phrases of `verbs`."""
    found: list[RelationProposal] = []
    if not checked and not verbs.any_verb(text):
        return found
    # A sentence starts and ends beside a space or a mark, so a key word is in it exactly
    # when one of the text's key words starts inside it.
    places = verbs.verb_places(text)
    before: tuple[int, int] | None = None
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        if places is None:
            has_verb = verbs.any_verb(sentence)
        else:
            index = bisect.bisect_left(places, start)
            has_verb = index < len(places) and places[index] < end
        previous, before = before, (start, end)
        if sentence.lstrip().startswith("|") or not has_verb:
            continue  # a table (read row by row below), or no verb of the table
        if sentence.lstrip().startswith("#"):
            # A heading is a title, not a statement ("## Programmatic use through the API");
            # a sentence run on after it is read.
            newline = sentence.find("\n")
            if newline < 0:
                continue
            start += newline + 1
            sentence = text[start:end]
        names = names_in(sentence, known)
        if previous is not None:
            found += _pronoun_relations(text, (start, end), previous, known, names, verbs)
        if len(names) < 2:
            continue
        for a, b, kind in _stated(sentence, names, verbs):
            _add(found, sentence, a.text, b.text, kind)
    return found


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return inner.split("|")


def _plain(cell: str) -> str:
    return " ".join(_LINK.sub(r"\1", cell).strip(" *_`").split())


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
        subjects = [_plain(_cells(r)[0]) for r in rows]
        table_known = known.extended(s for s in subjects if 0 < len(s) <= 60)
        for row in rows:
            _row_relations(row, columns, table_known, found, verbs)
    return found


def _row_relations(
    row: str,
    columns: list[Stated | None],
    known: Names,
    found: list[RelationProposal],
    verbs: VerbTable,
) -> None:
    cells = _cells(row)
    subject = _plain(cells[0])
    if not subject or len(subject) > 60 or subject not in row:
        return
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
            # A predicate without its subject: the verb among the sentence's first words.
            if predicate is None or len(sentence[: predicate.start].split()) > 2:
                continue
            in_sentence = names_in(sentence, known)
            for target in _objects(sentence, in_sentence, predicate.end):
                if predicate.passive:
                    _add(found, quote, target.text, subject, predicate.type)
                else:
                    _add(found, quote, subject, target.text, predicate.type)
