"""What kind of answer a question asks for, and where a sentence holds one.

A quote that does not hold the kind of thing asked for does not answer: "When was Harvard
founded?" is not answered by a sentence about Harvard with no date in it, however many of the
question's words it shares. The kinds are read from the question's wording (its wh-word and
the noun after "what"/"which"); candidates are found by their shape (a capitalised name, a
number, a year or month, a colour word, a causal connective). Both are general rules of
English questions, not fitted to one data set.
"""

from __future__ import annotations

import re
from enum import StrEnum

from ..text.words import STOPWORDS, stem, tokens


class Kind(StrEnum):
    PERSON = "person"
    NUMBER = "number"
    DATE = "date"
    PLACE = "place"
    ORGANISATION = "organisation"
    COLOUR = "colour"
    REASON = "reason"
    YES_NO = "yes/no"
    OTHER = "other"


_PLACE_NOUNS = (
    "country countries city cities state states county continent region province town towns "
    "place places location locations river island islands area nation capital street "
    "mountain ocean sea lake village district borough neighborhood neighbourhood port"
).split()
_ORG_NOUNS = (
    "company companies organization organisation team university college school party "
    "group band agency institution army church newspaper club network firm corporation "
    "league airline brand publisher label"
).split()
_PERSON_NOUNS = (
    "person people man woman men women king queen president emperor ruler leader author "
    "writer poet scientist inventor founder architect artist painter composer player coach "
    "general governor pope bishop saint prince princess duke minister chancellor actor "
    "singer explorer philosopher engineer physicist chemist mathematician economist student "
    "professor teacher captain commander priest monk individual son daughter father mother"
).split()
_DATE_NOUNS = "year years century decade date day month time era period season".split()
_NUMBER_HOW = "many much long far old large big tall high deep wide heavy often fast".split()
_NUMBER_NOUNS = (
    "percentage percent proportion number amount fraction population size rate cost price "
    "distance height length weight temperature speed age score"
).split()
_AUXILIARIES = frozenset(
    "is are was were do does did can could has have had will would should shall may might "
    "must".split()
)

_WH = re.compile(
    r"\b(who|whom|whose|when|where|why|how|what|which)\b(?:\s+(\w+))?(?:\s+(\w+))?", re.I
)


# What a "how <adjective>" question measures: a number next to one of these words answers it.
_MEASURES = {
    "old": "years year aged age old",
    "long": "seconds second minutes minute hours hour days day weeks week months month years "
    "year decades decade centuries century miles mile km kilometres kilometers metres meters "
    "feet foot inches inch long",
    "tall": "metres meters feet foot inches inch cm m ft tall high",
    "high": "metres meters feet foot inches inch cm m ft km high tall altitude",
    "deep": "metres meters feet foot m ft km deep",
    "wide": "metres meters feet foot miles km m ft wide",
    "far": "miles mile km kilometres kilometers metres meters feet away",
    "heavy": "kg kilograms kilogram tonnes tons pounds lb grams g",
    "fast": "mph km/h kph knots per",
}


def _how(question: str) -> str | None:
    """The word after "how" ("old" in "how old is she?"), if the question has one."""
    match = re.search(r"\bhow\s+(\w+)", question.casefold())
    return match.group(1) if match else None


def measure_words(question: str) -> frozenset[str] | None:
    """The unit words a number must stand next to, for "how old/long/tall/..." questions."""
    word = _how(question)
    return frozenset(_MEASURES[word].split()) if word in _MEASURES else None


# "What language is X written in?": the verb only says how a language is asked about; a
# table's Language column, or "X is a Go service", answers without it.
_LANGUAGE_QUESTION = re.compile(r"\b(?:what|which)\s+(?:programming\s+)?languages?\b")
_LANGUAGE_FRAME = frozenset("written coded implemented programmed built developed".split())


def frame_words(question: str) -> frozenset[str]:
    """Words that belong to the question's frame, not its terms: the adjective of "how old",
    "how many"; the verb of "what language is X written in"."""
    lowered = question.casefold()
    word = _how(question)
    found = {word} if word in _NUMBER_HOW else set()
    if _LANGUAGE_QUESTION.search(lowered):
        found |= {w for w in tokens(lowered) if w in _LANGUAGE_FRAME}
    return frozenset(found)


