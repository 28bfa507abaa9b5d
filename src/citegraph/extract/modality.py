"""Negation and modality of a relation's sentence, from a cue table in the spirit of NegEx
and ConText: a cue opens a scope that runs forward to a clause boundary; a relation whose
later end falls in a negation scope is `negated`, in a hypothetical or planned scope is
`hypothetical` or `planned`. Such a relation is stored with its polarity and modality, never as
a plain dependency. The table is data: CUES below (docs/extraction.md lists it), extended with a
TOML file of one's own (`load_cues`, CITEGRAPH_CUES_FILE)."""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from pathlib import Path

from ..errors import ConfigError
from ..text.sentences import CODE_SPAN
from .verbs import DEFAULT_VERBS, INSTRUCTIONS, Verb, VerbTable, phrase_problem


class Polarity(StrEnum):
    AFFIRMED = "affirmed"
    NEGATED = "negated"


class Modality(StrEnum):
    ACTUAL = "actual"
    HYPOTHETICAL = "hypothetical"
    PLANNED = "planned"


@dataclass(frozen=True)
class Cue:
    words: str  # a phrase, matched on word boundaries, case aside
    kind: str  # "negated", "hypothetical" or "planned"


CUES: tuple[Cue, ...] = (
    *(Cue(w, "negated") for w in (
        "not", "no", "never", "without", "no longer", "instead of", "neither", "nor",
        "cannot", "n't", "none of", "nothing", "stopped", "stops", "ceased to", "formerly",
        "previously", "used to", "rather than", "except", "other than", "unable to",
    )),
    *(Cue(w, "hypothetical") for w in (
        "if", "may", "might", "could", "would", "should", "can", "unless", "whether", "suppose",
        "assuming", "in case", "perhaps", "possibly", "optionally", "optional", "ideally",
        "in theory", "theoretically", "recommend", "recommended", "expected to",
        "can be configured", "possible", "probably", "likely", "unlikely", "presumably",
        "supposedly", "supposed to", "appears to", "seems to", "ensure", "ensures",
        "ensuring", "make sure", "makes sure",
        # what the reader is to set up: a prerequisite, not a fact
        "you need", "you'll need", "you’ll need", "you will need", "you must", "you have to",
        # a procedure explained: "describes how to configure ExternalDNS to use Contour"; one
        # proposed to the reader: "let's create an account to allow X to call Y"
        "how to", "let's", "let’s", "let us",
    )),
    *(Cue(w, "planned") for w in (
        # ("will" alone is how docs describe what a system does: "the proxy will retry")
        "will be", "planned", "plans to", "plan to", "going to", "proposed",
        "proposal", "deprecated", "to be removed", "next quarter", "next year", "next month",
        "next release", "next version", "roadmap", "soon",
        "considering", "under consideration", "intend to", "intends to", "aims to", "todo",
        "will eventually", "in the future", "future release", "future version", "upcoming",
        "later release", "later version", "being migrated", "to be migrated", "scheduled to",
        "slated to", "plans for",
    )),
)  # fmt: skip

# A condition stated after what it conditions ("X calls Y only if the cache misses", "X
# writes to Y unless caching is off"): its scope runs back to the start of the clause
# (ConText's backward triggers). "if" after a verb of finding out asks a question, it sets no
# condition ("calls Y to check if the item is in stock"); "even if", "as if" set none either.
CONDITIONS_AFTER: tuple[str, ...] = (
    "if", "unless", "provided that", "providing that", "as long as", "in case",
    "on condition that", "only when",
)  # fmt: skip


def _any_of(phrases: tuple[str, ...]) -> re.Pattern[str]:
    """Any of `phrases`, as whole words, case aside, any blanks between their words."""
    return re.compile(
        r"(?<![\w'’])(?:"
        + "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases)
        + r")(?![\w'’])",
        re.I,
    )


_CONDITION_AFTER = _any_of(CONDITIONS_AFTER)
_ASKING = re.compile(
    r"(?<![\w'’])(?:check|checks|checked|checking|verify|verifies|verifying|verified|"
    r"determine|determines|determining|see|sees|know|knows|ask|asks|asked|test|tests|"
    r"testing|decide|decides|find out|finds out|validate|validates|confirm|confirms|tell|"
    r"tells|detect|detects|wonder|learn|learns|even|as)\s+$",
    re.I,
)

