"""The objects of a relation's verb in a sentence: the name right after the verb, and those
listed with it ("calls A, B and C"), unless the words between say the name is no object (a
place among the project's files, a part or datum of it, a pronoun, a second noun phrase), or
a name in parentheses after a generic component is the one meant ("a message broker
(RabbitMQ)"). Offsets are character offsets in the sentence.
"""

from __future__ import annotations

import re

from ..text.sentences import CODE_SPAN
from ..text.words import STOPWORDS
from .prose_names import (
    ACTING_ON,
    COMPONENT_PARTS,
    COMPONENT_WORDS,
    RUNNING_THINGS,
    SAME_THING,
    VERB_WORDS,
    Name,
    ends_in_an_amount,
)
from .subjects import CLAUSE_WORDS, DETERMINERS, a_kind
from .verbs import Stated, VerbTable

# Between two names of a list: a comma or "and", "or", "and/or", the kind of the name
# before it ("the Redis cache and the Spanner database") and the quotes of code aside.
_KIND = r"(?:\s+(?:" + "|".join(sorted({*COMPONENT_WORDS, *SAME_THING})) + r"))?"
_JOINER = r"(?:,\s*(?:and\s+|or\s+)?|\s+and/or\s+|\s+and\s+|\s+or\s+)"
LIST_JOINER = re.compile(r"`?" + _KIND + r"\s*" + _JOINER + r"\s*(?:the\s+)?`?")
# Between a verb and its object: articles and a few words, no clause break.
_MAX_OBJECT_GAP = 40


# A generic component named in parentheses right after it ("an in-memory database (HSQLDB)",
# "a message broker (RabbitMQ, by default)"): the name in them is the thing meant.
_GENERIC_BEFORE = re.compile(
    r"\s*(?:(?:an?|the|its|their)\s+)?(?:[\w-]+\s+){0,2}?(?:"
    + "|".join(COMPONENT_WORDS)
    + r"|datastore|registry|storage|bus)\s*\(\s*\Z",
    re.I,
)
_CLOSES_PARENTHESES = re.compile(r"\s*[),]")


def _named_in_parentheses(text: str, following: list[Name], after: int) -> Name | None:
    """The name in parentheses right after a generic component that follows the verb at
    `after` (written in lower case, as a phrase or a word), or None."""
    for index, name in enumerate(following[:2]):
        gap = text[after : name.start]
        if index == 1 and not (following[0].text.islower() and following[0].end <= name.start):
            return None
        if _GENERIC_BEFORE.fullmatch(gap) and _CLOSES_PARENTHESES.match(text, name.end):
            return name
    return None


def objects_after(text: str, names: list[Name], after: int) -> list[Name]:
    """The name right after position `after` (a verb's end), and those listed with it."""
    following = [n for n in names if n.start >= after]
    if not following:
        return []
    meant = _named_in_parentheses(text, following, after)
    if meant is not None:
        return [meant]
    # code in backticks is one word of the gap, whatever it holds ("the `/items/{id}.json`
    # endpoint of the Catalog")
    gap = CODE_SPAN.sub("`", text[after : following[0].start])
    gap = _ONE_OR_MORE.sub(" ", gap)  # "from one or more VStreamer instances": a count
    words = re.findall(r"[\w'’-]+", gap.lower())
    if (
        len(gap) > _MAX_OBJECT_GAP
        or re.search(r"[.;:!?,()\n—–]", gap)  # (a dash sets off a clause of its own)
        or CLAUSE_WORDS.intersection(words)
        or ends_in_an_amount(gap)  # "requires 4 GB of RAM": a resource's amount
    ):
        return []
    if words and words[0] in _OBJECT_PRONOUNS:
        return []  # "uses it as Primary Vindex": it is what is used
    if _compares(words):
        return []  # "uses the same configuration as the OCI CLI": the configuration is used
    if words and words[-1] in _POSSESSIVES and following[0].text.lower() in _PARTS:
        return []  # "leverages its API": a part of something, not a component named
    if _noun_phrases(words) > 1:
        return []  # "will call this method every `pollingInterval`": the method is called
    if _in_a_modifier(words):
        return []  # "uses annotations on the Go structs": the annotations are used
    if (
        words
        and words[-1] in _DATA_NAMED
        and text[following[0].start - 1 : following[0].start] == "`"
    ):
        return []  # "updates the label `mgr_role`": a datum, named, no component
    if following[0].text.lower() in _PARTS and _OF.match(text, following[0].end):
        # "the v2 API of etcd": etcd, when named; a part of what is not named is no object
        owner = following[1] if len(following) > 1 else None
        if owner is None or not _OF.fullmatch(text, following[0].end, owner.start):
            return []
        following = following[1:]
    after_listed = _MORE_CODE.match(text, following[0].end)
    if _A_PLACE_AFTER.match(text, after_listed.end() if after_listed else following[0].end):
        # "uses the files in the media-service folder": a place, not the object; "the `mon`
        # and/or `all` sections" (code listed with it, naming nothing)
        return []
    if len(following) > 1 and _CALLED.fullmatch(text, following[0].end, following[1].start):
        return [following[1]]  # "uses a LoadBalancer service called `istio-ingressgateway`"
    while (
        len(following) > 1
        and following[1].text[:1].isupper()
        and _MODIFIES.fullmatch(text, following[0].end, following[1].start)
    ):
        # "sends events to AWS S3 bucket": S3, of AWS; not a phrase in lower case after a
        # name ("the MySQL client server protocol"), which the name modifies
        following = following[1:]
    listed = [following[0]]
    # In a clause opening the sentence ("If X calls Y, Z flushes"), a comma ends the clause
    # unless a list goes on after it ("If X calls Y, Z and W, ...").
    opening = _OPENING_CLAUSE.match(text) is not None and "," not in text[:after]
    for index, name in enumerate(following[1:], 1):
        joiner = text[listed[-1].end : name.start]
        if not LIST_JOINER.fullmatch(joiner):
            break
        if (
            opening
            and _BARE_COMMA.fullmatch(joiner)
            and not _a_list_goes_on(text, following, index)
        ):
            break
        listed.append(name)
    if len(listed) > 1 and _OWN_VERB.match(text, listed[-1].end):
        listed.pop()  # "X calls A and B restarts it": B opens a clause of its own
    if len(listed) > 1 and _A_PLACE_AFTER.match(text, listed[-1].end):
        return []  # "use raw JSON or YAML files": the files, of either kind
    return listed


