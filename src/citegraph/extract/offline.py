"""The offline extractor: names found by their shape, with no model, deterministically.

It proposes:
- `name`: runs of capitalised words ("Northwind Retail", "Bank of England"), without a leading
  article, and not a lone stopword that merely starts a sentence ("The", "When");
- `acronym`: words of two or more capitals, digits allowed ("NASA", "HTTP2");
- `identifier`: code-like words: with `_` or a dot between letters, camelCase, a backticked
  span, or a lowercase word (hyphens allowed) ending in a software suffix ("origin-mapper",
  "checkoutservice", "payment-gateway");
- `title`: the title given with the document, wherever it appears.

Proposals are only proposals: before anything is stored, the pipeline checks that the chunk
holds exactly the name where the extractor read it (`Candidate.start`), or locates it with the
quote matcher (the title, and any extractor that gives no offset).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..text.fences import Spans, code_blocks
from ..text.words import STOPWORDS
from .licence_headers import licence_spans
from .linked_names import named_by_their_pages
from .lowercase_names import names_opening_sentences
from .modality import DEFAULT_CUES, CueTable
from .name_scan import SOFTWARE_SUFFIXES, words_worth_a_look
from .prose_names import COMPONENT_WORDS, a_unit_at
from .verbs import INSTRUCTIONS


@dataclass(frozen=True)
class Candidate:
    """A proposed name. An extractor that read it at a place in the text says where it first
    occurs (`start`, a character offset) and how often it read it; the pipeline still checks
    that the text holds exactly the name there before it keeps anything."""

    name: str
    type: str
    start: int = -1
    count: int = 1


class Extractor(Protocol):
    """Proposes entity names in a chunk's text."""

    def candidates(self, text: str, title: str | None = None) -> list[Candidate]: ...


# Code spans read in pairs from the left: "`*` and `>`" is two spans, not "` and `".
_BACKTICKED = re.compile(r"`([^`\n]*)`")
# Values written as code that name nothing ("If set to `false` uses a mock").
_LITERALS = frozenset(
    {"true", "false", "null", "none", "nil", "yes", "no", "undefined", "on", "off"}
)
_CONNECTORS = frozenset({"of", "de", "von", "van", "der", "la", "le", "du", "del", "da", "y"})
# Between two capitalised words of one name: a single space, or connectors between spaces.
_GAP = re.compile(r" (?:(?:" + "|".join(sorted(_CONNECTORS)) + r") )*")
_MAX_NAME_WORDS = 6


_CAMEL = re.compile(r"[a-z]+[A-Z]\w*")
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")
_DOTTED = re.compile(r"[a-z]{2,}\.[a-z]{2,}")


# Words written in capitals for emphasis, not acronyms: RFC 2119's and admonitions' ("Do NOT
# use", "NOTE:").
_SHOUTED = frozenset(
    "NOT NO DO DON'T MUST SHALL SHOULD MAY NEVER ALWAYS ONLY NOTE WARNING IMPORTANT TODO "
    "FIXME TIP CAUTION REQUIRED OPTIONAL RECOMMENDED".split()
)
# Ordinary words that end like a component's name: not names.
_ORDINARY = frozenset(
    "microservice webservice webserver datastore keystore restore observer coworker".split()
)


def _named_by_suffix(word: str) -> bool:
    """Whether a lowercase word is a component's name by its ending ("cartservice",
    "redis-server"): something stands before the ending, and it is no ordinary word (a bare
    "service" or "server" names nothing)."""
    return word not in _ORDINARY and any(
        word.endswith(suffix) and len(word) >= len(suffix) + 2 for suffix in SOFTWARE_SUFFIXES
    )


def _kind(word: str) -> str | None:
    # Cheap str tests first: this runs for every word name_scan finds worth a look.
    bare = word.rstrip(".'’")
    first = bare[:1]
    if first.isupper():
        if len(bare) >= 2 and bare.isupper() and len(bare) <= 10:
            return None if bare in _SHOUTED else "acronym"
        if bare.endswith("s") and len(bare) >= 3 and bare[:-1].isupper() and bare[:-1].isalpha():
            return None  # an acronym in the plural ("URLs", "APIs", "VMs") names a kind of thing
        return "identifier" if "_" in bare else "capitalised"
    if "_" in bare:
        return "identifier"
    if bare.islower():
        if "." in bare and _DOTTED.search(bare):
            return "identifier"
        if len(bare) > 4 and bare.endswith(SOFTWARE_SUFFIXES) and _named_by_suffix(bare):
            return "identifier"
        return None
    if _CAMEL.fullmatch(bare):
        return "identifier"
    return None


