"""Markdown's fenced code blocks in a text: where they are, and the fence left open at its
end (a block a chunk boundary cuts goes on in the next chunk)."""

from __future__ import annotations

import re

# A fence line of Markdown: ``` or ~~~ (three or more), then an info string on an opening one;
# inside a blockquote after its marks ("> ```text", "> > ```").
_FENCE_LINE = re.compile(r"^[ \t]*(?:>[ \t]*)*(`{3,}|~{3,})([^\n]*)$", re.M)


Spans = list[tuple[int, int]]


def code_blocks(text: str, open_fence: str | None = None) -> tuple[Spans, str | None]:
    """The fenced code blocks of `text` (character spans, to the closing fence or the text's
    end), and the fence still open where it ends. `open_fence`: the fence of a block opened
    in an earlier chunk of the document, open where `text` starts. A block closes at a fence
    of its character, at least as long, with nothing after it."""
    blocks: Spans = []
    start = 0
    if "```" in text or "~~~" in text:
        for line in _FENCE_LINE.finditer(text):
            fence, rest = line.group(1), line.group(2)
            if open_fence is None:
                if fence[0] == "`" and "`" in rest:
                    continue  # inline code such as ```x``` opens no block
                open_fence, start = fence, line.start()
            elif fence[0] == open_fence[0] and len(fence) >= len(open_fence) and not rest.strip():
                blocks.append((start, line.end()))
                open_fence = None
    if open_fence is not None:
        blocks.append((start, len(text)))
    return blocks, open_fence
