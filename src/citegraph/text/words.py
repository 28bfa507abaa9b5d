"""Words of a question: tokens, content words (no stopwords, no question words), stems."""

from __future__ import annotations

import re
import threading
from functools import lru_cache

import snowballstemmer

# Letters and digits of any script; an apostrophe inside a word keeps it whole ("Alice's").
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")

QUESTION_WORDS = frozenset(
    "what which who whom whose when where why how whether does did do is are was were can "
    "could would should will shall may might must tell say says said".split()
)
STOPWORDS = (
    frozenset(
        "a about above after again against all am an and any as at be because been before "
        "being below between both but by during each few for from further had has have "
        "having he her here hers herself him himself his i if in into it its itself just me "
        "more most my myself no nor not now of off on once only or other our ours ourselves "
        "out over own same she so some such than that the their theirs them themselves then "
        "there these they this those through to too under until up very we s t don isn aren "
        "wasn weren hasn haven hadn doesn didn won wouldn shan shouldn couldn mustn mightn "
        "needn ll ve re d m o y ain while with you your yours yourself yourselves also any "
        "anything something get got gets give given one ones".split()
    )
    | QUESTION_WORDS
)

# A Snowball stemmer keeps its working word in the instance: one per thread, or concurrent
# requests corrupt each other's words (seen as IndexError under load).
_local = threading.local()


def _stemmer() -> snowballstemmer.stemmer:
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = snowballstemmer.stemmer("english")
    return stemmer


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Snowball (English) stem of a lowercased word; apostrophes dropped ("alice's" -> "alic")."""
    base = word.casefold().replace("’", "'")
    if base.endswith("'s"):
        base = base[:-2]
    return str(_stemmer().stemWord(base.replace("'", "")))


def content_words(text: str) -> list[str]:
    """The words that carry the question: no stopwords, no question words; numbers and names
    count. In order, without repeats (compared by stem)."""
    seen: set[str] = set()
    words: list[str] = []
    for token in tokens(text):
        lowered = token.casefold()
        if lowered in STOPWORDS or lowered.replace("’", "'").split("'")[0] in STOPWORDS:
            continue
        key = stem(lowered)
        if key and key not in seen:
            seen.add(key)
            words.append(token)
    return words


def stems(text: str) -> set[str]:
    """Stems of every word of `text` (for coverage checks)."""
    return {stem(token) for token in tokens(text)}


# Words that frame a question rather than carry it: "What is the warning system *called*?",
# "Where did the accident *happen*?", "Who said Treacle in the *story*?". A passage that
# answers rarely repeats them, so they are not asked of the evidence (the verdict does not wait
# for them; the answerer does not weigh them).
FRAMING_WORDS = frozenset(
    (
        "called named known termed happen happened happens happening occur occurred occurs "
        "took taken place mean means meant describe described describes example examples type "
        "types kind kinds sort everyone everybody someone somebody anyone anybody story book "
        "text passage document article paragraph"
    ).split()
)  # word forms, not stems: "called" frames ("what is it called?"), "call" may not


def framing(word: str) -> bool:
    return word.casefold() in FRAMING_WORDS
