"""The gate a model-written query passes before the store sees it.

It reads tokens (graphq/lexer.py), never the raw text, so a `'DELETE me'` literal is a string
and a `// comment` is a comment, as the store reads them. What runs is rendered back from the
tokens it checked (comments gone), with its row limit pushed in: what was checked is what
runs. Refused, in the order checked: too long; not Cypher (look-alike letters, unclosed
quotes); more than one statement; a first clause that does not read; a write, a file load, a
graph switch or a plan prefix anywhere; a call outside a few read procedures; a function that
is not FalkorDB's own; a label, relationship type or property outside the schema; a
variable-length pattern or a `range()` without a small bound; a parameter; a LIMIT that is
not a whole number.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..values.graphq import GraphSchema
from .functions import BUILTIN_FUNCTIONS, READ_PROCEDURES
from .lexer import Kind, LexError, Token, tokenize

READING_CLAUSES = ("MATCH", "OPTIONAL", "WITH", "UNWIND", "RETURN")
WRITES = ("CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "DROP", "FOREACH")
OTHER_REFUSED = {
    "LOAD": "LOAD CSV reads files and URLs",
    "USE": "USE switches to another graph",
    "PROFILE": "PROFILE runs the query outside the gate's bounds",
    "EXPLAIN": "EXPLAIN is the gate's own step",
    "TRANSACTIONS": "IN TRANSACTIONS batches writes",
    "SHOW": "SHOW is an administration command",
    "GRANT": "GRANT is an administration command",
    "REVOKE": "REVOKE is an administration command",
    "DENY": "DENY is an administration command",
    "ALTER": "ALTER is an administration command",
}
# Words that may stand before a parenthesis without being a function's name.
NOT_FUNCTIONS = frozenset(
    "MATCH OPTIONAL WHERE AND OR XOR NOT IN RETURN WITH UNWIND AS UNION DISTINCT CASE WHEN "
    "THEN ELSE END IS NULL CONTAINS STARTS ENDS ORDER BY SKIP LIMIT ASC DESC ASCENDING "
    "DESCENDING YIELD TRUE FALSE CALL ON".split()
)
_BLOCK_OPENERS = ("CALL", "EXISTS", "COUNT")


@dataclass(frozen=True)
class Bounds:
    max_rows: int = 50
    max_chars: int = 4000
    max_var_hops: int = 5
    max_range_items: int = 10_000


@dataclass(frozen=True)
class Allowed:
    cypher: str  # rendered from the checked tokens, with the row limit pushed in


@dataclass(frozen=True)
class NotAllowed:
    why: str
    malformed: bool = False  # not Cypher the gate can read (unclosed): worth one repair


class _Refuse(Exception):
    pass


class _Malformed(_Refuse):
    pass


def check(text: str, schema: GraphSchema, bounds: Bounds | None = None) -> Allowed | NotAllowed:
    bounds = bounds or Bounds()
    if len(text) > bounds.max_chars:
        return NotAllowed(f"too long: {len(text):,} characters, the limit is {bounds.max_chars:,}")
    try:
        tokens = tokenize(text)
        tokens = _one_statement(tokens)
        _first_clause(tokens)
        walk = _Walk(tokens, schema, bounds)
        walk.run()
        edits = _limits(tokens, bounds.max_rows)
        return Allowed(_render(text, tokens, edits, walk.called))
    except LexError as exc:
        return NotAllowed(str(exc), malformed=not _look_alike(str(exc)))
    except _Malformed as exc:
        return NotAllowed(str(exc), malformed=True)
    except _Refuse as exc:
        return NotAllowed(str(exc))


def _look_alike(why: str) -> bool:
    return "outside a string" in why


def _one_statement(tokens: list[Token]) -> list[Token]:
    if tokens and tokens[-1].text == ";" and tokens[-1].kind is Kind.SYMBOL:
        tokens = tokens[:-1]
    if not tokens:
        raise _Refuse("there is no query")
    if any(t.kind is Kind.SYMBOL and t.text == ";" for t in tokens):
        raise _Refuse("more than one statement (';' inside the query)")
    return tokens


def _first_clause(tokens: list[Token]) -> None:
    first = tokens[0]
    if not first.is_word(*READING_CLAUSES):
        raise _Refuse(
            f"the query starts with {first.text!r}: a read starts with MATCH, OPTIONAL MATCH, "
            "WITH, UNWIND or RETURN"
        )
    if first.is_word("OPTIONAL") and not (len(tokens) > 1 and tokens[1].is_word("MATCH")):
        raise _Refuse("OPTIONAL must be followed by MATCH")


class _Walk:
    """One pass over the tokens with a stack of open brackets, each with its kind: `(`,
    `rel` (a relationship's `[...]`), `[` (a list or subscript), `map`, `block` (a subquery)."""

    def __init__(self, tokens: list[Token], schema: GraphSchema, bounds: Bounds):
        self.t = tokens
        self.schema = schema
        self.bounds = bounds
        self.stack: list[str] = []
        self.called: set[int] = set()  # indices of function and procedure names' last part

    def run(self) -> None:
        i = 0
        while i < len(self.t):
            i = self._step(i)
        if self.stack:
            raise _Malformed("a bracket is never closed")

    def _at(self, i: int) -> Token | None:
        return self.t[i] if 0 <= i < len(self.t) else None

    def _symbol(self, i: int, *texts: str) -> bool:
        tok = self._at(i)
        return tok is not None and tok.kind is Kind.SYMBOL and tok.text in texts

    def _step(self, i: int) -> int:
        tok = self.t[i]
        if tok.kind is Kind.PARAMETER:
            raise _Refuse(f"the query uses a parameter (${tok.text}); write the value into it")
        if tok.kind is Kind.SYMBOL:
            return self._symbol_step(i)
        if tok.kind in (Kind.WORD, Kind.NAME):
            return self._name_step(i)
        return i + 1

    def _symbol_step(self, i: int) -> int:
        text = self.t[i].text
        if text in ("(", "[", "{"):
            self.stack.append(self._opened(i))
            if text == "[" and self.stack[-1] == "[":
                self._subscript(i)
        elif text in (")", "]", "}"):
            want = {")": ("(",), "]": ("[", "rel"), "}": ("map", "block")}[text]
            if not self.stack or self.stack[-1] not in want:
                raise _Malformed(f"the brackets do not match at offset {self.t[i].start}")
            self.stack.pop()
        elif text == ":" or (text == "|" and self._in("rel")):
            # (a map key's colon never gets here: _name_step takes it with its key)
            return self._labels(i)
        elif text == "." and self._name_at(i + 1):
            self._property(self.t[i + 1])
            return i + 2
        elif text == "*" and self._in("rel"):
            return self._var_length(i)
        return i + 1

    def _opened(self, i: int) -> str:
        text = self.t[i].text
        if text == "(":
            return "("
        if text == "[":
            return "rel" if self._symbol(i - 1, "-", "<-") else "["
        before = self._at(i - 1)
        return "block" if before is not None and before.is_word(*_BLOCK_OPENERS) else "map"

    def _in(self, kind: str) -> bool:
        return bool(self.stack) and self.stack[-1] == kind

    def _name_at(self, i: int) -> bool:
        tok = self._at(i)
        return tok is not None and tok.kind in (Kind.WORD, Kind.NAME)

    def _name_step(self, i: int) -> int:
        parts, j = self._chain(i)
        before = self._at(i - 1)
        if before is not None and before.is_word("CALL"):
            self._procedure(parts, j)
            self.called.add(j - 1)
            return j
        self._word(self.t[i])
        if self._symbol(j, "(") and not (len(parts) == 1 and self._keyword(self.t[i])):
            self._function(parts, j)
            self.called.add(j - 1)
            return j
        if self._in("map") and self._symbol(j, ":") and self._symbol(i - 1, "{", ","):
            if self._pattern_map():
                self._property(self.t[i])
            return j + 1  # a map's key; the value follows
        for k in range(i + 2, j, 2):
            self._property(self.t[k])
        return j

    def _chain(self, i: int) -> tuple[list[str], int]:
        """A name and the `.name` parts after it: a function's or procedure's full name, or a
        variable with its property lookups."""
        parts, j = [self.t[i].text], i + 1
        while self._symbol(j, ".") and self._name_at(j + 1):
            parts.append(self.t[j + 1].text)
            j += 2
        return parts, j

    def _keyword(self, tok: Token) -> bool:
        return tok.kind is Kind.WORD and tok.text.upper() in NOT_FUNCTIONS

    def _word(self, tok: Token) -> None:
        if tok.kind is not Kind.WORD:
            return  # a backticked name is never a keyword
        upper = tok.text.upper()
        if upper in WRITES:
            raise _Refuse(f"{upper} writes to the graph; only reads are run")
        if upper in OTHER_REFUSED:
            raise _Refuse(f"{upper}: {OTHER_REFUSED[upper]}")

    def _procedure(self, parts: list[str], j: int) -> None:
        name = ".".join(parts)
        if name.lower() not in READ_PROCEDURES:
            allowed = ", ".join(sorted(READ_PROCEDURES.values()))
            raise _Refuse(f"CALL {name}: only these read procedures may be called: {allowed}")
        if name.lower() == "db.idx.fulltext.querynodes":
            first = self._at(j + 1)
            named = first is not None and first.kind is Kind.STRING
            if not named or first is None or first.text not in self.schema.labels:
                raise _Refuse(f"CALL {name} must name a label of the schema as a string")

    def _function(self, parts: list[str], j: int) -> None:
        name = ".".join(parts)
        if name.lower() not in BUILTIN_FUNCTIONS:
            raise _Refuse(f"{name}() is not one of FalkorDB's built-in functions")
        if name.lower() == "range":
            self._range(j)

    def _range(self, j: int) -> None:
        """range() builds its whole list before a timeout can stop it: whole-number literals
        and a small span only."""
        values: list[int] = []
        k, sign = j + 1, 1
        while not self._symbol(k, ")"):
            tok = self._at(k)
            if tok is None:
                break
            if tok.kind is Kind.SYMBOL and tok.text == "-":
                sign = -1
            elif tok.kind is Kind.NUMBER and tok.text.isdigit():
                values.append(sign * int(tok.text))
                sign = 1
            elif not (tok.kind is Kind.SYMBOL and tok.text == ","):
                values = []
                break
            k += 1
        limit = self.bounds.max_range_items
        if len(values) in (2, 3) and (len(values) == 2 or values[2] != 0):
            step = values[2] if len(values) == 3 else 1
            if max(0, (values[1] - values[0]) // step + 1) <= limit:
                return
        raise _Refuse(f"range() takes whole-number literals here, for at most {limit:,} items")

    def _pattern_map(self) -> bool:
        """A map inside a node or relationship pattern filters by properties."""
        return len(self.stack) >= 2 and self.stack[-2] in ("(", "rel")

    def _labels(self, i: int) -> int:
        """`:Label`, `:TYPE|OTHER`: each must be in the schema (backticked or not)."""
        j = i + 1
        if self._symbol(j, ":"):  # [:A|:B]
            j += 1
        tok = self._at(j)
        if tok is None or tok.kind not in (Kind.WORD, Kind.NAME):
            raise _Refuse(f"a label or type is expected after offset {self.t[i].start}")
        known = self.schema.types if self._in("rel") else self.schema.labels | self.schema.types
        if tok.text not in known:
            what = "relationship type" if self._in("rel") else "label"
            raise _Refuse(f"the {what} {tok.text!r} is not in the schema")
        return j + 1

    def _property(self, tok: Token) -> None:
        if tok.text not in self.schema.properties:
            raise _Refuse(
                f"the property {tok.text!r} is not in the schema (no node or relationship "
                "stored in this scope has it)"
            )

    def _subscript(self, i: int) -> None:
        """`n['text']` reads a property by its name as a string."""
        before, inside, after = self._at(i - 1), self._at(i + 1), self._at(i + 2)
        if before is None or inside is None or inside.kind is not Kind.STRING:
            return
        closes = after is not None and after.kind is Kind.SYMBOL and after.text == "]"
        variable = before.kind is Kind.NAME or (
            before.kind is Kind.WORD and not self._keyword(before)
        )  # `IN ['x']` is a list, not a lookup
        if closes and (variable or before.text in (")", "]")):
            self._property(inside)

    def _var_length(self, i: int) -> int:
        j, low, high, ranged = i + 1, None, None, False
        tok = self._at(j)
        if tok is not None and tok.kind is Kind.NUMBER:
            low, j = tok.text, j + 1
        if self._symbol(j, ".."):
            ranged, j = True, j + 1
            tok = self._at(j)
            if tok is not None and tok.kind is Kind.NUMBER:
                high, j = tok.text, j + 1
        upper = high if ranged else low
        most = self.bounds.max_var_hops
        if upper is None or not upper.isdigit() or int(upper) > most:
            raise _Refuse(f"a variable-length pattern needs an upper bound of at most {most} hops")
        return j


def _limits(tokens: list[Token], cap: int) -> tuple[dict[int, str], dict[int, str]]:
    """Where the row limit goes: for each part of a UNION, the LIMIT after its last RETURN
    lowered to at most `cap` + 1 (one more, to know that rows were cut), or one added. Returns
    (token index -> its new text, token index -> text added after it)."""
    replace: dict[int, str] = {}
    append: dict[int, str] = {}
    for low, high in _union_parts(tokens):
        returns = [i for i in _top_level(tokens, low, high) if tokens[i].is_word("RETURN")]
        if not returns:
            raise _Refuse("each part of the query must end with RETURN")
        limits = [i for i in _top_level(tokens, returns[-1], high) if tokens[i].is_word("LIMIT")]
        if not limits:
            append[high - 1] = f" LIMIT {cap + 1}"
            continue
        at = limits[-1] + 1
        number = tokens[at] if at < high else None
        after = tokens[at + 1] if at + 1 < high else None
        operator = after is not None and after.kind is Kind.SYMBOL and after.text in "^*+-/%."
        if number is None or number.kind is not Kind.NUMBER or not number.text.isdigit():
            raise _Refuse("LIMIT takes a whole number here")
        if operator:
            raise _Refuse("LIMIT takes a whole number here, not an expression")
        if int(number.text) > cap:
            replace[at] = str(cap + 1)
    return replace, append


def _union_parts(tokens: list[Token]) -> list[tuple[int, int]]:
    parts: list[tuple[int, int]] = []
    start = 0
    for i in _top_level(tokens, 0, len(tokens)):
        if tokens[i].is_word("UNION"):
            parts.append((start, i))
            start = i + 2 if i + 1 < len(tokens) and tokens[i + 1].is_word("ALL") else i + 1
    parts.append((start, len(tokens)))
    return parts


def _top_level(tokens: list[Token], low: int, high: int) -> list[int]:
    """Indices in [low, high) outside every bracket (a subquery's RETURN is not the query's)."""
    depth, found = 0, []
    for i in range(low, high):
        tok = tokens[i]
        if tok.kind is Kind.SYMBOL and tok.text in ("(", "[", "{"):
            depth += 1
        elif tok.kind is Kind.SYMBOL and tok.text in (")", "]", "}"):
            depth -= 1
        elif depth == 0:
            found.append(i)
    return found


_GLUE_AFTER = ("(", "[", "{", ".", ":", "..")
_GLUE_BEFORE = (")", "]", "}", ",", ".", ":", "..")


def _render(
    source: str,
    tokens: list[Token],
    edits: tuple[dict[int, str], dict[int, str]],
    called: set[int],
) -> str:
    """The query as the tokens say it: strings and backticked names as written, no comments,
    one space between tokens except inside brackets, around `.` and `:`, before `,`, and
    between a function's name and its `(`; the row limit edited in."""
    replace, append = edits
    out: list[str] = []
    for i, tok in enumerate(tokens):
        if tok.kind in (Kind.STRING, Kind.NAME, Kind.PARAMETER):
            text = source[tok.start : tok.end]
        else:
            text = replace.get(i, tok.text)
        if i > 0 and not _glued(tokens[i - 1], tok, i - 1 in called):
            out.append(" ")
        out.append(text)
        out.append(append.get(i, ""))
    return "".join(out)


def _glued(before: Token, tok: Token, call: bool) -> bool:
    if before.kind is Kind.SYMBOL and before.text in _GLUE_AFTER:
        return True
    if tok.kind is Kind.SYMBOL and tok.text in _GLUE_BEFORE:
        return True
    return call and tok.kind is Kind.SYMBOL and tok.text == "("
