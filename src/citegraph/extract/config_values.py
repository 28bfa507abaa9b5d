"""What one configuration setting says: whether its name or value states another component's
address, and which component that is (the first label of the host) and where in the value.

These rules read a key and a value; which object a setting belongs to is the structure's
business (config_relations.py).
"""

from __future__ import annotations

import itertools
import re

# A setting named for an address: `CART_ADDR`, `redis-host`, `url`; or in camel case, the
# address word after a word ending in lower case (`redisHost`, `OrderServiceUrl`: Dapr
# components' metadata, .NET and Node settings), where case tells the words apart.
SETTING_NAME = re.compile(
    r"[A-Za-z0-9_-]*?(?:[_-]|^)"
    r"(?:ADDR|ADDRESS(?:ES)?|HOSTS?|HOSTNAME|URLS?|URIS?|ENDPOINTS?|SERVERS?|BROKERS)"
    r"|(?-i:[A-Za-z][A-Za-z0-9]*[a-z0-9]"
    r"(?:Addr|Address(?:es)?|Hosts?|Hostname|Ur[li]s?|UR[LI]s?|Endpoints?|Servers?|Brokers))",
    re.I,
)
# Schemes, compound ones too ("jdbc:postgresql://", Spring's "optional:configserver:http://").
_SCHEME = r"(?:[a-z][a-z0-9+.-]*:)*[a-z][a-z0-9+.-]*://"
_HOST = re.compile(
    rf"(?:{_SCHEME})?(?:[^@/\s]+@)?"  # then any user part
    r"(?P<host>[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?P<domain>(?:\.[A-Za-z0-9-]+)*)"
    r"(?::(?:\d+|\x00+))?(?:/\S*)?"  # a port, maybe another setting's
)
_NOT_A_COMPONENT = frozenset(
    {"localhost", "127", "0", "example", "http", "https", "true", "false", "yes", "no", "none",
     "null"}
)  # fmt: skip
# Names a container runtime gives the machine it runs on: no component of the system.
_HOST_MACHINE = frozenset(
    {"host.docker.internal", "gateway.docker.internal", "host.containers.internal",
     "host.minikube.internal", "kubernetes.docker.internal", "host-gateway",
     "docker.for.mac.localhost", "docker.for.win.localhost"}
)  # fmt: skip
# A public host ("smtp.gmail.com", "api.stripe.com") is named whole: its first label says
# nothing. A cluster's names ("redis.default.svc.cluster.local") are named by their first.
_PUBLIC_ENDINGS = frozenset(
    "com org net io dev app cloud ai co edu gov info biz me us uk de fr jp cn eu ca au in nl "
    "se ch es it br pl".split()
)
# A reference to another setting with a default the file states: compose's `${CART:-cart:70}`
# and `${CART-cart:70}`, Spring's `${CART:cart:70}` (not compose's `:?` error or `:+` other).
_REFERENCE = re.compile(r"\$\{\w+(?P<default_mark>:?-|:(?![?+]))?(?P<default>[^${}]*)\}")
# Parsing is for configuration files, not data dumps: bigger texts are not parsed.
MAX_CONFIG_CHARS = 2_000_000


# What a reference with no default stands for when `with_defaults` may keep it: a character
# no host, scheme or key holds, so a value is read only where its address is written out
# ("mongodb://${DB_USER}:${DB_PASSWORD}@mongo:27017": the credentials are elsewhere, the
# host is not).
UNKNOWN = "\x00"