# Phrases that hold a cue's words and say something else (NegEx's pseudo-triggers): "not only
# A but also B" and "nothing but A" affirm A, "no doubt" asserts. A cue that starts inside one
# of them does not count ("not necessarily" is not one: it leaves the relation negated).
PSEUDO_CUES: tuple[str, ...] = (
    "not only", "not just", "not merely", "not least", "no doubt", "no matter", "nothing but",
    # "used to" is the past of a habit; "is used to send" is a passive ("X is used for").
    "is used to", "are used to", "be used to", "been used to", "being used to", "was used to",
    "were used to", "as previously",
    # "let's explore how X reads Y" explains what is; "let's create" proposes
    "let's explore", "let's first explore", "let's look", "let's see", "let's examine",
    "let's take a look", "let's walk through", "let's dive", "let’s explore", "let’s look",
    "let’s see",
)  # fmt: skip
_PSEUDO = _any_of(PSEUDO_CUES)

_MONTH = re.compile(r"(?<![\w'’])May(?=\s+\d)")  # "since May 2021", "on May 3": a month

# Where a cue's scope ends. A negation ends at a comma or a dash too ("X does not retry, and
# calls Y", "No configuration is required — X reads Y");
# a condition or a plan covers the clause after its comma ("if X, checkout calls Y").
_HARD_STOPS = re.compile(
    r"[;!?]|\.(?!\w)|:(?!\d)|\n[ \t\r]*\n|\b(but|however|whereas|although|though|instead)\b",
    re.I,
)  # a blank line too: a heading's cue ("## Cart (deprecated)") ends with the heading; a
# colon between digits is a time's ("between 00:00:00 and 01:00:00 UTC"), and a dot inside
# a name ("db.command"), no clause's end
_SOFT_STOPS = re.compile(r",|[—–]|\s-\s|\b(which|that|who|while|and then)\b", re.I)
# A reason in a clause of its own ends a modal's or a negation's scope ("X should be
# preferred since Y reads from Z": Y does); a condition goes on over it ("if X is down
# because of load, Y calls Z" is all the condition's).
_REASON = re.compile(r"\b(?:since|because)\b(?!\s+of\b)", re.I)
# So does a clause of its own after ", and" or ", but": a subject of a few words, then a
# finite verb ("It is not possible to edit X, and the Billing Service uses Y"); a predicate
# coordinated after it ("can restart, and read from Y") is still the modal's.
_NEW_CLAUSE = re.compile(
    r",\s+(?:and|but|so)\s+(?:[\w`*'’.-]+\s+){1,4}?"
    r"(?:is|are|was|were|has|have|had|does|do|did|will|[a-z]+[^s\W]s)(?![\w'’-])",
    re.I,
)
_MODALS = frozenset(
    "may might could would should can must possible possibly likely unlikely probably "
    "perhaps".split()
)
# Negations that are adverbs may cover each predicate coordinated after them ("never reads A
# and writes B"); one of an auxiliary ends before a finite verb ("does not read A and writes B").
_ADVERBIAL = frozenset({"never", "no longer", "neither", "nor"})


def _pattern(words: str) -> re.Pattern[str]:
    if words == "n't":
        return re.compile(r"n['’]t\b", re.I)
    return re.compile(
        r"(?<![\w'’])" + re.escape(words).replace(r"\ ", r"\s+") + r"(?![\w'’])", re.I
    )


KINDS = ("negated", "hypothetical", "planned")


@dataclass(frozen=True)
class CueTable:
    """The cues negation and modality are read from: CUES, and any added (`extra`); and the
    verb phrases relations are read from (`verbs`: the verb table, and any added)."""

    extra: tuple[Cue, ...] = ()
    verbs: VerbTable = DEFAULT_VERBS

    @property
    def cues(self) -> tuple[Cue, ...]:
        return (*CUES, *self.extra)

    @cached_property
    def compiled(self) -> tuple[tuple[re.Pattern[str], str, bool, bool], ...]:
        """Each cue's pattern, kind, whether its scope ends before a predicate coordinated
        after it (a negation that is no adverb: "does not", "has no", "cannot"), and whether
        it ends at a reason or a clause of its own (_REASON, _NEW_CLAUSE: a negation or a
        modal)."""
        return tuple(
            (
                _pattern(c.words),
                c.kind,
                c.kind == "negated" and c.words.casefold() not in _ADVERBIAL,
                c.kind == "negated" or c.words.casefold() in _MODALS,
            )
            for c in self.cues
        )

    @cached_property
    def coordinated_verb(self) -> re.Pattern[str]:
        """A verb of the table in the third person after "and" or "but" ("and uses"): a
        predicate of its own, which an auxiliary's negation before it does not reach."""
        finite = sorted({
            w for v in self.verbs.verbs if not v.passive
            for w in [v.phrase.split()[0].lower()] if w.endswith("s") and not w.endswith("ss")
        })  # fmt: skip
        return re.compile(
            r"(?<![\w-])(?:and|but)\s+(?:(?:also|then|still|now|instead)\s+)?(?:"
            + "|".join(re.escape(w) for w in finite)
            + r")(?![\w'’-])",
            re.I,
        )

    @property
    def digest(self) -> str | None:
        """A short name for the cues added (None: the default table), so that an extractor
        reading with other cues is another extractor."""
        if not self.extra and self.verbs.digest is None:
            return None
        material = "\n".join(f"{c.kind}:{c.words.casefold()}" for c in self.extra)
        if self.verbs.digest is not None:
            material += f"\nverbs:{self.verbs.digest}"
        return hashlib.sha256(material.encode()).hexdigest()[:8]


