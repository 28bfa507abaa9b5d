"""What of a configuration file is read as prose: each line's own words, a comment apart.

A configuration file's prose is a comment or a value (`description: ...`), and its lines are
settings, not a paragraph: a comment after a value ("istio: ingressgateway # use Istio
default gateway") is no sentence whose subject is the value before it, and a line is no
continuation of the one above. So a line break and a comment's marker are cut out of the
text's sentences as a code block is (prose_relations.py): "image: cart # Cart uses Redis"
still reads `Cart uses Redis`, quoted without the setting before it. (A sentence a comment
or a value runs over several lines is not read.)
"""

from __future__ import annotations

import re

# `#` opens a comment at a line's start or after a blank, in YAML, TOML, env and .conf files
# (a `#` inside a word, "http://x/#top" or "'#fff'", opens none); a .properties comment is a
# line opening with `#` or `!`. Each line break is cut too.
_HASH_MARKER = re.compile(r"(?:^|(?<=[ \t]))#+[ \t]*|\r?\n", re.M)
_PROPERTIES_MARKER = re.compile(r"^[ \t]*[#!]+[ \t]*|\r?\n", re.M)
_LINE_BREAK = re.compile(r"\r?\n")
_COMMENTED = frozenset({"application/yaml", "application/toml", "text/x-dotenv", "text/x-conf"})


def not_prose(text: str, media_type: str) -> list[tuple[int, int]]:
    """The character spans of a configuration `text` of `media_type` that end its sentences:
    line breaks and comment markers, in order."""
    if media_type in _COMMENTED:
        pattern = _HASH_MARKER
    elif media_type == "text/x-java-properties":
        pattern = _PROPERTIES_MARKER
    else:
        pattern = _LINE_BREAK  # JSON: no comments
    return [m.span() for m in pattern.finditer(text)]
