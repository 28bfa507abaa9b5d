"""The section a statement stands in: a heading that says its section is a plan ("Proposed
features for future releases", "## Roadmap") makes what the section states planned, though
each sentence of it is written in the present ("learner only receives data from leader")."""

from __future__ import annotations

import bisect
import re

from .modality import CueTable

# A Markdown heading: "## Title", or a line over a line of "=" or "-" (setext).
_HEADING = re.compile(
    r"^[ \t]{0,3}#{1,6}[ \t]+(?P<atx>[^\n]+)$"
    r"|^(?P<setext>[^\n]+)\n[ \t]{0,3}(?:=+|-{2,})[ \t]*$",
    re.M,
)


def in_a_planned_section(
    text: str, at: int, cues: CueTable, heading_before: str | None = None
) -> bool:
    """Whether the character `at` of `text` lies under a heading holding a cue of a plan
    (the cue table's "planned" words: "proposed", "roadmap", "upcoming", ...): the last
    heading before it in `text`, else `heading_before` (the text's earlier chunks' last)."""
    return planned(last_heading(text, at) or heading_before, cues)


def planned(heading: str | None, cues: CueTable) -> bool:
    """Whether `heading` holds a cue of a plan."""
    if heading is None:
        return False
    return any(kind == "planned" and p.search(heading) for p, kind, _, _ in cues.compiled)


def last_heading(text: str, end: int | None = None) -> str | None:
    """The text of the last heading of `text` (before `end`), or None."""
    return Headings(text).before(len(text) if end is None else end)


class Headings:
    """A text's headings, read once, each with where it ends: which one a place lies under
    (a document's relations, read from its whole text, ask it once each)."""

    def __init__(self, text: str):
        self.ends: list[int] = []
        self.texts: list[str] = []
        if "#" not in text and "\n-" not in text and "\n=" not in text:
            return
        for match in _HEADING.finditer(text):
            shown = match.group("atx") or match.group("setext")
            if any(c.isalnum() for c in shown):  # (a rule under a line of marks is no heading)
                self.ends.append(match.end())
                self.texts.append(shown)

    def before(self, at: int) -> str | None:
        """The last heading ending at or before `at`, or None."""
        index = bisect.bisect_right(self.ends, at) - 1
        return self.texts[index] if index >= 0 else None
