"""Settings, read from `CITEGRAPH_*` environment variables. docs/settings.md is the table."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from .errors import ConfigError
from .limits import (
    DEFAULT_GRAPH_QUERY_ROWS,
    DEFAULT_GRAPH_QUERY_TIMEOUT_MS,
    DEFAULT_MAX_QUESTION_CHARS,
    MAX_GRAPH_QUERY_ROWS,
)

DEFAULT_CHUNK_BYTES = 2000
MIN_CHUNK_BYTES = 64
FSYNC_POLICIES = ("always", "everysec", "no")


def _env(name: str) -> dict[str, str]:
    """A field's environment variable (docs/settings.md has the table; a test walks both)."""
    return {"env": name}


@dataclass(frozen=True)
class Settings:
    """Everything that can be configured, with its default."""

    home: Path = field(metadata=_env("CITEGRAPH_HOME"))
    graph_url: str | None = field(default=None, metadata=_env("CITEGRAPH_GRAPH_URL"))
    chunk_bytes: int = field(default=DEFAULT_CHUNK_BYTES, metadata=_env("CITEGRAPH_CHUNK_BYTES"))
    fsync: str = field(default="everysec", metadata=_env("CITEGRAPH_FSYNC"))
    # None: the limit grows with what the store must load (at least 60 s).
    start_timeout_s: float | None = field(default=None, metadata=_env("CITEGRAPH_START_TIMEOUT"))
    # How long an idle embedded server is kept for the next command; 0 stops it at once.
    store_linger_s: float = field(default=300.0, metadata=_env("CITEGRAPH_STORE_LINGER"))
    # None: at least 60 s, more for a large embedded store, whose indexes are rebuilt after a
    # start while it already answers.
    index_timeout_s: float | None = field(default=None, metadata=_env("CITEGRAPH_INDEX_TIMEOUT"))
    extract: bool = field(default=True, metadata=_env("CITEGRAPH_EXTRACT"))
    # A TOML file of negation and modality cues added to the default table (docs/extraction.md).
    cues_file: Path | None = field(default=None, metadata=_env("CITEGRAPH_CUES_FILE"))
    embed_model: str | None = field(default=None, metadata=_env("CITEGRAPH_EMBED_MODEL"))
    query_timeout_s: float = field(default=300.0, metadata=_env("CITEGRAPH_QUERY_TIMEOUT"))
    restart_delay_s: float = field(default=1.0, metadata=_env("CITEGRAPH_RESTART_DELAY"))
    # Ingest staging leases (store/leases.py): their time to live, renewed while the writer
    # runs, and the machine's name on them (None: the host name).
    lease_ttl_s: float = field(default=30.0, metadata=_env("CITEGRAPH_LEASE_TTL"))
    host_id: str | None = field(default=None, metadata=_env("CITEGRAPH_HOST_ID"))
    # PDFs are read in a child process within these limits (ingest/pdf_guard.py).
    pdf_memory_mb: int = field(default=1024, metadata=_env("CITEGRAPH_PDF_MEMORY_MB"))
    pdf_timeout_s: int = field(default=120, metadata=_env("CITEGRAPH_PDF_TIMEOUT"))
    pdf_max_pages: int = field(default=5000, metadata=_env("CITEGRAPH_PDF_MAX_PAGES"))
    # A chat model at an OpenAI-compatible endpoint; None: the offline extractive answerer.
    chat_model: str | None = field(default=None, metadata=_env("CITEGRAPH_CHAT_MODEL"))
    chat_base_url: str | None = field(default=None, metadata=_env("CITEGRAPH_CHAT_BASE_URL"))
    chat_api_key: str | None = field(
        default=None, repr=False, metadata=_env("CITEGRAPH_CHAT_API_KEY")
    )
    chat_timeout_s: float = field(default=60.0, metadata=_env("CITEGRAPH_CHAT_TIMEOUT"))
    # The HTTP service (citegraph serve). None: <home>/tokens.json.
    tokens_file: Path | None = field(default=None, metadata=_env("CITEGRAPH_TOKENS_FILE"))
    max_body_bytes: int = field(default=10 * 1024 * 1024, metadata=_env("CITEGRAPH_MAX_BODY_BYTES"))
    max_question_chars: int = field(
        default=DEFAULT_MAX_QUESTION_CHARS, metadata=_env("CITEGRAPH_MAX_QUESTION_CHARS")
    )
    request_timeout_s: float = field(default=60.0, metadata=_env("CITEGRAPH_REQUEST_TIMEOUT"))
    # Questions about the graph answered by model-written Cypher (experimental, off).
    text2cypher: bool = field(default=False, metadata=_env("CITEGRAPH_TEXT2CYPHER"))
    graph_query_timeout_ms: int = field(
        default=DEFAULT_GRAPH_QUERY_TIMEOUT_MS, metadata=_env("CITEGRAPH_GRAPH_QUERY_TIMEOUT_MS")
    )
    graph_query_max_rows: int = field(
        default=DEFAULT_GRAPH_QUERY_ROWS, metadata=_env("CITEGRAPH_GRAPH_QUERY_MAX_ROWS")
    )

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
        if min(self.pdf_memory_mb, self.pdf_timeout_s, self.pdf_max_pages) < 1:
            raise ConfigError("the PDF limits (memory, time, pages) must be at least 1")
        if self.chat_timeout_s <= 0:
            raise ConfigError("the chat timeout must be positive")
        rows_ok = 1 <= self.graph_query_max_rows <= MAX_GRAPH_QUERY_ROWS
        if self.graph_query_timeout_ms < 1 or not rows_ok:
            raise ConfigError(
                "the graph query timeout must be at least 1 ms and its row limit between 1 and "
                f"{MAX_GRAPH_QUERY_ROWS}"
            )


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
        cues_file=Path(env["CITEGRAPH_CUES_FILE"]).expanduser()
        if env.get("CITEGRAPH_CUES_FILE")
        else None,
        embed_model=env.get("CITEGRAPH_EMBED_MODEL") or None,
        query_timeout_s=_number(env, "CITEGRAPH_QUERY_TIMEOUT", 300.0, float, "a number"),
        restart_delay_s=_number(env, "CITEGRAPH_RESTART_DELAY", 1.0, float, "a number"),
        lease_ttl_s=_number(env, "CITEGRAPH_LEASE_TTL", 30.0, float, "a number of seconds"),
        host_id=env.get("CITEGRAPH_HOST_ID") or None,
        pdf_memory_mb=_number(env, "CITEGRAPH_PDF_MEMORY_MB", 1024, int, "a whole number"),
        pdf_timeout_s=_number(env, "CITEGRAPH_PDF_TIMEOUT", 120, int, "a whole number"),
        pdf_max_pages=_number(env, "CITEGRAPH_PDF_MAX_PAGES", 5000, int, "a whole number"),
        chat_model=env.get("CITEGRAPH_CHAT_MODEL") or None,
        chat_base_url=env.get("CITEGRAPH_CHAT_BASE_URL") or None,
        chat_api_key=env.get("CITEGRAPH_CHAT_API_KEY") or None,
        chat_timeout_s=_number(env, "CITEGRAPH_CHAT_TIMEOUT", 60.0, float, "a number"),
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
        text2cypher=_switch(env, "CITEGRAPH_TEXT2CYPHER", False),
        graph_query_timeout_ms=_number(
            env,
            "CITEGRAPH_GRAPH_QUERY_TIMEOUT_MS",
            DEFAULT_GRAPH_QUERY_TIMEOUT_MS,
            int,
            "a whole number of milliseconds",
        ),
        graph_query_max_rows=_number(
            env, "CITEGRAPH_GRAPH_QUERY_MAX_ROWS", DEFAULT_GRAPH_QUERY_ROWS, int, "a whole number"
        ),
    )
