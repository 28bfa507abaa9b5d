"""The offline answerer: quotes the sentence (or table row) that answers the question asked.

A sentence answers when it covers the question's terms and holds a candidate of the kind of
answer asked for (question_kind.py) that the question does not already hold: a sentence about
Harvard with no date in it does not answer "When was Harvard founded?". Terms are weighted by
how rare they are among the evidence's sentences (a name weighs more than "city"); a term the
sentence's neighbour holds counts for half (a sentence often says "it" for the previous one's
subject), and one the sentence holds only in another form of the word ("founding" for
"founded") for three quarters. Below MIN_COVERAGE, or with no candidate, it declines and
says what was missing.
A sentence also has to agree with the question where a near miss makes another question: a
question with a negation ("What is not contained in X?") needs a sentence with one, and each
name and number the question states (Henry II, 1804, Spanish) has to be in the sentence or
its neighbour (the same stem, the same letters without accents, a word it begins, or a close
spelling of a long word).

Quotes are short: at most MAX_SENTENCES sentences and MAX_QUOTE_BYTES bytes in all, in text
order; a longer sentence is cut to its clauses that cover the question best. It writes the
same JSON a model is asked for, so its answers go through the same verification. It declines
unless the verdict is `grounded`, or `related` with at most MAX_UNCOVERED uncovered words
that are all lowercase (a question's own word for what a sentence says in others: "gain",
"version"); an uncovered name or number always declines, and an uncovered word still counts,
at its full weight, against every sentence's coverage.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from ..text.respell import question_word_typo, respell
from ..text.sentences import sentence_spans
from ..text.words import STOPWORDS, content_words, framing, stem, stems, tokens
from ..values.evidence import Evidence, VerdictState
from .question_kind import Kind, frame_words, has_candidate, measure_words, question_kind

MAX_SENTENCES = 2
MAX_QUOTE_BYTES = 400
MIN_COVERAGE = 0.65
NEIGHBOUR_WEIGHT = 0.5
RANK_PENALTY = 0.02
MAX_UNCOVERED = 2
# A term the sentence holds only in another form ("founding" for "founded") says less.
OTHER_FORM_WEIGHT = 0.75

_RULE_ROW = re.compile(r"\s*\|?[\s:|-]+\|?\s*")
# Text set in columns (terminal output, a listing): a run of three spaces between two words.
_ALIGNED = re.compile(r"\S {3,}\S")
_CLAUSE_BREAK = re.compile(r"(?<=[,;:])\s+")
_DETERMINERS = frozenset("a an the its their his her our this that these those".split())
# Where a sentence joins statements that stand on their own: a semicolon.
_STATEMENT_BREAK = re.compile(r";\s+")


@dataclass(frozen=True)
class _Unit:
    """A sentence or a table row of one evidence item."""

    item_id: str
    rank: int
    order: int
    text: str
    stems: frozenset[str]
    around: frozenset[str]  # stems of the unit before it (the previous sentence, the header)

    @cached_property
    def words(self) -> frozenset[str]:
        """Its own words as written, case aside (not its header's)."""
        return frozenset(t.casefold() for t in tokens(self.text))

    @cached_property
    def modifiers(self) -> frozenset[str]:
        """Words written only as a modifier between a determiner and a content word ("a
        founding member", "the running total"): there they describe the noun after them and
        state no event ("the founding of", "its founding in 1636" still do)."""
        said = [t.casefold() for t in tokens(self.text)]
        as_modifier: set[str] = set()
        otherwise: set[str] = set()
        for i, word in enumerate(said):
            between = 0 < i < len(said) - 1 and said[i - 1] in _DETERMINERS
            modifies = between and said[i + 1] not in STOPWORDS
            (as_modifier if modifies else otherwise).add(word)
        return frozenset(as_modifier - otherwise)


def units(text: str) -> list[tuple[str, str | None]]:
    """The sentences of `text`, with each Markdown table row a unit of its own (a table is
    one run of text with no sentence end in it) given with its table's header row. Header
    rows, table rules and fenced code blocks (terminal output, listings) answer nothing by
    themselves and are left out."""
    found: list[tuple[str, str | None]] = []
    block: list[str] = []
    header: str | None = None
    fenced = False

    def flush() -> None:
        joined = "\n".join(block)
        for a, b in sentence_spans(joined):
            if len(_ALIGNED.findall(joined, a, b)) < 2:  # columns of a listing: no sentence
                found.append((joined[a:b], None))
        block.clear()

    lines = text.split("\n")
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            flush()
            fenced = not fenced
            continue
        if fenced:
            continue
        if not stripped.startswith("|"):
            block.append(line)
            header = None
            continue
        flush()
        if _RULE_ROW.fullmatch(line):
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if following.strip().startswith("|") and _RULE_ROW.fullmatch(following):
            header = stripped  # a header row is one a rule row follows
            continue
        found.append((stripped, header))
    flush()
    return found


def _units_of(evidence: Evidence) -> list[_Unit]:
    found: list[_Unit] = []
    for rank, item in enumerate(evidence.items):
        if not item.citable:
            continue
        previous: frozenset[str] = frozenset()
        for order, (text, header) in enumerate(units(item.text)):
            own = frozenset(stems(text))
            # A row's header names its cells: it counts as the row's own words.
            if header is not None:
                own = own | frozenset(stems(header))
                found.append(_Unit(item.id, rank, order, text, own, frozenset()))
            else:
                found.append(_Unit(item.id, rank, order, text, own, previous - own))
            previous = own
    return found


def _trim(text: str, weights: dict[str, float]) -> str:
    """`text` if short enough; else its run of clauses within MAX_QUOTE_BYTES that covers
    the question's terms best (the earliest among equals)."""
    if len(text.encode()) <= MAX_QUOTE_BYTES:
        return text
    clauses = _CLAUSE_BREAK.split(text)
    best, best_score = "", -1.0
    for start in range(len(clauses)):
        for end in range(start + 1, len(clauses) + 1):
            piece = " ".join(clauses[start:end])
            if len(piece.encode()) > MAX_QUOTE_BYTES:
                break
            score = sum(w for k, w in weights.items() if k in stems(piece))
            if score > best_score:
                best, best_score = piece, score
    if best and best in text:
        return best
    return text.encode()[:MAX_QUOTE_BYTES].decode(errors="ignore").rsplit(" ", 1)[0]


class ExtractiveAnswerer:
    """`min_coverage`: the share of the question's weighted terms one sentence must hold
    (MIN_COVERAGE by default; higher answers less, and more precisely)."""

    name = "extractive"

    def __init__(self, min_coverage: float = MIN_COVERAGE):
        self.min_coverage = min_coverage

    def reply(self, question: str, evidence: Evidence) -> str:
        verdict = evidence.verdict
        if verdict.state is not VerdictState.GROUNDED and not (
            verdict.state is VerdictState.RELATED and _forgivable(verdict.uncovered)
        ):
            why = f"the evidence is {verdict.state.value}"
            if verdict.uncovered:
                why += f"; nothing stored covers: {', '.join(verdict.uncovered)}"
            return json.dumps({"declined": why})
        respelled = dict(verdict.respelled)
        # The words the evidence was searched for (respelled where the scope holds a close
        # spelling), without a misspelt question word first ("Wat ...").
        words = list(evidence.content_words) or content_words(question)
        if words and question_word_typo(words[0]):
            words = words[1:]
        # The frame is read from the question as the store spells it ("langauge" as language).
        as_stored = [respelled.get(t, t) for t in tokens(question)]
        if as_stored and (wh := question_word_typo(as_stored[0])):
            as_stored[0] = wh
        frame = frame_words(" ".join(as_stored))
        spelt = [respelled.get(w, w) for w in words if not framing(w)]
        terms = [w for w in spelt if w.casefold() not in frame]
        key = list(dict.fromkeys(stem(w) for w in terms))
        # "What did X say about Y?": Y is what the answer must be about, in its own words.
        focus = {stem(w) for w in content_words(_after_about(question))} & set(key)
        # "checkout service" is also written "checkoutservice": two question words that stand
        # together count as found where the text writes them as one word.
        said = [t for t in tokens(question) if t.casefold() not in STOPWORDS]
        joined = {stem(a + b): (stem(a), stem(b)) for a, b in itertools.pairwise(said)}
        # A name of several words is also referred to by its last one: the Cheshire Cat is
        # "the Cat" when the text has named it already, Harvard University "the University".
        heads = _name_heads(question)
        # Where a document of the evidence writes a name whole, its passages may shorten it.
        by_document: dict[str, str] = {}
        for passage in (*evidence.items, *evidence.context):
            by_document[passage.document_id] = (
                by_document.get(passage.document_id, "") + "\n" + passage.text.casefold()
            )
        texts = {item.id: by_document[item.document_id] for item in evidence.items}
        kind = question_kind(question)
        measures = measure_words(question)
        found = _units_of(evidence)
        if not key or not found:
            return json.dumps({"declined": "no sentence of the evidence to weigh"})
        # Rarer terms weigh more: a term every sentence holds tells nothing apart.
        # Rarer terms weigh more, by their frequency in the scope where retrieval counted it;
        # else among the evidence's units (a term every unit holds tells nothing apart).
        in_scope = dict(evidence.term_weights)
        weights = {
            k: in_scope.get(k)
            or math.log(1 + len(found) / max(1, sum(k in u.stems for u in found)))
            for k in key
        }
        total = sum(weights.values())
        asked = stems(question)
        negated = _negated(t.casefold() for t in tokens(question))
        # The question's own spellings of each term: the same word form is the surer match.
        forms: dict[str, set[str]] = {k: set() for k in key}
        for t in (*tokens(question), *terms):
            forms.setdefault(stem(t), set()).add(t.casefold())
        specifics = [respelled.get(w, w) for w in _specifics(question)]
        # What the question says of its names ("founded", "born"): its lowercase terms.
        predicate = {stem(w) for w in terms if w.islower()}
        scored: list[tuple[float, float, _Unit]] = []
        best_without_kind = 0.0
        for unit in found:
            present = _with_joined(unit.stems, joined)
            for (head, name), parts in heads.items():
                if head.search(unit.text) and name in texts[unit.item_id]:
                    present = present | parts
            own = sum(
                w * (1.0 if k not in unit.stems or forms[k] & unit.words else OTHER_FORM_WEIGHT)
                for k, w in weights.items()
                if k in present and not (k in predicate and _modifier_only(k, forms[k], unit))
            )
            near = sum(w for k, w in weights.items() if k in unit.around and k not in present)
            coverage = (own + NEIGHBOUR_WEIGHT * near) / total
            held = sum(k in present or k in unit.around for k in key)
            # Enough of the question's weight, and at least half of its terms: a rare word
            # alone does not make a sentence about the question.
            if own == 0 or coverage < self.min_coverage or 2 * held < len(key):
                continue
            if not focus <= present:
                continue
            # "What is not contained in X?" is not answered by a sentence saying what is.
            if negated and not _negated(unit.words):
                continue
            # A name or number the question states that the sentence does not (Henry II for
            # Henry III, 1804 for 1805) makes it another question.
            if specifics and not _states_all(specifics, present | unit.around, unit.words):
                continue
            if not _answered_where_asked(unit.text, kind, asked, measures, predicate):
                best_without_kind = max(best_without_kind, coverage)
                continue
            scored.append((coverage - RANK_PENALTY * unit.rank, coverage, unit))
        if not scored:
            why = _missing(kind, terms, best_without_kind, self.min_coverage)
            if verdict.uncovered:
                why += f"; nothing stored covers: {', '.join(verdict.uncovered)}"
            return json.dumps({"declined": why})
        scored.sort(key=lambda s: (-s[0], s[2].rank, s[2].order))
        chosen: list[tuple[_Unit, str]] = []
        used = 0
        for _, _, unit in scored[:MAX_SENTENCES]:
            quote = _trim(unit.text, weights)
            size = len(quote.encode())
            if chosen and used + size > MAX_QUOTE_BYTES:
                break
            chosen.append((unit, quote))
            used += size
        chosen.sort(key=lambda c: (c[0].rank, c[0].order))
        claims = [
            {"text": quote, "citations": [{"evidence": unit.item_id, "quote": quote}]}
            for unit, quote in chosen
        ]
        answer = " ".join(" ".join(quote.split()) for _, quote in chosen)
        return json.dumps({"answer": answer, "claims": claims})


def _modifier_only(key: str, forms: set[str], unit: _Unit) -> bool:
    """Whether the unit holds the question's term `key` only in an -ing form used as a
    modifier ("a founding member" for "founded"): then it does not hold the term."""
    if key not in unit.stems or forms & unit.words:
        return False
    written = [w for w in unit.words if stem(w) == key]  # none: the term is in the row's header
    return bool(written) and all(w.endswith("ing") and w in unit.modifiers for w in written)


def _answered_where_asked(
    text: str, kind: Kind, asked: set[str], measures: frozenset[str] | None, predicate: set[str]
) -> bool:
    """Whether `text` holds a candidate of `kind` in a statement that says what the question
    asks: in a sentence joining statements ("X's tenure transformed the college; Harvard was a
    founding member in 1900"), a person from one statement does not answer "who founded" from
    the other."""
    statements = _STATEMENT_BREAK.split(text)
    said = [len(predicate & set(stems(part))) for part in statements]
    if len(statements) == 1 or not any(said):
        return has_candidate(text, kind, asked, measures)
    # The statements that hold most of what the question says (its verb and its object).
    return any(
        has_candidate(part, kind, asked, measures)
        for part, n in zip(statements, said, strict=True)
        if n == max(said)
    )


def _forgivable(uncovered: tuple[str, ...]) -> bool:
    """Whether the words nothing stored covers are at most MAX_UNCOVERED lowercase words (no
    name, no number: those say what the question is about). A question may put in its own
    words what a sentence says in others."""
    return 0 < len(uncovered) <= MAX_UNCOVERED and all(
        w.isalpha() and w.islower() for w in uncovered
    )


_NEGATIONS = frozenset("not no never none nor neither without cannot".split())


def _negated(words: Iterable[str]) -> bool:
    """Whether any of `words` (lowercase) negates."""
    return any(w in _NEGATIONS or w.endswith(("n't", "n’t")) for w in words)


_SPECIFIC = re.compile(r"(?<!^)(?<![.?!] )\b([A-Z][\w'’-]*|\w*\d\w*)")


def _specifics(question: str) -> list[str]:
    """The names and numbers the question states: each word of a capitalised word not
    opening the question, and each word with a digit."""
    found = []
    for match in _SPECIFIC.finditer(question.strip()):
        for word in tokens(match.group(1)):
            if word.casefold() not in STOPWORDS:
                found.append(word)
    return found


def _plain(word: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFKD", word.casefold()) if not unicodedata.combining(c)
    )


def _states_all(specifics: list[str], present: frozenset[str], said: frozenset[str]) -> bool:
    """Whether a unit (its words `said`; its stems, with its neighbour's, `present`) states
    each of the question's names and numbers: as a word of the same stem, the same letters
    without accents, a word it begins ("French" in "Frenchmen"), or a close spelling of a
    long one."""
    words: set[str] | None = None
    for specific in specifics:
        if stem(specific) in present:
            continue
        if words is None:
            words = {_plain(w) for w in said}
        plain = _plain(specific)
        if plain in words:
            continue
        if plain.isdigit():
            return False
        root = stem(plain)
        if len(root) >= 4 and any(w.startswith(root) for w in words):
            continue
        if respell(plain, words) is not None:
            continue  # a close spelling, as retrieval reads one (text/respell.py)
        return False
    return True


_NAME = re.compile(r"(?<!^)(?<![.?!] )\b([A-Z][\w'’-]*(?: [A-Z][\w'’-]*)+)")


def _name_heads(question: str) -> dict[tuple[re.Pattern[str], str], frozenset[str]]:
    """For each name of two or more capitalised words in the question (not opening it): its
    last word as a whole word, capitalised as written, with the whole name (lowercased), and
    the stems of all its words. The last word stands for the name only in a passage that
    writes the whole name too."""
    found: dict[tuple[re.Pattern[str], str], frozenset[str]] = {}
    for match in _NAME.finditer(question.strip()):
        words = match.group(1).split()
        head = re.compile(r"(?<![\w-])" + re.escape(words[-1]) + r"(?![\w-])")
        found[(head, " ".join(words).casefold())] = frozenset(stem(w) for w in words)
    return found


def _after_about(question: str) -> str:
    match = re.search(r"\babout\b(.*)", question, re.I)
    return match.group(1) if match else ""


def _with_joined(found: frozenset[str], joined: dict[str, tuple[str, str]]) -> frozenset[str]:
    extra = {part for whole, parts in joined.items() if whole in found for part in parts}
    return found | extra if extra else found


def _missing(kind: Kind, terms: list[str], best_without_kind: float, needed: float) -> str:
    asked = ", ".join(terms)
    if best_without_kind > 0 and kind not in (Kind.OTHER, Kind.YES_NO):
        return (
            f"no sentence that covers the question ({asked}) holds a {kind.value}, the kind "
            "of answer it asks for"
        )
    return (
        f"no sentence of the evidence covers enough of the question ({asked}): at least "
        f"{needed:.0%} of its terms, weighted by rarity, in one sentence"
    )
