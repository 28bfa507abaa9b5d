"""Offline relations from configuration: Kubernetes manifests, compose files (TOML: see
toml_relations.py).

A setting whose name says it holds another component's address (`PAYMENT_SERVICE_ADDR`,
`REDIS_HOST`, `ORDERS_URL`, ...) and whose value names a host (`paymentservice:50051`,
`http://orders.shop.svc.cluster.local/v1`) states that the setting's owner calls that host.
The owner is the object that holds the setting: a manifest's `metadata.name`, a compose
service's key. `depends_on` under a compose service states depends-on relations, and so do
its `links` to the file's other services; its other names are aliases (compose_aliases.py).

A ConfigMap or Secret calls nothing: its settings are those of the workloads that take them
(`envFrom` with a `configMapRef`/`secretRef`, or an env entry's `valueFrom` with a
`configMapKeyRef`/`secretKeyRef`), so each such setting states that each workload importing it
calls its host. Maps defined in the same file are read with it; an import of a map another
file defines is linked over the scope after extraction (settings_links.py).

The evidence is the setting itself (from its name to the end of its value), which names the
target; the owner is named where the object declares it, usually lines or chunks away, and
that located span is kept with the relation as the source's binding. Positions come from
parsing the stored text itself; grounding checks each against the stored bytes again.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .command_flags import flag_calls
from .compose_aliases import compose_aliases
from .config_values import (
    MAX_CONFIG_CHARS,
    address_setting,
    hosts_in,
    name_in,
    names_an_address,
    same_component,
)
from .dapr import a_dapr_component, configuration_uses, scoped_uses, secret_store_uses
from .env_files import compose_env_imports
from .feature_flags import conditioned, features_off
from .proxy_config import MOUNTED_KIND, compose_proxy_imports, mounted_proxy_calls
from .structural import Located, StructuralRelation
from .yaml_nodes import get as _get
from .yaml_nodes import located as _located
from .yaml_nodes import named as _named
from .yaml_nodes import pairs as _pairs
from .yaml_nodes import scalar as _scalar
from .yaml_nodes import spanning as _spanning


def _targets(
    raw: Located, value: str, skip: int, owner: Located, peers: frozenset[str] = frozenset()
) -> list[Located]:
    """The hosts a setting's `value` names (one, or each of a list: `hosts_in`), located in
    `raw` (the stored text holding the value, quotes kept, which starts `skip` characters
    before it); none that is its owner itself (a database taking its own settings)."""
    found = (_target(raw, host, skip, owner, peers) for host in hosts_in(value))
    return [target for target in found if target is not None]


def _target(
    raw: Located,
    found: tuple[str, int],
    skip: int,
    owner: Located,
    peers: frozenset[str] = frozenset(),
) -> Located | None:
    """A host a setting's value names (`found`: it, and where the value has it), located in
    `raw`; None when it is not there, or is the owner itself (no dependency). A host that is
    whole the name of one of `peers` (the file's other services: `basket.data`) is named
    whole, not by its first label."""
    # In the raw text the host is at or after where the value has it.
    offset = raw.text.find(found[0], skip + found[1])
    if offset < 0:
        return None
    name = found[0]
    for peer in peers:
        end = offset + len(peer)
        whole = not re.match(r"[\w.-]", raw.text[end : end + 1])
        if peer.startswith(name + ".") and raw.text[offset:end] == peer and whole:
            name = peer
    if same_component(name, owner.text):
        return None
    at = raw.start + offset
    return Located(name, at, at + len(name))


def _calls(
    text: str, owner: Located, name_node: Any, value_node: Any, peers: frozenset[str] = frozenset()
) -> list[StructuralRelation]:
    """The calls one setting states, quoted from its name to the end of its value."""
    value = _scalar(value_node)
    if value is None:
        return []
    evidence = _spanning(text, name_node, value_node)
    return [
        StructuralRelation("calls", evidence, owner, target)
        for target in _targets(_located(text, value_node), value, 0, owner, peers)
    ]


# A package's metadata (package.json, its lock file, a Helm Chart.yaml): links to where the
# package is developed, documented or funded, to its people and licence, to where it is
# published, and (npm's records in an installed copy) to the registry it came from, which
# it does not call.
_METADATA_KEYS = frozenset(
    {"repository", "bugs", "funding", "homepage", "author", "authors", "contributors",
     "maintainers", "sponsors", "license", "licenses", "publishConfig", "dist", "_resolved",
     "_npmOperationalInternal"}
)  # fmt: skip


# What holds a service's environment: compose's `environment`, Tye's `env`, an app spec's
# `envs` (DigitalOcean) or `envVars` (Render); and what names one entry of a list of them.
_ENVIRONMENTS = frozenset({"environment", "env", "envs", "envVars", "Environment"})
_ENTRY_NAMES = ("name", "key", "Name", "Key")  # (CloudFormation writes `Name:`, `Value:`)


def _settings(
    text: str,
    owner: Located,
    node: Any,
    seen: set[int],
    env: bool = False,
    anywhere: bool = False,
    peers: frozenset[str] = frozenset(),
    parent: str | None = None,
) -> Iterator[StructuralRelation]:
    """Relations stated by the settings anywhere under `node` (aliases visited once); `env`:
    `node` is a compose service's `environment` mapping; `anywhere`: every mapping under
    `node` is read as one (a Spring application's settings file is all environment);
    `peers`: the names of the file's services; `parent`: the key `node` is under (None: the
    owner's own mapping)."""
    import yaml

    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            value = _scalar(item)
            if value is not None and "=" in value:  # a compose list: - KEY=value
                key, _, setting = value.partition("=")
                if names_an_address(key, setting, env):
                    raw = _located(text, item)
                    for target in _targets(raw, setting, raw.text.find("=") + 1, owner, peers):
                        yield StructuralRelation("calls", raw, owner, target)
            else:
                yield from _settings(text, owner, item, seen, anywhere, anywhere, peers, parent)
        return
    named = next(((k, v) for k, v in _pairs(node) if _scalar(k) in _ENTRY_NAMES), None)
    value = _get(node, "value")
    value = _get(node, "Value") if value is None else value
    if named is not None and names_an_address(_scalar(named[1]) or "", _scalar(value), True):
        # An env entry (Kubernetes' `name:`, an app spec's `key:`): the evidence runs from
        # the name to the end of its value.
        yield from _calls(text, owner, named[0], value, peers)
    for key, child in _pairs(node):
        key_text = _scalar(key)
        scalar = _scalar(child)
        if key_text in _METADATA_KEYS:
            continue
        if key_text is not None and scalar is not None and _not_anothers(key_text, parent):
            continue
        if key_text is not None and scalar is not None and names_an_address(key_text, scalar, env):
            # (an address-named key holding a mapping, Spring's `gateway: server:`, is read into)
            yield from _calls(text, owner, key, child, peers)
        elif key_text == "depends_on":
            yield from _depends_on(text, owner, key, child)
        else:
            inner_env = anywhere or key_text in _ENVIRONMENTS
            yield from _settings(text, owner, child, seen, inner_env, anywhere, peers, key_text)


# A bare address key ("host: aks", "server: https://kubernetes.default.svc", "url:") names
# another component under a key that names it ("redis: host:", "datasource: url:"); in the
# owner's own mapping it is where the owner is hosted or deployed to (azd's `host: aks`, a
# Route's `spec: host:`), and under these keys a place to deploy to or fetch from (Argo CD's
# `destination: server:`, a Helm repository's `url:`).
_BARE_ADDRESS_KEYS = frozenset({"host", "server", "url", "uri", "address", "endpoint"})
_NOT_ANOTHERS = frozenset({
    "spec", "destination", "rules", "tls", "repositories", "repository",
    "repos", "repo", "registries", "registry", "charts", "chart", "helm", "source", "sources",
    "mirrors", "mirror", "status",
})  # fmt: skip


def _not_anothers(key: str, parent: str | None) -> bool:
    return key.lower() in _BARE_ADDRESS_KEYS and (parent is None or parent.lower() in _NOT_ANOTHERS)


def _named_services(services: Any) -> list[tuple[Any, Any]]:
    """(name node, body) of each item of a `services` list whose items are named mappings;
    empty when `services` is no such list."""
    import yaml

    if not isinstance(services, yaml.SequenceNode):
        return []
    items = [(_get(item, "name"), item) for item in services.value]
    if not items or not all(_scalar(name) for name, _ in items):
        return []
    return items


_MAX_NODES = 20_000  # a walk for containers stops after this many nodes


def _containers(root: Any) -> list[tuple[Any, Any]]:
    """(name node, body) of each container defined anywhere in a document that declares no
    owner of its own: an item of a list of named mappings with an environment, as an ECS
    task definition writes them (CloudFormation's `ContainerDefinitions: - Name: cart
    Environment: - Name: REDIS_HOST Value: ...`, a task definition's JSON)."""
    import yaml

    found: list[tuple[Any, Any]] = []
    stack, seen = [root], 0
    while stack and seen < _MAX_NODES:
        node = stack.pop()
        seen += 1
        if isinstance(node, yaml.MappingNode):
            stack.extend(v for _, v in _pairs(node))
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                name = next((v for k, v in _pairs(item) if _scalar(k) in ("name", "Name")), None)
                environment = any(_scalar(k) in _ENVIRONMENTS for k, _ in _pairs(item))
                if _scalar(name) and environment:
                    found.append((name, item))
                else:
                    stack.append(item)
    return found


def _depends_on(text: str, owner: Located, key: Any, node: Any) -> Iterator[StructuralRelation]:
    import yaml

    items = node.value if isinstance(node, yaml.SequenceNode) else [k for k, _ in _pairs(node)]
    for item in items:
        name = _scalar(item)
        if name:
            target = _located(text, item)
            if target.text != name:  # quoted: the name inside the quotes
                at = target.start + target.text.index(name)
                target = Located(name, at, at + len(name))
            yield StructuralRelation("depends-on", _spanning(text, key, item), owner, target)


def _links(
    text: str, owner: Located, body: Any, services: frozenset[str]
) -> Iterator[StructuralRelation]:
    """A compose service's `links` ("api", "api:alias"): it depends on each service of the
    file it links to (a link to no service of the file, or `external_links`, states none)."""
    import yaml

    key = next((k for k, _ in _pairs(body) if _scalar(k) == "links"), None)
    node = _get(body, "links")
    if key is None or not isinstance(node, yaml.SequenceNode):
        return
    for item in node.value:
        link = _scalar(item) or ""
        name = link.split(":", 1)[0]
        if name not in services or name == owner.text:
            continue
        at = _located(text, item)
        start = at.start + at.text.index(name)
        yield StructuralRelation(
            "depends-on", _spanning(text, key, item), owner, Located(name, start, start + len(name))
        )


Import = tuple[str, str, str | None]  # (kind, map name, one key or None for all)
Held = tuple[str | None, Any]  # a settings map's namespace (None: not said) and its root


@dataclass
class YamlSettings:
    """What a YAML file states: its relations (imports of maps it defines read), the settings
    maps it defines, and the imports of maps it does not define (another file may)."""

    relations: list[StructuralRelation] = field(default_factory=list)
    # (kind, name) -> each map of that name: its namespace and root
    maps: dict[tuple[str, str], list[Held]] = field(default_factory=dict)
    # (workload, its namespace, what it takes)
    imports: list[tuple[Located, str | None, Import]] = field(default_factory=list)
    error: str | None = None  # why the file could not be read: it is no YAML as written


# Objects whose settings are no calls of their own: an Ingress's `host` is its own name; a
# route or traffic rule (Istio, the Gateway API, Traefik) sends others' requests to the host
# it names (a VirtualService routing to `payment` does not call it); a monitoring object (the
# Prometheus Operator's) tells the monitoring system what to probe or scrape and through what
# (a Probe's `prober.url` is the exporter Prometheus asks, not one the Probe calls).
_NOT_CALLERS = frozenset(
    {"Ingress", "VirtualService", "DestinationRule", "Gateway", "ServiceEntry", "HTTPRoute",
     "GRPCRoute", "TCPRoute", "TLSRoute", "IngressRoute", "Probe", "ServiceMonitor",
     "PodMonitor", "ScrapeConfig", "PrometheusRule", "AlertmanagerConfig"}
)  # fmt: skip


def _unreadable(exc: Exception, text: str) -> str:
    """What a YAML parser's error says, in a line, with where (and that a template is read
    only once rendered, when the text holds template braces)."""
    mark = getattr(exc, "problem_mark", None)
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    problem = getattr(exc, "problem", None) or type(exc).__name__
    templated = " (a template, such as Helm's, is YAML only once rendered)" if "{{" in text else ""
    return f"not valid YAML{where}: {problem}{templated}"


def read_yaml(text: str, relations: bool = True) -> YamlSettings:
    """Read a YAML (or JSON) file's relations (unless not `relations`), settings maps and
    imports."""
    import yaml

    read = YamlSettings()
    if len(text) > MAX_CONFIG_CHARS:
        return read
    try:
        documents = list(yaml.compose_all(text, Loader=_loader(text)))
    except yaml.YAMLError as exc:  # not YAML as written: nothing structural to read
        read.error = _unreadable(exc, text)
        return read
    imports: list[tuple[Located, str | None, Import]] = []
    named = next((n for n in map(_application_name, documents) if _scalar(n)), None)
    dapr_configured = "dapr.io/config" in text  # (a workload's pods' annotation, read below)
    application = None if named is None else _application(text, named)
    for root in documents:
        if root is None:
            continue
        services = _get(root, "services")
        listed = _named_services(services)
        if listed:
            # A list of services each with its name (Tye, an app platform's spec): each is
            # the owner of its settings, not the file's own `name`.
            for name, body in listed if relations else ():
                read.relations.extend(_settings(text, _named(text, name), body, set()))
            continue
        if services is not None and _pairs(services):
            peers = frozenset(n for k, _ in _pairs(services) if (n := _scalar(k)) and "." in n)
            names = frozenset(n for k, _ in _pairs(services) if (n := _scalar(k)))
            for key, body in _pairs(services):
                if _scalar(key) and relations:
                    found = list(_settings(text, _named(text, key), body, set(), peers=peers))
                    found += flag_calls(text, _named(text, key), body)
                    read.relations.extend(conditioned(found, features_off(body)))
                    read.relations.extend(_links(text, _named(text, key), body, names))
                    read.relations.extend(compose_aliases(text, key, body))
                if _scalar(key):  # what it takes from env files and runs with, read with them
                    taken = dict.fromkeys(
                        [*compose_env_imports(body), *compose_proxy_imports(body)]
                    )
                    read.imports.extend((_named(text, key), None, ref) for ref in taken)
            continue
        kind = _scalar(_get(root, "kind"))
        if application is not None and not kind:
            # Every document of a Spring settings file (one per profile) is the application's.
            if relations:
                read.relations.extend(_settings(text, application, root, set(), True, True))
            continue
        metadata = _get(root, "metadata")
        owner = _get(metadata, "name") if kind else None
        owner = owner if owner is not None else _get(root, "name")
        if not _scalar(owner) and not kind and relations:
            for name, body in _containers(root):  # an ECS task definition's containers
                read.relations.extend(_settings(text, _named(text, name), body, set()))
        if not _scalar(owner) or kind in _NOT_CALLERS:
            continue
        namespace = _scalar(_get(metadata, "namespace")) or None
        if kind in _SETTING_MAPS:
            read.maps.setdefault((kind, _scalar(owner) or ""), []).append((namespace, root))
            continue
        located = _named(text, owner)
        if relations:
            found = list(_settings(text, located, root, set()))
            found += flag_calls(text, located, root)
            read.relations.extend(conditioned(found, features_off(root)))
            if a_dapr_component(root, kind):
                read.relations.extend(scoped_uses(text, located, root))
                read.relations.extend(secret_store_uses(text, located, root))
            elif dapr_configured:
                read.relations.extend(configuration_uses(text, located, root))
        imports.extend((located, namespace, ref) for ref in _imports(root))
    for owner, namespace, ref in imports:
        held = in_namespace(read.maps.get(map_of(ref), []), namespace)
        if not held:
            read.imports.append((owner, namespace, ref))  # another file may define it
        elif len(held) == 1 and relations:
            read.relations.extend(taken_from(text, ref, held[0][1], owner))
    read.relations = _distinct(read.relations)
    return read


def _application_name(root: Any) -> Any:
    """A Spring Boot settings file's `spring.application.name`: the service it configures."""
    return _get(_get(_get(root, "spring"), "application"), "name")


def _application(text: str, node: Any) -> Located | None:
    """Where the application's name is written (`${APP_NAME:cart}`: its default); None when
    it is no name written in one piece."""
    written = _named(text, node)
    name = name_in(written.text)
    if name is None:
        return None
    return Located(name[0], written.start + name[1], written.start + name[1] + len(name[0]))


def in_namespace(maps: list[Held], namespace: str | None) -> list[Held]:
    """The maps a workload of `namespace` may take: those of its namespace; failing that,
    where one side does not say its namespace, those the other side does not rule out."""
    exact = [m for m in maps if m[0] == namespace]
    return exact or [m for m in maps if m[0] is None or namespace is None]


def _distinct(found: list[StructuralRelation]) -> list[StructuralRelation]:
    """One relation per statement: a workload taking one map twice (two containers, or a
    whole map and one of its keys) states each call once."""
    return list(dict.fromkeys(found))


def _loader(text: str) -> Any:
    """libyaml's loader where PyYAML has it (ten times faster: settings links read every
    manifest of a scope), else PyYAML's own. Both give character offsets, except that
    libyaml does not count a byte order mark: a text with one is read by PyYAML's."""
    import yaml

    fast = getattr(yaml, "CSafeLoader", None)
    return fast if fast is not None and not text.startswith("\ufeff") else yaml.SafeLoader


def map_of(ref: Import) -> tuple[str, str]:
    """(kind, name) of the settings map an import takes: a mounted ConfigMap is one."""
    return ("ConfigMap", ref[1]) if ref[0] == MOUNTED_KIND else (ref[0], ref[1])


def taken_from(text: str, ref: Import, held: Any, owner: Located) -> list[StructuralRelation]:
    """The calls `owner` makes by its import `ref` of the map `held` (its root in `text`): its
    settings, or a proxy's configuration file the map holds, for a map mounted as files."""
    if ref[0] == MOUNTED_KIND:
        return mounted_proxy_calls(text, held, owner)
    return taken_settings(text, ref[0], held, ref[2], owner)


def taken_settings(
    text: str, kind: str, held: Any, key: str | None, owner: Located
) -> list[StructuralRelation]:
    """The calls `owner` makes by taking the settings map `held` (the root of a `kind`,
    ConfigMap or Secret, in `text`): every address setting of it, or the one `key`. `owner`
    may be located in another file's text. A Secret's `data` is base64, so only its
    `stringData` is read."""
    found: list[StructuralRelation] = []
    for data in ("stringData",) if kind == "Secret" else ("data",):
        for setting, value in _pairs(_get(held, data)):
            wanted = _scalar(setting)
            if wanted and (wanted == key if key else address_setting(wanted)):
                found += _calls(text, owner, setting, value)
    return found


# Objects that hold settings for workloads to take, and how a workload names what it takes.
_SETTING_MAPS = ("ConfigMap", "Secret")
_WHOLE_REFS = {"configMapRef": "ConfigMap", "secretRef": "Secret"}
_KEY_REFS = {"configMapKeyRef": "ConfigMap", "secretKeyRef": "Secret"}


def _imports(root: Any) -> list[Import]:
    """The settings maps a workload takes, each once: (kind, map name, key or None for all
    of them), from `envFrom` lists and from env entries' `valueFrom` whose entry names an
    address. A map taken whole (by any container) covers the keys taken one by one."""
    found = dict.fromkeys(_references(root))
    return [(k, n, key) for k, n, key in found if key is None or (k, n, None) not in found]


def _references(root: Any) -> Iterator[Import]:
    import yaml

    pending = [root]
    seen: set[int] = set()
    while pending:
        node = pending.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            pending.extend(node.value)
            continue
        for key, child in _pairs(node):
            ref = _scalar(key)
            if ref in _WHOLE_REFS:
                name = _scalar(_get(child, "name"))
                if name:
                    yield _WHOLE_REFS[ref], name, None
            elif ref == "configMap":  # a volume: the map's entries mounted as files
                name = _scalar(_get(child, "name"))
                if name:
                    yield MOUNTED_KIND, name, None
            elif ref == "valueFrom":
                entry = _scalar(_get(node, "name")) or ""
                for by, kind in _KEY_REFS.items():
                    taken = _get(child, by)
                    name, wanted = _scalar(_get(taken, "name")), _scalar(_get(taken, "key"))
                    if name and wanted and address_setting(entry):
                        yield kind, name, wanted
            else:
                pending.append(child)