DEFAULT_CUES = CueTable()


def load_cues(path: Path) -> CueTable:
    """The default tables and what a TOML file adds: a list of words per kind of cue, and
    verb phrases per relation type (`…` stands for a few words; `passive_verbs` state the
    relation from their object to their subject):

    negated = ["historically", "retired"]
    planned = ["in the pilot"]
    [verbs]
    calls = ["hits", "pings"]
    reads = ["pulls … from"]
    [passive_verbs]
    calls = ["is hit by"]
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read the cue file {path}: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"the cue file {path} is not valid TOML: {exc}") from exc
    unknown = sorted(set(data) - {*KINDS, "verbs", "passive_verbs"})
    if unknown:
        raise ConfigError(
            f"the cue file {path} names {', '.join(unknown)}: a cue is one of {', '.join(KINDS)}"
            " (and verbs, passive_verbs)"
        )
    extra: list[Cue] = []
    for kind in KINDS:
        words = data.get(kind, [])
        if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() for w in words):
            raise ConfigError(f"the cue file {path}: {kind} must be a list of words")
        extra += [Cue(" ".join(w.split()), kind) for w in words]
    verbs = [*_verbs(path, data, "verbs", False), *_verbs(path, data, "passive_verbs", True)]
    return CueTable(tuple(extra), VerbTable(tuple(verbs)) if verbs else DEFAULT_VERBS)


def _verbs(path: Path, data: dict[str, object], table: str, passive: bool) -> list[Verb]:
    """The verb phrases of one table of the cue file, by relation type."""
    types = data.get(table, {})
    if not isinstance(types, dict):
        raise ConfigError(f"the cue file {path}: [{table}] must map relation types to phrases")
    found: list[Verb] = []
    for kind, phrases in types.items():
        if not str(kind).strip():
            raise ConfigError(f"the cue file {path}: [{table}] has a relation type with no name")
        if not isinstance(phrases, list) or not all(isinstance(p, str) for p in phrases):
            raise ConfigError(f"the cue file {path}: {table}.{kind} must be a list of phrases")
        for phrase in phrases:
            problem = phrase_problem(phrase)
            if problem is not None:
                raise ConfigError(f"the cue file {path}: {table}.{kind} {phrase!r}: {problem}")
        found += [Verb(" ".join(p.split()), str(kind), passive) for p in phrases]
    return found


def _scope_end(
    text: str, start: int, kind: str, coordinated: re.Pattern[str] | None, reason: bool
) -> int:
    ends = [m.start() for m in _HARD_STOPS.finditer(text, start)]
    if kind == "negated":
        ends += [m.start() for m in _SOFT_STOPS.finditer(text, start)]
    if reason:
        ends += [m.start() for m in _REASON.finditer(text, start)]
        ends += [m.start() for m in _NEW_CLAUSE.finditer(text, start)]
    if coordinated is not None:
        ends += [m.start() for m in coordinated.finditer(text, start)]
    return min(ends, default=len(text))


def assess(
    text: str, ends: tuple[tuple[int, int], ...], cues: CueTable = DEFAULT_CUES
) -> tuple[Polarity, Modality]:
    """The polarity and modality of the relation whose ends are at the character spans `ends`
    of `text` (its sentence, or its quote). A cue counts when its scope, running forward from
    it to a clause boundary, reaches the relation's later end; cues inside a name do not."""
    last = max(end for _, end in ends)
    kinds: set[str] = set()
    # A stop inside code is no clause's end ("If you set `-ruler.frontend-address`, then X
    # queries Y"): boundaries are looked for in the text with its code blanked out.
    bounded = text
    if "`" in text:
        bounded = CODE_SPAN.sub(lambda m: "`" + "x" * (len(m.group()) - 2) + "`", text)
    pseudo = [m.span() for p in (_PSEUDO, _MONTH) for m in p.finditer(text, 0, last)]
    for pattern, kind, ends_at_a_predicate, ends_at_a_reason in cues.compiled:
        coordinated = cues.coordinated_verb if ends_at_a_predicate else None
        for match in pattern.finditer(text, 0, last):
            # a cue inside a name, or inside "not only" or a month ("May 2021")
            inside = any(s <= match.start() < e for s, e in (*ends, *pseudo))
            end = _scope_end(bounded, match.end(), kind, coordinated, ends_at_a_reason)
            if not inside and end >= last:
                kinds.add(kind)
    first = min(start for start, _ in ends)
    if (
        _conditioned_after(bounded, last)
        or _on_a_setting(bounded, first, last)
        or _in_a_when_clause(bounded, first)
        or _in_an_opening_purpose(bounded, last)
        or _in_an_instruction(bounded, last)
    ):
        kinds.add("hypothetical")
    if _planned_after(bounded, last) or _EVENTUALLY_THEN_WILL.search(bounded, 0, last):
        kinds.add("planned")
    polarity = Polarity.NEGATED if "negated" in kinds else Polarity.AFFIRMED
    if "hypothetical" in kinds:
        return polarity, Modality.HYPOTHETICAL
    if "planned" in kinds:
        return polarity, Modality.PLANNED
    return polarity, Modality.ACTUAL


