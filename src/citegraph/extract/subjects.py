"""Who does what a verb says: the subject of a relation's verb in a sentence.

The nearest name before the verb, when the words between open no new clause and give the
verb no other agent ("X also calls Y", not "the X you call") and the name is no preposition's
object ("the pods of X call Y": the pods do); a name followed by an aside
("X, written in Go, calls Y"); else the name opening the sentence for a verb coordinated with
its first predicate (coordination.py). Offsets are character offsets in the sentence.
"""

from __future__ import annotations

import re

from .coordination import (
    ADVERBS,
    OPENING,
    WORD,
    coordinated_subject,
    listed_before,
    opening_name,
    said_of_one,
)
from .prose_names import ACTING_ON, COMPONENT_WORDS, SAME_THING, SUBJECT_PRONOUNS, Name

_MAX_SUBJECT_GAP = 60
# Between a pronoun subject and its verb: only these ("It also calls", "It does not call");
# another word makes the pronoun part of a longer subject ("The service mesh sends").
PRONOUN_LEADS = frozenset({
    "also", "then", "now", "only", "still", "directly", "always", "usually", "often",
    "sometimes", "first", "later", "in", "turn", "is", "are", "was", "were", "does", "do",
    "did", "doesn't", "don't", "didn't", "not", "never", "no", "longer", "may", "might",
    "could", "would", "will", "should", "can", "cannot", "won't", "can't",
})  # fmt: skip
CLAUSE_WORDS = frozenset({
    "and", "or", "but", "which", "that", "who", "whose", "where", "when", "while", "to",
    "then", "so", "because", "if", "instructions", "whenever", "unless", "until",
    "although", "though", "whereas",
})  # fmt: skip

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
    verb's subject: a few words, none opening a clause, giving the verb another agent or
    holding the name's own verb."""
    return (
        len(words) <= _MAX_SUBJECT_WORDS
        and not CLAUSE_WORDS.intersection(words)
        and not _another_agent(words)
        and not _a_verb_of_its_own(words)
    )


_MODALS = frozenset("can cannot could may might must should will would shall".split())


def _a_verb_of_its_own(words: list[str]) -> bool:
    """Whether a modal in `words` is followed by a verb of the name's own, so that the word
    after `words` is no verb of the name's ("Vitess can handle more complex queries with
    Gen4": it handles queries); not an adverb, a negation or "be"/"have" ("can also call",
    "will not query", "can be queried")."""
    for index, word in enumerate(words[:-1]):
        if word in _MODALS:
            following = words[index + 1]
            return not (
                following in PRONOUN_LEADS
                or following in ("be", "have", "then", "first", "directly")
                or following.endswith("ly")
            )
    return False


def _another_agent(words: list[str]) -> bool:
    """Whether the verb after `words` (the gap after a name) is done by someone else: the
    last pronoun or letting verb is followed only by auxiliaries and adverbs ("the X you
    call", "X lets you use"; not "the X we deployed calls", where "deployed" is ours)."""
    last = max((i for i, w in enumerate(words) if w in _OTHER_AGENT), default=-1)
    return last >= 0 and all(w in PRONOUN_LEADS for w in words[last + 1 :])


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
    return subject if OPENING.fullmatch(lead) else None


def _list_start(text: str, names: list[Name], name: Name) -> Name:
    """The first name of the list `name` ends, or itself."""
    listed = listed_before(text, names, name)
    return listed[0] if listed else name


# A verb whose subject is also that of the infinitive after it ("X is configured to use
# Y", "X needs to call Y", "X seems to depend on Y"): a closed class of English verbs and
# adjectives; the cue table says what "planned to", "used to" or "seems to" make of it.
_CONTROL = re.compile(
    r"(?<![\w-])(?:(?:(?:is|are|was|were|be|been|being)\s+(?:\w+ly\s+)?)?(?:configured|"
    r"designed|built|set\s+up|meant|expected|supposed|able|unable|planned|scheduled|going|"
    r"intended|likely|required|used)|needs?|needed|tries|try|tried|attempts?|attempted|"
    r"wants?|wanted|intends?|intended|seems?|seemed|appears?|appeared|continues?|continued|"
    r"has|have|had|starts?|started|begins?|began|fails?|failed|keeps?|plans?|chooses?|"
    r"chose|prefers?|preferred)\s+to\s+\Z",
    re.I,
)

# What is used serves its user's purpose, who does what the infinitive says ("X uses map types
# to pass configurations to Y": X passes them); not so what is configured or required ("X
# requires a sidecar to connect to Y": the sidecar connects). Only when what is used is named
# nowhere (the caller checks).
_USED_FOR = re.compile(
    r"(?<![\w-])(?:uses|used|leverages|leveraged|employs|employed|utili[sz]es|utili[sz]ed)\s+"
    r"(?:[\w`'’-]+\s+){1,4}(?:in\s+order\s+)?to\s+\Z",
    re.I,
)


