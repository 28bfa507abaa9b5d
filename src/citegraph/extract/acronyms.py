"""Acronyms a text defines: "the Federal Aviation Administration (FAA)", "FAA (Federal
Aviation Administration)", "GKE stands for Google Kubernetes Engine". A definition is the
text's own statement that two names mean one thing, so it is kept as an `alias-of` relation
(acronym to long form) whose quote is the definition itself, grounded like any other
relation. Names are never made aliases because they look alike: only a definition located in
the stored text (or a `remember` fact) does it.

The long form is, first, the words whose initials spell the acronym ("limited liability
company (LLC)"; "of", "and", "the" and the like may lie between them). Failing that, it is
found as Schwartz and Hearst describe (PSB 2003): reading the acronym's letters and digits
from the last, each is found in order, backwards, in the words before the parenthesis, the
first one at the start of a word (not a stopword such as "the"); the long form starts at that
word. It has at most min(letters + 5, 2 x letters) words and stays in the clause before the
parenthesis, and each of its words gives its initial, save minor words and at most one
other ("eXtensible"). The acronym has 2 to 10 characters, starts with a capital and holds at least
two; a plural's "s" ("PFDs") is no letter of it. After "SF stands for" ("stood for", "is
short for"), the long form is the fewest words of the clause after it whose initials spell
SF (minor words set aside), failing that whose letters do; in "Long Form, or SF,", the
fewest words before it whose initials spell SF.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text.words import STOPWORDS
from ..values.paths import ALIAS_OF
from ..values.proposals import RelationProposal

__all__ = ["ALIAS_OF", "alias_relations", "definitions", "short_form"]

_ACRONYM = r"[A-Z][A-Za-z0-9&.\-]{1,9}"
# "Long Form (SF)": the acronym alone in its parentheses.
_SHORT_IN_PARENS = re.compile(r"\(\s*(" + _ACRONYM + r")\s*\)")
# "SF (Long Form)": words in parentheses, after an acronym-shaped word.
_PARENTHESIS = re.compile(r"\(([^()\n]{3,120})\)")
_ACRONYM_BEFORE = re.compile("(" + _ACRONYM + r")\s+\Z")
# What ends the clause a long form may come from.
_CLAUSE_END = re.compile(r"[.;:!?()\[\]\n\"“”]\s|[;:()\[\]\n\"“”]")
_WORD = re.compile(r"[^\W_][\w'’&-]*")


@dataclass(frozen=True)
class Definition:
    """An acronym and its long form as written; `start`..`end` is the definition's span
    (character offsets in the text): both names and the parentheses between them."""

    short: str
    long: str
    start: int
    end: int


def short_form(written: str) -> str | None:
    """The acronym `written` is (a trailing dot or dash set aside), if it has the shape of
    one: one word of 2 to 10 letters or digits, at least two capitals."""
    short = written.rstrip(".-")
    letters = [c for c in short if c.isalnum()]
    one_word = not any(c.isspace() for c in short)
    if one_word and 2 <= len(letters) <= 10 and sum(c.isupper() for c in short) >= 2:
        return short
    return None


def _minor(word: str) -> bool:
    """A word a long form does not start with ("the", "of"; a lone letter such as the T of
    "T cell receptor (TCR)" does, save "a")."""
    lowered = word.lower()
    return lowered in STOPWORDS and (len(lowered) > 1 or lowered == "a")


def _letters(short: str) -> list[str]:
    """The letters and digits an acronym spells, lowercased, a plural's "s" set aside."""
    if len(short) > 2 and short.endswith("s") and short[-2].isupper():
        short = short[:-1]
    return [c.lower() for c in short if c.isalnum()]


def _initials_start(wanted: list[str], words: list[re.Match[str]]) -> int | None:
    """Where the fewest words before the parenthesis whose initials spell `wanted` start
    (minor words may lie between them, giving their initial or not: "National Aeronautics
    and Space Administration"); None if no such words end there."""
    written = [w.group() for w in words]
    for first in range(len(words) - 1, -1, -1):
        if _spelled(wanted, written[first:]):
            return words[first].start()
    return None