def question_kind(question: str) -> Kind:
    """The kind of answer `question` asks for (OTHER when its wording does not say)."""
    lowered = question.casefold()
    words = tokens(lowered)
    if words and words[0] in _AUXILIARIES and not _WH.search(lowered):
        return Kind.YES_NO
    match = _WH.search(lowered)
    if match is None:
        return Kind.OTHER
    wh, second, third = match.group(1), match.group(2) or "", match.group(3) or ""
    if wh in ("who", "whom", "whose"):
        return Kind.PERSON
    if wh == "when":
        return Kind.DATE
    if wh == "where":
        return Kind.PLACE
    if wh == "why":
        return Kind.REASON
    if wh == "how":
        if second in _NUMBER_HOW:
            return Kind.DATE if second == "long" and third == "ago" else Kind.NUMBER
        if second == "come":
            return Kind.REASON
        return Kind.OTHER
    # what / which: the noun after it, or after "kind/type of", says what is asked.
    nouns = [second, third]
    if second in ("kind", "type", "sort"):
        nouns = [w for w in re.findall(r"\b(?:kind|type|sort)\s+of\s+(\w+)", lowered)]
    for noun in nouns:
        if noun in ("color", "colour", "colors", "colours"):
            return Kind.COLOUR
        if noun in _DATE_NOUNS:
            return Kind.DATE
        if noun in _PERSON_NOUNS:
            return Kind.PERSON
        if noun in _NUMBER_NOUNS:
            return Kind.NUMBER
        if noun in _PLACE_NOUNS:
            return Kind.PLACE
        if noun in _ORG_NOUNS:
            return Kind.ORGANISATION
    if re.search(r"\bwhat\s+(?:was|is)\s+the\s+reason\b|\bwhat\s+caused\b", lowered):
        return Kind.REASON
    return Kind.OTHER


_MONTHS = (
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
).split()
_NUMBER_WORDS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety "
    "hundred hundreds thousand thousands million millions billion billions trillion dozen "
    "dozens".split()
)
_COLOURS = frozenset(
    "red orange yellow green blue indigo violet purple pink brown black white grey gray "
    "gold golden silver crimson scarlet maroon navy azure turquoise beige ivory".split()
)
_YEAR = re.compile(r"\b(?:1[0-9]{3}|20[0-9]{2})s?\b|\b[0-9]{1,4}\s*(?:BC|BCE|AD|CE)\b")
_DATE_WORDS = re.compile(
    r"\b(?:" + "|".join(_MONTHS) + r")\b|\b\d+(?:st|nd|rd|th)\s+century\b|\bcentur(?:y|ies)\b"
    r"|\bdecades?\b|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    re.I,
)
_DIGITS = re.compile(r"\d")
_REASON = re.compile(
    r"\b(?:because|due to|owing to|since|so that|in order to|as a result|caused|causes|"
    r"cause|reason|led to|leads to|thanks to|result of|for fear|to avoid|to prevent)\b",
    re.I,
)
_CAPITALISED = re.compile(
    r"\b[A-Z][\w'’.-]*(?:\s+(?:of|de|the|and|von|van|du|la)?\s*[A-Z][\w'’.-]*)*"
)


def _new(words: list[str], asked: set[str]) -> bool:
    """Whether `words` hold something not already in the question."""
    return any(stem(w) not in asked for w in words if w.casefold() not in STOPWORDS)


def has_candidate(
    sentence: str, kind: Kind, asked: set[str], measures: frozenset[str] | None = None
) -> bool:
    """Whether `sentence` holds an answer of `kind` that is not among the question's own
    words (their stems in `asked`): a sentence that only repeats the question answers
    nothing. `measures`: for a "how old/long/..." question, a number must stand within two
    words of one of these unit words."""
    if kind in (Kind.YES_NO, Kind.OTHER):
        return _new(tokens(sentence), asked)
    if kind is Kind.NUMBER:
        words = tokens(sentence)
        for index, word in enumerate(words):
            lowered = word.casefold()
            if not (_DIGITS.search(word) or lowered in _NUMBER_WORDS) or stem(word) in asked:
                continue
            if measures is None:
                return True
            near = {w.casefold() for w in words[max(0, index - 2) : index + 3]}
            if measures & near or re.search(r"\d(?:-year|yo\b)", lowered):
                return True
        return False
    if kind is Kind.DATE:
        found = [m.group() for m in _YEAR.finditer(sentence)]
        found += [m.group() for m in _DATE_WORDS.finditer(sentence)]
        return any(_new(tokens(f), asked) for f in found)
    if kind is Kind.COLOUR:
        return any(t.casefold() in _COLOURS and stem(t) not in asked for t in tokens(sentence))
    if kind is Kind.REASON:
        return _REASON.search(sentence) is not None
    # A person, place or organisation: a capitalised name, not the sentence's first word alone.
    for match in _CAPITALISED.finditer(sentence):
        words = tokens(match.group())
        if match.start() == 0 and len(words) == 1 and words[0].casefold() in STOPWORDS:
            continue
        if _new(words, asked):
            return True
    return False