# A capitalised word opens a sentence when what is before it (within 8 characters, these
# set aside) is nothing or a sentence's end.
_BEFORE_A_SENTENCE = " \t\n\r\"'“‘(["
# What opens a list item: its first word may open a sentence (see _A_BULLET_SENTENCE), not
# when it is the item's label or all of it ("- Receiver: receives...").
_BULLETS = "-*+"


def _a_bullet(text: str, after: int) -> bool:
    """Whether the character before `after` is a list item's bullet: only white space
    between it and the line's start."""
    line = text.rfind("\n", 0, after - 1) + 1
    return not text[line : after - 1].strip()


_SENTENCE_ENDS = ".!?…:"
# What `_kind` says of each word met: words repeat, and this runs for every word worth a look.
_KINDS: dict[str, str | None] = {}
_MAX_KINDS = 200_000

Word = tuple[int, int, str]  # start, end, the word
Scanned = tuple[int, int, str, str | None, bool]  # a Word, its kind, whether it opens a sentence


def _kind_of(word: str) -> str | None:
    try:
        return _KINDS[word]
    except KeyError:
        kind = _kind(word)
        if len(_KINDS) < _MAX_KINDS:
            _KINDS[word] = kind
        return kind


# Sequels and regnal numbers: no word of the name before them.
_ROMAN = re.compile(r"[IVX]+")
# Adverbs that open sentences and list items, capitalised there (and after Markdown's marks
# for emphasis, which hide that they open one): never a name alone.
_ADVERBS = frozenset(
    "always never often usually sometimes typically generally normally ideally optionally "
    "alternatively additionally finally firstly secondly currently previously similarly "
    "otherwise however therefore thus hence meanwhile afterwards later already again "
    "instead also then next first second third lastly".split()
)


# After an imperative opening a comment or heading, its object: "# Turn this off",
# "# See the License", "## Use it with Redis".
_AN_OBJECT_OPENS = re.compile(
    r" (?:this|that|these|those|the|a|an|it|them|your|all|any|off|on|out|up|down)\b"
)


# Verbs a sentence, heading or list item opens with to tell the reader what to do: before a
# name they are no part of it ("## Deploy Consul", "Add Envoy to the gateway").
def _an_instruction(word: str) -> bool:
    """Whether `word` (lowercase) is one of INSTRUCTIONS, or its form in -ing as a title
    writes it ("Configuring Loki", "Using Swift requires ...", "Running the agent")."""
    if word in INSTRUCTIONS:
        return True
    stem = word[:-3] if word.endswith("ing") and len(word) > 4 else ""
    return (
        bool(stem)
        and (
            stem in INSTRUCTIONS
            or stem + "e" in INSTRUCTIONS  # using, configuring
            or (stem[-1] == stem[-2] and stem[:-1] in INSTRUCTIONS)  # running, setting
        )
    )


# What may stand before the first word of a heading, a list item or a quoted line.
_LINE_MARKS = re.compile(r"[ \t]*(?:#+|>+|[-*+]|\d+[.)])?[ \t]*")


def _opens_a_line_or_sentence(text: str, start: int, opens_sentence: bool) -> bool:
    if opens_sentence:
        return True
    line_start = text.rfind("\n", 0, start) + 1
    return _LINE_MARKS.fullmatch(text, line_start, start) is not None


# A list item's title in bold, opening with a verb in -ing and its object ("- **Executing
# queries** by using the metastore"): "Shipping never calls" or "**Billing**" is a name.
_STEP_TITLE = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])?[ \t]*(?:\*\*|__)\Z")
_OBJECT_AFTER = re.compile(r" (?:the |a |an |all |each |its |their )?[a-z]")


def _a_step_title(text: str, word: Word) -> bool:
    start, end, written = word
    if not written.endswith("ing") or _OBJECT_AFTER.match(text, end) is None:
        return False
    line_start = text.rfind("\n", 0, start) + 1
    return _STEP_TITLE.fullmatch(text, line_start, start) is not None