def named_objects(text: str, objects: list[Name]) -> list[Name]:
    """`objects` (a verb's, as objects_after or past_the_objects find them), or none when the
    last modifies a noun after it: "needs an AWS access key", "reads Ledger entries", "uses
    Update requests" take the noun phrase, which names no component; so does a list before
    such a noun ("CPU and Memory data"); or when it is used as a datum ("as client ID")."""
    if not objects or _AS_A_DATUM.match(text, objects[-1].end):
        return []  # "uses `cert-manager.io` as client ID": a value, no component
    after = _WORD_AFTER.match(text, objects[-1].end)
    if (
        len(objects) > 1
        and after is not None
        and (after.group(1) in VERB_WORDS or after.group(1).endswith(("s", "ed")))
    ):
        return objects  # "calls A and B writes to C": B's verb (the caller leaves B out)
    return [] if _modifies_a_noun(text, objects[-1]) else objects


# What a name is used as, when that is a datum ("as client ID", "as the token name").
_AS_A_DATUM = re.compile(
    r"[`*_]*\s+as\s+(?:(?:an?|the|its|their)\s+)?(?:[\w-]+\s+){0,2}?(?:ids?|names?|keys?|"
    r"values?|labels?|prefix|suffix|identifiers?|passwords?|usernames?|tokens?|headers?|tags?|"
    r"strings?|secrets?)(?![\w-])",
    re.I,
)
# A word in lower case right after a name (its code's or bold's marks aside).
_WORD_AFTER = re.compile(r"[`*_]*[ \t]+([a-z][a-z0-9-]*)(?![\w`'’])")
# Words after an object that leave it the object: what it is ("the Redis database", "the
# Pyroscope server", "the Grafana Cloud stack", "Kafka v2"), a word of the sentence going on
# (a preposition, an adverb, a conjunction, a verb of the table) rather than a noun it
# modifies.
_STILL_THE_OBJECT = (
    STOPWORDS | CLAUSE_WORDS | frozenset(COMPONENT_WORDS) | SAME_THING | COMPONENT_PARTS
    | RUNNING_THINGS | ACTING_ON | frozenset(
        "via across within without inside outside per behind like unlike instead unless "
        "whenever although though whereas except plus versus vs etc alone too even already "
        "ever today first directly always never still later either yet upstream downstream "
        "next last rather twice soon tomorrow yesterday anymore otherwise afterwards "
        "servers stack stacks framework frameworks provider providers version versions "
        "release releases installation installations engine engines platform platforms "
        "sdk sdks agent agents proxy proxies sidecars collector collectors exporter exporters "
        "receiver receivers runtime nodes brokers databases caches stores gateways backends "
        "frontends topics buckets implementation implementations algorithm algorithms "
        "present available ready configuration configurations config source sources sink sinks"
        .split()
    )
)  # fmt: skip


