"""Names a chunk writes only in code.

A word a code block or a code span writes in capitals (`action: ALLOW`, `DROP TABLE`, a
shell's "Protocol version: 10", a log line's "Certificate and/or key have changed") is
proposed as a name like any other, and a name is looked for in prose in any case ("the
frontend" for the Frontend). Prose writing the ordinary word ("explicitly allow requests",
"the above table lifecycle", "uses HTTP/2 as a transport protocol") would then name it. A
name the chunk writes only in code is therefore looked for in prose only as it is written
there, and is not carried to the document's later chunks in lower case.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..text.fences import Spans
from ..text.sentences import CODE_SPAN
from .prose_names import joins


def written_only_in_code(text: str, names: Iterable[str], blocks: Spans | None) -> set[str]:
    """Those of `names` that `text` writes, as spelled, only inside its code `blocks`
    (fenced blocks, or what of a configuration file is not prose) and code spans."""
    if not blocks and "`" not in text:
        return set()  # most chunks: no code at all
    prose = list(text)
    for start, end in blocks or ():
        prose[start:end] = " " * (end - start)
    outside = CODE_SPAN.sub(lambda m: " " * len(m.group()), "".join(prose))
    return {name for name in names if not _written(outside, name)}


def _written(text: str, name: str) -> bool:
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        if (at == 0 or not joins(text[at - 1])) and (end == len(text) or not joins(text[end])):
            return True
        at = text.find(name, at + 1)
    return False
