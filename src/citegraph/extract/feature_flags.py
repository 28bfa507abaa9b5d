"""Calls a service makes only when a feature it has turned off is on.

A service's settings often carry an address and, beside it, a flag that turns the feature
using it off: `RETAIL_CATALOG_SEARCH_ENABLED=false` beside
`RETAIL_CATALOG_SEARCH_OS_ENDPOINT=http://opensearch:9200`, or `-Dspring.zipkin.enabled=false`
in `JAVA_OPTS` beside `ZIPKIN=zipkin:9411`. Such a call is stated, and made only in another
configuration: it is stored as hypothetical, not as an actual dependency. The feature is the
word before "enabled" in the flag's name (`SEARCH`, `zipkin`), and a call belongs to it when
its quote holds that word.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from .config_values import setting_words, with_defaults
from .structural import StructuralRelation
from .yaml_nodes import pairs, scalar

# A flag written as a setting of its own, or inside a value (`-Dspring.zipkin.enabled=false`,
# `--search-enabled=false`): what comes before "enabled", and the value.
_IN_A_VALUE = re.compile(r"([\w.-]+?)[._-]enabled\s*[=:]\s*[\"']?(\w+)", re.I)
_FLAG_NAME = re.compile(r"(.+?)[._-]?enabled", re.I)
_OFF = frozenset({"false", "0", "no", "off"})

# Words before "enabled" that name no feature of their own ("isEnabled", "FEATURE_ENABLED").
_NO_FEATURE = frozenset({"is", "be", "feature", "features", "flag", "service", "app"})


# A flag of one side of a feature, not of the feature: `MANAGEMENT_HEALTH_REDIS_ENABLED`
# turns off the health check of Redis, which the service still calls.
_ONE_SIDE = frozenset({"health", "healthcheck", "metrics", "tls", "ssl", "auth", "debug"})


def _feature(prefix: str) -> str | None:
    """The feature a flag's name says, its last word before "enabled"."""
    words = setting_words(prefix)
    word = words[-1] if words else ""
    if len(word) < 2 or word in _NO_FEATURE or _ONE_SIDE.intersection(words):
        return None
    return word


def features_off(node: Any) -> set[str]:
    """The features a service's settings (its YAML `node`, read to any depth) turn off."""
    import yaml

    off: set[str] = set()
    pending, seen = [node], set()
    while pending:
        item = pending.pop()
        if item is None or id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, yaml.SequenceNode):
            pending.extend(item.value)
            continue
        value = scalar(item)
        if value is not None:
            off.update(_off_in_a_value(value))
            continue
        entries = pairs(item)
        named = next((scalar(v) for k, v in entries if scalar(k) == "name"), None)
        for key, child in entries:
            name, setting = scalar(key), scalar(child)
            if name == "value" and named is not None and setting is not None:
                name = named  # a Kubernetes env entry: `name:` and `value:`
            if name is not None and setting is not None:
                off.update(flag_off(name, setting))
            pending.append(child)
    return off


def flag_off(name: str, value: str) -> set[str]:
    """The feature a setting `name` = `value` turns off, if it is such a flag."""
    read = with_defaults(value.strip())
    flag = _FLAG_NAME.fullmatch(name.strip())
    if flag is None or read is None or read[0].strip().strip("\"'").lower() not in _OFF:
        return set()
    feature = _feature(flag.group(1))
    return {feature} if feature else set()


def _off_in_a_value(value: str) -> set[str]:
    off: set[str] = set()
    for match in _IN_A_VALUE.finditer(value):
        if match.group(2).lower() in _OFF:
            feature = _feature(match.group(1))
            if feature:
                off.add(feature)
    if "=" in value and " " not in value.strip():  # a compose list entry: KEY=value
        name, _, setting = value.partition("=")
        off.update(flag_off(name, setting))
    return off


def conditioned(relations: list[StructuralRelation], off: set[str]) -> list[StructuralRelation]:
    """`relations` with each call of a feature in `off` made hypothetical."""
    if not off:
        return relations
    return [
        dataclasses.replace(r, modality="hypothetical")
        if r.type == "calls" and off.intersection(setting_words(r.evidence.text))
        else r
        for r in relations
    ]