def with_defaults(value: str, unknown: bool = False) -> tuple[str, list[tuple[int, int]]] | None:
    """`value` with each reference to another setting replaced by the default it states, and
    where each piece of the result starts in it and in `value` ((result, original) pairs, in
    order); None when a reference states no default (the value is in another setting),
    unless `unknown`: such a reference is then as many UNKNOWN characters as it is long."""
    pieces: list[tuple[int, int]] = [(0, 0)]
    out: list[str] = []
    at = 0
    for reference in _REFERENCE.finditer(value):
        if reference.group("default_mark") is None and not unknown:
            return None
        out.append(value[at : reference.start()])
        written = sum(map(len, out))
        if reference.group("default_mark") is None:
            out.append(UNKNOWN * len(reference.group()))
            pieces.append((written, reference.start()))
            at = reference.end()
            continue
        pieces.append((written, reference.start("default")))
        out.append(reference.group("default"))
        pieces.append((written + len(reference.group("default")), reference.end()))
        at = reference.end()
    out.append(value[at:])
    result = "".join(out)
    return None if "${" in result else (result, pieces)


def original_offset(pieces: list[tuple[int, int]], offset: int) -> int:
    """Where `offset` in a value read `with_defaults` is in the value as written."""
    start, origin = [p for p in pieces if p[0] <= offset][-1]  # the last piece begun there
    return origin + offset - start


def name_in(value: str) -> tuple[str, int] | None:
    """The name a value gives (`cart`, or the default of `${APP_NAME:cart}`) and where it is
    in `value`; None when it is no name written in one piece."""
    read = with_defaults(value.strip())
    if read is None or not read[0]:
        return None
    at = original_offset(read[1], 0) + len(value) - len(value.lstrip())
    return (read[0], at) if value[at : at + len(read[0])] == read[0] else None


def host_in(value: str) -> tuple[str, int] | None:
    """The component a setting's value names and where it is in `value`: the first label of
    its host, or a public host whole. A reference to another setting names nothing unless it
    states a default, which is then what the file says the value is. A connection string
    names the host of its server part (`Server=sqldata;Database=orders`, `basket:6379,ssl=1`)."""
    read = with_defaults(value, unknown=True)
    if read is None:
        return None
    text, pieces = read
    part, at = _address_part(text)
    match = _HOST.fullmatch(part.strip())
    # A host is written out (_HOST holds no UNKNOWN, `$VAR` or template braces): those can
    # only be in the credentials before it or the path after it.
    if match is None:
        return None
    host, domain = match.group("host"), match.group("domain")
    if host.lower() in _NOT_A_COMPONENT or host.isdigit() or not re.search("[a-z]", host, re.I):
        return None
    if not domain and "://" not in part and part.strip()[match.end("domain") :].startswith("/"):
        return None  # "bin/oxlint", "api/v1": a path, with no scheme, port or domain
    if (host + domain).lower() in _HOST_MACHINE:
        return None
    if domain.rsplit(".", 1)[-1].lower() in _PUBLIC_ENDINGS:
        host += domain
    at += match.start("host") + len(part) - len(part.lstrip())
    return host, original_offset(pieces, at)


def hosts_in(value: str) -> list[tuple[str, int]]:
    """Each component a setting's value names, and where: one host (`host_in`), or each of a
    list of addresses written in one value ("broker-1:9092,broker-2:9092", a MongoDB seed
    list `mongodb://a:27017,b:27017/db`, a JSON list `["http://elastic:9200"]`). A value
    with `key=value` options or a `${...}` reference is read as one address."""
    first = host_in(value)
    listed = value.strip().startswith("[")
    if ("," not in value and not listed) or "${" in value or _OPTIONS_AFTER.search(value):
        return [first] if first else []
    found: list[tuple[str, int]] = []
    at = 0
    for part in value.split(","):
        item = part.strip().strip("[]\"' ")
        host = host_in(item) if item else None
        if host is None:
            return [first] if first else []
        offset = at + part.index(item) + host[1]
        if all(host[0] != seen for seen, _ in found):
            found.append((host[0], offset))
        at += len(part) + 1
    return found


