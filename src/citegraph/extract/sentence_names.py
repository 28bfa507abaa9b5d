"""The names a sentence holds, in order, longest first where they overlap: the known names
and component phrases prose_names.py finds, less what only looks like a name there: code in
backticks, a part of a compound ("Pub" of "Pub/Sub"), a generic acronym after its modifier
("the Jaeger query API"), a name before "compatible", a kind written alone ("Service")."""

from __future__ import annotations

import re

from ..text.sentences import CODE_SPAN
from ..text.words import STOPWORDS
from .prose_names import (
    COMPONENT_PARTS,
    COMPONENT_WORDS,
    GENERIC_ACRONYMS,
    NUMBERS,
    QUANTIFIERS,
    RUNNING_THINGS,
    VERB_WORDS,
    WORD_AFTER,
    Name,
    Names,
    names_a_component,
)

# A lowercase component phrase: one or two words before a word for a component.
_COMPONENT = re.compile(
    r"(?<![\w-])(?:(?!the\b|a\b|an\b|its\b|their\b|our\b|this\b|that\b)"
    r"(?:[a-z][\w-]*|[A-Z]{2,})\s+){1,2}"  # lowercase words, or an acronym ("API server")
    r"(?:" + "|".join(COMPONENT_WORDS) + r")(?![\w-])"
)

# "Service" alone, capitalised, is a kind ("a Kubernetes Service", "**jaeger-query** Service"),
# never the name of one ("Worker", "Store", "Gateway" can be).
_ANY_SERVICE = frozenset({"service", "services"})

# A component phrase opening a sentence, its first word in capitals for that reason alone
# ("Checkout service calls the payment service", "Query frontend stores the query"), after
# any list or heading marker.
_OPENING_COMPONENT = re.compile(
    r"[ \t\n>#*+-]*(?:\d+[.)][ \t]+)?"
    r"(?P<phrase>(?P<first>[A-Z][a-z][\w-]*)(?:[ \t]+(?P<second>[a-z][\w-]*))?[ \t]+"
    r"(?:" + "|".join(COMPONENT_WORDS) + r"))(?![\w-])"
)


def _opening_component(text: str, known: Names) -> Name | None:
    """The component phrase `text` (a sentence) opens with, written in capitals only because
    it opens it: its first word is no name known in capitals, nor a word that describes or
    counts ("Each service", "Other services", "Two services")."""
    match = _OPENING_COMPONENT.match(text)
    if match is None:
        return None
    first, second = match.group("first"), match.group("second")
    if first.lower() in known._own or first.lower() in QUANTIFIERS or first.lower() in NUMBERS:
        return None
    if not names_a_component(first) or (second is not None and not names_a_component(second)):
        return None
    return Name(match.group("phrase"), match.start("phrase"), match.end("phrase"))


# An article or a word for any one before a phrase in lower case ("an object storage
# bucket", "any message queue", "a new cache server"): a kind described, no component named.
_INDEFINITE = re.compile(r"(?<![\w-])(?:an?|any|some)\s+(?:[\w-]+\s+){0,2}\Z", re.I)
# Unless it says what a name is ("VTGate is a lightweight proxy server that routes ..."):
# what the phrase then does, the name does (subjects.py).
_PREDICATE = re.compile(r"(?<![\w-])(?:is|are|was|were)\s+an?\s+(?:[\w-]+\s+){0,2}\Z", re.I)


