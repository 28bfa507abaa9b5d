"""The `citegraph` command: every command module registers on the one app; nothing else
imports this module, so the commands never import each other."""

from __future__ import annotations

import inspect
import re
import signal
import sys

from . import (  # noqa: F401  (they register)
    adoption,
    answers,
    backups,
    demo,
    documents,
    evaluation,
    extraction,
    graph,
    graph_query,
    service,
    store,
)
from .common import app, err

__all__ = ["app", "main", "summary"]

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(`'\"])")
_SHORT = 110


def summary(help_text: str) -> str:
    """One line for the list of commands: the help's first sentence, cut at a colon when it
    is long ("If NAME changes, what breaks: every entity ..."), never inside parentheses.
    (The list would otherwise show the docstring's first paragraph with its line breaks.)"""
    paragraph = " ".join(help_text.strip().split("\n\n")[0].split())
    sentence = _SENTENCE_END.split(paragraph, maxsplit=1)[0]
    if len(sentence) <= _SHORT:
        return sentence
    depth = 0
    for at, char in enumerate(sentence):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and at >= 20 and sentence.startswith((": ", "; "), at):
            return sentence[:at]
    return sentence


def _summarise_commands() -> None:
    for command in app.registered_commands:
        if command.short_help is None and command.callback is not None:
            command.short_help = summary(command.help or inspect.getdoc(command.callback) or "")
    for group in app.registered_groups:
        info = group.typer_instance.info if group.typer_instance is not None else None
        if info is not None and isinstance(info.help, str):
            info.short_help = summary(info.help)


_summarise_commands()


def _terminate(signum: int, _frame: object) -> None:
    # Turn SIGTERM into a normal exit so the embedded server is shut down in order.
    raise SystemExit(128 + signum)


def main() -> None:
    signal.signal(signal.SIGTERM, _terminate)
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
