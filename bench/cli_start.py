"""How long a command takes to start, against `python -c pass` measured in the same run.

Times (best of --repeat runs, whole processes): `python -c pass`, `citegraph --help`,
`citegraph --version`, and `citegraph docs` cold (no server running: it starts the embedded
FalkorDB and loads the store) and warm (the server kept from the previous command by the
linger time), on a small store and on a large one (50 MB of text by default, written by one
`citegraph ingest`; pass --large-home to reuse a store built before).

    python bench/cli_start.py [--large-mb 50] [--large-home PATH] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from open import write_corpus

ROOT = Path(__file__).resolve().parent.parent
CITEGRAPH = str(Path(sys.executable).parent / "citegraph")


def timed(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])} failed: {done.stderr.strip()}")
    return elapsed


def best(
    command: list[str], env: dict[str, str], repeat: int, before: list[str] | None = None
) -> float:
    timings = []
    for _ in range(repeat):
        if before is not None:
            timed(before, env)
        timings.append(timed(command, env))
    return min(timings)


def store_rows(label: str, home: Path, env: dict[str, str], repeat: int) -> list[tuple[str, float]]:
    docs = [CITEGRAPH, "docs", "--home", str(home), "--scope", "bench", "--json"]
    stop = [CITEGRAPH, "stop", "--home", str(home)]
    cold = best(docs, env, repeat, before=stop)
    # Leave the server warm, and idle: after a cold start it rebuilds its indexes in the
    # background, and a question waits for that to end.
    timed([CITEGRAPH, "context", "harbour tide", "--home", str(home), "--scope", "bench"], env)
    warm = best(docs, env, repeat)
    timed(stop, env)
    return [(f"citegraph docs, cold, {label}", cold), (f"citegraph docs, warm, {label}", warm)]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--large-mb", type=float, default=50)
    parser.add_argument("--large-home", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITEGRAPH_")}
    rows: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="citegraph-start-") as tmp:
        work = Path(tmp)
        rows.append(("python -c pass", best([sys.executable, "-c", "pass"], env, args.repeat)))
        rows.append(("citegraph --help", best([CITEGRAPH, "--help"], env, args.repeat)))
        rows.append(("citegraph --version", best([CITEGRAPH, "--version"], env, args.repeat)))
        small = work / "small"
        sample = ROOT / "src" / "citegraph" / "sample_corpus"
        timed([CITEGRAPH, "ingest", str(sample), "--home", str(small), "--scope", "bench"], env)
        rows += store_rows("small store", small, env, args.repeat)
        large = args.large_home
        if large is None:
            large = work / "large"
            files = write_corpus(work / "text", args.large_mb, args.datasets)
            print(f"building a {args.large_mb:g} MB store ...", file=sys.stderr, flush=True)
            folder = str(files[0].parent)
            timed([CITEGRAPH, "ingest", folder, "--home", str(large), "--scope", "bench"], env)
        rows += store_rows(f"{args.large_mb:g} MB store", large, env, args.repeat)
    baseline = rows[0][1]
    width = max(len(name) for name, _ in rows)
    for name, seconds in rows:
        print(f"{name:<{width}}  {seconds:6.3f} s  {seconds / baseline:7.1f}x python -c pass")


if __name__ == "__main__":
    main()