# Markdown's hidden comments hold markers for tools ("<!-- INTERACTIVE ignore START -->"),
# no text a reader sees.
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_SHORTCODE = re.compile(r"\{\{[<%].{0,200}?[>%]\}\}")


# A table cell holding a sentence opens it with a capital ("| Continuously sends requests to
# the frontend. |"): its first word followed by a word in lower case opens a sentence; a
# cell holding a name alone ("| Redis |") or a name of several words does not.
_A_CELL_SENTENCE = re.compile(r" [a-z]")
# A Markdown table's header row (group 1), the rule under it following.
_HEADER_ROW = re.compile(r"^([ \t]*\|[^\n]*)\n[ \t]*\|?[ \t]*:?-+:?[ \t]*\|[-|: \t]*$", re.M)
# A list item's first word opens its sentence when an imperative's object follows ("- Create
# and manage", "- Use the"); before a verb in -s, an adverb or an auxiliary it is the item's
# subject ("- Shipping never calls", "- Clean-css requires"), a name as mid-sentence.
_A_BULLET_SENTENCE = re.compile(
    r" (?!(?:[a-z]+s|never|also|only|always|still|now|then|often|usually|currently|can|cannot"
    r"|will|must|should|may|might|could|would|does|did|has|had|was|were|is|are)\b)[a-z]"
)


# A name joined to one of these by a hyphen is an adjective ("a Prometheus-compatible store").
_AN_ADJECTIVE = re.compile(
    r"-(?:compatible|based|like|style|form|aware|native|specific|only|driven|enabled|powered|"
    r"ready|friendly|related|agnostic|centric|oriented|backed|managed|hosted|facing)$",
    re.I,
)


def _opens_a_comment(text: str, start: int, end: int, before: str) -> bool:
    """Whether the word at `start` opens a sentence written after a line's `#` or `//` (a
    configuration comment, or a heading) as its verb: followed by what a verb's object
    starts with ("# Turn this off", "## See the guide"). "## Chatbot", "# Checkout service",
    "# Valkey used by the cart" open with a name."""
    if not before.endswith(("#", "//")) or _AN_OBJECT_OPENS.match(text, end) is None:
        return False
    line_start = text.rfind("\n", 0, start) + 1
    return not text[line_start:start].strip("#/ \t")


# A title in sentence case: its first word, then a word in lower case ("## Variable
# substitution in CEL"): its capital is the title's, as a sentence's is.
_LOWER_CASE_NEXT = re.compile(r" [a-z]")


def _a_sentence_case_title(text: str, start: int, end: int, before: str) -> bool:
    """Whether the word at `start` opens a heading (or a comment) in sentence case and the
    text writes it in lower case too ("a variable"): an ordinary word there, whose lower
    case would otherwise be read as a name. A word never written in lower case ("# Valkey
    used by the cart") stays a name: the title may be all that names it."""
    if _LOWER_CASE_NEXT.match(text, end) is None:
        return False
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip("# \t"):
        return False
    word = text[start:end].lower()
    if word in COMPONENT_WORDS:
        return False  # "# Frontend service": "the frontend" is the component
    lowered = re.escape(word)
    blocks: Spans | None = None  # (found once, and only when the word is met in lower case)
    for match in re.finditer(r"(?<![\w-])" + lowered + r"(?![\w-])", text):
        if blocks is None:
            blocks = code_blocks(text)[0]
        if not _in_code(text, match.start(), blocks):
            return True  # ("helm install" in a code block is the Helm of "## Helm charts")
    return False


def _in_code(text: str, at: int, blocks: Spans) -> bool:
    """Whether `at` is inside one of the fenced code `blocks` or a code span (its line's
    backticks before it are odd in number)."""
    line_start = text.rfind("\n", 0, at) + 1
    if text.count("`", line_start, at) % 2:
        return True
    return any(start <= at < end for start, end in blocks)