# A verb whose object does what the infinitive after it says ("configure ExternalDNS to use
# the Contour source", "allows the Frontend to call"), right before the object.
_TELLING = re.compile(
    r"(?<![\w-])(?:configur(?:e|es|ed|ing)|tell(?:s|ing)?|told|instruct(?:s|ed|ing)?|"
    r"allow(?:s|ed|ing)?|enabl(?:e|es|ed|ing)|set(?:s|ting)?\s+up|point(?:s|ed|ing)?)\s+"
    r"(?:the\s+|your\s+|an?\s+)?[`*_]*\Z",
    re.I,
)
_TO_BEFORE = re.compile(
    r"[`*_]*(?:\s+(?:" + "|".join(COMPONENT_WORDS) + r"))?\s+to\s+\Z", re.I
)  # (a word for what the name is between: "the `ledger` service to call")


def _told_to(text: str, names: list[Name], verb_start: int) -> Name | None:
    """The name a verb of telling takes right before the infinitive at `verb_start`."""
    before = [n for n in names if n.end <= verb_start]
    if not before or not _TO_BEFORE.fullmatch(text, before[-1].end, verb_start):
        return None
    told = before[-1]
    if text[told.start - 1 : told.start] == "`" and "_" in told.text:
        return None  # "configure the `syslog_sd_key` to send": a setting, told nothing
    return told if _TELLING.search(text, max(0, told.start - 40), told.start) else None


def _subject(text: str, names: list[Name], verb_start: int) -> Name | None:
    """The name the verb at `verb_start` is said of: the nearest one before it separated
    only by a few words that open no new clause, or one followed by an aside (in commas,
    parentheses or dashes). A verb after "to" (an infinitive) has no subject here, unless
    the verb before "to" passes its own on (_CONTROL: "X is configured to use Y")."""
    if re.search(r"(?<![\w-])to\s*$", text[:verb_start], re.I):
        told = _told_to(text, names, verb_start)
        if told is not None:
            return told  # "configure ExternalDNS to use Contour": ExternalDNS uses it
        control = _CONTROL.search(text, max(0, verb_start - 60), verb_start) or _USED_FOR.search(
            text, max(0, verb_start - 80), verb_start
        )
        if control is None or any(control.start() < n.start < verb_start for n in names):
            return None
        verb_start = control.start()
    before = [n for n in names if n.end <= verb_start]
    aside = _after_aside(text, before, verb_start)
    if aside is not None:
        return aside
    labelled = _label(text, before, verb_start)
    if labelled is not None:
        return labelled
    if before and _RELATIVE.fullmatch(text, before[-1].end, verb_start) is not None:
        if len(before) > 1 and _COPULA.fullmatch(text, before[-2].end, before[-1].start):
            # "VTGate is a lightweight proxy server that routes traffic to VTTablet": what
            # the proxy server does, VTGate does
            return before[-2]
        return before[-1]  # "the Cart Service, which reads from Redis": the Cart Service reads
    for name in reversed(before):
        gap = text[name.end : verb_start]
        version = _VERSION.match(gap)
        if version is not None:
            gap = gap[version.end() :]  # "Rancher 2.x requires": Rancher, in that version
        if len(gap) > _MAX_SUBJECT_GAP or re.search(r"[.;:!?\n()\[\]—–→]|->|=>", gap):
            return None  # (an aside before the verb was read above)
        if gap.startswith(("'s ", "’s ")):
            return None  # "the frontend's help page calls...": the page does, not the frontend
        words = re.findall(r"[\w'’-]+", gap.lower())
        if words and _modifies_a_noun(words[0]):
            return None  # "The `main` branch uses...": the branch does, not main
        if len(words) > 1 and _in_ed(words[0]) and _modifies_a_noun(words[1]):
            return None  # "some Kubebuilder derived projects depend on": the projects do
        if words and words[0] in ACTING_ON and a_kind(text, name):
            return None  # "the `BackupRepository` controller invokes": the controller does
        first = _list_start(text, names, name).start
        if _after_a_preposition(text, first):
            return None  # "the containers in X use Y": the containers do, not X
        if _GERUND_OPENING.fullmatch(text, 0, first):
            return None  # "Creating multi-platform builds requires X": the creating does
        return name if "," not in gap and _leaves_the_subject(words) else None
    return None


# A version after a name ("Rancher 2.x", "etcd v3", "Traefik v3.6.2"): still the name.
_VERSION = re.compile(r"[ \t]+v?\d+(?:\.(?:\d+|x))*\+?(?=[ \t])", re.I)