def names_in(text: str, known: Names) -> list[Name]:
    """Where the known names and component phrases occur in `text`, longest first where
    they overlap, in order."""
    found = known.find(text)
    opening = _opening_component(text, known)
    if opening is not None:
        found.append(opening)
    described: list[tuple[int, int]] = []  # kinds described: their words name nothing
    for match in _COMPONENT.finditer(text):
        words = match.group().split()
        # the words naming it, before the component word: "since all services", "another
        # required service" and "the deprecated billing service" name none, or the billing one
        first = len(words) - 1
        while first > 0 and names_a_component(words[first - 1]):
            first -= 1
        words = words[first:]
        if len(words) > 1:  # a bare "service" or "database" names nothing
            phrase = " ".join(words)
            start = match.end() - len(phrase)
            if text[start : match.end()] != phrase:
                continue
            before = max(0, start - 50)
            if _INDEFINITE.search(text, before, start) and not _PREDICATE.search(
                text, before, start
            ):
                described.append((start, match.end()))
            else:
                found.append(Name(phrase, start, match.end()))
    if described:
        found = [n for n in found if not _a_word_of(n, described)]
    found = [_with_its_component_word(text, n) for n in found]
    found.sort(key=lambda n: (n.start, -(n.end - n.start)))
    code = [m.span() for m in CODE_SPAN.finditer(text)] if "`" in text else []
    kept: list[Name] = []
    for name in found:
        if (
            (not kept or name.start >= kept[-1].end)
            and not _the_end_of_a_phrase(text, name)
            and not _COMPATIBLE_AFTER.match(text, name.end)
            and not _a_part_of_a_word(text, name)
            and not _code(text, name)
            and name.text not in _NO_NAMES
            and name.text.lower() not in _ANY_SERVICE
            and not _a_word_of_code(name, code)
            and not _a_kind_after_a_demonstrative(text, name)
            and not _a_kind_described(text, name)
        ):
            kept.append(name)
    return kept


# A word for a component right after a name ending in a generic acronym ("the Kubernetes API
# server", "the Jaeger UI service"): the component is the name's, named by both.
_COMPONENT_WORD_AFTER = re.compile(r" (?:" + "|".join(COMPONENT_WORDS) + r")(?![\w-])")


def _with_its_component_word(text: str, name: Name) -> Name:
    if name.text.rsplit(" ", 1)[-1] not in GENERIC_ACRONYMS or " " not in name.text:
        return name
    word = _COMPONENT_WORD_AFTER.match(text, name.end)
    if word is None:
        return name
    return Name(text[name.start : word.end()], name.start, word.end())


def _a_word_of(name: Name, described: list[tuple[int, int]]) -> bool:
    """Whether `name`, written in lower case, is a word of a kind `described` ("storage" of
    "a single object storage backend")."""
    return name.text.islower() and any(a <= name.start and name.end <= b for a, b in described)


def _a_word_of_code(name: Name, code: list[tuple[int, int]]) -> bool:
    """Whether `name` lies inside a backticked span (`code`: each span with its backticks)
    without being all of it: a word of code ("FROM" of "`FROM scratch`")."""
    return any(
        start < name.start and name.end < end and (start + 1, end - 1) != (name.start, name.end)
        for start, end in code
    )


def _a_kind_described(text: str, name: Name) -> bool:
    """Whether `name`, known capitalised as a title writes words ("## Deploy an Example
    Service") and written here in lower case, is words that describe ("example", "custom",
    "remote") before a word for a component: a kind, no name ("the Primary Database",
    capitalised in prose, is one)."""
    words = name.text.split()
    if len(words) < 2 or not text[name.start : name.end].islower():
        return False
    if names_a_component(words[0]):
        return False
    return (
        all(
            not names_a_component(w) or w.lower().removesuffix("s") in COMPONENT_WORDS
            for w in words[1:]
        )
        and words[-1].lower().removesuffix("s") in COMPONENT_WORDS
    )


# "This CR is used by Velero", "these PVCs": an acronym after a demonstrative, no other word
# of a name after it, is the word for the kind of what was named before, not a component.
_DEMONSTRATIVE_BEFORE = re.compile(r"(?<![\w-])(?:this|these|those)\s+\Z", re.I)
_ANOTHER_WORD = re.compile(r"[ \t]+[A-Z0-9]")


def _a_kind_after_a_demonstrative(text: str, name: Name) -> bool:
    word = name.text.removesuffix("s")
    return (
        len(word) >= 2
        and word.isupper()
        and word.isalpha()
        and _DEMONSTRATIVE_BEFORE.search(text, max(0, name.start - 8), name.start) is not None
        and _ANOTHER_WORD.match(text, name.end) is None
    )