class OfflineExtractor:
    """Names by their shape (see the module docstring). Deterministic and model-free.
    `cues`: what the relations it reads are read for negation and modality with (the
    default table, or one a file extends: its name then says so)."""

    def __init__(self, cues: CueTable = DEFAULT_CUES):
        self.cues = cues
        self.name = "offline" if cues.digest is None else f"offline+cues:{cues.digest}"

    def candidates(self, text: str, title: str | None = None) -> list[Candidate]:
        found: dict[tuple[str, str], list[int]] = {}  # (name, kind) -> [first start, count]

        def add(name: str, kind: str, start: int) -> None:
            stripped = name.strip(" .'’-")
            if stripped.endswith(("'s", "’s")):
                stripped = stripped[:-2]  # "Thrift's encoding": Thrift
                if stripped.lower() in STOPWORDS:
                    return  # "It's", "What's": a contraction
                if " " not in stripped and _kind_of(stripped) == "acronym":
                    kind = "acronym"  # "the USSR's": the acronym it is elsewhere
            if len(stripped) < 2 or ("-" in stripped and _AN_ADJECTIVE.search(stripped)):
                return  # (an adjective made of a name: "Prometheus-compatible", "Time-based")
            seen = found.get((stripped, kind))
            if seen is None:
                found[(stripped, kind)] = [start + name.index(stripped), 1]
            else:
                seen[1] += 1

        words: list[Scanned] = []
        # A lone capitalised word that only ever opens sentences is ordinary ("Use", "Oh").
        mid_sentence: set[str] = set()
        headers = licence_spans(text)
        if "<!--" in text:
            headers += [m.span() for m in _HTML_COMMENT.finditer(text)]
        if "{{" in text:
            headers += [m.span() for m in _SHORTCODE.finditer(text)]
        # A table's header row labels its columns ("| Protocol | Notes |"): each cell opens.
        header_rows = [m.span(1) for m in _HEADER_ROW.finditer(text)] if "|" in text else []
        for start, end, word in words_worth_a_look(text):
            if headers and any(a <= start < b for a, b in headers):
                # a licence header, a hidden comment or a site generator's placeholder ("{{<
                # param "PRODUCT_NAME" >}}") names nothing the file is about
                continue
            opens = False
            # (a capital inside a word, "VolumeAttributesClass", "GitHub", is a name's
            # wherever it stands, as a sentence's first word too)
            if word[0].isupper() and _INNER_CAPITAL.search(word) is None:
                window = text[max(0, start - 8) : start]
                before = window.rstrip(_BEFORE_A_SENTENCE)
                # after a sentence's end, or a blank line (a paragraph under a heading or a
                # code block opens a sentence too)
                opens = (
                    not before
                    or before[-1] in _SENTENCE_ENDS
                    or window.count("\n", len(before)) > 1
                    or (before[-1] in "#/" and _opens_a_comment(text, start, end, before))
                    or (before[-1] == "#" and _a_sentence_case_title(text, start, end, before))
                    or (before[-1] == "|" and _A_CELL_SENTENCE.match(text, end) is not None)
                    or (before[-1] == "|" and any(a <= start < b for a, b in header_rows))
                    or (
                        before[-1] in _BULLETS
                        and _a_bullet(text, start - len(window) + len(before))
                        and _A_BULLET_SENTENCE.match(text, end) is not None
                    )
                )
                if not opens:
                    mid_sentence.add(word)
            kind = _kind_of(word)
            if kind is not None and a_unit_at(text, start, word):
                kind = None  # "4 GB", "2 vCPUs": a unit of measure, no name
            words.append((start, end, word, kind, opens))

        words = _without_shouting(text, words)
        run: list[Word] = []
        run_starts_sentence = False
        previous_end = -1

        def flush() -> None:
            if len(run) == 1 and (
                (run_starts_sentence and run[0][2] not in mid_sentence)
                or run[0][2].lower() in _ADVERBS
                or _a_step_title(text, run[0])
            ):
                # "**Always** use HTTPS", "**Executing queries** by using the metastore": an
                # adverb, or a verb in -ing opening a step's title in bold
                return
            if (
                len(run) > 1
                and _an_instruction(run[0][2].lower())
                and _opens_a_line_or_sentence(text, run[0][0], run_starts_sentence)
            ):
                _flush(text, run[1:], add)  # "## Deploy Bank of Anthos": Bank of Anthos
                return
            _flush(text, run, add)

        for start, end, word, kind, opens in words:
            # An acronym is a name of its own, and a word of a longer one it opens ("HTTP
            # Load Generator") or closes ("Argo CD", "Gateway API", "Amazon S3"); a Roman
            # numeral closes none ("Artemis II": the mission is Artemis, as read before).
            if kind == "acronym":
                add(word, kind, start)
                if run and (_ROMAN.fullmatch(word) or not word.isalnum()):
                    flush()
                    run = []
                if not word.isalnum():  # "DB_HOST" is a setting, not a word of a name
                    kind = None
            if kind == "capitalised" or kind == "acronym":
                joined = (
                    previous_end >= 0
                    and (
                        _GAP.fullmatch(text, previous_end, start) is not None
                        # an initial: "Charles W. Eliot"
                        or (bool(run) and len(run[-1][2]) == 1 and text[previous_end:start] == ". ")
                    )
                    # after an acronym, a name goes on with a word of a name: not "API I",
                    # "NOTE The", "DB Is"
                    and not (
                        bool(run)
                        and _acronym(run[0])
                        and (len(word) < 2 or word.lower() in STOPWORDS)
                    )
                    # an acronym closes a name right after it, not after "of": "Javascript-form
                    # of UI" is a form of the UI
                    and not (kind == "acronym" and text[previous_end:start] != " ")
                )
                if run and not joined:
                    flush()
                    run = []
                if not run:
                    run_starts_sentence = opens
                run.append((start, end, word))
            else:
                if run:
                    flush()
                    run = []
                if kind is not None and kind != "acronym":
                    add(word, kind, start)
            previous_end = end
        if run:
            flush()
        for match in _BACKTICKED.finditer(text):
            code = match.group(1)
            # (a command line's flag, "`--plugins`", names a setting: without its dashes it
            # would be the word of prose, "storage provider plugins")
            if 2 <= len(code) <= 60 and code.lower() not in _LITERALS and code[0] != "-":
                add(code, "identifier", match.start(1))
        for name, at in names_opening_sentences(text):
            add(name, "identifier" if "-" in name else "name", at)
        if "](" in text:
            for name, at in named_by_their_pages(text):
                add(name, "identifier" if "-" in name else "name", at)
        named = [Candidate(n, k, start, count) for (n, k), (start, count) in found.items()]
        name = (title or "").strip(" .'’-")
        if len(name) >= 2 and (name, "title") not in found:
            named.append(Candidate(name, "title"))  # where it is: left to the matcher
        return named