# A relative pronoun right after a name (after its code's or bold's closing marks: "the
# `Task`, which uses"), then its clause's verb (an adverb may come between).
_RELATIVE = re.compile(
    r"[`*_]*\s*,?\s*(?:which|that|who)\s+(?:(?:also|then|now|only|still|directly|usually|often|"
    r"in\s+turn)\s+)*",
    re.I,
)


# A form of "be" and an article between a name and the noun phrase it is said to be.
_COPULA = re.compile(r"\s+(?:is|are|was|were)\s+(?:an?|the|one\s+of\s+the)\s+", re.I)


# A label opening a line or an item, its predicate after the colon ("- **Sidecar**: connects
# to Prometheus", "Receiver: writes blocks to the store"): the label is the subject.
_LABEL_COLON = re.compile(r"[*_`]*:[ \t]+")


def _label(text: str, before: list[Name], verb_start: int) -> Name | None:
    """The name labelling the predicate whose verb is at `verb_start`: the first name of the
    sentence, opening it (after a list's mark, in bold or not), followed by a colon, and the
    verb the first word after it."""
    first = opening_name(text, before, verb_start)
    if first is None or first.text.split()[-1].lower() in _NO_DOER:
        return None
    if first.text.endswith(("ing", "ion")):
        return None  # "*Job Queueing*:", "*Job Distribution*:": a step, not who takes it
    colon = _LABEL_COLON.match(text, first.end)
    if colon is None or colon.end() != verb_start:
        return None
    verb = _FIRST_WORD.match(text, verb_start)
    if verb is not None and verb.group()[0].isupper() and not verb.group().endswith(("s", "ed")):
        return None  # "**Data Migrations**: Use MoveTables to ...": an instruction to the reader
    return first


# Labels of what happens or what is sent, not of what does it ("*Job Response*: Sends...").
_NO_DOER = frozenset(
    "response responses request requests step steps phase stage flow message event".split()
)


# A sentence opened by a verb in -ing before the name: the name is its object.
_GERUND_OPENING = re.compile(r"\s*(?:[-*+]\s+)?[A-Za-z]+ing\s+(?:(?:the|a|an|your|our)\s+)?`?")


_PREPOSITIONS = frozenset({
    "in", "of", "for", "from", "with", "within", "inside", "on", "at", "by", "across",
    "into", "onto", "through", "under", "over", "between", "among", "per", "via", "like",
    "than", "about", "behind", "without", "to",
})  # fmt: skip
DETERMINERS = frozenset({
    "the", "a", "an", "all", "each", "every", "any", "some", "our", "its", "their", "this",
    "that", "these", "those", "your", "my", "his", "her",
})  # fmt: skip


def _after_a_preposition(text: str, start: int) -> bool:
    """Whether the name at `start` is the object of a preposition (determiners aside): part
    of a phrase about something else, which is the verb's subject ("each pod of X calls")."""
    before = text[max(0, start - 60) : start].lower()
    # (a name's code or bold marks aside: "with permission to create a `TaskRun`")
    words = [w for w in re.findall(r"[\w'’-]+|[^\w\s]", before) if w not in _MARKS]
    for index in range(len(words) - 1, -1, -1):
        if words[index] not in DETERMINERS:
            # (but "your installation of Harbor uses HTTPS": an installation of it is it)
            one_of_it = words[index] == "of" and index > 0 and words[index - 1] in _ONE_OF_IT
            if (
                index > 0
                and words[index - 1] == "to"
                and words[index].isalpha()
                and set(words[index + 1 :]) <= _ARTICLES
            ):
                return True  # "a user with permission to create a `TaskRun` can use": its object
            return words[index] in _PREPOSITIONS and not one_of_it
    return False


_MARKS = frozenset("`*_[")
_ARTICLES = frozenset({"a", "an", "the"})  # ("to ensure that X can call": X's own clause)


# What, said "of" a component, is that component itself: an installation or a copy of it.
_ONE_OF_IT = frozenset("installation installations deployment deployments instance instances "
                       "copy copies".split())  # fmt: skip


_PERSONS = SUBJECT_PRONOUNS | {"it"}  # "the X we deployed"
# Modal verbs and adverbs PRONOUN_LEADS does not hold: "the frontend must call".
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


def a_kind(text: str, name: Name) -> bool:
    """Whether `name` is written as a kind of resource, in code or with a capital inside
    ("`BackupRepository`", "PipelineRun"), whose controller is another component; a
    product's ("the Argo CD controller") is a part of it."""
    return text[name.end : name.end + 1] == "`" or any(
        a.islower() and b.isupper() for a, b in zip(name.text, name.text[1:], strict=False)
    )


