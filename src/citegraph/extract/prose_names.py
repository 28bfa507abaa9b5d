"""The names to look for in a chunk's sentences: those the offline extractor found (case
aside, except that a capitalised one-word name written in lower case may be the ordinary
word; a plural of a component's name is that name), and those earlier chunks of the document
found (`EarlierNames`). sentence_names.py reads them, and lowercase component phrases ("the
payment service"), in a sentence."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from ..text.words import STOPWORDS
from ..values.proposals import RelationProposal
from .verbs import NOUNS_IN_PHRASES, VERBS

COMPONENT_WORDS = (
    "service", "services", "database", "db", "queue", "cache", "api", "server", "gateway",
    "broker", "bucket", "cluster", "store", "topic", "worker", "backend", "frontend",
    "controller", "plugin", "driver", "provisioner", "webhook",
)  # fmt: skip
# Words for a component that acts on or for another: after a name ("the `BackupRepository`
# controller", "the AWS plugin") they make another component than the one named.
ACTING_ON = frozenset(
    "controller controllers plugin plugins provisioner provisioners operator operators".split()
)
# Words after a name in backticks for what the name is one of, when it is a component
# ("the `cart` service", "the `redis` container", "the `orders` table").
RUNNING_THINGS = frozenset(
    "deployment deployments container containers pod pods app apps application applications "
    "process processes job jobs module modules component components daemon sidecar "
    "microservice microservices function functions instance instances image images "
    "package packages library libraries tool binary".split()
)
# Units of measure: after a number ("4 GB", "512Mi", "2 vCPUs") such a word is no name, and
# what follows "4 GB of" is an amount of a resource ("requires 4 GB of RAM"), not a component.
UNITS = frozenset(
    "KB MB GB TB PB KiB MiB GiB TiB PiB Ki Mi Gi Ti Pi Kb Mb Gb Tb Kbps Mbps Gbps Hz kHz KHz "
    "MHz GHz RPS QPS TPS IOPS CPUs vCPU vCPUs GPUs".split()
)
_AMOUNT = re.compile(
    r"\d[\d.,]*\s?(?:" + "|".join(sorted(UNITS, key=len, reverse=True)) + r")\s+of\s+(?:the\s+)?\Z"
)


# The words of the verb table's phrases, but the nouns of a requirement stated as a noun
# ("requires network access to"): those are nouns wherever else they stand.
VERB_WORDS = frozenset(w for v in VERBS for w in v.phrase.lower().split()) - NOUNS_IN_PHRASES


def a_unit_at(text: str, start: int, word: str) -> bool:
    """Whether `word`, written at `start` in `text`, is a unit of measure: one of UNITS right
    after a number, directly or after spaces ("4 GB", "512Mi", "4   GB")."""
    if word not in UNITS:
        return False
    before = text[max(0, start - 6) : start].rstrip(" \u00a0")
    return bool(before) and before[-1].isdigit()


def ends_in_an_amount(gap: str) -> bool:
    """Whether `gap` (a verb's end to its object) ends in an amount of what follows: "at least
    4 GB of", "2 vCPUs of"."""
    return _AMOUNT.search(gap) is not None


# Words that, right after a component's name, still name that component ("the cart pod").
SAME_THING = frozenset({
    "service", "microservice", "pod", "pods", "container", "containers", "deployment",
    "instance", "instances", "process", "processes", "app", "application", "server",
    "binary", "daemon", "worker", "workers", "replica", "replicas", "job", "itself",
    "component",
})  # fmt: skip


@dataclass(frozen=True)
class Name:
    text: str
    start: int
    end: int
    # A one-word name written in the plural ("Queriers fetch from the ingesters"): the name,
    # as written at `start` without its "s"; the relation is said of it.
    singular: str | None = None

    @property
    def named(self) -> str:
        return self.singular or self.text


class Names:
    """The names to look for in a chunk's sentences. `carried`: one-word names found earlier
    in the document, by their spelling in lower case ("frontend" -> "Frontend"), looked for
    as whole words, in lower case or capitalised (so that a chunk need not have written them
    in capitals, nor anywhere but where its sentences open)."""

    def __init__(
        self,
        known: Iterable[str],
        carried: Mapping[str, str] | None = None,
        exact: Iterable[str] = (),
    ):
        self.known = sorted({n for n in known if n.strip()}, key=len, reverse=True)
        self.carried = carried or {}
        # Names written only in code (extract/code_only.py): found only as spelled there.
        self.exact = frozenset(exact)

    @cached_property
    def lowered(self) -> list[str] | None:
        """The names in lower case; None when lowering one changes its length (its offsets
        would not be the text's)."""
        lowered = [n.lower() for n in self.known]
        if any(len(a) != len(b) for a, b in zip(lowered, self.known, strict=True)):
            return None
        return lowered

    @cached_property
    def pattern(self) -> re.Pattern[str] | None:
        alternatives = "|".join(re.escape(n) for n in self.known)
        if not alternatives:
            return None
        return re.compile(r"(?<![\w-])(?:" + alternatives + r")(?![\w-])", re.I)

    def extended(self, more: Iterable[str]) -> Names:
        return Names([*self.known, *more], self.carried, self.exact)

    def find(self, text: str) -> list[Name]:
        """Every place a known name is written in `text` (case aside) as a whole word,
        overlapping places included; and a carried name written in lower case."""
        found = self._find_known(text)
        if self.carried:
            found += self._find_carried(text)
        return found

    def _find_carried(self, text: str) -> list[Name]:
        # The words as strings first (no match objects): most sentences write none.
        words = set(_LOWERCASE_WORD.findall(text))
        words.update(w.lower() for w in _OPENING_WORD.findall(text))
        # (and plurals: "the ingesters", "Queriers fetch")
        words.update(w[:-1] for w in list(words) if w.endswith("s"))
        written = (self.carried.keys() & words) - self._own  # (own: found already, any case)
        found: list[Name] = []
        if not written:
            return found  # most sentences
        spans = [m.span() for m in _LOWERCASE_WORD.finditer(text)]
        spans += [m.span(1) for m in _OPENING_WORD.finditer(text)]
        for start, end in sorted(spans):
            lowered = text[start:end].lower()
            if lowered in written and not _an_ordinary_word(
                self.carried[lowered], text, start, end
            ):
                found.append(Name(text[start:end], start, end))
            elif (
                lowered[:-1] in written
                and _a_plural(self.carried[lowered[:-1]], text, end - 1)
                and not _an_ordinary_word(self.carried[lowered[:-1]], text, start, end - 1)
            ):
                found.append(Name(text[start:end], start, end, text[start : end - 1]))
        return found

    @cached_property
    def _own(self) -> set[str]:
        return {n.lower() for n in self.known}

    def _find_known(self, text: str) -> list[Name]:
        lowered, names = text.lower(), self.lowered
        if names is None or len(lowered) != len(text):
            return self._find_by_pattern(text)  # lowering moved offsets: the slow way
        found: list[Name] = []
        for name, written in zip(names, self.known, strict=True):
            at = lowered.find(name)
            while at >= 0:
                end = at + len(name)
                if (
                    (at == 0 or not joins(text[at - 1]))
                    and not (written in self.exact and text[at:end] != written)
                    and not _an_ordinary_word(written, text, at, end)
                ):
                    if end == len(text) or not joins(text[end]):
                        found.append(Name(text[at:end], at, end))
                    elif _a_plural(written, text, end):
                        found.append(Name(text[at : end + 1], at, end + 1, text[at:end]))
                at = lowered.find(name, at + 1)
        return found

    def _find_by_pattern(self, text: str) -> list[Name]:
        if self.pattern is None:
            return []
        # a spelling found in any case (lower case first) wins over a capitalised one
        spelled = {n.lower(): n for n in sorted(self.known, key=lambda n: n[:1].islower())}
        exact = {n.lower() for n in self.exact} - {
            n.lower() for n in self.known if n not in self.exact
        }
        return [
            Name(m.group(), m.start(), m.end())
            for m in self.pattern.finditer(text)
            if not (m.group().lower() in exact and m.group() not in self.exact)
            and not _an_ordinary_word(
                spelled.get(m.group().lower(), m.group()), text, m.start(), m.end()
            )
        ]


# Acronyms for a kind of thing, any project's: "the Jaeger query API", "SDKs", "URLs".
GENERIC_ACRONYMS = frozenset({"API", "UI", "GUI", "CLI", "SDK", "URL", "URI", "DB"})


def _a_plural(name: str, text: str, end: int) -> bool:
    """Whether the one-word name `name`, written up to `end`, is followed by the "s" of its
    plural ("Ingester": "the ingesters", "Queriers fetch"): instances of one component; or
    an acronym's, written in capitals ("PVCs", "OSDs"), but a generic one's ("SDKs", "URLs":
    any of a kind)."""
    if text[end] != "s" or (end + 1 < len(text) and joins(text[end + 1])):
        return False
    if len(name) >= 2 and name.isupper() and name.isalpha():
        return text[end - len(name) : end] == name and name not in GENERIC_ACRONYMS
    return (
        name.replace("-", "").isalpha()
        and len(name) >= 4
        and name[1:].islower()
        and name.endswith(_DOERS)
    )


# How the names of components that run as many instances end: agent nouns ("Ingester",
# "Distributor", "Sidecar") and "Gateway", "Frontend"; "sources" or "settings" are no
# instances of a component named Source or Setting.
_DOERS = ("er", "or", "ar", "way", "end")


class EarlierNames:
    """The one-word names a document's earlier chunks found, for its later ones: a name
    written in capitals once ("the Frontend calls", "Kafka") is that name where a later
    chunk writes it in lower case ("the frontend reads from kafka"), as it is within one
    chunk. Longer names need no carrying: a chunk finds them itself, in capitals, or in lower
    case as a component ("the cart service")."""

    LIMIT = 2_000  # names kept; a book names more, and its later chunks find theirs anew

    def __init__(self) -> None:
        self.names: dict[str, str] = {}  # the name -> its type
        self._by_lower: dict[str, str] = {}  # the name in lower case -> the name
        # Each chunk's names, read when a later chunk asks (most documents are one chunk).
        self._pending: list[dict[str, str]] = []

    def add(self, names: dict[str, str], text: str = "") -> None:
        """Keep a chunk's `names` for the later chunks; not a word the chunk (`text`) writes
        capitalised only as a title's first word ("##### Variable substitution in CEL"): in
        lower case elsewhere it is the ordinary word ("uses a variable")."""
        if text and "#" in text:
            names = {n: k for n, k in names.items() if not _only_opening_a_title(text, n)}
        if names:
            self._pending.append(names)

    @property
    def by_lower(self) -> dict[str, str]:
        for names in self._pending:
            for name, kind in names.items():
                if kind != "name" or not name.isalpha() or len(self.names) >= self.LIMIT:
                    continue
                lowered = name.lower()
                if lowered not in self._by_lower and len(lowered) == len(name):
                    self.names[name] = kind
                    self._by_lower[lowered] = name
        self._pending.clear()
        return self._by_lower

    def types_of(
        self, proposed: Iterable[RelationProposal], names: dict[str, str]
    ) -> dict[str, str]:
        """`names`, with the type of each carried name that `proposed` has as an end."""
        by_lower = self.by_lower
        more = {
            end: self.names[by_lower[end]]
            for p in proposed
            for end in (p.source, p.target)
            if end not in names and end in by_lower
        }
        return {**names, **more} if more else names


# A title in sentence case, opening with a word ("## Variable substitution", "# Context").
_TITLE_OPENING = re.compile(r"[ \t]*#{1,6}[ \t]+\Z")


def _only_opening_a_title(text: str, name: str) -> bool:
    """Whether every place `text` writes the one-word `name` opens a Markdown title in
    sentence case (a word in lower case after it)."""
    if not name.isalpha() or not name[:1].isupper() or not name[1:].islower():
        return False
    if name.lower() in COMPONENT_WORDS:
        return False  # "## Frontend setup": "the frontend" is the component
    at = text.find(name)
    seen = False
    while at >= 0:
        end = at + len(name)
        if (at == 0 or not joins(text[at - 1])) and (end == len(text) or not joins(text[end])):
            line_start = text.rfind("\n", 0, at) + 1
            if not (
                _TITLE_OPENING.fullmatch(text, line_start, at) and text[end : end + 2][1:].islower()
            ):
                return False
            seen = True
        at = text.find(name, at + 1)
    return seen


# A carried name as a later chunk writes it: in lower case, or capitalised where a sentence
# or line opens with it (which alone would not make it a name in that chunk: "Checkout
# calls..."); elsewhere in capitals the chunk finds it itself.
_LOWERCASE_WORD = re.compile(r"(?<![\w-])[a-z]{2,}(?![\w-])")
_OPENING_WORD = re.compile(r"(?:^|(?<=[.!?:][ \t]))[ \t>#*+-]*([A-Z][a-z]+)(?![\w-])", re.M)
# Words for what a project holds besides components (files, data, tests, tasks): a heading's
# "Config" or "Tasks" is, in lower case, the ordinary word ("needs 4 config fields").
_THINGS = frozenset(
    "file files folder folders directory directories data config configuration code test "
    "tests task tasks docs document documents script scripts traces logs metrics events "
    "messages requests spans records".split()
)
# Those of them that are never a verb after a name ("the frontend requests", "it logs",
# "checkout tests" may be): a name in lower case before one of these modifies it.
_HELD_THINGS = _THINGS - frozenset(
    "test tests task tasks script scripts traces logs requests records code".split()
)
# Words for any component, never one component's name ("frontend" and "gateway" often are).
_PARTS_OF_ANY = frozenset({"endpoint", "endpoints", "component", "components"})
_GENERIC = (frozenset(COMPONENT_WORDS) | SAME_THING | _THINGS | _PARTS_OF_ANY) - {
    "frontend",
    "backend",
    "gateway",
}
# Before an ordinary word, not a name: "these tools", "each tool".
QUANTIFIERS = frozenset(
    "this these that those each every such other another some any many all".split()
)
# Counts, before an ordinary word as quantifiers are: "uses one core", "both workers".
NUMBERS = frozenset("one two three four five six seven eight nine ten both few most".split())
_WORD_BEFORE = re.compile(r"([\w'’-]+)[ \t]+\Z")


_AFTER_AN_INDEFINITE = re.compile(r"(?<![\w-])(?:an?|any|some)\s+\Z", re.I)


def _an_ordinary_word(name: str, text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` is a unit after a number ("4 GB"), or, where the one-word
    name `name` is capitalised ("Build", "Service"), the ordinary word in lower case: a word
    for any component ("the service"), or a word after a name modifying it or a quantifier
    ("the iOS build uses", "these tools call"). After an article, a verb or a preposition it
    is the name ("the chatbot sends", "writes to redis"); a name written otherwise ("Redis",
    "cartservice", "PostgreSQL") is found in any case."""
    written = text[start:end]
    if a_unit_at(text, start, written):
        return True  # "4 GB": a unit, wherever else "GB" is a name
    if written.islower() and written in STOPWORDS:
        # "reads from", "uses the first column to map": the word, wherever else "FROM" or
        # "To" is written as a name
        return True
    if (
        written.islower()
        and not name.islower()
        and _AFTER_AN_INDEFINITE.search(text, max(0, start - 8), start) is not None
    ):
        return True  # "A client connects", "Some network requirements": any one, no name
    if name in _GENERIC and text[start - 1 : start] != "`":
        return True  # "`endpoint`" names a field; "the advertised endpoint" is the word
    if not (name[:1].isupper() and name[1:].islower() and name.isalpha() and written.islower()):
        return False
    if written in _GENERIC or written in QUANTIFIERS or written in _DESCRIBING:
        return True  # "the service", "each", "multiple": words for any component or many
    if written.endswith(("ing", "ion")) and len(written) >= 6:
        # "uses consistent hashing" under "#### Hashing", "replication uses": an activity
        # ("ring" is none)
        return True
    after = WORD_AFTER.match(text, end)
    if after is not None and after.group(1) in _HELD_THINGS:
        return True  # "consumes trace data from Kafka": it says what the data is about
    before = _WORD_BEFORE.search(text, max(0, start - 40), start)
    if before is None:
        return False
    word = before.group(1)
    lowered = word.lower()
    if lowered in _SELECTING:
        return True  # "ensure Linkerd uses the correct protocol": whichever one fits
    if lowered in SUBJECT_PRONOUNS:
        return True  # "each configuration you create will need": the verb after its subject
    if lowered in _PREPOSITIONS_BEFORE and _a_noun_after(text, end):
        return True  # "subscribes to external systems": it modifies the noun after it
    if lowered in _ARTICLES_BEFORE and _a_noun_after(text, end, subject_too=True):
        return True  # "all EventSources use the webhook type", not "the chatbot sends"
    modifier = (word.islower() and lowered not in STOPWORDS) or (
        lowered in _DESCRIBING or _a_participle(lowered)
    )
    if modifier and _a_noun_after(text, end) and not _a_verb_after(text, end):
        # inside a noun phrase, between a word (or a describing one: "specific", "assigned")
        # and the noun it ends with: "requires network access", "uses a pub/sub topic security
        # policy", "subscribe to specific event types"; not "the new frontend calls"
        return True
    # a name before it is a modifier ("iOS build"), a count counts the word's things ("one
    # core"), unless they are instances of a component ("both ingesters"); a lowercase word
    # may be a verb ("calls")
    return (
        lowered in QUANTIFIERS
        or (lowered in NUMBERS and not (end < len(text) and _a_plural(name, text, end)))
        or (lowered not in STOPWORDS and not word.islower())
    )


# After these, a name in lower case before a noun modifies it; after an article the word
# after it may be its verb as well ("the chatbot sends"), so only one that is no verb counts.
_PREPOSITIONS_BEFORE = frozenset("to from into in on with via through by of".split())
_ADVERBS = frozenset(
    "still also then now only just always never often usually first later already again "
    "currently sometimes".split()
)
_ARTICLES_BEFORE = frozenset("the a an its their our your".split())
WORD_AFTER = re.compile(r"[ \t]+([a-z][a-z-]*)\b")


def _a_noun_after(text: str, end: int, subject_too: bool = False) -> bool:
    """Whether a lowercase word that may be a noun follows `end` ("external system"): no
    function word, adverb, or word for a component ("redis cluster" is Redis's); where the
    name may be a subject (`subject_too`), no verb of the table nor a word in -s either."""
    after = WORD_AFTER.match(text, end)
    if after is None:
        return False
    word = after.group(1)
    if subject_too and (word in VERB_WORDS or word.endswith("s") or word in _ADVERBS):
        return False  # "the frontend calls", "the frontend still calls"
    return not (
        word in STOPWORDS
        or word.endswith("ly")
        or word in COMPONENT_WORDS
        or word in SAME_THING
        or word in COMPONENT_PARTS
    )


def _a_verb_after(text: str, end: int) -> bool:
    """Whether a verb of the table follows `end` ("the new frontend calls")."""
    after = WORD_AFTER.match(text, end)
    return after is not None and after.group(1) in VERB_WORDS


# Words after a component's name that are still about that component ("the kafka topic").
COMPONENT_PARTS = frozenset(
    "topic topics queue queues cluster clusters broker brokers node nodes table tables "
    "instance endpoint endpoints client clients bucket buckets stream streams channel "
    "channels index indexes schema keyspace namespace database".split()
)


# Words before a component word that describe it rather than name it ("a new service", "the
# existing database", "a single server"); participles do too ("the required service", "a
# managed database", "the deprecated billing service").
_DESCRIBING = frozenset(
    "another every many several various different same new old own other single separate "
    "main whole entire specific particular respective relevant appropriate individual "
    "existing underlying remaining corresponding following certain given actual real "
    "additional extra further multiple remote local internal external public private global "
    "custom default primary secondary compatible compliant example sample".split()
)


# Personal pronouns as subjects (subjects.py adds "it", which may also be an object).
SUBJECT_PRONOUNS = frozenset("i you we they he she".split())
# Words that pick one of a kind by fitness or by order, not by name: "the correct protocol",
# "the last backup" is whichever fits, never a component named Protocol or Backup.
_SELECTING = frozenset(
    "correct right proper wrong suitable desired preferred intended expected matching last "
    "latest previous next".split()
)


def _a_participle(lowered: str) -> bool:
    return len(lowered) > 4 and lowered.endswith("ed") and not lowered.endswith("eed")


# Words of a count ("at least three worker nodes", "more cache servers"): how many of a kind.
_COUNTING = NUMBERS | QUANTIFIERS | frozenset("least more fewer less".split())


def names_a_component(word: str) -> bool:
    """Whether `word`, before a word for a component, may be part of its name: no stopword,
    no word that describes or counts, no participle."""
    lowered = word.lower()
    return not (
        lowered in STOPWORDS
        or lowered in _DESCRIBING
        or lowered in _COUNTING
        or _a_participle(lowered)
    )


def joins(char: str) -> bool:
    """Whether `char` continues a word (as `[\\w-]` reads it)."""
    return char.isalnum() or char in "_-"
