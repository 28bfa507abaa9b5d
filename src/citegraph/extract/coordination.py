"""One subject for several verbs, or several subjects for one: the name opening a sentence
for a verb coordinated with its first predicate ("The chat service serves a web page and
forwards questions to the agent"), and the names listed with a subject at the sentence's
opening, for a plural verb ("X and Y call Z"). Offsets are character offsets in the
sentence."""

from __future__ import annotations

import re

from .prose_names import Name

# [text](target), or by reference: [text][label], [text][]
MARKDOWN_LINK = re.compile(r"\[([^\]\n]{1,80})\](?:\([^)\n]*\)|\[[^\]\n]{0,80}\])")
# What may come before the name that opens a sentence (a bullet, a heading's marks, an article).
OPENING = re.compile(r"(?:[-*+]\s+|#+\s+)?(?:(?:the|a|an|our)\s+)?", re.I)

# Between two names listed as one subject ("X and Y", "X, Y and Z"), an article aside.
_SUBJECT_LIST = re.compile(r"(?:\s*,\s*(?:and\s+)?|\s+and\s+)(?:(?:the|a|an)\s+)?`?", re.I)
_BOTH = re.compile(r"(?:[-*+]\s+|#+\s+)?(?:both\s+)?(?:(?:the|a|an|our)\s+)?", re.I)


def listed_before(text: str, names: list[Name], name: Name) -> list[Name]:
    """The names of the list `name` ends, before it ("the Web App and the Mobile App", "X, Y
    and Z"): the last joint is "and" (a comma alone is no list: "Without X, the Y calls")."""
    listed: list[Name] = []
    current = name
    for other in reversed([n for n in names if n.end <= name.start]):
        joint = _SUBJECT_LIST.fullmatch(text, other.end, current.start)
        if joint is None or (current is name and "and" not in joint.group().lower()):
            break
        listed.insert(0, other)
        current = other
    return listed


def opening_name(text: str, names: list[Name], verb_start: int) -> Name | None:
    """The first of `names` when it opens the sentence (after a bullet, a heading's marks or
    an article) and ends before the verb at `verb_start`; else None."""
    if not names or names[0].end > verb_start:
        return None
    lead = text[: names[0].start].lstrip().rstrip("`*")
    return names[0] if OPENING.fullmatch(lead) else None


_COORDINATORS = frozenset({"and", "but"})
# Auxiliaries said of one thing, and adverbs, which may stand before a predicate's verb.
_SINGULAR = frozenset({
    "is", "was", "has", "had", "does", "did", "isn't", "wasn't", "hasn't", "hadn't",
    "doesn't", "didn't", "can", "cannot", "can't", "could", "may", "might", "must", "shall",
    "should", "will", "won't", "would",
})  # fmt: skip
ADVERBS = frozenset({
    "also", "then", "now", "only", "still", "directly", "always", "usually", "often",
    "sometimes", "first", "later", "in", "turn", "not", "never", "just", "again", "even",
    "already", "thus", "therefore", "instead", "once", "rather", "thereby", "finally",
    "eventually",
})  # fmt: skip
# Between the subject and a coordinated verb: what opens a clause of its own, whose verb the
# coordinated one may be ("X calls Y, which reads Z and writes to W": Y writes, not X).
_OWN_CLAUSE = frozenset({
    "which", "that", "who", "whom", "whose", "where", "when", "while", "because", "if",
    "so", "unless", "until", "whether", "although", "though", "whereas", "or",
})  # fmt: skip
_MAX_PREDICATE = 200
# A coordinator and what may stand between it and a name that opens the next clause.
_JOINED = re.compile(
    r"(?<![\w-])(?:and|but)\s+(?:(?:then|also|so|now)\s+)?(?:(?:the|a|an)\s+)?`?", re.I
)
WORD = re.compile(r"[\w'’-]+")  # a word, with its apostrophes and hyphens


def said_of_one(words: list[str]) -> bool:
    """Whether a predicate opening with `words` agrees with one subject: its first word that
    is no adverb is a singular auxiliary or a verb in the third person or the past
    ("provides", "is", "was deployed", "forwarded"). A plural ("clients call") or a noun
    ("the `main` branch") does not."""
    for word in words:
        if word in _SINGULAR:
            return True
        if word in ADVERBS or word.endswith("ly"):
            continue
        return word.endswith("ed") or (word.endswith("s") and not word.endswith(("ss", "us")))
    return False


def coordinated_subject(text: str, names: list[Name], verb_start: int) -> Name | None:
    """The name opening the sentence, for a verb coordinated with its first predicate: "The
    chat service serves a page and forwards questions to the agent". Only when every
    predicate from the name to the verb agrees with one subject and starts after "and" or
    "but" (a name after one starts a clause of its own), and no word between opens another
    clause; a list of names as the subject ("X and Y read") is no one name."""
    first = opening_name(text, names, verb_start)
    if first is None:
        return None
    middle = MARKDOWN_LINK.sub(r"\1", text[first.end : verb_start])  # a link reads as its text
    if (
        len(middle) > _MAX_PREDICATE
        or re.search(r"[;:!?()\[\]—–]|\.\s|\n[ \t\r\f\v]*\n", middle)
        or middle.startswith(("'s", "’s"))
    ):
        return None
    words = WORD.findall(middle.lower().replace("`", ""))
    breaks = [i for i, w in enumerate(words) if w in _COORDINATORS]
    if not breaks or _OWN_CLAUSE.intersection(words):
        return None
    # After the last coordinator only adverbs and auxiliaries, then the verb itself.
    tail = words[breaks[-1] + 1 :]
    if not all(w in ADVERBS or w in _SINGULAR or w.endswith("ly") for w in tail):
        return None
    starts = {n.start for n in names}
    for joined in _JOINED.finditer(text, first.end, verb_start):
        if joined.end() in starts:
            return None  # "X calls A and Redis stores B": Redis opens a clause of its own
    verb_words = WORD.findall(text[verb_start : verb_start + 40].lower())
    predicates = [words[: breaks[0]]] + [words[i + 1 :] for i in breaks]
    predicates[-1] = tail + verb_words
    return first if all(said_of_one(p) for p in predicates) else None


def listed_with(text: str, names: list[Name], subject: Name, verb_start: int) -> list[Name]:
    """The names listed before `subject` as one subject with it ("The search service and the
    feed service read from Elasticsearch"): only when the list opens the sentence and the
    verb agrees with more than one (no third person "-s": "X and Y calls Z" is read as Y's)."""
    listed = listed_before(text, names, subject)
    if not listed or not _BOTH.fullmatch(text[: listed[0].start].lstrip().rstrip("`*")):
        return []
    verb = WORD.findall(text[verb_start : verb_start + 40].lower())[:1]
    plural = bool(verb) and not (verb[0].endswith("s") and not verb[0].endswith(("ss", "us")))
    return listed if plural else []