# "Eventually" orders what happens ("the tablets eventually run the query": actual); with
# "will" after it in its clause it says what is to come ("Eventually X will query Y"), as
# "will eventually" (a cue) does.
_EVENTUALLY_THEN_WILL = re.compile(r"(?<![\w'’])eventually\b[^.;:!?\n]{0,80}?\bwill\b", re.I)


# A purpose opening the sentence ("To have Linkerd use the certificates made by cert-manager,
# add ..."): a goal, up to the comma that ends it; the clause after the comma is not its.
_OPENING_PURPOSE = re.compile(
    r"\W*(?:in\s+order\s+)?to\s+[a-z]+\b(?:[^,.;:!?\n]|\.(?=\w))*,", re.I
)  # (a dot inside a name, "the Node.js SDK", ends no purpose)


def _in_an_opening_purpose(text: str, last: int) -> bool:
    match = _OPENING_PURPOSE.match(text)
    return match is not None and last < match.end()


# An instruction opening the sentence, after a list's mark or a bold label ("Create a
# StorageClass that uses the CSI driver", "- Set a default class that uses..."): what it
# says, up to its clause's end, is to be made. Those that point the reader to what is
# ("Note that X calls Y", "See how X uses Y") are no such instruction, nor those a changelog
# says what was done with ("Fix global leak (test fails because jade requires X)").
_TO_DO = INSTRUCTIONS - frozenset(
    "note see learn refer review view follow go visit read open click navigate fix bump add "
    "update remove delete rename move replace upgrade migrate enable disable".split()
)
_INSTRUCTION_OPENING = re.compile(
    r"[ \t>*+#-]*(?:\d+[.)][ \t]+)?(?:\*\*[^*\n]{1,60}\*\*:?[ \t]+)?"
    r"(?:(?i:next|then|first|finally|now|afterwards|optionally),?[ \t]+)?"  # "Next, create"
    r"([A-Za-z][a-z]+)[ \t]+(?=[a-z`\[\"“])"
)


# "Configure Grafana Alloy to scrape logs": telling a component what to do, whatever its name.
_TELLING_OPENING = re.compile(
    r"[ \t>*+#-]*(?:\d+[.)][ \t]+)?(?:(?i:next|then|first|finally|now),?[ \t]+)?"
    r"(?:Configure|Set[ \t]+up|Enable|Allow|Tell|Point)[ \t]+"
)


def _in_an_instruction(text: str, last: int) -> bool:
    match = _INSTRUCTION_OPENING.match(text)
    if match is None or match.group(1).lower() not in _TO_DO:
        match = _TELLING_OPENING.match(text)
        if match is None:
            return False
    return _HARD_STOPS.search(text, match.end(), last) is None


