"""Query parameters written as FalkorDB's `CYPHER name=value ...` header.

FalkorDB takes parameters as Cypher literals ahead of the query text; the client library
builds them with a generic recursive function, which made encoding a flush of a few thousand
mention rows cost about as much as the store's writing them. This encoder writes the same
literals (strings in double quotes with backslash and quote escaped, map keys in backticks,
None as null) with a dispatch on the exact type and the key prefixes of a map written once,
and checks on the way what FalkorDB cannot take (a NUL in text, an unnamed key).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import UsageError


def _nul() -> UsageError:
    return UsageError("text with a NUL character cannot be stored or looked up")


def _string(value: str) -> str:
    if "\\" in value:
        value = value.replace("\\", "\\\\")
    if '"' in value:
        value = value.replace('"', '\\"')
    if "\x00" in value:
        raise _nul()
    return '"' + value + '"'


def _key(key: object) -> str:
    name = key.decode() if isinstance(key, bytes) else str(key)
    if not name or "`" in name:
        raise UsageError(f"a parameter or map key must be a non-empty name without '`': {name!r}")
    return "`" + name + "`:"


def _list(value: list[Any] | tuple[Any, ...]) -> str:
    if value and type(value[0]) is dict:
        return _maps(value)
    # A list of scalars or of lists (rows of a table) is written by the JSON encoder, in C:
    # its literals are FalkorDB's, but for `\uXXXX` (which FalkorDB does not read, and JSON
    # writes only for control characters) and maps (quoted keys); with either, or with a
    # value JSON cannot write, the list is written item by item.
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        text = "{"
    if "\\u" not in text and "{" not in text:
        return text
    return "[" + ",".join([literal(item) for item in value]) + "]"


def _maps(rows: list[Any] | tuple[Any, ...]) -> str:
    """A list of maps, most often of the same keys: each key's prefix is made once."""
    prefixes: dict[object, str] = {}
    parts: list[str] = []
    for row in rows:
        if type(row) is not dict:
            parts.append(literal(row))
            continue
        fields: list[str] = []
        for key, item in row.items():
            prefix = prefixes.get(key)
            if prefix is None:
                prefix = prefixes[key] = _key(key)
            encode = _ENCODERS.get(type(item))
            fields.append(prefix + (encode(item) if encode is not None else literal(item)))
        parts.append("{" + ",".join(fields) + "}")
    return "[" + ",".join(parts) + "]"


def _map(value: Mapping[Any, Any]) -> str:
    return "{" + ",".join([_key(k) + literal(v) for k, v in value.items()]) + "}"


_ENCODERS: dict[type, Callable[[Any], str]] = {
    str: _string,
    int: str,
    float: repr,
    bool: lambda value: "true" if value else "false",
    type(None): lambda _: "null",
    list: _list,
    tuple: _list,
    dict: _map,
}


def literal(value: Any) -> str:
    """`value` as a Cypher literal FalkorDB reads back as the same value."""
    encode = _ENCODERS.get(type(value))
    if encode is not None:
        return encode(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, bytes):
        return _string(value.decode())
    if isinstance(value, Mapping):
        return _map(value)
    if isinstance(value, list | tuple):
        return _list(value)
    return str(value)


def header(params: Mapping[str, Any] | None) -> str:
    """The `CYPHER ...` header that sends `params` ahead of a query ('' for none)."""
    if not params:
        return ""
    return "CYPHER " + " ".join(_key(k)[:-1] + "=" + literal(v) for k, v in params.items()) + " "
