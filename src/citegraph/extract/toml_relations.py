"""Offline relations from TOML settings: a setting under `[section]` named like an address
(config_values.py) is a call of the section's last name part (`[services.checkout]`)."""

from __future__ import annotations

import re

from .config_values import MAX_CONFIG_CHARS, address_setting, host_in
from .structural import Located, StructuralRelation

_TOML_SECTION = re.compile(r"^\s*\[+\s*([^\]]+?)\s*\]+\s*$", re.M)
_TOML_SETTING = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*=\s*([\"'])([^\"'\n]*)\2", re.M)


def toml_relations(text: str) -> list[StructuralRelation]:
    """From TOML: a setting under `[section]` belongs to the section's last name part."""
    if len(text) > MAX_CONFIG_CHARS:
        return []
    found: list[StructuralRelation] = []
    sections = list(_TOML_SECTION.finditer(text))
    for match in _TOML_SETTING.finditer(text):
        if not address_setting(match.group(1)):
            continue
        heading = next((s for s in reversed(sections) if s.start() < match.start()), None)
        host = host_in(match.group(3))
        if heading is None or host is None:
            continue
        dotted = heading.group(1)
        last = dotted.split(".")[-1].strip("\"' ")
        at_owner = heading.start(1) + dotted.rindex(last)
        owner = Located(last, at_owner, at_owner + len(last))
        at = match.start(3) + host[1]
        evidence = Located(text[match.start(1) : match.end()], match.start(1), match.end())
        found.append(
            StructuralRelation("calls", evidence, owner, Located(host[0], at, at + len(host[0])))
        )
    return found