def _long_form_start(short: str, words: list[re.Match[str]], text: str) -> int | None:
    """Where the long form of `short` starts among `words` (matches in `text`, in order,
    ending just before the parenthesis), or None when the letters cannot all be found."""
    wanted = _letters(short)
    if not words or not wanted:
        return None
    by_initials = _initials_start(wanted, words)
    if by_initials is not None:
        return by_initials
    start, end = words[0].start(), words[-1].end()
    # The first letter opens a word, and not a word like "the": "the Functioning of the
    # European Union (TFEU)" reads on to "Treaty on the Functioning ...".
    word_starts = {w.start() for w in words if not _minor(w.group())}
    at = end - 1
    inside_words = False  # a letter found inside a word, not at its start
    found: set[int] = set()  # where the letters were found
    for index in range(len(wanted) - 1, -1, -1):
        letter = wanted[index]
        while at >= start:
            char = text[at].lower()
            if char == letter and (index > 0 or at in word_starts):
                break
            at -= 1
        if at < start:
            return None
        inside_words |= at > 0 and text[at - 1].isalnum()
        found.add(at)
        at -= 1
    first = at + 1
    begin = next(w.start() for w in reversed(words) if w.start() <= first)
    if inside_words and "," in text[begin:end]:
        # A list spelled out ("request rate, error rate, and duration (RED)"): each item
        # gives its initial; letters taken from inside its words spell some other list.
        return None
    # Each word of a long form gives its initial, save a minor word and at most one other
    # ("eXtensible Markup Language"): "`aclname` in the example above (ACL)" and "Git and
    # automatically applying it to the cluster (GitOps)" spell nothing.
    skipped = [w for w in words if w.start() >= begin and not _minor(w.group())]
    if sum(w.start() not in found for w in skipped) > 1:
        return None
    return begin


def _words_before(text: str, end: int, limit: int) -> list[re.Match[str]]:
    """Up to `limit` words of the clause that ends at `end`, in order."""
    begin = max(0, end - 400)
    clause = begin
    for stop in _CLAUSE_END.finditer(text, begin, end):
        clause = stop.end()
    return list(_WORD.finditer(text, clause, end))[-limit:]


def _word_limit(short: str) -> int:
    letters = len(_letters(short))
    return min(letters + 5, 2 * letters)


def _short_after(
    pattern: re.Pattern[str], text: str, at: int
) -> tuple[re.Match[str], str, list[re.Match[str]]] | None:
    """Where `pattern` writes an acronym after its long form (at `at`): the match, the
    acronym, and the words before that may be its long form."""
    match = pattern.match(text, at)
    if match is None or (at > 0 and text[at - 1] in "$%@#{"):
        return None  # a placeholder: "`$(VARIABLE)`", "%(name)s"
    short = short_form(match.group(1))
    if short is None:
        return None
    return match, short, _words_before(text, at, _word_limit(short))


def _short_in_parens(text: str, at: int) -> Definition | None:
    """A definition written "Long Form (SF)", the parenthesis at `at`."""
    read = _short_after(_SHORT_IN_PARENS, text, at)
    if read is None:
        return None
    match, short, words = read
    if words and words[-1].group().rstrip(".") == short:
        return None  # "FAA (FAA)"
    begin = _long_form_start(short, words, text)
    if begin is None:
        return None
    long = text[begin : words[-1].end()]
    if len(_WORD.findall(long)) < 2 or short in long:
        return None
    return Definition(short, long, begin, match.end())


def _long_in_parens(text: str, at: int) -> Definition | None:
    """A definition written "SF (Long Form)", the parenthesis at `at`."""
    match = _PARENTHESIS.match(text, at)
    window = text[max(0, at - 16) : at]
    before = _ACRONYM_BEFORE.search(window) if match is not None else None
    if match is None or before is None:
        return None
    start = at - len(window) + before.start(1)
    if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_.-"):
        return None  # the end of a longer word
    short = short_form(before.group(1))
    if short is None:
        return None
    # "G.R.C. (Gramophone Record Company, 1939-85)": the long form ends at a comma.
    inside = re.split(r"[,;]", match.group(1), maxsplit=1)[0]
    words = list(_WORD.finditer(text, match.start(1), match.start(1) + len(inside)))
    if not 2 <= len(words) <= _word_limit(short) or short in inside or "`" in inside:
        return None  # (code in it: "ACL (`aclname` in the example above)" spells nothing out)
    if _long_form_start(short, words, text) != words[0].start():
        return None  # the parenthesis says something else, not the acronym spelled out
    return Definition(short, text[words[0].start() : words[-1].end()], start, match.end())


