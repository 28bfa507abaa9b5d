"""The embedded FalkorDB: one server per home, shared, stopped cleanly, never doubled."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import citegraph

from helpers import alive, dead_pid, falkordb_on_port, free_port, python, spawn, wait_until

OPEN_AND_REPORT = """
import faulthandler, signal, sys, citegraph
faulthandler.register(signal.SIGUSR1)  # a process that hangs can be asked where
# A shell that starts the suite in the background leaves SIGINT ignored, and children
# inherit that: the tests stop these processes with SIGINT, so it must interrupt them.
signal.signal(signal.SIGINT, signal.default_int_handler)
ws = citegraph.open(sys.argv[1])
print(ws.server_pid(), flush=True)
if len(sys.argv) > 2 and sys.argv[2] == "ingest":
    ws.scope("shared").ingest(b"written by the second process", name="second.txt")
if len(sys.argv) > 2 and sys.argv[2] == "hang":
    import time; time.sleep(600)
if len(sys.argv) > 2 and sys.argv[2] == "no-close":
    sys.exit(0)
ws.close()
"""


def test_close_stops_the_server_and_removes_its_socket(tmp_path: Path) -> None:
    ws = citegraph.open(tmp_path)
    pid = ws.server_pid()
    assert pid is not None and alive(pid)
    sock = tmp_path / "run" / "falkordb.sock"
    assert sock.exists()
    ws.close()
    assert not alive(pid)
    assert not sock.exists()
    assert not (tmp_path / "run" / "server.json").exists()


def test_data_survives_a_restart(tmp_path: Path) -> None:
    with citegraph.open(tmp_path) as ws:
        ws.scope("keep").ingest(b"durable text", name="d.txt")
    with citegraph.open(tmp_path) as ws:
        assert ws.scope("keep").stored_text("d.txt") == b"durable text"


def test_interpreter_exit_stops_the_server(tmp_path: Path) -> None:
    done = python(OPEN_AND_REPORT, str(tmp_path), "no-close")
    assert done.returncode == 0, done.stderr
    pid = int(done.stdout.split()[0])
    assert not alive(pid)


def test_a_second_process_shares_the_running_server(tmp_path: Path) -> None:
    with citegraph.open(tmp_path) as ws:
        pid = ws.server_pid()
        done = python(OPEN_AND_REPORT, str(tmp_path), "ingest")
        assert done.returncode == 0, done.stderr
        assert int(done.stdout.split()[0]) == pid
        assert pid is not None and alive(pid), "the second process must not stop a shared server"
        assert ws.scope("shared").stored_text("second.txt") == b"written by the second process"
    assert not alive(pid)


def test_processes_starting_together_get_one_server(tmp_path: Path) -> None:
    procs = [spawn(OPEN_AND_REPORT, str(tmp_path), "hang") for _ in range(4)]
    try:
        pids = {int(p.stdout.readline()) for p in procs if p.stdout}
        assert len(pids) == 1
        servers = subprocess.run(
            ["pgrep", "-f", f"redis-server.*{tmp_path}"], capture_output=True, text=True
        )
        assert len(servers.stdout.split()) == 1
    finally:
        for p in procs:
            p.send_signal(signal.SIGINT)
        for p in procs:
            _wait_or_say_where(p)
    wait_until(lambda: not alive(next(iter(pids))), what="the last process to stop the server")


def _wait_or_say_where(proc: subprocess.Popen[str]) -> None:
    """Wait for a process to exit; one that does not is made to print its threads' stacks
    (seen once in a full run: a process that did not finish closing in 30 s)."""
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGUSR1)
        time.sleep(1)
        proc.kill()
        _, stderr = proc.communicate()
        raise AssertionError(f"a process did not exit in 30 s; where it was:\n{stderr}") from None


def test_a_server_orphaned_by_kill_9_is_adopted_then_stopped(tmp_path: Path) -> None:
    proc = spawn(OPEN_AND_REPORT, str(tmp_path), "hang")
    assert proc.stdout is not None
    pid = int(proc.stdout.readline())
    proc.kill()
    proc.wait()
    assert alive(pid), "SIGKILL cannot run cleanup: the server is left running"
    ws = citegraph.open(tmp_path)
    assert ws.server_pid() == pid
    ws.scope("s").ingest(b"still works", name="a.txt")
    ws.close()
    assert not alive(pid)


def test_stale_socket_and_server_record_do_not_block_a_start(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir(parents=True)
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(run / "falkordb.sock"))
    stale.close()  # the file stays, nobody listens
    (run / "server.json").write_text(
        json.dumps({"pid": dead_pid(), "start": "1", "socket": str(run / "falkordb.sock")})
    )
    with citegraph.open(tmp_path) as ws:
        ws.scope("s").ingest(b"fine", name="a.txt")


def test_a_very_long_home_path_still_gets_a_socket(tmp_path: Path) -> None:
    home = tmp_path / ("deep-" * 25) / "home"
    with citegraph.open(home) as ws:
        ws.scope("s").ingest(b"fine", name="a.txt")
        assert ws.scope("s").stored_text("a.txt") == b"fine"


def test_a_server_that_cannot_start_is_reported_with_its_log(tmp_path: Path) -> None:
    manifest = tmp_path / "data" / "appendonlydir"
    manifest.mkdir(parents=True)
    (manifest / "appendonly.aof.manifest").write_text("this is not a manifest\n")
    with pytest.raises(citegraph.StoreUnavailable, match=r"falkordb\.log"):
        citegraph.open(tmp_path)


@pytest.fixture
def tcp_server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    proc = falkordb_on_port(port, tmp_path / "tcp-data")
    yield f"redis://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=30)


def test_a_falkordb_server_by_url_through_the_same_code(
    tcp_server: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with citegraph.open(url=tcp_server) as ws:
        assert not ws.embedded
        [result] = ws.scope("remote").ingest(b"over TCP", name="r.txt")
        assert ws.scope("remote").stored_text(result.document.id) == b"over TCP"
    monkeypatch.setenv("CITEGRAPH_GRAPH_URL", tcp_server)
    with citegraph.open(tmp_path / "unused") as ws:
        assert ws.scope("remote").document("r.txt").name == "r.txt"
    assert not (tmp_path / "unused").exists()


def test_an_unreachable_url_is_an_error_not_an_empty_store() -> None:
    with pytest.raises(citegraph.StoreUnavailable):
        citegraph.open(url="redis://127.0.0.1:1")


def test_scope_listing(tmp_path: Path) -> None:
    with citegraph.open(tmp_path) as ws:
        ws.scope("b").ingest(b"x", name="x.txt")
        ws.scope("a").ingest(b"y", name="y.txt")
        assert ws.scopes() == ["a", "b"]
        ws.drop_scope("a")
        assert ws.scopes() == ["b"]


SHOW_WHERE = "import citegraph; ws = citegraph.open(); print(ws.where); ws.close()"


def test_home_from_the_environment(tmp_path: Path) -> None:
    env = dict(os.environ, CITEGRAPH_HOME=str(tmp_path / "envhome"))
    result = subprocess.run(
        [sys.executable, "-c", SHOW_WHERE],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(tmp_path / "envhome")


def test_a_join_cut_short_while_starting_the_server_stops_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A SIGTERM (turned into SystemExit) that lands after the server is started and recorded
    but before the join returns: the server started is stopped, not left running with no
    client registered and no keeper (the CLI's SIGTERM test hit this window under load)."""
    from citegraph.store.embedded import EmbeddedServer

    started: list[int] = []
    original = EmbeddedServer._find_or_start

    def cut_short(self: EmbeddedServer) -> object:
        info = original(self)
        started.append(info.pid)
        raise SystemExit(128 + signal.SIGTERM)

    monkeypatch.setattr(EmbeddedServer, "_find_or_start", cut_short)
    server = EmbeddedServer(tmp_path / "home")
    with pytest.raises(SystemExit):
        server.begin_join()
    assert started and not alive(started[0])
    assert list((tmp_path / "home" / "run" / "clients").iterdir()) == []


def test_sigterm_to_the_cli_stops_its_server(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"Line of a long file that takes a while to ingest.\n" * 600_000)
    home = tmp_path / "home"
    cli = Path(sys.executable).parent / "citegraph"
    proc = subprocess.Popen(
        [str(cli), "ingest", str(big), "--home", str(home)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    record = home / "run" / "server.json"
    wait_until(record.exists, what="the CLI's server to start")
    pid = json.loads(record.read_text())["pid"]
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 128 + signal.SIGTERM
    assert not alive(pid)
