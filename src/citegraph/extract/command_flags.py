"""Addresses given on a command line. A compose service's `command` (or `entrypoint`) and a
container's `args` (or `command`) may pass another component's address as a flag instead of
an environment setting: `-frontend.scheduler-address=query-scheduler:9011` states that the
service calls query-scheduler just as `SCHEDULER_ADDRESS=query-scheduler:9011` would. A flag
counts when the last part of its name (after the last dot) is an address setting's name
(config_values.address_setting: `-address`, `-url`, `-host`, `-endpoint`...), written
`--name=value` in one word (in a list item or anywhere in a shell line), or `--name` and the
value as the next item of a list. The evidence is the flag with its value; the owner is the
service or workload, named where it is declared, as for its settings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from .config_values import address_setting, hosts_in, same_component
from .structural import Located, StructuralRelation
from .yaml_nodes import located, pairs, scalar

_COMMAND_KEYS = frozenset({"command", "args", "entrypoint"})
# One flag with its value in one word: `-querier.scheduler-address=query-scheduler:9011`.
_FLAG = re.compile(r"(?<![\w-])--?(?P<name>[A-Za-z][\w.-]*)=(?P<value>[^\s\"',\]]+)")
# A flag alone as a list item, its value the next one: ["--store.address", "store:10901"].
_BARE_FLAG = re.compile(r"--?(?P<name>[A-Za-z][\w.-]*)")
_MAX_NODES = 20_000  # a walk for command lines stops after this many nodes


def flag_calls(text: str, owner: Located, node: Any) -> list[StructuralRelation]:
    """The calls the command lines anywhere under `node` (a compose service's or a
    workload's mapping) state for `owner`."""
    found: list[StructuralRelation] = []
    for line in _command_lines(node):
        items = list(line.value) if _is_sequence(line) else [line]
        for index, item in enumerate(items):
            if scalar(item) is None:
                continue
            raw = located(text, item)
            for flag in _FLAG.finditer(raw.text):
                found += _calls(raw, flag.start(), flag.group("name"), flag.start("value"),
                                flag.group("value"), owner)  # fmt: skip
            bare = _BARE_FLAG.fullmatch(scalar(item) or "")
            following = items[index + 1] if index + 1 < len(items) else None
            if bare is not None and following is not None and scalar(following):
                value = located(text, following)
                whole = Located(text[raw.start : value.end], raw.start, value.end)
                found += _calls(whole, 0, bare.group("name"), value.start - raw.start,
                                value.text, owner)  # fmt: skip
    return found


def _calls(
    raw: Located, start: int, name: str, value_at: int, value: str, owner: Located
) -> list[StructuralRelation]:
    """The calls one flag (at `start` in `raw`, its value at `value_at`) states."""
    if not address_setting(name.rsplit(".", 1)[-1]):
        return []
    end = value_at + len(value)
    evidence = Located(raw.text[start:end], raw.start + start, raw.start + end)
    relations = []
    for host, offset in hosts_in(value.strip("\"'")):
        at = raw.text.find(host, value_at + offset)
        if at < 0 or at + len(host) > end or same_component(host, owner.text):
            continue
        target = Located(host, raw.start + at, raw.start + at + len(host))
        relations.append(StructuralRelation("calls", evidence, owner, target))
    return relations


def _command_lines(node: Any) -> Iterator[Any]:
    """The values of `command`, `args` and `entrypoint` keys anywhere under `node`."""
    stack, seen = [node], 0
    while stack and seen < _MAX_NODES:
        current = stack.pop()
        seen += 1
        if _is_sequence(current):
            stack.extend(reversed(current.value))
            continue
        for key, value in pairs(current):
            if scalar(key) in _COMMAND_KEYS:
                yield value
            else:
                stack.append(value)


def _is_sequence(node: Any) -> bool:
    import yaml

    return isinstance(node, yaml.SequenceNode)