def _spelled(wanted: list[str], words: list[str], first: bool = True) -> bool:
    """Whether the initials of `words` spell `wanted`: each word gives its initial, or is
    set aside if it is a minor word ("and" in "National Aeronautics and Space
    Administration"); the first gives its own."""
    if not words:
        return not wanted
    word, rest = words[0], words[1:]
    opens = not (first and _minor(word))  # a long form does not start with "and", "the"
    if wanted and opens and word[0].lower() == wanted[0] and _spelled(wanted[1:], rest, False):
        return True
    return not first and _minor(word) and _spelled(wanted, rest, False)


_STANDS_FOR = re.compile(
    r"(?<![\w.&-])(" + _ACRONYM + r")[ \t]+(?:stands|stood|is[ \t]+short)[ \t]+for[ \t]+"
    r"(?:(?:the|an?)[ \t]+)?"
)


def _stands_for(text: str, at: int) -> Definition | None:
    """A definition written "SF stands for Long Form" (or "is short for"), its verb at `at`;
    the long form is the fewest words after it whose initials, or letters, spell SF."""
    begin = max(0, at - 16)
    for match in _STANDS_FOR.finditer(text, begin, at + 40):
        if match.start(1) > at or match.end() < at:
            continue
        short = short_form(match.group(1))
        if short is None:
            return None
        clause = _CLAUSE_END.search(text, match.end())
        end = clause.start() if clause is not None else len(text)
        words = list(_WORD.finditer(text, match.end(), end))[: _word_limit(short)]
        wanted = _letters(short)
        # The fewest words whose initials spell it; failing that, whose letters do.
        counts = range(2, len(words) + 1)
        count = next(
            (n for n in counts if _spelled(wanted, [w.group() for w in words[:n]])), None
        ) or next(
            (n for n in counts if _long_form_start(short, words[:n], text) == words[0].start()),
            None,
        )
        if count is None:
            return None
        long = text[words[0].start() : words[count - 1].end()]
        if short in long:
            return None
        return Definition(short, long, match.start(1), words[count - 1].end())
    return None


_OR_SHORT = re.compile(r", or (" + _ACRONYM + r"),")


def _or_short(text: str, at: int) -> Definition | None:
    """A definition written "Long Form, or SF," (", or" at `at`): only when the initials of
    the words before spell SF, minor words set aside (letters alone are too loose here)."""
    read = _short_after(_OR_SHORT, text, at)
    if read is None:
        return None
    match, short, words = read
    wanted = _letters(short)
    for first in range(len(words) - 2, -1, -1):  # the fewest words that spell it
        if _spelled(wanted, [w.group() for w in words[first:]]):
            long = text[words[first].start() : words[-1].end()]
            if short in long:
                return None
            return Definition(short, long, words[first].start(), match.end(1))
    return None


def definitions(text: str) -> list[Definition]:
    """The acronym definitions of `text`, in order. Each parenthesis, and each "for" of
    "stands for", is found with `str.find`, so a text with neither costs a scan in C."""
    found: list[Definition] = []
    at = text.find("(")
    while at >= 0:
        definition = _short_in_parens(text, at) or _long_in_parens(text, at)
        if definition is not None:
            found.append(definition)
        at = text.find("(", at + 1)
    at = text.find(", or ")
    while at >= 0:
        definition = _or_short(text, at)
        if definition is not None:
            found.append(definition)
        at = text.find(", or ", at + 1)
    for verb in (" stands for ", " stood for ", " short for "):
        at = text.find(verb)
        while at >= 0:
            definition = _stands_for(text, at)
            if definition is not None:
                found.append(definition)
            at = text.find(verb, at + 1)
    return sorted(found, key=lambda d: d.start) if len(found) > 1 else found


def alias_relations(text: str) -> list[RelationProposal]:
    """Each acronym definition of `text` as an `alias-of` relation (acronym to long form)
    quoting the definition, for grounding to locate."""
    return [
        RelationProposal(d.short, d.long, ALIAS_OF, text[d.start : d.end])
        for d in definitions(text)
    ]
