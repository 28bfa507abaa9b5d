"""What one configuration setting says: whether its name or value states another component's
address, and which component that is (the first label of the host) and where in the value.

These rules read a key and a value; which object a setting belongs to is the structure's
business (config_relations.py).
"""

from __future__ import annotations

import re

SETTING_NAME = re.compile(
    r"[A-Za-z0-9_]*?(?:_|^)(?:ADDR|ADDRESS|HOST|HOSTNAME|URL|URI|ENDPOINT|SERVER)", re.I
)
# Schemes, compound ones too ("jdbc:postgresql://", Spring's "optional:configserver:http://").
_SCHEME = r"(?:[a-z][a-z0-9+.-]*:)*[a-z][a-z0-9+.-]*://"
_HOST = re.compile(
    rf"(?:{_SCHEME})?(?:[^@/\s]+@)?"  # then any user part
    r"(?P<host>[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?:\.[A-Za-z0-9-]+)*(?::\d+)?(?:/\S*)?"
)
_NOT_A_COMPONENT = frozenset({"localhost", "127", "0", "example", "http", "https"})
# One reference to another setting with a default the file states: compose's `${CART:-cart:70}`
# and `${CART-cart:70}`, Spring's `${CART:cart:70}` (not compose's `:?` error or `:+` other).
_REFERENCE = re.compile(r"\$\{\w+(?::?-|:(?![?+]))(?P<default>[^${}]*)\}")
# Parsing is for configuration files, not data dumps: bigger texts are not parsed.
MAX_CONFIG_CHARS = 2_000_000


def host_in(value: str) -> tuple[str, int] | None:
    """The component a setting's value names (the first label of its host) and where it is
    in `value`. A reference to another setting names nothing unless it states a default,
    which is then what the file says the value is."""
    shift_from, shift = len(value), 0
    reference = _REFERENCE.search(value)
    if reference is not None and value.count("$") == 1:
        shift_from, shift = reference.start(), reference.start("default") - reference.start()
        value = value[: reference.start()] + reference.group("default") + value[reference.end() :]
    if "$" in value or "{" in value:
        return None  # a reference with no default: the address is in another setting
    match = _HOST.fullmatch(value.strip())
    if match is None:
        return None
    host = match.group("host")
    if host.lower() in _NOT_A_COMPONENT or host.isdigit() or not re.search("[a-z]", host, re.I):
        return None
    at = match.start("host") + len(value) - len(value.lstrip())
    return host, at + shift if at >= shift_from else at


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


def names_an_address(key: str, value: str | None, env: bool) -> bool:
    """Whether a setting states another component's address: by its name, or, in an
    environment (`env`), by a value that can only be an address: a cluster service name, a
    URL to a one-label host, or a host with a port of 80 or more (image tags are small
    numbers: "postgres:13")."""
    key = key.strip()
    if key.casefold() in _OWN_NAME_KEYS:
        return False
    if SETTING_NAME.fullmatch(key):
        return True
    if not env or value is None or _NOT_AN_ADDRESS_NAME.search(key):
        return False
    shaped = _ADDRESS_VALUE.fullmatch(value.strip())
    if shaped is None or not (shaped.group("scheme") or shaped.group("tail")):
        return False
    port = re.search(r":(\d+)(?:/|$)", value.strip())
    return (
        shaped.group("scheme") is not None
        or ".svc" in value
        or (port is not None and int(port.group(1)) >= 80)
    )


def same_component(host: str, owner: str) -> bool:
    """Whether a host is the owner's own name (case, hyphens and underscores aside)."""
    return re.sub("[-_]", "", host.casefold()) == re.sub("[-_]", "", owner.casefold())
