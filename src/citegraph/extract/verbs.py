"""The relation verb table of the offline extractor: which words between two names (or in a
table header, or on a diagram arrow) state which typed relation. It is data, like the cue
table of modality.py: extend VERBS, or add phrases from a file of one's own (the cue file's
`[verbs]`, modality.load_cues), to teach the extractor new phrasings.

A phrase may hold `…`, which stands for up to six words, or none ("sends … to" matches "sends order
confirmations to"). A phrase marked `passive` states the relation from its object to its
subject ("is called by": B is called by A, so A calls B).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from .name_scan import literal_places


@dataclass(frozen=True)
class Verb:
    phrase: str
    type: str
    passive: bool = False


VERBS: tuple[Verb, ...] = (
    *(Verb(p, "calls") for p in (
        "calls", "call", "calling", "invokes", "invoke", "talks to", "talk to", "connects to",
        "connect to", "queries", "query", "sends requests to", "sends … requests to",
        "sends … requests … to", "makes … calls to", "requests … from", "forwards … to",
        "routes … to", "proxies … to", "delegates … to", "is a client of", "invoking",
        "querying", "talking to", "connecting to", "communicates with", "communicate with",
        "communicating with", "interacts with", "interact with", "interacting with",
        "forward … to", "forwarding … to", "route … to", "routing … to", "proxy … to",
        "proxying … to", "delegate … to", "delegating … to", "binds to", "bind to",
        "binding to", "contacts", "contact", "contacting", "requesting … from",
        "request … from",
    )),
    *(Verb(p, "calls", passive=True) for p in (
        "is called by", "are called by", "is invoked by", "is queried by",
    )),
    *(Verb(p, "depends-on") for p in (
        "depends on", "depend on", "relies on", "rely on", "requires", "require",
        "needs", "is backed by", "is built on", "depending on", "relying on", "builds on",
        "build on", "building on",
        # a requirement stated as a noun (NOUNS_IN_PHRASES): "requires (read) access to the
        # Object Store"
        "requires access to", "require access to", "needs access to", "need access to",
        "requires … access to", "needs … access to", "requires a connection to",
        "needs a connection to",
    )),
    *(Verb(p, "depends-on", passive=True) for p in ("is required by", "is needed by")),
    *(Verb(p, "uses") for p in (
        "uses", "use", "is using", "makes use of", "made use of", "make use of", "leverages",
        "using", "integrates with", "integrate with", "integrating with",
    )),
    *(Verb(p, "uses", passive=True) for p in ("is used by", "are used by")),
    *(Verb(p, "reads", passive=True) for p in ("is consumed by", "are consumed by")),
    *(Verb(p, "reads") for p in (
        "reads from", "read from", "reads … from", "fetches … from", "fetches", "loads … from",
        "retrieves … from", "pulls … from", "consumes from", "consumes", "subscribes to",
        "reads", "fetch … from", "retrieve … from", "consume from", "subscribe to",
        "reading from", "reading … from", "fetching … from", "consuming from", "subscribing to",
        "scrape … from", "scrapes … from", "scraping … from", "queries … from",
        "query … from", "querying … from", "collects … from", "collect … from",
        "collecting … from", "downloads … from", "download … from", "downloading … from",
        "obtains … from", "obtain … from", "obtaining … from",
        # a controller's ("watches `TaskRun` resources", "watches the API server for ...")
        "watches", "watches for",
    )),
    *(Verb(p, "writes") for p in (
        "writes to", "write to", "writes … to", "stores … in", "stores … into", "saves … to",
        "saves … in", "persists … to", "persists … in", "persists to", "inserts … into",
        "updates", "caches … in", "persist … to", "persist … in", "persist to", "writing to",
        "writing … to", "storing … in", "uploads … to", "upload … to", "uploading … to",
        "syncs … to", "syncs … into", "sync … to", "sync … into", "syncing … to",
        "syncing … into",
    )),
    *(Verb(p, "sends-to") for p in (
        "sends to", "sends … to", "publishes to", "publishes … to", "emits … to",
        "pushes … to", "enqueues … to", "enqueues … on", "notifies", "posts … to",
        "produces … to", "produces to", "send to", "send … to", "publish to", "publish … to",
        "emit … to", "enqueue … to", "sending to", "sending … to", "publishing to",
        "publishing … to", "push … to", "pushes to", "push to", "pushing … to",
        "delivers … to", "deliver … to", "delivering … to", "dispatches … to",
        "dispatch … to", "dispatching … to", "exports … to", "exports … into",
        "export … to", "export … into", "exporting … to", "exporting … into",
        "distributes … to", "distribute … to", "distributing … to", "passes … to",
        "pass … to", "passing … to", "pushes … into", "push … into", "pushing … into",
    )),
    # "Ingesters receive samples from the distributors": the distributors send them.
    *(Verb(p, "sends-to", passive=True) for p in (
        "receives … from", "receive … from", "receiving … from", "receives from",
    )),
)  # fmt: skip

# The nouns of the phrases above that state a requirement as a noun ("requires access to"):
# nouns wherever else they stand (prose_names.VERB_WORDS leaves them out).
NOUNS_IN_PHRASES = frozenset({"access", "connection"})

_PREPOSITIONS = frozenset({"to", "from", "in", "into", "on", "by", "of"})
# At most this many words stand in a phrase's `…`.
_GAP_WORDS = 6


# "by" followed by one of these words names a manner, not who does it.
_NO_AGENT = (
    r"(?!\s+(?:default|design|hand|convention|itself|themselves|name|means|mistake|chance|"
    r"accident|way|far)(?![\w-]))"
)


def _compile(phrase: str) -> re.Pattern[str]:
    pattern = ""
    for word in phrase.split():
        if word == "…":
            # (no "to": "requests the replica to restore from the snapshot" asks the replica
            # to do something, the "from" is its verb's)
            pattern += r"(?:(?!to\s)[\w'’-]+\s+){0," + str(_GAP_WORDS) + "}?"
        else:
            pattern += re.escape(word) + r"\s+"
    pattern = pattern.removesuffix(r"\s+")
    if phrase.split()[-1] == "by":
        # "is used by default", "is called by name": no agent follows
        pattern += _NO_AGENT
    if phrase.split()[-1] not in _PREPOSITIONS:
        # "needs to be set" states no dependency; "the commercial use of", "the needs of",
        # "queries of the log" are nouns; "calling for X to withdraw" asks for something
        pattern += r"(?!\s+(?:to|of|for)\s)"
    return re.compile(r"(?<![\w-])" + pattern + r"(?![\w-])", re.I)


# Words that start no phrase's test: a phrase is looked for where its first other word is
# written ("client" in "is a client of"; "a" would send every sentence to the phrase search).
_AUXILIARIES = frozenset(
    {"is", "are", "a", "an", "the", "to", "from", "in", "into", "on", "by", "of", "…"}
)


def _key_word(phrase: str) -> str:
    return next(w for w in phrase.lower().split() if w not in _AUXILIARIES)


def phrase_problem(phrase: str) -> str | None:
    """Why `phrase` cannot be a verb phrase of the table (None: it can): its first word that
    is no auxiliary ("is", "to", "by"...) is found by a word search of letters a-z only."""
    words = [w for w in phrase.lower().split() if w not in _AUXILIARIES]
    if not words:
        return (
            "it needs a word other than is, are, a, an, the, to, from, in, into, on, by, of and …"
        )
    if not re.fullmatch(r"[a-z]+", words[0]):
        return f"its first such word, {words[0]!r}, must be letters a-z only"
    return None


_WORDS = re.compile(r"[a-z]+")
# A verb's word followed by a participle and "by" is a noun: "DB calls made by the service",
# "writes issued by the job" (the participle says who made them).
_NOUN_BEFORE_AGENT = re.compile(
    r"\s+(?:[a-z]+ed|made|sent|done|run|built|written|read|taken|given|seen|held|kept|shown|"
    r"known|found|set|put|paid|brought|led)\s+by\b",
    re.I,
)
# A verb's word that is also a plural noun ("queries", "calls", "reads"), followed by a verb,
# is the noun: "TraceQL queries return traces from Tempo", "the cart calls can fail", "ledger
# reads are served from a replica" (a verb's object never opens with one of these).
_A_PLURAL_NOUN = frozenset({"calls", "queries", "reads", "writes", "uses", "needs", "updates"})
_VERB_AFTER_A_NOUN = re.compile(
    r"\s+(?:are|is|were|was|can|cannot|could|may|might|must|should|will|would|do|does|did|"
    r"don't|doesn't|have|has|had|return|fail|go|hit|reach|arrive|take|succeed|time\s+out|"
    r"flow|pass|get|stay|remain|complete|finish|include|contain)(?![\w'’-])",
    re.I,
)
# "calls" or "requests" followed by where they come from or go between is the noun: "proxies
# Store API calls from Thanos Query to the front end", "handles all CRI service requests from
# the Kubelet", "calls between services are retried".
_CALLS_FROM = re.compile(r"\s+(?:from|between|per)(?![\w-])", re.I)
# A phrase ending in "to" followed by a lowercase word and a determiner: "to" opens an
# infinitive, not where something goes ("configuring Linkerd proxies to emit an HTTP access
# log": nothing is proxied to HTTP).
_INFINITIVE_AFTER = re.compile(
    r"\s+(?!(?:all|both|only|just|each|every|any|some|either|one|two|three|several|many|"
    r"most|half|none|exactly|directly)\s)[a-z]+\s+"
    r"(?:an?|the|its|their|this|that|these|those|all|some|any|each|every)\s",
)
# Right before a verb's word (not in -ing): that word is a noun.
_PREPOSITION_BEFORE = re.compile(
    r"(?<![\w-])(?:for|of|in|into|with|without|on|by|from|about|under)\s+\Z", re.I
)
# A form of "be" just before a verb's word makes it a participle ("can be read from", "is
# read by"): what it states of the name before it is no doing of that name's.
_BE_BEFORE = re.compile(r"(?<![\w-])(?:is|are|was|were|be|been|being)\s+(?:[a-z]+ly\s+)?\Z", re.I)
# What a verb is done with, through, over or for, not to: a name after it, past the verb's
# own object, is no object ("reads carts via the Redis client" reads no Redis client, "uses
# several strategies for resilience" uses no Resilience, "delegates the work to the scheduler
# over gRPC" calls no gRPC).
_INSTRUMENT = re.compile(
    r"(?<![\w-])(?:via|through|over|using|by means of|with the help of|for)(?![\w-])", re.I
)


@dataclass(frozen=True)
class Stated:
    type: str
    passive: bool
    start: int  # where the verb phrase starts in the text searched
    end: int


class VerbTable:
    """The verb phrases read as relations: VERBS, and any added (`extra`)."""

    def __init__(self, extra: tuple[Verb, ...] = ()):
        for verb in extra:
            problem = phrase_problem(verb.phrase)
            if problem is not None:
                raise ValueError(f"verb phrase {verb.phrase!r}: {problem}")
        self.extra = extra
        self.verbs = (*VERBS, *extra)
        # Longest phrases first, so that "sends requests to" wins over "sends … to"; each
        # with its key word, which the text must hold for the phrase to match.
        self._compiled = tuple(
            (_compile(v.phrase), v, _key_word(v.phrase))
            for v in sorted(self.verbs, key=lambda v: -len(v.phrase.split()))
        )
        # A phrase matches only where its first content word is written: a set lookup over
        # a text's words rules most texts out before any phrase pattern runs.
        self.key_words = frozenset(_key_word(v.phrase) for v in self.verbs)
        # One key word written as a whole run of letters: the test `_WORDS` and the key
        # words make, as one search in C that stops at the first one (run for every chunk).
        self._any_key_word = re.compile(
            r"(?<![a-z])(?:"
            + "|".join(re.escape(w) for w in sorted(self.key_words, key=lambda w: (-len(w), w)))
            + r")(?![a-z])"
        )
        # The key words no other key word starts: every key word starts with one of these,
        # and no two of them can start at one place.
        self._key_stems = tuple(
            sorted(
                w for w in self.key_words
                if not any(w != o and w.startswith(o) for o in self.key_words)
            )
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        return isinstance(other, VerbTable) and other.extra == self.extra

    def __hash__(self) -> int:
        return hash(self.extra)

    @property
    def digest(self) -> str | None:
        """A short name for the phrases added (None: the default table)."""
        if not self.extra:
            return None
        material = "\n".join(f"{v.type}:{v.passive}:{v.phrase.casefold()}" for v in self.extra)
        return hashlib.sha256(material.encode()).hexdigest()[:8]

    def any_verb(self, text: str) -> bool:
        """Whether `text` may hold a verb phrase of the table (a cheap test, to skip the
        rest)."""
        return self._any_key_word.search(text.lower()) is not None

    def verb_places(self, text: str) -> list[int] | None:
        """Where the table's key words start in `text`, in order: a part of `text` between
        non-letters may hold a verb phrase when one of them lies inside it (the test
        `any_verb` makes, for every sentence of a chunk at once). None when lowering `text`
        changes its length ("İ"), so that places in the lowered text are not places in it."""
        lowered = text.lower()
        if len(lowered) != len(text):
            return None
        return literal_places(lowered, self._key_stems, self._any_key_word)

    def stated_relation(self, between: str) -> Stated | None:
        """The relation the words `between` two names state, if any: the first verb phrase,
        longest first among those starting at the same place."""
        best: Stated | None = None
        present = self.key_words.intersection(_WORDS.findall(between.lower()))
        if not present:
            return None  # most gaps between two names: no phrase of the table starts there
        for pattern, verb, key in self._compiled:
            if key not in present:
                continue  # its key word is not written here
            match = pattern.search(between)
            if match is None or (
                not verb.passive and _NOUN_BEFORE_AGENT.match(between, match.end())
            ):
                continue
            first = match.group().split(None, 1)[0]
            if (
                first.lower() in _A_PLURAL_NOUN
                and _VERB_AFTER_A_NOUN.match(between, match.start() + len(first)) is not None
            ):
                continue  # a plural noun before its verb ("reads are served from")
            if first.lower() in ("calls", "requests") and _CALLS_FROM.match(
                between, match.start() + len(first)
            ):
                continue  # the calls or requests, from somewhere: no verb
            if verb.phrase.endswith(" to") and _INFINITIVE_AFTER.match(between, match.end()):
                continue  # "to emit an ...": an infinitive, no destination
            if not first.lower().endswith("ing") and _PREPOSITION_BEFORE.search(
                between, 0, match.start()
            ):
                continue  # a noun after a preposition: "valid for use with", "the number of calls"
            if _INSTRUMENT.search(between, match.end()):
                continue  # the name after it is what the verb is done with
            if (
                not verb.passive
                and not first.lower().endswith("ing")  # "is querying": it does it now
                and _BE_BEFORE.search(between, 0, match.start())
            ):
                continue  # "the field can be read from a header": a participle, a passive
            if best is None or match.start() < best.start:
                best = Stated(verb.type, verb.passive, match.start(), match.end())
        return best

    def header_relation(self, header: str) -> Stated | None:
        """A table column headed "Calls", "Depends on", "Talks to", "Reads from",
        "Dependencies", "Upstream"...: the relation from the row's subject to the names in
        that column."""
        text = " ".join(header.strip(" *_`").split()).lower()
        if text in ("dependencies", "depends on", "upstream", "upstreams", "backends"):
            return Stated("depends-on", False, 0, len(text))
        if text in _STORE_HEADERS:  # the row's component keeps its data there
            return Stated("uses", False, 0, len(text))
        if " " not in text and not text.endswith("s"):
            return None  # "Use", "Call": a noun, or what to do ("| Scenario | Use | Reason |")
        stated = self.stated_relation(text)
        if stated is not None and stated.start == 0 and stated.end == len(text):
            return stated
        return None


# Table headers of a column naming where each row's component keeps its data.
_STORE_HEADERS = frozenset(
    {"database", "databases", "datastore", "datastores", "data store", "data stores",
     "storage", "db", "persistence", "backing store", "backing services"}
)  # fmt: skip

DEFAULT_VERBS = VerbTable()

# Verbs telling the reader what to do, as a sentence, a list item or a title opens with them
# ("## Deploy Consul", "Create a StorageClass that uses ..."): no word of a name, and what
# follows them is to be done, not done.
INSTRUCTIONS = frozenset(
    "use see run install configure deploy add set create open read check enable disable make "
    "start stop build follow click select go try visit refer learn note download update edit "
    "navigate launch apply review ensure verify test view remove delete upgrade migrate "
    "connect define provide replace rename move fix bump".split()
)
