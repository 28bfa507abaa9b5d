"""Other names a compose file gives a service: its `hostname`, its `container_name` and its
network `aliases` are names the other services reach it by (`RETAIL_UI_ENDPOINTS_CARTS=
http://carts:8080` calls the service `cart` whose `hostname: carts`). Each is kept as an
`alias-of` relation from that name to the service's key, quoted from the key to the name, so
that a walk or an impact question takes a call to the one as a call to the other. A name equal
to the key, a templated one (`${HOST}`) or one written too far below the key to be quoted with
it states nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..values.paths import ALIAS_OF
from .grounding import MAX_EVIDENCE_BYTES
from .structural import StructuralRelation
from .yaml_nodes import get, named, pairs, scalar, spanning

# A host name as compose and DNS take it.
_HOST_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?")


def compose_aliases(text: str, key: Any, body: Any) -> Iterator[StructuralRelation]:
    """`alias-of` relations from the other names of the compose service `key` (its node in
    the file's `services`, `body` its mapping) to the service."""
    service = scalar(key)
    if not service:
        return
    for name_node in _other_names(body):
        name = scalar(name_node)
        if not name or name == service or _HOST_NAME.fullmatch(name) is None:
            continue
        evidence = spanning(text, key, name_node)
        if len(evidence.text.encode()) > MAX_EVIDENCE_BYTES:  # grounding keeps no longer quote
            continue
        yield StructuralRelation(ALIAS_OF, evidence, named(text, name_node), named(text, key))


def _other_names(body: Any) -> Iterator[Any]:
    import yaml

    for field in ("hostname", "container_name"):
        node = get(body, field)
        if scalar(node):
            yield node
    networks = get(body, "networks")
    for _, network in pairs(networks) if isinstance(networks, yaml.MappingNode) else ():
        aliases = get(network, "aliases")
        if isinstance(aliases, yaml.SequenceNode):
            yield from (item for item in aliases.value if scalar(item))
