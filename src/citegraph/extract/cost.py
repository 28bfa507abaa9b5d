"""What model extraction costs, counted before it is spent: tokens of each prompt, an
estimate for a set of documents, and a hard budget.

Tokens are counted with `count_tokens`, an approximation of a BPE tokenizer (within about
8% of cl100k_base on the shared prose, Markdown, YAML and SQuAD text): no tokenizer file is
downloaded, so counting works offline. Prompts are counted exactly as they will be sent, so
an estimate's error is the approximation's against the provider's tokenizer; what a call
really cost is taken from the provider's reply where it says.
"""

from __future__ import annotations

import math
import re

_PIECE = re.compile(r"[^\W\d_]+|\d+|[^\w\s]+|_+|\s+")
# Fitted by eye against cl100k_base on prose, Markdown, YAML and SQuAD text (within about
# 8% on each): BPE vocabularies hold words up to about ten letters whole, split longer ones,
# merge runs of marks, and fold a single space into the next word.
_WHOLE_WORD = 10
_CHARS_PER_PIECE = 5.5
_MARKS_PER_TOKEN = 3
_SPACES_PER_TOKEN = 32
# Each message of a chat prompt costs a few tokens of framing (role, separators).
MESSAGE_OVERHEAD = 4
# Room kept for the model's reply when deciding whether a call still fits in the budget.
REPLY_ALLOWANCE = 1000


def count_tokens(text: str) -> int:
    count = 0
    for piece in _PIECE.findall(text):
        first = piece[0]
        if first.isspace():
            if piece == " ":
                continue
            if "\n" in piece:
                count += max(1, math.ceil(len(piece.strip(" ")) / 2))
            else:
                count += math.ceil(len(piece) / _SPACES_PER_TOKEN)
        elif first.isalpha():
            count += 1 if len(piece) <= _WHOLE_WORD else math.ceil(len(piece) / _CHARS_PER_PIECE)
        elif first.isdigit():
            count += math.ceil(len(piece) / 3)
        else:
            count += math.ceil(len(piece) / _MARKS_PER_TOKEN)
    return count


def prompt_tokens(contents: list[str]) -> int:
    """Tokens of a chat prompt made of these message contents."""
    return sum(count_tokens(c) + MESSAGE_OVERHEAD for c in contents)


class TokenBudget:
    """A hard limit on the tokens extraction spends (prompt and reply). A call is made only
    when its prompt and a reply allowance fit in what is left (less what calls in flight
    have reserved), so the limit is not passed by more than the replies' excess over their
    allowance."""

    def __init__(self, max_tokens: int | None, reply_allowance: int = REPLY_ALLOWANCE):
        if max_tokens is not None and max_tokens <= 0:
            raise ValueError("the token budget must be a positive number of tokens")
        self.max_tokens = max_tokens
        self.reply_allowance = reply_allowance
        self.spent = 0
        self.reserved = 0  # by calls asked ahead and not yet taken (extract/ahead.py)

    def admits(self, prompt: int) -> bool:
        if self.max_tokens is None:
            return True
        return self.spent + self.reserved + prompt + self.reply_allowance <= self.max_tokens

    def reserve(self, tokens: int) -> bool:
        """Hold `tokens` (a prompt and its reply allowance) for a call about to be sent;
        False, holding nothing, when they do not fit."""
        if self.max_tokens is not None and self.spent + self.reserved + tokens > self.max_tokens:
            return False
        self.reserved += tokens
        return True

    def release(self, tokens: int) -> None:
        self.reserved -= tokens

    def spend(self, tokens: int) -> None:
        self.spent += tokens
