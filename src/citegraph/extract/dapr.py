"""What a Dapr component's manifest says of the applications that use it.

A Dapr `Component` (a state store, a pub/sub broker, a binding) is loaded only by the
applications its `scopes:` list names, by their app ids: the list is where the project states
which services use it (`scopes: - make-line-service` under the component
`reddog.state.makeline`). Each item becomes a `uses` relation from that application to the
component, quoted from the `scopes` key to the item, the component bound at its
`metadata.name`. What the component itself calls (its `redisHost`, its broker's URL) is read
as any manifest's settings (config_relations.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .structural import Located, StructuralRelation
from .yaml_nodes import get, named, pairs, scalar


def a_dapr_component(root: Any, kind: str | None) -> bool:
    """Whether a manifest's root is a Dapr component (`apiVersion: dapr.io/...`)."""
    version = scalar(get(root, "apiVersion")) or ""
    return kind == "Component" and version.startswith("dapr.io/")


def scoped_uses(text: str, component: Located, root: Any) -> Iterator[StructuralRelation]:
    """A `uses` relation from each application a component's `scopes` name to it."""
    import yaml

    key, items = next(((k, v) for k, v in pairs(root) if scalar(k) == "scopes"), (None, None))
    if key is None or not isinstance(items, yaml.SequenceNode):
        return
    for item in items.value:
        app = scalar(item)
        if not app or app == component.text:
            continue
        end = item.end_mark.index
        evidence = Located(text[key.start_mark.index : end], key.start_mark.index, end)
        yield StructuralRelation("uses", evidence, named(text, item), component)
