"""Licence headers: the comment block at the top of a source or configuration file that
grants its licence ("Licensed under the Apache License...", "Permission is hereby granted",
"SPDX-License-Identifier"). It is the same in every file of a project, and what it names
(License, Version, Unless, the copyright holder) is not what the file is about, so the
offline extractor reads no names in it."""

from __future__ import annotations

import re

# Words that only a licence grant is written with.
_GRANT = re.compile(
    r"Licensed under|Permission is hereby granted|SPDX-License-Identifier|"
    r"Licensed to the Apache Software Foundation|GNU (?:Lesser |Affero )?General Public License"
    r"|Mozilla Public License|All rights reserved"
)
# A word each grant above holds (the pattern is only run where one is written).
_GRANT_WORDS = ("Licen", "Permission", "SPDX", "Public License", "rights reserved")
# A comment line's marker; "*" lines count only inside a block opened by "/*" (elsewhere
# they are a Markdown list).
_MARKER = re.compile(r"[ \t]*(#|//|--|;|/\*|\*)")


def _marker(text: str, line: int) -> str | None:
    found = _MARKER.match(text, line)
    if found is None:
        return None
    return "*" if found.group(1) == "/*" else found.group(1)


def licence_spans(text: str) -> list[tuple[int, int]]:
    """The character spans of `text` that are licence headers: each run of lines commented
    alike (`#`, `//`, `--`, `;`, or a `/* ... */` block) holding the words of a licence
    grant."""
    spans: list[tuple[int, int]] = []
    if not any(word in text for word in _GRANT_WORDS):
        return spans  # most texts: a search for a few words is quicker than the pattern's
    for grant in _GRANT.finditer(text):
        if spans and grant.start() < spans[-1][1]:
            continue  # in the block just found
        line = text.rfind("\n", 0, grant.start()) + 1
        marker = _marker(text, line)
        if marker is None:
            continue  # prose about a licence, not a header
        start = line
        while start > 0:
            previous = text.rfind("\n", 0, start - 1) + 1
            if _marker(text, previous) != marker:
                break
            start = previous
        if marker == "*" and not text[start:].lstrip(" \t").startswith("/*"):
            continue  # a list item about a licence
        end = text.find("\n", grant.start())
        while end >= 0 and _marker(text, end + 1) == marker:
            end = text.find("\n", end + 1)
        spans.append((start, len(text) if end < 0 else end))
    return spans
