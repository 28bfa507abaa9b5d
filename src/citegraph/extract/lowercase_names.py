"""Names written in lower case by their makers ("etcd", "k6", "pprof", "containerd"): English
capitalises a sentence's first word, so a word in lower case opening a sentence, as the
subject of a verb, is a name spelled so. Offsets are character offsets in the text."""

from __future__ import annotations

import re

from ..text.fences import code_blocks
from ..text.words import STOPWORDS
from .verbs import VERBS

# A verb after the word, in the third person or after an auxiliary: the word is its subject
# ("etcd uses gRPC", "k6 is a load testing suite", "etcd v3 uses"); a noun after it ("deleting
# messages", "sampler configs") makes it no subject.
_FINITE = sorted(
    {v.phrase.split()[0] for v in VERBS if not v.passive and v.phrase.split()[0].endswith("s")}
    | set(
        "is are was were has have can cannot will does should must may also provides "
        "supports exposes runs implements offers keeps creates allows lets".split()
    )
)
_OPENING_SUBJECT = re.compile(
    r"(?:\A|\n[ \t]*\n[ \t]*|(?<=[.!?])[ \t]+)"  # a paragraph's or a sentence's start
    r"([a-z][a-z0-9+_-]*[a-z0-9])"
    r"(?:[ \t]+v?\d+(?:\.(?:\d+|x))*)?"  # its version ("etcd v3 uses")
    r"[ \t]+(?:" + "|".join(_FINITE) + r")(?![\w'’-])"
)
_VERSION_WORD = re.compile(r"v\d")


def names_opening_sentences(text: str) -> list[tuple[str, int]]:
    """Words in lower case opening a paragraph or a sentence of `text` as a verb's subject,
    outside fenced code: no stopword, no verb in -ing, no version ("v2 addresses")."""
    if not any(c.islower() for c in text[:1]) and "\n\n" not in text and ". " not in text:
        return []
    blocks = code_blocks(text)[0] if ("```" in text or "~~~" in text) else []
    found: list[tuple[str, int]] = []
    for match in _OPENING_SUBJECT.finditer(text):
        word, start = match.group(1), match.start(1)
        if (
            word in STOPWORDS
            or word.endswith("ing")
            or _VERSION_WORD.match(word)
            or any(a <= start < b for a, b in blocks)
        ):
            continue
        found.append((word, start))
    return found