# Written like names, naming none: HTTP methods ("How POST writes flow"), a cell's nothing,
# SQL's words ("INSERT INTO contacts VALUES": the table is no verb between two names).
_NO_NAMES = frozenset(
    "GET POST PUT PATCH DELETE HEAD OPTIONS None N/A NA TBD TODO Nil Null INSERT INTO VALUES "
    "SELECT FROM WHERE UPDATE SET JOIN".split()
)


def _a_part_of_a_word(text: str, name: Name) -> bool:
    """Whether `name` is joined to a word by a slash ("Pub" of "Pub/Sub", "CI" of "CI/CD"):
    a part of a compound, or one of alternatives, not a name said alone."""
    after = text[name.end : name.end + 2]
    before = text[max(0, name.start - 2) : name.start]
    return (len(after) == 2 and after[0] == "/" and after[1].isalnum()) or (
        len(before) == 2 and before[1] == "/" and before[0].isalnum()
    )


def _code(text: str, name: Name) -> bool:
    """Whether `name` is code written in backticks rather than a component's name: a
    command, a query, an assignment, a port ("`FROM scratch`", "`ORDER BY title`",
    "`STORAGE_BACKEND=memory`", "`:8080`"), unless its words are all capitalised."""
    if text[name.start - 1 : name.start] != "`" or text[name.end : name.end + 1] != "`":
        return False
    words = name.text.split()
    if len(words) > 1:
        return not all(w[:1].isupper() and not w.isupper() for w in words)
    return (
        "=" in name.text
        or name.text.endswith(":")
        or any(c in name.text for c in "<>{}$(")  # a placeholder, a template, a call: `f(x)`
        or (not name.text[:1].isalpha() and name.text[:1] not in "._@")
        or _a_kind_of(text, name.end + 1)
    )


def _a_kind_of(text: str, end: int) -> bool:
    """Whether the word after a name in backticks (at `end`) says what kind of thing the
    name is, other than a component: "the `remote` sampler", "the `X-Scope-OrgID` header"
    name a setting's value and a header, not something a component reaches."""
    after = WORD_AFTER.match(text, end)
    if after is None:
        return False
    word = after.group(1)
    return not (
        word in STOPWORDS
        or word in RUNNING_THINGS
        or word in COMPONENT_WORDS
        or word in COMPONENT_PARTS
        or word in VERB_WORDS
        or word.endswith(("s", "ed", "ly"))
    )


# Acronyms for a kind of thing: after a modifier in lower case they end a longer noun phrase
# ("the Jaeger query API", "the orders DB", "the admin UI"), not a name of their own.
_WORD_JUST_BEFORE = re.compile(r"(?<![\w-])([a-z][a-z0-9-]*) \Z")
_TWO_WORDS_BEFORE = re.compile(r"([\w'’-]+) +[a-z][a-z-]* \Z")


# A name followed by "compatible" (maybe after its API's acronym) says what something else is
# compatible with: "uses any Prometheus Query API compatible solution", "a Redis compatible
# store", "an AWS S3 compatible API" (as "Prometheus-compatible" does, hyphenated: offline.py).
_COMPATIBLE_AFTER = re.compile(r"[ \t]+(?:[A-Z][A-Z0-9]+[ \t]+)?(?:compatible|compliant)\b", re.I)


def _the_end_of_a_phrase(text: str, name: Name) -> bool:
    """Whether `name` is a generic acronym right after a lowercase modifier: a word that is
    no function word, nor a verb of the table unless it follows an article or a name ("the
    Jaeger query API" is a phrase, "calls API" and "to query API" are not)."""
    if name.text not in GENERIC_ACRONYMS:
        return False
    before = _WORD_JUST_BEFORE.search(text, max(0, name.start - 40), name.start)
    if before is None:
        return False
    word = before.group(1)
    if word in VERB_WORDS:
        two = _TWO_WORDS_BEFORE.search(text, max(0, name.start - 60), name.start)
        first = two.group(1) if two is not None else ""
        return first.lower() in ("the", "a", "an") or first[:1].isupper()
    return word not in STOPWORDS and word not in QUANTIFIERS