# A connection string of `key=value;` parts (ADO.NET, ODBC, Npgsql, Azure) names its server
# under one of these keys, maybe after a protocol ("tcp:sqldata,1433", "sqldata\\SQLEXPRESS").
_CONNECTION_PARTS = re.compile(r"\s*(?P<key>[A-Za-z][A-Za-z ]*?)\s*=(?P<value>[^;]*)")
_SERVER_KEYS = frozenset(
    {"server", "host", "hostname", "data source", "address", "addr", "network address",
     "endpoint"}
)  # fmt: skip
_SERVER_VALUE = re.compile(r"\s*(?:(?:tcp|np|lpc):)?(?P<host>[^,;\\]*)")
# Options after a first host ("basketdata:6379,password=...,ssl=False": StackExchange.Redis).
_OPTIONS_AFTER = re.compile(r",\s*[A-Za-z]\w*\s*=")


def _address_part(text: str) -> tuple[str, int]:
    """The part of a setting's value that holds the address, and where it starts: a
    connection string's server part, a host before options, or the whole value."""
    if _CONNECTION_PARTS.match(text):
        for part in _CONNECTION_PARTS.finditer(text):
            if part.group("key").strip().lower() in _SERVER_KEYS:
                server = _SERVER_VALUE.match(text, part.start("value"))
                assert server is not None  # it matches the empty string
                return server.group("host"), server.start("host")
        return "", 0
    options = _OPTIONS_AFTER.search(text)
    return (text[: options.start()], 0) if options else (text, 0)


# A bare `hostname` is the owner's own name (a compose service's, a pod's), not another's.
_OWN_NAME_KEYS = frozenset({"hostname", "host_name"})
# In an environment, a value that is itself an address says so whatever its name: a host
# with a port ("user-db:27017"), a cluster service name ("zipkin.tracing.svc"), or a URL to
# a host of one label ("http://discovery:8761/eureka", "lb://vets"; not "https://github.com").
_ADDRESS_VALUE = re.compile(
    rf"(?P<scheme>{_SCHEME})?[A-Za-z][A-Za-z0-9-]*"
    r"(?P<tail>:\d{2,5}|(?:\.[A-Za-z0-9-]+)*\.svc(?:\.cluster\.local)?(?::\d{2,5})?)?(?:/\S*)?"
)
# A setting naming an image, a tag or a version holds "node:18", not an address.
_NOT_AN_ADDRESS_NAME = re.compile(r"IMAGE|TAG|VERSION|RELEASE|BASE", re.I)
# Addresses of those that call the owner, not of those it calls: allowed origins, where to
# send a user back to (OAuth redirects, callbacks), the owner's own allowed or trusted hosts.
_CALLERS_NAME = re.compile(r"ORIGIN|CORS|REDIRECT|CALLBACK|ALLOWED|TRUSTED", re.I)


def names_an_address(key: str, value: str | None, env: bool) -> bool:
    """Whether a setting states another component's address: by its name, or, in an
    environment (`env`), by a value that can only be an address: a URL to a one-label host
    or a cluster service name whatever the name, or a host with a port of 80 or more
    (image tags are small numbers: "postgres:13") under a name that is not an image's. A
    setting of the owner's callers (allowed origins, redirects) names none."""
    key = key.strip()
    if key.casefold() in _OWN_NAME_KEYS or _CALLERS_NAME.search(key) or names_a_document(key):
        return False
    if SETTING_NAME.fullmatch(key):
        return True
    if names_a_connection(key):
        read = None if value is None else with_defaults(value.strip(), unknown=True)
        return read is not None and _CONNECTION_VALUE.match(read[0]) is not None
    read = None if not env or value is None else with_defaults(value.strip())
    if read is None:
        return False
    text = read[0]
    shaped = _ADDRESS_VALUE.fullmatch(text)
    if shaped is None or not (shaped.group("scheme") or shaped.group("tail")):
        return False
    if shaped.group("scheme") is not None or ".svc" in text:
        return True
    port = re.search(r":(\d+)(?:/|$)", text)
    return not _NOT_AN_ADDRESS_NAME.search(key) and port is not None and int(port.group(1)) >= 80