def _modifies_a_noun(next_word: str) -> bool:
    """Whether a name followed by `next_word` (before the verb) is a modifier in a longer
    noun phrase ("the `main` branch", "the frontend make target", "MCP clients connect"):
    the word after it is neither an auxiliary, an adverb, a pronoun, a verb ("made use
    of", "deployed") nor a word for the component itself ("the cart pod")."""
    return not (
        next_word in PRONOUN_LEADS
        or next_word in _MORE_LEADS
        or next_word in SAME_THING
        or next_word in COMPONENT_WORDS
        or next_word in _PERSONS
        or next_word in _LEADING_VERBS
        or next_word.endswith(("ly", "ed"))
    )


def subject_of(text: str, names: list[Name], verb_start: int) -> Name | None:
    """The name the verb at `verb_start` is said of (see the module's docstring)."""
    gerund = _gerund(text, verb_start)
    if gerund and _GERUND_LEADS.search(text, max(0, verb_start - 12), verb_start) is not None:
        return _opening_subject(text, names, verb_start)
    progressive = _PROGRESSIVE.search(text, max(0, verb_start - 30), verb_start) is not None
    if gerund and not progressive and text[verb_start : verb_start + 7].lower() != "calling":
        return None  # "deployed X using Y": whoever deployed used it, not X
    found = _subject(text, names, verb_start) or coordinated_subject(text, names, verb_start)
    return _instance_named_before(text, names, found) if found is not None else None


def _instance_named_before(text: str, names: list[Name], kind: Name) -> Name:
    """The name in backticks right before a one-word name, when there is one: "`sender` Pod
    sends the request": the Pod named `sender` does; else `kind` itself."""
    if " " in kind.text or kind.start < 3 or text[kind.start - 2 : kind.start] != "` ":
        return kind
    return next((n for n in names if n.end == kind.start - 2), kind)


# A verb in -ing after one of these ("renders pages by calling X", "fails without reading
# from Y") is done by the subject of the clause it belongs to, not by the name nearest it.
_GERUND_LEADS = re.compile(
    r"(?<![\w-])(?:by|after|before|while|without|when|for|through|upon|on)\s+\Z", re.I
)
_FIRST_WORD = re.compile(r"[A-Za-z]+")
# "The Ruler is querying the Querier": a verb in -ing after a form of "be" is the Ruler's.
_PROGRESSIVE = re.compile(r"(?<![\w-])(?:is|are|was|were)\s+(?:[a-z]+ly\s+)?\Z", re.I)


def _gerund(text: str, verb_start: int) -> bool:
    word = _FIRST_WORD.match(text, verb_start)
    return word is not None and word.group().lower().endswith("ing")


def _opening_subject(text: str, names: list[Name], verb_start: int) -> Name | None:
    """The name opening the sentence, when its own verb follows it ("The frontend renders
    pages by calling X") or the gerund is an aside right after it ("The quote service, by
    calling X, prices"); None for a sentence opened otherwise, by an imperative say ("Fix X
    not starting by calling Y", "Generate load by sending...": whoever does it acts)."""
    first = opening_name(text, names, verb_start)
    if first is None or text[first.end :].startswith(("'s", "’s")):
        return None
    after = text[first.end : verb_start]
    aside = re.fullmatch(r"\s*,\s*\w+\s+", after) is not None
    words = WORD.findall(after.lower())
    if len(words) > 1 and words[1] in _NOUN_THEN_VERB and _modifies_a_noun(words[0]):
        return None  # "Http handlers are responsible for invoking X": the handlers invoke
    if _passive(words):
        return None  # "The ledger is refreshed by calling X": whoever refreshes it calls X
    return first if aside or said_of_one(words) else None


# A form of "be" or "get" then a participle: the name is what is acted on, and a gerund after
# "by" is done by the one acting, whom the sentence does not name.
_PASSIVE_AUXILIARIES = frozenset("is are was were be been being gets get got getting".split())
_PARTICIPLES = frozenset(
    "done made built kept sent run written taken given set put shown known found held".split()
)


def _passive(words: list[str]) -> bool:
    """Whether `words` (after a name) hold a passive: "is refreshed", "gets populated"."""
    for index, word in enumerate(words[:-1]):
        if word in _PASSIVE_AUXILIARIES:
            following = [w for w in words[index + 1 :] if w not in ADVERBS]
            if following and (following[0] in _PARTICIPLES or _in_ed(following[0])):
                return True
    return False


def _in_ed(word: str) -> bool:
    """A regular participle ("used", "refreshed"; not "need", "red")."""
    return len(word) >= 4 and word.endswith("ed") and not word.endswith("eed")


# An auxiliary after the word that follows a name: that word is a noun the name modifies.
_NOUN_THEN_VERB = frozenset(
    "are is was were can cannot could may might must should will would do does have has".split()
)