_INSTANCES = frozenset("resource resources object objects".split())
# Participles that make a name into an adjective, written without a hyphen ("Annotation
# based", "Redis backed").
_COMPOUNDING = frozenset("based driven backed powered".split())


def _modifies_a_noun(text: str, name: Name) -> bool:
    """Whether the object `name` is followed by a noun it modifies, so that the noun phrase
    is what the verb takes and names no component: "needs an AWS access key", "uses Update
    requests", "requires 5 TCP connections", "the CIT name". A word of the sentence going on
    (see _STILL_THE_OBJECT), an adverb in -ly, a participle in -ing or -ed, is no such noun."""
    after = _WORD_AFTER.match(text, name.end)
    if after is None or text[name.end : name.end + 1] == "`":
        return False  # (what follows a name in code says what it is: sentence_names.py)
    word = after.group(1)
    if word in _COMPOUNDING:
        return True  # "uses Annotation based resource tracking": a kind of tracking
    if word in _INSTANCES:
        # "a Kubernetes Secret resource", "`Lease` objects": instances of a kind; "custom
        # Kubernetes resources" are a product's, and no component
        return " " not in name.text and not a_kind(text, name)
    return not (
        word in _STILL_THE_OBJECT
        or word.endswith(("ly", "ing", "ed"))
        or re.fullmatch(r"v\d[\w.]*", word) is not None
    )


# More code listed after a name in code, up to the word saying what they all are.
_MORE_CODE = re.compile(r"(?:`?\s*" + _JOINER + r"`[^`\n]+)+`")


def _compares(words: list[str]) -> bool:
    """Whether the words between a verb and a name compare what the verb takes with the
    name ("more memory than", "a format unlike", "the same settings as"); "such as" gives an
    example of it instead ("a database such as PostgreSQL")."""
    if "than" in words or "unlike" in words:
        return True
    return any(w == "as" and words[i - 1 : i] != ["such"] for i, w in enumerate(words))


_ONE_OR_MORE = re.compile(r"(?<![\w-])(?:one|zero|two|\d+)\s+or\s+(?:more|many)(?![\w-])", re.I)
_OBJECT_PRONOUNS = frozenset({"it", "them", "itself", "themselves", "him", "her", "us", "me"})
_POSSESSIVES = frozenset({"its", "their", "his", "her", "our", "your", "my"})
# Names of a part of a component, and what joins it to the component it is part of.
_PARTS = frozenset(
    "api apis sdk sdks cli ui endpoint endpoints interface interfaces port ports".split()
)
_OF = re.compile(r"\s+of\s+(?:the\s+|an?\s+)?")
# Between two names, the first modifying the second ("AWS S3"). (A possessive's owner stays
# the object: "Prometheus's `reload` endpoint" is Prometheus's part, not a component.)
_MODIFIES = re.compile(r"[ \t]+`?")
# A kind, then the name of the one meant: "a LoadBalancer service called `istio-ingress`".
_CALLED = re.compile(r"\s+(?:[\w-]+\s+)?(?:called|named)\s+`?")


# Prepositions that open a modifier of the noun before them ("annotations on the Go
# structs", "a custom task of the `v1alpha1` version"; not "in", "for", "with", which as
# often close the verb's own phrase: "stores the items in the cart in Redis"), and nouns
# that count or pick out what the phrase after them names, which stays the object ("a
# collection of X plugins", "the latest version of Redis", "on top of the Collector").
_MODIFIER_PREPOSITIONS = frozenset("of on under about".split())
_COUNTING_NOUNS = frozenset(
    "collection set pair variety number list lot lots group series kind kinds type types sort "
    "one all some any each most many few both none instance instances copy copies version "
    "versions release flavor flavour fork cluster pool fleet availability use combination "
    "mix subset part rest top out".split()  # (and idioms: "on top of", "out of date")
)


# Words for a datum or a setting, before the name in code they give it ("the label
# `mgr_role`", "the field `spec`", "the key `private`").
_DATA_NAMED = frozenset(
    "label labels field fields key keys flag flags option options parameter parameters param "
    "params annotation annotations setting settings variable variables property properties "
    "attribute attributes header headers value values argument arguments column columns".split()
)


# Places within what the phrase after them names: what is done to them is done to it.
_PLACES_IN = frozenset(
    "directory directories folder folders file files path paths table tables bucket buckets "
    "disk disks partition partitions volume volumes node nodes host hosts".split()
)


