"""Bearer tokens: which scopes a token opens, with which rights. Only hashes are stored.

A token is 32 random bytes, so a plain SHA-256 of it is as good as a slow password hash and
costs nothing per request. The file is JSON, written atomically with mode 0600; a server reads
it again when it changes, so `citegraph token revoke` takes effect without a restart.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import secrets
import tempfile
import threading
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path

from ..errors import ConfigError, UsageError
from ..workspace import validate_scope_name

TOKEN_PREFIX = "cg_"


class Right(StrEnum):
    READ = "read"  # context, answers, checks, listing documents
    WRITE = "write"  # remember, upload, delete


@dataclass(frozen=True)
class TokenRecord:
    id: str  # the first 12 hex digits of the hash: safe to show, enough to revoke
    hash: str
    scopes: tuple[str, ...]
    rights: tuple[str, ...]
    label: str
    created: str

    def allows(self, scope: str, right: Right) -> bool:
        return scope in self.scopes and right.value in self.rights


def parse_rights(raw: str | Iterable[str]) -> tuple[str, ...]:
    parts = raw.split(",") if isinstance(raw, str) else list(raw)
    rights: list[str] = []
    for part in (p.strip().lower() for p in parts):
        if part not in {r.value for r in Right}:
            raise UsageError(f"unknown right {part!r}: use read, write or read,write")
        if part not in rights:
            rights.append(part)
    if not rights:
        raise UsageError("a token needs at least one right (read, write)")
    return tuple(sorted(rights))


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class TokenFile:
    """The tokens file; safe to share between threads of one server."""

    def __init__(self, path: Path):
        self.path = path
        self._lock = threading.Lock()
        self._seen: tuple[int, int, int] | None = None
        self._records: tuple[TokenRecord, ...] = ()

    # -- reading ----------------------------------------------------------------------------

    def records(self) -> tuple[TokenRecord, ...]:
        with self._lock:
            try:
                stat = self.path.stat()
            except FileNotFoundError:
                self._seen, self._records = None, ()
                return ()
            seen = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
            if seen != self._seen:
                self._records = self._load()
                self._seen = seen
            return self._records

    def _load(self) -> tuple[TokenRecord, ...]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            return tuple(
                TokenRecord(
                    id=str(t["id"]),
                    hash=str(t["hash"]),
                    scopes=tuple(str(s) for s in t["scopes"]),
                    rights=tuple(str(r) for r in t["rights"]),
                    label=str(t.get("label", "")),
                    created=str(t.get("created", "")),
                )
                for t in raw["tokens"]
            )
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ConfigError(f"the tokens file {self.path} cannot be read: {exc}") from None

    def find(self, token: str) -> TokenRecord | None:
        """The record for a presented token. Every record is compared, in constant time, so
        neither timing nor the position of a match says anything about other tokens."""
        presented = _digest(token)
        match: TokenRecord | None = None
        for record in self.records():
            if hmac.compare_digest(presented, record.hash):
                match = record
        return match

    # -- writing ----------------------------------------------------------------------------

    def create(self, scopes: Iterable[str], rights: Iterable[str] | str, label: str = "") -> str:
        """Add a token; return it. It is shown this once: only its hash is kept."""
        names = tuple(dict.fromkeys(validate_scope_name(s) for s in scopes))
        if not names:
            raise UsageError("a token needs at least one scope (--scope)")
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        digest = _digest(token)
        record = TokenRecord(
            id=digest[:12],
            hash=digest,
            scopes=names,
            rights=parse_rights(rights),
            label=label,
            created=datetime.now(UTC).isoformat(timespec="seconds"),
        )
        with self._editing() as records:
            self._write((*records, record))
        return token

    def revoke(self, token_id: str) -> TokenRecord:
        with self._editing() as records:
            matches = [r for r in records if token_id and token_id in (r.id, r.hash)]
            if not matches:
                raise UsageError(f"no token with id {token_id!r} (see `citegraph token list`)")
            self._write(tuple(r for r in records if r not in matches))
        return matches[0]

    @contextlib.contextmanager
    def _editing(self) -> Iterator[tuple[TokenRecord, ...]]:
        """The records as they are on disk, under a lock that other processes editing the
        file also take: two edits at once must not lose one (a revoke above all)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock_path = self.path.with_name(self.path.name + ".lock")
        with open(lock_path, "a+") as lock, self._lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield self._load() if self.path.exists() else ()
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _write(self, records: tuple[TokenRecord, ...]) -> None:
        body = json.dumps({"tokens": [asdict(r) for r in records]}, indent=2)
        fd, temp = tempfile.mkstemp(dir=self.path.parent, prefix=".tokens-")
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(body)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
        self._seen = None  # read it again next time (the caller holds self._lock)