# Text written in capitals (a licence's "THE SOFTWARE IS PROVIDED AS IS, WITHOUT WARRANTY OF
# ANY KIND"): a run of at least this many words in capitals, one of them a stopword, is
# shouting, and none of its words is an acronym or a name.
_SHOUTED_RUN = 3
_MAX_SHOUTED_GAP = 6  # characters between two of its words, no letter among them


def _without_shouting(text: str, words: list[Scanned]) -> list[Scanned]:
    """`words` with those of runs of shouted text (see _SHOUTED_RUN) read as no names."""
    shouted: set[int] = set()
    run: list[int] = []

    def close() -> None:
        if len(run) >= _SHOUTED_RUN and any(words[i][2].lower() in STOPWORDS for i in run):
            shouted.update(run)
        run.clear()

    for index, (start, _end, word, _kind, _opens) in enumerate(words):
        capitals = len(word) >= 2 and word.isupper() and word.replace("'", "").isalpha()
        if not capitals:
            if run:
                close()
            continue
        if run:
            gap = text[words[run[-1]][1] : start]
            if len(gap) > _MAX_SHOUTED_GAP or any(c.isalpha() for c in gap):
                close()
        run.append(index)
    close()
    if not shouted:
        return words
    return [(s, e, w, None if i in shouted else k, o) for i, (s, e, w, k, o) in enumerate(words)]


_OPENERS = frozenset("since unlike although though whereas unless upon despite via per".split())


def _flush(text: str, run: list[Word], add: Callable[[str, str, int], None]) -> None:
    """A run of capitalised words (joined by spaces and connectors) as one name: without
    leading stopwords or words opening a clause ("Since Jaeger v2 is", "Unlike CyberArk
    Certificate Manager"), and not longer than a name gets."""
    first, words = 0, len(run)
    while (
        first < words
        and (run[first][2].lower() in STOPWORDS or run[first][2].lower() in _OPENERS)
        and not _acronym(run[first])
    ):
        first += 1
    for word in run[first:]:
        if not _acronym(word):
            break
    else:
        return  # nothing but stopwords, or acronyms alone ("HTTP GET"), each named already
    name = text[run[first][0] : run[-1][1]]
    if name.count(" ") < _MAX_NAME_WORDS:
        add(name, "name", run[first][0])


def _acronym(word: Word) -> bool:
    return _kind_of(word[2]) == "acronym"
