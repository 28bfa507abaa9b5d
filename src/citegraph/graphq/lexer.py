"""Cypher read as tokens, so the gate judges what the query says and not what its literals or
comments happen to contain.

String literals ('...' and "...", with backslash escapes) and backticked names (`...`, a
doubled backtick inside) are single tokens; comments (`//` to the end of the line, `/* */`)
are dropped. Outside literals only ASCII is accepted: a fullwidth `ＣＲＥＡＴＥ` or a Cyrillic
look-alike letter is refused here rather than guessed at.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    WORD = "word"  # a keyword, a variable, a label, a function's name part
    NAME = "name"  # a backticked name: never a keyword
    STRING = "string"
    NUMBER = "number"
    PARAMETER = "parameter"
    SYMBOL = "symbol"


@dataclass(frozen=True)
class Token:
    kind: Kind
    text: str  # as written (a string or backticked name without its quotes, unescaped)
    start: int  # offsets in the query text
    end: int

    def is_word(self, *words: str) -> bool:
        """A bare word equal to one of `words`, ignoring case (keywords are case-blind)."""
        return self.kind is Kind.WORD and self.text.upper() in words


class LexError(ValueError):
    """The text is not a sequence of Cypher tokens (an unclosed string, a look-alike letter)."""


# Longest first, so that `<-` is not read as `<` then `-`.
_SYMBOLS = ("<>", "<=", ">=", "=~", "->", "<-", "..", "+=", "||")
_SINGLE = set("()[]{}<>=,:.;|+-*/%^!&?")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "\\": "\\", "'": "'", '"': '"'}


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in " \t\r\n\f\v":
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end + 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise LexError("a /* comment is never closed")
            i = end + 2
        elif ch in "'\"":
            value, i2 = _string(text, i)
            tokens.append(Token(Kind.STRING, value, i, i2))
            i = i2
        elif ch == "`":
            value, i2 = _backticked(text, i)
            tokens.append(Token(Kind.NAME, value, i, i2))
            i = i2
        elif ch == "$":
            j = _word_end(text, i + 1)
            if j == i + 1:
                raise LexError(f"a '$' with no parameter name at offset {i}")
            tokens.append(Token(Kind.PARAMETER, text[i + 1 : j], i, j))
            i = j
        elif ch.isascii() and (ch.isalpha() or ch == "_"):
            j = _word_end(text, i)
            tokens.append(Token(Kind.WORD, text[i:j], i, j))
            i = j
        elif ch.isascii() and ch.isdigit():
            j = _number_end(text, i)
            tokens.append(Token(Kind.NUMBER, text[i:j], i, j))
            i = j
        else:
            symbol = next((s for s in _SYMBOLS if text.startswith(s, i)), None)
            if symbol is None and ch in _SINGLE:
                symbol = ch
            if symbol is None:
                raise LexError(_stranger(ch, i))
            tokens.append(Token(Kind.SYMBOL, symbol, i, i + len(symbol)))
            i += len(symbol)
    return tokens


def _stranger(ch: str, at: int) -> str:
    if not ch.isascii():
        return (
            f"the character U+{ord(ch):04X} at offset {at} is outside a string: only ASCII is "
            "read as Cypher, so look-alike letters cannot spell a keyword"
        )
    return f"the character {ch!r} at offset {at} is not Cypher"


def _word_end(text: str, i: int) -> int:
    while i < len(text) and text[i].isascii() and (text[i].isalnum() or text[i] == "_"):
        i += 1
    return i


def _number_end(text: str, i: int) -> int:
    j = i
    while j < len(text) and text[j].isascii() and (text[j].isalnum() or text[j] == "_"):
        j += 1
    # A decimal point followed by a digit belongs to the number; `1..3` is a range.
    if j + 1 < len(text) and text[j] == "." and text[j + 1].isascii() and text[j + 1].isdigit():
        j += 1
        while j < len(text) and text[j].isascii() and text[j].isalnum():
            j += 1
    return j


def _string(text: str, i: int) -> tuple[str, int]:
    quote, j, out = text[i], i + 1, []
    while j < len(text):
        ch = text[j]
        if ch == "\\":
            if j + 1 >= len(text):
                break
            nxt = text[j + 1]
            out.append(_ESCAPES.get(nxt, "\\" + nxt))
            j += 2
        elif ch == quote:
            return "".join(out), j + 1
        else:
            out.append(ch)
            j += 1
    raise LexError(f"a string opened at offset {i} is never closed")


def _backticked(text: str, i: int) -> tuple[str, int]:
    j, out = i + 1, []
    while j < len(text):
        if text[j] == "`":
            if j + 1 < len(text) and text[j + 1] == "`":
                out.append("`")
                j += 2
                continue
            return "".join(out), j + 1
        out.append(text[j])
        j += 1
    raise LexError(f"a backticked name opened at offset {i} is never closed")
