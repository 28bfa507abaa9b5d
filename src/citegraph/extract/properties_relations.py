"""Offline relations from Java `.properties` files, such as a Spring Boot application's
`application.properties`.

The file is one application's settings when it names that application
(`spring.application.name=cart`): its owner, bound where the name is written. Every setting
is then read as an environment (config_values.py): one whose last key part names an address
(`spring.datasource.url`, `spring.rabbitmq.host`, `...routes[0].uri`) or whose value can
only be one (`eureka.client.serviceUrl.defaultZone=http://discovery:8761/eureka/`) is a
`calls` relation from the application to the host, quoting the setting's line. A file that
names no application (messages, another tool's settings) states nothing.
"""

from __future__ import annotations

import re

from .config_values import MAX_CONFIG_CHARS, hosts_in, name_in, names_an_address, same_component
from .structural import Located, StructuralRelation

# One logical line: `key = value`, `key: value` or `key value`; `#` and `!` open comments. A
# line ending in a backslash goes on (such values are not read: an address fits on a line).
_SETTING = re.compile(
    r"^[ \t\f]*(?P<key>[^#!\s:=][^\s:=]*)(?:[ \t\f]*[:=][ \t\f]*|[ \t\f]+)(?P<value>[^\r\n]*)",
    re.M,
)
_APPLICATION_NAME = "spring.application.name"


def properties_relations(text: str) -> list[StructuralRelation]:
    """The calls a `.properties` file states for the application it names (none when it
    names none)."""
    if len(text) > MAX_CONFIG_CHARS:
        return []
    settings = [m for m in _SETTING.finditer(text) if not _continued(text, m)]
    named = next((m for m in settings if m.group("key") == _APPLICATION_NAME), None)
    name = None if named is None else name_in(_value(named))
    if named is None or name is None:
        return []
    at_name = named.start("value") + name[1]
    owner = Located(name[0], at_name, at_name + len(name[0]))
    found: list[StructuralRelation] = []
    for match in settings:
        key, value = match.group("key"), _value(match)
        last = re.split(r"[.\[\]]+", key.strip("[]"))[-1]
        if match is named or not names_an_address(last, value, env=True):
            continue
        end = match.start("value") + len(value)
        evidence = Located(text[match.start("key") : end], match.start("key"), end)
        for host, offset in hosts_in(value):
            if same_component(host, owner.text):
                continue
            at = match.start("value") + offset
            target = Located(host, at, at + len(host))
            found.append(StructuralRelation("calls", evidence, owner, target))
    return found


def _value(match: re.Match[str]) -> str:
    """A setting's value without the blanks that end its line."""
    return match.group("value").rstrip(" \t\f")


def _continued(text: str, match: re.Match[str]) -> bool:
    """Whether the line is a continuation of one ending in a backslash, or itself goes on."""
    before = text[max(0, match.start() - 3) : match.start()].rstrip("\r\n")
    return before.endswith("\\") or _value(match).endswith("\\")