_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def setting_words(name: str) -> list[str]:
    """The words of a setting's name, in lower case, however it joins them
    (`DB_CONNECTION`, `connStr`, `spring.zipkin.enabled`)."""
    return [w.lower() for w in _WORDS.findall(name)]


# What a connection setting holds when it names a server: a connection string, a URL, or a
# host (with a port, maybe options after), not a count, a duration or a flag.
_CONNECTION_VALUE = re.compile(
    rf"[A-Za-z][A-Za-z ]*=|{_SCHEME}|[A-Za-z][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)*(?::\d+)?(?:,|$)"
)


# What a URL setting named for a document points at is read or shown, not called: a
# schema's identifier, documentation, a licence, a repository, an icon ("schema_url",
# "DOCS_URL", "licenseUrl"). The word that counts is the one the address word qualifies,
# past modifiers such as "base": "schema_base_url" names a document, "SCHEMA_REGISTRY_URL"
# a registry, which is called.
_DOCUMENT_WORDS = frozenset(
    "schema schemas doc docs documentation homepage website wiki license licence licenses "
    "licences repo repository changelog icon logo avatar thumbnail terms tos privacy".split()
)
_ADDRESS_MODIFIERS = frozenset({"base", "root", "public", "canonical", "full", "raw"})
_ADDRESS_WORDS = frozenset({"url", "urls", "uri", "uris"})


def names_a_document(key: str) -> bool:
    """Whether an address setting's name says it points at a document (_DOCUMENT_WORDS)."""
    words = setting_words(key)
    if not words or words[-1] not in _ADDRESS_WORDS:
        return False
    for word in reversed(words[:-1]):
        if word not in _ADDRESS_MODIFIERS:
            return word in _DOCUMENT_WORDS
    return False


def address_setting(key: str) -> bool:
    """Whether a setting's name alone says it holds another component's address (a settings
    map's entry, a TOML key): SETTING_NAME, unless it names a document's or a caller's."""
    return (
        SETTING_NAME.fullmatch(key) is not None
        and not names_a_document(key)
        and not _CALLERS_NAME.search(key)
    )


def names_a_connection(key: str) -> bool:
    """Whether a setting's name says it holds a connection to another component:
    `ConnectionString`, `ConnectionStrings__OrdersDb`, `EventBusConnection`, `DB_CONNECTION`,
    `SENTRY_DSN`, `connStr`; not a bare `connection` (an HTTP header's, a pool's), nor
    `MaxConnections` or `ConnectionTimeout`."""
    words = setting_words(key)
    pairs = itertools.pairwise(words)
    if any(a in ("connection", "conn") and b in ("string", "strings", "str") for a, b in pairs):
        return True
    return bool(words) and (words[-1] == "dsn" or (words[-1] == "connection" and len(words) > 1))


def same_component(host: str, owner: str) -> bool:
    """Whether a host is the owner's own name (case, hyphens and underscores aside)."""
    return re.sub("[-_]", "", host.casefold()) == re.sub("[-_]", "", owner.casefold())


# Files a package manager writes to pin what it installed: their keys name packages and
# their commands (npm's `"bin": {"x_server": "bin/x"}`), not the system's components.
_LOCK_FILES = frozenset({
    "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "composer.lock",
    "cargo.lock", "poetry.lock", "pipfile.lock", "gemfile.lock", "packages.lock.json",
    "go.sum", "uv.lock", "bun.lock", "deno.lock", "flake.lock", "pdm.lock", "mix.lock",
})  # fmt: skip


def a_lock_file(path: str) -> bool:
    """Whether the file at `path` (any folders before its name) is a package manager's lock
    file, which states no configuration."""
    return path.replace("\\", "/").rsplit("/", 1)[-1].lower() in _LOCK_FILES
