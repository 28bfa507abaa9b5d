"""What a Dapr component's manifest says of the applications that use it.

A Dapr `Component` (a state store, a pub/sub broker, a binding) is loaded only by the
applications its `scopes:` list names, by their app ids: the list is where the project states
which services use it (`scopes: - make-line-service` under the component
`reddog.state.makeline`). Each item becomes a `uses` relation from that application to the
component, quoted from the `scopes` key to the item, the component bound at its
`metadata.name`. A component that takes its secrets from a secret store (`auth: secretStore:
vault`) uses that store, and a workload whose sidecar is configured by a Dapr Configuration
(the annotation `dapr.io/config: "dapr-config"`) uses that configuration. What the component
itself calls (its `redisHost`, its broker's URL) is read as any manifest's settings
(config_relations.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .structural import Located, StructuralRelation
from .yaml_nodes import get, named, pairs, scalar, spanning


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
        yield StructuralRelation("uses", spanning(text, key, item), named(text, item), component)


def secret_store_uses(text: str, component: Located, root: Any) -> Iterator[StructuralRelation]:
    """A component's use of the secret store its `auth.secretStore` names."""
    for key, value in pairs(get(root, "auth")):
        store = scalar(value)
        if scalar(key) == "secretStore" and store and store != component.text:
            evidence = spanning(text, key, value)
            yield StructuralRelation("uses", evidence, component, named(text, value))


_MAX_NODES = 5_000  # a walk for annotations stops after this many nodes


def configuration_uses(text: str, workload: Located, root: Any) -> Iterator[StructuralRelation]:
    """A workload's use of the Dapr Configuration its pods' `dapr.io/config` annotation
    names."""
    import yaml

    stack, seen = [root], 0
    while stack and seen < _MAX_NODES:
        node = stack.pop()
        seen += 1
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
            continue
        for key, value in pairs(node):
            name = scalar(value)
            if scalar(key) == "dapr.io/config" and name and name != workload.text:
                evidence = spanning(text, key, value)
                yield StructuralRelation("uses", evidence, workload, named(text, value))
            elif name is None:
                stack.append(value)
