"""Settings a compose service takes from an env file.

A compose file often gives a setting no value of its own (`environment: - CART_ADDR`, or
`CART_ADDR: ${CART_ADDR}`): compose takes it from the `.env` file beside the compose file,
and a service's `env_file:` names more such files. Neither file alone states a call; together
they do. The compose file's side is read here as imports (`compose_env_imports`): which file,
and which setting or all of them; extract/settings_links.py joins each to the env file of that
path stored in the scope, and each address setting taken becomes a `calls` relation quoting
the env file's line (`env_file_calls`), its source bound at the service's name in the compose
file, as for a Kubernetes settings map.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .config_values import hosts_in, names_an_address, same_component
from .feature_flags import flag_off
from .structural import Located, StructuralRelation
from .yaml_nodes import get, pairs, scalar

ENV_FILE_KIND = "EnvFile"
# Where compose looks for the file it takes unset settings from: beside the compose file.
DEFAULT_ENV_FILE = ".env"

# `KEY=value` (or `export KEY=value`), one a line; `#` opens a comment line.
_LINE = re.compile(
    r"^[ \t]*(?:export[ \t]+)?(?P<key>[A-Za-z_][A-Za-z0-9_.-]*)[ \t]*=[ \t]*(?P<value>[^\r\n]*)",
    re.M,
)
# A reference in a compose value to a setting with no default, taken from the env file:
# `${CART_ADDR}`, `$CART_ADDR` (with one, `${CART_ADDR:-cart:7070}`, the compose file says the
# value itself).
_REFERENCES = re.compile(
    r"(?<!\$)\$\{(?P<braced>\w+)(?::?\?[^}]*)?\}|(?<!\$)\$(?P<bare>[A-Za-z_]\w*)"
)  # `${VAR:?error}` has no default either; `$$` is a `$` written out


@dataclass(frozen=True)
class EnvSetting:
    key: str
    start: int  # where the key starts in the file's text
    value: str  # without quotes or a comment after it
    value_start: int
    end: int  # where the value ends, its closing quote included


def env_settings(text: str) -> list[EnvSetting]:
    """The settings of an env file's text, each where its key and value are."""
    found: list[EnvSetting] = []
    for match in _LINE.finditer(text):
        raw, at = match.group("value"), match.start("value")
        quote = raw[:1]
        if quote in ("'", '"') and quote in raw[1:]:
            value = raw[1 : raw.index(quote, 1)]
            setting = EnvSetting(match.group("key"), match.start("key"), value, at + 1,
                                 at + len(value) + 2)  # fmt: skip
        else:
            value = re.split(r"[ \t]#", raw, maxsplit=1)[0].rstrip(" \t")
            setting = EnvSetting(match.group("key"), match.start("key"), value, at,
                                 at + len(value))  # fmt: skip
        found.append(setting)
    return found


def last_settings(text: str) -> dict[str, EnvSetting]:
    """The settings of an env file's text by key, a key written twice counted once, as its
    last line (which is what compose takes)."""
    return {s.key: s for s in env_settings(text)}


def env_file_calls(
    text: str, settings: dict[str, EnvSetting], key: str | None, owner: Located
) -> list[StructuralRelation]:
    """The calls `owner` makes by taking the setting `key` (None: every setting) of an env
    file's `text` (its `settings`, from `last_settings`): each that names an address, by its
    name or its value, quoted from its key to the end of its value."""
    found: list[StructuralRelation] = []
    if key is None:
        chosen = list(settings.values())
    else:  # looked up, not scanned: a service takes a few settings of a long file
        chosen = [settings[k] for k in sorted(_taken_with_references(settings, key))]
    for setting in chosen:
        if not names_an_address(setting.key, setting.value, env=True):
            continue
        evidence = Located(text[setting.start : setting.end], setting.start, setting.end)
        for host, offset in hosts_in(setting.value):
            if not same_component(host, owner.text):
                at = setting.value_start + offset
                target = Located(host, at, at + len(host))
                found.append(StructuralRelation("calls", evidence, owner, target))
    return found


# A reference in an env file's value to another of its settings, with a default or not.
_ENV_REFERENCE = re.compile(r"\$\{(?P<braced>\w+)|\$(?P<bare>[A-Za-z_]\w*)")


def _taken_with_references(settings: dict[str, EnvSetting], key: str) -> set[str]:
    """`key` and the settings of the same file its value refers to, and theirs in turn:
    `KAFKA_ADDR=${KAFKA_HOST}:${KAFKA_PORT}` takes `KAFKA_HOST=kafka`, the line that names
    the host."""
    taken: set[str] = set()
    pending = [key]
    while pending:
        name = pending.pop()
        if name in taken or name not in settings:
            continue
        taken.add(name)
        for reference in _ENV_REFERENCE.finditer(settings[name].value):
            pending.append(reference.group("braced") or reference.group("bare"))
    return taken


def env_features_off(settings: dict[str, EnvSetting], keys: set[str | None]) -> set[str]:
    """The features the settings `keys` (None among them: every setting) of an env file (its
    `settings`, from `last_settings`) turn off (`MCP_ENABLED=False`), for the calls of a
    service taking them."""
    chosen = settings.values() if None in keys else [settings[k] for k in keys if k in settings]
    return {feature for s in chosen for feature in flag_off(s.key, s.value)}


def path_beside(compose_document: str, named: str) -> str:
    """The document name of a file or folder a compose file names (an env file, a mounted
    configuration file, a build context), as it writes it: relative to its folder."""
    folder = posixpath.dirname(compose_document)
    return posixpath.normpath(posixpath.join(folder, named.strip()))


def compose_env_imports(body: Any) -> Iterator[tuple[str, str, str | None]]:
    """What a compose service (`body`, its YAML node) takes from env files: (kind, file as
    written, setting or None for all): each setting it gives no value of its own, or only
    a reference to another with no default, from `.env`; every setting of each file its
    `env_file` names."""
    environment = get(body, "environment")
    for name, value in _environment_entries(environment):
        if value is None:
            yield ENV_FILE_KIND, DEFAULT_ENV_FILE, name
            continue
        for reference in _REFERENCES.finditer(value):
            yield (
                ENV_FILE_KIND,
                DEFAULT_ENV_FILE,
                reference.group("braced") or reference.group("bare"),
            )
    listed = get(body, "env_file")
    items = [listed] if scalar(listed) else getattr(listed, "value", None) or []
    for item in items:
        # `- app.env`, or `- path: app.env` (with `required: false`: taken when it is there)
        path = scalar(item) or scalar(get(item, "path"))
        if path:
            yield ENV_FILE_KIND, path, None


def _environment_entries(node: Any) -> Iterator[tuple[str, str | None]]:
    """(name, value or None when it gives none) of a compose `environment`, a list of
    `KEY=value` or `KEY`, or a mapping."""
    import yaml

    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            entry = scalar(item)
            if entry:
                name, equals, value = entry.partition("=")
                yield name.strip(), value if equals else None
        return
    for key, value_node in pairs(node):
        named, given = scalar(key), scalar(value_node)
        if named:
            yield named, given or None
