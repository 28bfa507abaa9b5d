"""Load on a real `citegraph serve` over loopback: N clients asking `context` while one more
uploads documents and another loads the web UI's page and files. Prints requests per second,
p50, p95 and the error count (which must be 0),
then checks that every upload the server acknowledged is stored byte for byte.

The SQuAD dev-16 paragraphs are uploaded first (one document each); the clients ask SQuAD's
questions. Baselines, measured in the same run: the same questions through the workspace API
in-process, and through HTTP one at a time.

    python bench/service_load.py [--clients 8] [--seconds 60] [--workers 1]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

import citegraph
from citegraph.surfaces.http import TokenFile

import squad

ROOT = Path(__file__).resolve().parent.parent
SCOPE = "squad"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def start_server(home: Path, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [str(Path(sys.executable).parent / "citegraph"), "serve", "--home", str(home)]
    command += ["--port", str(port), "--workers", str(workers)]
    proc = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/v1/health", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("citegraph serve did not come up")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--baseline-questions", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1, help="citegraph serve --workers")
    args = parser.parse_args()
    try:
        paragraphs, loaded = squad.load(args.datasets)
    except FileNotFoundError as exc:
        print(exc)
        return 1
    questions = [q.text for q in loaded]

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        token = TokenFile(home / "tokens.json").create([SCOPE], "read,write", "bench")
        headers = {"Authorization": f"Bearer {token}"}
        proc, url = start_server(home, args.workers)
        try:
            with httpx.Client(base_url=url, headers=headers, timeout=120) as http:
                started = time.perf_counter()
                for i in range(0, len(paragraphs), 50):
                    files = [
                        ("file", (name.replace("/", "-") + ".txt", text, "text/plain"))
                        for name, text, _ in paragraphs[i : i + 50]
                    ]
                    http.post(
                        "/v1/documents", data={"scope": SCOPE}, files=files
                    ).raise_for_status()
                print(
                    f"uploaded {len(paragraphs)} SQuAD paragraphs in "
                    f"{time.perf_counter() - started:.1f}s"
                )
                baseline = questions[:: max(1, len(questions) // args.baseline_questions)]
                for q in baseline[:20]:  # warm-up
                    http.post("/v1/memory/context", json={"scope": SCOPE, "question": q})
                http_one: list[float] = []
                for q in baseline:
                    t0 = time.perf_counter()
                    http.post(
                        "/v1/memory/context", json={"scope": SCOPE, "question": q}
                    ).raise_for_status()
                    http_one.append((time.perf_counter() - t0) * 1000)
            in_process: list[float] = []
            with citegraph.open(home) as ws:  # shares the server's embedded store
                scope = ws.scope(SCOPE)
                for q in baseline[:20]:
                    scope.context(q)
                for q in baseline:
                    t0 = time.perf_counter()
                    scope.context(q)
                    in_process.append((time.perf_counter() - t0) * 1000)

            latencies: list[float] = []
            errors: list[str] = []
            acknowledged: dict[str, bytes] = {}
            lock = threading.Lock()
            stop = threading.Event()

            def asker(offset: int) -> None:
                with httpx.Client(base_url=url, headers=headers, timeout=120) as client:
                    n = offset
                    while not stop.is_set():
                        q = questions[n % len(questions)]
                        n += args.clients
                        t0 = time.perf_counter()
                        try:
                            reply = client.post(
                                "/v1/memory/context", json={"scope": SCOPE, "question": q}
                            )
                            ok = reply.status_code == 200 and reply.json()["ok"] is True
                            problem = "" if ok else f"{reply.status_code} {reply.text[:200]}"
                        except httpx.HTTPError as exc:
                            problem = repr(exc)
                        with lock:
                            latencies.append((time.perf_counter() - t0) * 1000)
                            if problem:
                                errors.append(problem)

            def uploader() -> None:
                with httpx.Client(base_url=url, headers=headers, timeout=120) as client:
                    n = 0
                    while not stop.is_set():
                        name = f"load-{n:05d}.txt"
                        body = (
                            f"Load note {n}. The harbour wall was inspected on day {n}; "
                            f"its gauge read {n * 7 % 113} centimetres.\n"
                        ).encode() * (1 + n % 40)
                        n += 1
                        try:
                            reply = client.post(
                                "/v1/documents",
                                data={"scope": SCOPE},
                                files=[("file", (name, body, "text/plain"))],
                            )
                            if reply.status_code == 200:
                                acknowledged[name] = body
                            else:
                                errors.append(f"upload {reply.status_code} {reply.text[:200]}")
                        except httpx.HTTPError as exc:
                            errors.append(f"upload {exc!r}")

            pages: list[float] = []

            def page_reader() -> None:
                # The web UI while the others query: its page and files (no token), as a
                # browser loads them.
                with httpx.Client(base_url=url, timeout=120) as client:
                    while not stop.is_set():
                        t0 = time.perf_counter()
                        try:
                            for path in ("/", "/ui/app.js", "/ui/app.css"):
                                reply = client.get(path)
                                if reply.status_code != 200:
                                    errors.append(f"page {path} {reply.status_code}")
                        except httpx.HTTPError as exc:
                            errors.append(f"page {exc!r}")
                        with lock:
                            pages.append((time.perf_counter() - t0) * 1000)
                        time.sleep(0.2)

            threads = [threading.Thread(target=asker, args=(i,)) for i in range(args.clients)]
            threads.append(threading.Thread(target=uploader))
            threads.append(threading.Thread(target=page_reader))
            began = time.perf_counter()
            for t in threads:
                t.start()
            time.sleep(args.seconds)
            stop.set()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - began
        finally:
            proc.terminate()
            proc.wait(60)

        with citegraph.open(home) as ws:
            scope = ws.scope(SCOPE)
            missing = [
                name for name, body in acknowledged.items() if scope.stored_text(name) != body
            ]

    p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
    base50 = statistics.median(in_process)
    print(f"in-process context, one at a time: p50 {base50:.1f} ms, "
          f"p95 {percentile(in_process, 95):.1f} ms ({len(in_process)} questions)")  # fmt: skip
    print(f"HTTP context, one at a time:       p50 {statistics.median(http_one):.1f} ms, "
          f"p95 {percentile(http_one, 95):.1f} ms "
          f"({statistics.median(http_one) / base50:.2f}x in-process)")  # fmt: skip
    print(
        f"load: {args.clients} clients asking + 1 uploading for {elapsed:.0f}s, "
        f"{args.workers} server process(es)"
    )
    print(f"  context: {len(latencies)} requests, {len(latencies) / elapsed:.1f} req/s, "
          f"p50 {p50:.1f} ms, p95 {p95:.1f} ms ({p50 / base50:.1f}x in-process p50)")  # fmt: skip
    if pages:
        p50_page, p95_page = percentile(pages, 50), percentile(pages, 95)
        print(f"  web UI page and files (3 requests): {len(pages)} loads, "
              f"p50 {p50_page:.1f} ms, p95 {p95_page:.1f} ms")  # fmt: skip
    print(f"  uploads acknowledged: {len(acknowledged)}; stored byte for byte: "
          f"{len(acknowledged) - len(missing)}")  # fmt: skip
    print(f"  errors: {len(errors)}")
    for problem in errors[:5]:
        print(f"    {problem}")
    return 0 if not errors and not missing else 1


if __name__ == "__main__":
    sys.exit(main())