def _in_a_modifier(words: list[str]) -> bool:
    """Whether the gap `words` between a verb and a name puts the name in a prepositional
    phrase modifying a noun the verb takes ("uses annotations on the Go structs")."""
    return any(
        w in _MODIFIER_PREPOSITIONS
        and i > 0
        and words[i - 1] not in DETERMINERS
        and words[i - 1] not in _COUNTING_NOUNS
        and words[i - 1] not in _PARTS  # "the `/vehicleinfo` endpoint of the Registry"
        and words[i - 1] not in _PLACES_IN  # "writes to two directories on the Volume"
        and words[i - 1] not in _MODIFIER_PREPOSITIONS
        for i, w in enumerate(words)
    )


def _noun_phrases(words: list[str]) -> int:
    """How many noun phrases open in `words` (by a determiner), one after "of" (" the API of
    the Ledger Service") counted with the phrase it is part of."""
    return sum(1 for i, w in enumerate(words) if w in DETERMINERS and words[i - 1 : i] != ["of"])


# A subordinate clause opening a sentence: its verb's objects end at the comma closing it.
_OPENING_CLAUSE = re.compile(
    r"\s*(?:[-*+]\s+)?(?:if|when|whenever|once|unless|after|before|because|although|though|"
    r"while|until)(?![\w-])",
    re.I,
)


_BARE_COMMA = re.compile(r"`?" + _KIND + r"\s*,\s*(?:the\s+)?`?")


def _a_list_goes_on(text: str, names: list[Name], index: int) -> bool:
    """Whether `names[index]` is followed by another item of a list ("Y, Z and W")."""
    if index + 1 >= len(names):
        return False
    joiner = text[names[index].end : names[index + 1].start]
    return LIST_JOINER.fullmatch(joiner) is not None


# A name before one of these words names a place among the project's files or pages, or a
# text or artifact about it, not a component the verb reaches ("the media-service folder",
# "the cart chart", "the Redis docs", "this OpenAPI spec", "a Docker build", a part of a
# user interface: "the Patterns tab"), or a part or datum of what it names: "requires the
# HTTP headers", "requires all gRPC clients to present", "CPU extensions", "Gateway API
# resource types", "the Redis fields", "Golang applications", "Basic authentication", "the
# host PID namespace", "the HTTP protocol".
_A_PLACE_AFTER = re.compile(
    r"\s+(?:folders?|director(?:y|ies)|dirs?|files?|repos?|repositor(?:y|ies)|paths?|charts?|"
    r"docs|documentation|pages?|sections?|readme|templates?|manifests?|specs?|specifications?|"
    r"schemas?|formats?|definitions?|builds?|syntax|conventions?|tabs?|buttons?|menus?|"
    r"panels?|screens?|dialogs?|widgets?|headers?|clients|handlers?|extensions?|methods?|"
    r"types?|resource\s+types?|fields?|flags?|parameters?|params|attributes?|labels?|annotations?|"
    r"cookies?|certificates?|credentials?|semantics|applications|apps|namespaces?|"
    r"authentication|authorization|encryption|protocols?)(?![\w-])",
    re.I,
)


# After the last name of a list: a verb of its own (an auxiliary, or a verb in -s or -ed
# followed by its object), so that name is the subject of a new clause, not listed.
_OWN_VERB = re.compile(
    r"\s+(?:(?:is|are|was|were|has|have|had|will|would|can|could|may|might|must|should|"
    r"does|do|did)\b|[a-z]+(?:s|ed)\s+(?:the|a|an|it|them|its|their|this|that|these|those|"
    r"every|each|all|some)\b)"
)


def past_the_objects(
    sentence: str,
    names: list[Name],
    verb_start: int,
    stated: Stated,
    objects: list[Name],
    verbs: VerbTable,
) -> tuple[list[Name], Stated] | None:
    """A verb that has a longer phrase of the same relation ("fetches" and "fetches … from")
    read up to the name after its objects, when the longer one reaches it: "fetches CPU and
    Memory data directly from the Metrics Server" reads from the Metrics Server; CPU and
    Memory are what is read. None when no longer phrase reaches past them."""
    if not objects:
        return None
    after = next((n for n in names if n.start >= objects[-1].end), None)
    if after is None:
        return None
    longer = verbs.stated_relation(sentence[verb_start : after.start])
    if longer is None or longer.start != 0 or longer.type != stated.type:
        return None
    if longer.end <= stated.end - stated.start:
        return None  # the same phrase: nothing past its objects
    found = objects_after(sentence, names, verb_start + longer.end)
    if not found:
        return None
    return found, Stated(longer.type, longer.passive, verb_start, verb_start + longer.end)