# "When `MCP_ENABLED` is `false`, the agent uses built-in tools": a clause on a setting's
# value, opening with "when" (or "once", "whenever"), conditions what it is about as "if"
# does, before or after it ("X writes to Redis when caching is enabled"); "when a request
# arrives, X calls Y" states what happens each time, and stays. A setting in backticks may
# hold dots (`--query.promql-engine=thanos`).
# What a setting is made ("enabled", "set", "turned off"), said of it or with it left unsaid.
_SET = r"enabled|disabled|configured|set|specified|turned\s+(?:on|off)|switched\s+(?:on|off)"
_SETTING_CLAUSE = (
    r"(?:when|whenever|once)\s+(?:`[^`\n]{1,60}`|[^,.;:!?\n`]){1,80}?\s+(?:is|are)\s+(?:not\s+)?"
    r"(?:(?:set(?:\s+to)?|unset|true|false|on|off|missing|empty|present|" + _SET + r")"
    r"\b[^,.;:!?\n]{0,60}?|`[^`\n]{1,40}`\s*)"
)
# (after a connective: "However, when `--engine=thanos` is specified, Thanos uses ...")
_CONNECTIVE = r"(?:(?:however|but|and|also|otherwise|alternatively|instead|note\s+that),?\s+)?"
_SETTING_CONDITION = re.compile(r"\A\W*" + _CONNECTIVE + _SETTING_CLAUSE + ",", re.I)
# "When enabled, X uses Y", "...in one way: when enabled on a dual-stack cluster, X uses Y":
# the setting is what the sentence is about, left unsaid.
_UNSAID_SETTING = re.compile(
    r"(?:\A\W*|[:;]\s+)" + _CONNECTIVE + r"(?:when|whenever|once|if)\s+(?:" + _SET + r")"
    r"\b[^,.;:!?\n]{0,60},",
    re.I,
)
_SETTING_CONDITION_AFTER = re.compile(
    r"(?<![\w'’-])" + _SETTING_CLAUSE + r"(?=[,.;:!?\n]|\Z)", re.I
)


def _on_a_setting(text: str, first: int, last: int) -> bool:
    """Whether a clause on a setting's value conditions the relation: one opening `text` and
    ending before the relation's first end `first`, or one after its later end `last` in its
    clause."""
    match = _SETTING_CONDITION.match(text)
    if match is not None and match.end() <= first:
        return True
    for match in _UNSAID_SETTING.finditer(text, 0, first):
        if _HARD_STOPS.search(text, match.end(), first) is None:
            return True
    after = _SETTING_CONDITION_AFTER.search(text, last)
    return after is not None and _HARD_STOPS.search(text, last, after.start()) is None


# "only when" ("only available when") then a clause not closed before the relation opens:
# the relation is that clause's, the condition of something else ("The setting is only
# available when Harbor relies on authproxy"). A plain "when" is a time, and what it says
# happens ("When the frontend calls the cart, the cart is locked").
_WHEN = re.compile(
    r"(?<![\w'’-])only\s+(?:[\w-]+\s+){0,2}?(?:when|whenever|once)\s+(?=[^,.;:!?\n]*\Z)", re.I
)


def _in_a_when_clause(text: str, first: int) -> bool:
    return _WHEN.search(text[:first]) is not None


# A clause of its own after the relation, whose condition is its own: "X uses Redis while
# the others use Postgres if...", "X calls Y, which retries if it fails".
_LATER_CLAUSE = re.compile(r"\b(?:while|whereas|which)\b", re.I)
# A condition closed by a comma with more of the sentence after it is set before what it
# conditions, not after.
_FRONTED = re.compile(r"[^,.;:!?\n]*,\s*\w")


# A time to come after the relation, in its clause: "Checkout will call the tax service next
# year", "X moves to Y in a future release" (PLANNED_AFTER).
PLANNED_AFTER: tuple[str, ...] = (
    "next quarter", "next year", "next month", "next week", "next release", "next version",
    "in the future", "in a future release", "in a future version", "in an upcoming release",
    "later this year", "soon",
)  # fmt: skip
_PLANNED_AFTER = _any_of(PLANNED_AFTER)


def _planned_after(text: str, last: int) -> bool:
    """Whether a time to come after the relation's later end `last`, in its clause, places
    it in the future (PLANNED_AFTER)."""
    match = _PLANNED_AFTER.search(text, last)
    return (
        match is not None
        and _HARD_STOPS.search(text, last, match.start()) is None
        and _LATER_CLAUSE.search(text, last, match.start()) is None
    )


def _conditioned_after(text: str, last: int) -> bool:
    """Whether a condition after the relation's later end `last`, in its clause, governs it
    (CONDITIONS_AFTER)."""
    for match in _CONDITION_AFTER.finditer(text, last):
        if (
            _HARD_STOPS.search(text, last, match.start()) is not None
            or _LATER_CLAUSE.search(text, last, match.start()) is not None
        ):
            return False  # a later clause's condition
        before = max(0, match.start() - 24)
        if match.group().casefold() == "if" and _ASKING.search(text, before, match.start()):
            continue  # "to check if": a question, no condition
        if _FRONTED.match(text, match.end()):
            continue  # "reads from A and, if that fails, from B": it conditions what follows
        return True
    return False
