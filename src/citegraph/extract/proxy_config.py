"""Where a reverse proxy's configuration sends requests: nginx's `proxy_pass`.

An nginx configuration file (`nginx.conf`, `default.conf`) states where the proxy sends each
request: `proxy_pass http://order-service:3000;` (or `grpc_pass`, `uwsgi_pass`,
`fastcgi_pass`, `scgi_pass`), maybe to an `upstream` block of the file that lists the
servers (`upstream web { server frontend:3000; }`). Each host so named (its first label, as
for a setting) is called by whoever runs the proxy, which the file itself does not say: a
compose service that mounts the file (`volumes: - ./nginx.conf:/etc/nginx/conf.d/default.conf`)
or is built from the folder holding it (`build: src/store-front`), or a Kubernetes workload
that mounts a ConfigMap holding it (`volumes: - configMap: name: nginx-config`).
settings_links.py joins them over the scope (config_relations.py within one manifest); the
quote is the directive, or an upstream block from its name to the server's line, and the
source is bound at the service's or workload's name.
A directive in a comment, to a variable (`http://$backend`) or to the machine itself
(`localhost`, `127.0.0.1`, a socket) names no component.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from typing import Any

from .config_values import host_in, same_component
from .structural import Located, StructuralRelation
from .yaml_nodes import get, pairs, scalar

CONF_TYPE = "text/x-conf"
PROXY_KIND = "ProxyConfig"  # a configuration file a compose service mounts
BUILD_KIND = "BuildContext"  # the folder a compose service's image is built from
MOUNTED_KIND = "MountedConfigMap"  # a ConfigMap a workload mounts as files (`volumes:`)
# What a configuration file holds to be read for where it sends requests.
PROXY_MARKS = ("proxy_pass", "grpc_pass", "uwsgi_pass", "fastcgi_pass", "scgi_pass")

_PASS = re.compile(
    r"^[ \t]*(?:proxy|grpc|uwsgi|fastcgi|scgi)_pass[ \t]+(?P<value>[^;#\s]+)[ \t]*;", re.M
)
_UPSTREAM = re.compile(r"^[ \t]*upstream[ \t]+(?P<name>[\w.-]+)[ \t]*\{(?P<body>[^}]*)\}", re.M)
_SERVER = re.compile(r"^[ \t]*server[ \t]+(?P<value>[^;#\s]+)[^;\n]*;", re.M)
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://")


def proxy_calls(
    text: str, owner: Located, within: tuple[int, int] | None = None
) -> list[StructuralRelation]:
    """The calls `owner` makes by running a proxy configured by `text` (an nginx file), or by
    the part of it `within` (character offsets: a file held in a manifest's value): one for
    each host a pass directive names, or each server of the upstream it names."""
    start, end = within or (0, len(text))
    upstreams = {m.group("name"): m for m in _UPSTREAM.finditer(text, start, end)}
    found: dict[tuple[int, int, int], StructuralRelation] = {}
    for directive in _PASS.finditer(text, start, end):
        value = directive.group("value")
        upstream = upstreams.get(_SCHEME.sub("", value).split("/", 1)[0])
        if upstream is not None:
            at = text.index("upstream", upstream.start())
            for server in _SERVER.finditer(text, upstream.start("body"), upstream.end("body")):
                evidence = Located(text[at : server.end()], at, server.end())
                _add(found, evidence, server.group("value"), server.start("value"), owner)
        else:
            at = directive.start() + len(directive.group()) - len(directive.group().lstrip())
            evidence = Located(text[at : directive.end()], at, directive.end())
            _add(found, evidence, value, directive.start("value"), owner)
    return list(found.values())


def _add(
    found: dict[tuple[int, int, int], StructuralRelation],
    evidence: Located,
    value: str,
    at: int,
    owner: Located,
) -> None:
    host = host_in(value)
    if host is None or same_component(host[0], owner.text):
        return
    start = at + host[1]
    target = Located(host[0], start, start + len(host[0]))
    found.setdefault(
        (evidence.start, evidence.end, start), StructuralRelation("calls", evidence, owner, target)
    )


def compose_proxy_imports(body: Any) -> Iterator[tuple[str, str, None]]:
    """The configuration files a compose service (`body`, its YAML node) runs with, as it
    writes them: (PROXY_KIND, a `.conf` file it mounts, None) and (BUILD_KIND, the folder
    its image is built from, None)."""
    volumes = get(body, "volumes")
    for item in getattr(volumes, "value", None) or []:
        written = scalar(item)
        source = written.split(":", 1)[0] if written else scalar(get(item, "source"))
        if source and source.endswith(".conf") and source.startswith((".", "/")):
            yield PROXY_KIND, source, None
    build = get(body, "build")
    context = scalar(build) or scalar(get(build, "context"))
    if context and "://" not in context and not context.startswith("git@"):
        yield BUILD_KIND, context, None


def in_folder(path: str, folder: str) -> bool:
    """Whether the document named `path` lies in `folder` (a document name's folder) or below."""
    folder = posixpath.normpath(folder)
    return folder == "." or path.startswith(folder.rstrip("/") + "/")


def mounted_proxy_calls(text: str, held: Any, owner: Located) -> list[StructuralRelation]:
    """The calls `owner` makes by mounting a ConfigMap (`held`, its root in `text`) whose
    `data` holds an nginx file (`default.conf: |` and the file's lines)."""
    found: list[StructuralRelation] = []
    for _key, value in pairs(get(held, "data")):
        written = scalar(value)
        if written and any(mark in written for mark in PROXY_MARKS):
            found += proxy_calls(text, owner, (value.start_mark.index, value.end_mark.index))
    return found
