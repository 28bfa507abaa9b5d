"""Graph URLs (store/address.py): what each form names, what is refused and why, and that a
password is never shown."""

from __future__ import annotations

import re

import pytest

import citegraph
from citegraph.errors import ConfigError
from citegraph.store.address import Node, parse_graph_url


def test_the_forms() -> None:
    one = parse_graph_url("redis://db1:6380")
    assert (one.kind, one.nodes, one.replicas, one.stale_reads) == (
        "server",
        (Node("db1", 6380),),
        (),
        False,
    )
    assert parse_graph_url("falkor://db1").primary == Node("db1", 6379)
    assert parse_graph_url("falkors://db1:1").scheme == "rediss"
    cluster = parse_graph_url("redis+cluster://a:7000,b:7001,c:7002")
    assert cluster.kind == "cluster" and [n.port for n in cluster.nodes] == [7000, 7001, 7002]
    replicated = parse_graph_url("redis://p:6379?replicas=r1:6379,r2:6380&read=replicas")
    assert replicated.kind == "replicated" and replicated.stale_reads
    assert replicated.primary == Node("p", 6379)
    assert replicated.replicas == (Node("r1", 6379), Node("r2", 6380))
    sock = parse_graph_url("unix:///run/falkordb.sock")
    assert sock.socket_path == "/run/falkordb.sock" and sock.shown() == "unix:///run/falkordb.sock"
    assert parse_graph_url("redis://db1:6379/2").db == 2


def test_a_password_is_never_shown() -> None:
    address = parse_graph_url("redis://alice:s%40cret@db1:6379?replicas=r1:6379")
    assert address.password == "s@cret" and address.username == "alice"
    assert "cret" not in address.shown() and "***" in address.shown()
    assert address.shown() == "redis://alice:***@db1:6379?replicas=r1:6379"
    assert "s%40cret" in address.url_of(address.primary)  # given to the client, not shown


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://db1:6379", "scheme must be"),
        ("redis://", "names no host"),
        ("redis://db1:notaport", "is not host:port"),
        ("redis://a:1,b:2", "use redis+cluster://"),
        ("redis+cluster://a:1?replicas=b:2", "finds its replicas itself"),
        ("redis://a:1?replica=b:2", "unknown option(s) replica"),
        ("redis://a:1?read=sometimes", "read= must be primary or replicas"),
        ("redis://a:1/x", "database must be a number"),
        ("redis://a:1?replicas=b", "is not host:port"),
    ],
)
def test_bad_urls_say_what_is_wrong(url: str, said: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(said)):
        parse_graph_url(url)


def test_open_refuses_a_bad_url_before_connecting() -> None:
    with pytest.raises(ConfigError, match="scheme must be"):
        citegraph.open(url="http://localhost:1")
