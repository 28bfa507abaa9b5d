"""Settings, read from `CITEGRAPH_*` environment variables. docs/settings.md is the table."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from .errors import ConfigError
from .limits import DEFAULT_MAX_QUESTION_CHARS

DEFAULT_CHUNK_BYTES = 2000
MIN_CHUNK_BYTES = 64
FSYNC_POLICIES = ("always", "everysec", "no")


@dataclass(frozen=True)
class Settings:
    """Everything that can be configured, with its default."""

    home: Path
    graph_url: str | None = None
    chunk_bytes: int = DEFAULT_CHUNK_BYTES
    fsync: str = "everysec"
    # None: the limit grows with what the store must load (at least 60 s).
    start_timeout_s: float | None = None
    # How long an idle embedded server is kept for the next command; 0 stops it at once.
    store_linger_s: float = 300.0
    # None: at least 60 s, more for a large embedded store, whose indexes are rebuilt after a
    # start while it already answers.
    index_timeout_s: float | None = None
    extract: bool = True
    embed_model: str | None = None
    query_timeout_s: float = 300.0
    restart_delay_s: float = 1.0
    # The HTTP service (citegraph serve).
    tokens_file: Path | None = None  # None: <home>/tokens.json
    max_body_bytes: int = 10 * 1024 * 1024
    max_question_chars: int = DEFAULT_MAX_QUESTION_CHARS
    request_timeout_s: float = 60.0

    @property
    def tokens_path(self) -> Path:
        return self.tokens_file if self.tokens_file is not None else self.home / "tokens.json"

    def __post_init__(self) -> None:
        if self.chunk_bytes < MIN_CHUNK_BYTES:
            raise ConfigError(
                f"chunk budget must be at least {MIN_CHUNK_BYTES} bytes, got {self.chunk_bytes}"
            )
        if self.fsync not in FSYNC_POLICIES:
            raise ConfigError(
                f"fsync policy must be one of {', '.join(FSYNC_POLICIES)}, got {self.fsync!r}"
            )
        timeouts = (
            self.start_timeout_s if self.start_timeout_s is not None else 1.0,
            self.index_timeout_s if self.index_timeout_s is not None else 1.0,
            self.query_timeout_s,
            self.request_timeout_s,
        )
        if min(timeouts) <= 0:
            raise ConfigError("timeouts must be positive")
        if self.restart_delay_s < 0:
            raise ConfigError("the restart delay cannot be negative")
        if self.store_linger_s < 0:
            raise ConfigError("the store linger time cannot be negative")
        if self.max_body_bytes < 1024 or self.max_question_chars < 1:
            raise ConfigError("the body limit must be at least 1024 bytes, the question limit 1")


def default_home(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    raw = env.get("CITEGRAPH_HOME")
    return Path(raw).expanduser() if raw else Path.home() / ".citegraph"


_N = TypeVar("_N", int, float)


def _number(env: Mapping[str, str], name: str, default: _N, kind: type[_N], what: str) -> _N:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return kind(raw)
    except ValueError:
        raise ConfigError(f"{name} must be {what}, got {raw!r}") from None


def _optional_number(env: Mapping[str, str], name: str) -> float | None:
    raw = (env.get(name) or "").strip()
    if not raw or raw.lower() == "auto":
        return None
    return _number(env, name, 0.0, float, "a number of seconds or 'auto'")


def _switch(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = (env.get(name) or "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name} must be on or off, got {raw!r}")


def load_settings(
    home: str | Path | None = None,
    url: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Settings:
    """Settings from explicit arguments first, then the environment, then defaults."""
    env = os.environ if env is None else env
    return Settings(
        home=Path(home).expanduser() if home is not None else default_home(env),
        graph_url=url if url is not None else (env.get("CITEGRAPH_GRAPH_URL") or None),
        chunk_bytes=_number(
            env, "CITEGRAPH_CHUNK_BYTES", DEFAULT_CHUNK_BYTES, int, "a whole number"
        ),
        fsync=env.get("CITEGRAPH_FSYNC", "everysec") or "everysec",
        start_timeout_s=_optional_number(env, "CITEGRAPH_START_TIMEOUT"),
        store_linger_s=_number(env, "CITEGRAPH_STORE_LINGER", 300.0, float, "a number"),
        index_timeout_s=_optional_number(env, "CITEGRAPH_INDEX_TIMEOUT"),
        extract=_switch(env, "CITEGRAPH_EXTRACT", True),
        embed_model=env.get("CITEGRAPH_EMBED_MODEL") or None,
        query_timeout_s=_number(env, "CITEGRAPH_QUERY_TIMEOUT", 300.0, float, "a number"),
        restart_delay_s=_number(env, "CITEGRAPH_RESTART_DELAY", 1.0, float, "a number"),
        tokens_file=Path(env["CITEGRAPH_TOKENS_FILE"]).expanduser()
        if env.get("CITEGRAPH_TOKENS_FILE")
        else None,
        max_body_bytes=_number(
            env, "CITEGRAPH_MAX_BODY_BYTES", 10 * 1024 * 1024, int, "a whole number"
        ),
        max_question_chars=_number(
            env, "CITEGRAPH_MAX_QUESTION_CHARS", DEFAULT_MAX_QUESTION_CHARS, int, "a whole number"
        ),
        request_timeout_s=_number(env, "CITEGRAPH_REQUEST_TIMEOUT", 60.0, float, "a number"),
    )
