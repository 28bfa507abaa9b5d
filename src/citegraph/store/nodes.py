"""The nodes of a store by URL, for health: each asked its ROLE directly; a cluster's read
from CLUSTER NODES of any node that answers (a node the cluster still lists may be gone)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import redis
from redis.cluster import RedisCluster

from .address import Node
from .health import NodeHealth


def node_health(
    probe: Callable[[Node], redis.Redis],
    node: Node,
    said_role: str | None = None,
    label: str | None = None,
) -> NodeHealth:
    """Ask one node its ROLE, on a connection of its own with a short timeout."""
    address = label or node.address
    client = probe(node)
    started = time.perf_counter()
    try:
        reply = client.execute_command("ROLE")  # type: ignore[no-untyped-call]
        ms = (time.perf_counter() - started) * 1000
    except redis.exceptions.RedisError as exc:
        return NodeHealth(address, said_role or "unknown", "down", f"no answer: {exc}")
    finally:
        client.close()
    role = "primary" if reply and reply[0] == "master" else "replica"
    detail = "answers"
    if role == "replica" and len(reply) >= 4:
        detail = f"replica of {reply[1]}:{reply[2]}, link {reply[3]}"
    return NodeHealth(address, role, "ok", detail, round(ms, 2))


def parse_cluster_nodes(text: str) -> list[tuple[Node, str, str, str]]:
    """(node, role, flags, slot ranges) per line of CLUSTER NODES."""
    found = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 8:
            continue
        address = fields[1].split("@", 1)[0]
        host, _, port = address.rpartition(":")
        if not host or not port.isdigit():
            continue  # a node without an address yet (noaddr, mid-handshake)
        flags = fields[2]
        role = "primary" if "master" in flags.split(",") else "replica"
        found.append((Node(host, int(port)), role, flags, " ".join(fields[8:])))
    return found


def _table(connection: RedisCluster) -> str:
    problems = []
    for node in connection.get_nodes():  # type: ignore[no-untyped-call]
        try:
            reply = connection.get_redis_connection(node).execute_command("CLUSTER", "NODES")  # type: ignore[no-untyped-call]
        except redis.exceptions.RedisError as exc:
            problems.append(f"{node.name}: {exc}")
            continue
        return reply if isinstance(reply, str) else str(reply)
    raise redis.exceptions.ConnectionError("no node answers CLUSTER NODES: " + "; ".join(problems))


def cluster_nodes(connection: Any, probe: Callable[[Node], redis.Redis]) -> list[NodeHealth]:
    try:
        table = parse_cluster_nodes(_table(connection))
    except redis.exceptions.RedisError as exc:
        return [NodeHealth("cluster", "unknown", "down", str(exc))]
    health = []
    for node, role, flags, slots in sorted(table, key=lambda t: (t[1], t[0].address)):
        found = node_health(probe, node, role)
        if "fail" in flags.split(",") and found.state == "ok":
            found = replace(found, state="failed", detail="the cluster marks it failed")
        elif "fail?" in flags.split(","):
            found = replace(found, detail=f"{found.detail}; suspected down by the cluster")
        health.append(replace(found, slots=slots or None))
    return health
