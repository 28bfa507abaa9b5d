"""What a graph URL (CITEGRAPH_GRAPH_URL, --url) names: one FalkorDB server, a cluster by its
seed nodes, or a primary with read replicas. docs/deploy.md has the forms:

    redis://host:6379                       one server (a cluster behind it is detected)
    redis+cluster://h1:7000,h2:7001,h3:7002 a cluster, by seed nodes (any one of them may be down)
    redis://primary:6379?replicas=r1:6379,r2:6379
                                            a primary and its read replicas
    ...&read=replicas                       reads may be served, slightly stale, by a replica

`rediss://`, `falkor://` and `falkors://` work as `redis://`; `unix:///path.sock` names a
server on a unix socket. A password in the URL is never shown (`shown`).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, quote, unquote, urlsplit

from ..errors import ConfigError

KINDS = ("server", "cluster", "replicated")
_SCHEMES = {"redis": "redis", "rediss": "rediss", "falkor": "redis", "falkors": "rediss"}


@dataclass(frozen=True)
class Node:
    host: str
    port: int

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


@dataclass(frozen=True)
class StoreAddress:
    kind: str  # one of KINDS, as the URL says it ("server" may turn out to be a cluster)
    scheme: str  # redis, rediss or unix
    nodes: tuple[Node, ...]  # the server; the seed nodes; the primary, then its replicas
    username: str | None = None
    password: str | None = None
    db: int = 0
    socket_path: str | None = None  # unix scheme only
    stale_reads: bool = False  # read=replicas: reads may go to a replica

    @property
    def primary(self) -> Node:
        return self.nodes[0]

    @property
    def replicas(self) -> tuple[Node, ...]:
        return self.nodes[1:] if self.kind == "replicated" else ()

    def url_of(self, node: Node) -> str:
        """A plain redis URL of one node, credentials included (never shown)."""
        auth = ""
        if self.username or self.password:
            auth = quote(self.username or "", safe="") + ":" + quote(self.password or "", safe="")
            auth += "@"
        return f"{self.scheme}://{auth}{node.address}/{self.db}"

    def shown(self) -> str:
        """The URL as it may be printed: no password."""
        if self.socket_path is not None:
            return f"unix://{self.socket_path}"
        user = f"{self.username or ''}:***@" if self.password else ""
        if self.kind == "cluster":
            text = f"{self.scheme}+cluster://{user}" + ",".join(n.address for n in self.nodes)
        else:
            text = f"{self.scheme}://{user}{self.primary.address}"
        options = (
            [f"replicas={','.join(n.address for n in self.replicas)}"] if self.replicas else []
        )
        options += ["read=replicas"] if self.stale_reads else []
        return text + ("?" + "&".join(options) if options else "")


def _node(text: str, what: str) -> Node:
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"{what} {text!r} is not host:port")
    return Node(host.strip("[]"), int(port))


def parse_graph_url(url: str) -> StoreAddress:
    """Read a graph URL; a `ConfigError` that says what is wrong with it otherwise."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme == "unix":
        if not parts.path:
            raise ConfigError(f"graph URL {url!r}: unix:// needs a socket path")
        return StoreAddress("server", "unix", (Node("localhost", 6379),), socket_path=parts.path)
    cluster = scheme.endswith("+cluster")
    base = scheme.removesuffix("+cluster")
    if base not in _SCHEMES:
        raise ConfigError(
            f"graph URL {url!r}: the scheme must be redis://, rediss://, falkor://, falkors://, "
            "redis+cluster:// or unix://"
        )
    netloc = parts.netloc
    username = password = None
    if "@" in netloc:
        auth, netloc = netloc.rsplit("@", 1)
        user, _, secret = auth.partition(":")
        username, password = unquote(user) or None, unquote(secret) or None
    if not netloc:
        raise ConfigError(f"graph URL {url!r} names no host")
    hosts = [h for h in netloc.split(",") if h.strip()]
    nodes = [_node(h if ":" in h else f"{h}:6379", "graph URL host") for h in hosts]
    query = parse_qs(parts.query)
    unknown = set(query) - {"replicas", "read"}
    if unknown:
        raise ConfigError(f"graph URL {url!r}: unknown option(s) {', '.join(sorted(unknown))}")
    read = query.get("read", ["primary"])[-1]
    if read not in ("primary", "replicas"):
        raise ConfigError(f"graph URL {url!r}: read= must be primary or replicas, got {read!r}")
    replicas = [
        _node(r, "replica") for value in query.get("replicas", []) for r in value.split(",") if r
    ]
    db_text = parts.path.strip("/") or "0"
    if not db_text.isdigit():
        raise ConfigError(f"graph URL {url!r}: the database must be a number, got {db_text!r}")
    if cluster and replicas:
        raise ConfigError(
            f"graph URL {url!r}: a cluster finds its replicas itself; give seed nodes only"
        )
    if not cluster and len(nodes) > 1:
        raise ConfigError(
            f"graph URL {url!r} names several hosts: use redis+cluster:// for a cluster, or "
            "?replicas=host:port,... for read replicas"
        )
    kind = "cluster" if cluster else ("replicated" if replicas else "server")
    return StoreAddress(
        kind,
        _SCHEMES[base],
        tuple(nodes + replicas),
        username=username,
        password=password,
        db=int(db_text),
        stale_reads=read == "replicas",
    )
