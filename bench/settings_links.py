"""What linking settings across files costs as a project's manifests grow.

Writes N synthetic Deployment manifests (40 env settings each) that all take one ConfigMap
of 20 service addresses, defined in a file of its own, and ingests them as one folder into
a fresh embedded store; then ingests one more manifest, as a user adding a service would.
Prints the ingest times, the time the linking pass took in each (it reads every manifest
that defines or takes a map, and replaces every link in one store query), and the calls
stored. With no linking at all the same ingest is timed as the baseline, in the same run.

    python bench/settings_links.py [--manifests 300]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from typing import Any

import citegraph
from citegraph.extract import settings_links


def _workload(i: int) -> bytes:
    env = "".join(f'        - name: VAR_{k}\n          value: "v{k}"\n' for k in range(40))
    return (
        f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: svc{i}\nspec:\n"
        f"  template:\n    spec:\n      containers:\n      - name: svc{i}\n"
        f"        image: shop/svc{i}:1.0\n        env:\n{env}"
        "        envFrom:\n        - configMapRef:\n            name: service-api-config\n"
    ).encode()


CONFIG = (
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: service-api-config\ndata:\n"
    + "".join(f'  S{k}_ADDR: "svc{k}:80"\n' for k in range(20))
).encode()


def _run(manifests: int, link: bool) -> dict[str, float]:
    spent = {"link_s": 0.0}
    original = settings_links.link_settings

    def timed(*args: Any, **kwargs: Any) -> int | None:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs) if link else 0
        finally:
            spent["link_s"] += time.perf_counter() - started

    settings_links.link_settings = timed
    try:
        with tempfile.TemporaryDirectory() as home, citegraph.open(home) as ws:
            scope = ws.scope("bench")
            docs = [(f"k8s/svc{i}.yaml", _workload(i)) for i in range(manifests)]
            docs.append(("k8s/config.yaml", CONFIG))
            started = time.perf_counter()
            list(scope.ingest_many(docs))
            folder_s, folder_link = time.perf_counter() - started, spent["link_s"]
            spent["link_s"] = 0.0
            started = time.perf_counter()
            scope.ingest(_workload(manifests), name="k8s/one-more.yaml")
            one_s = time.perf_counter() - started
            calls = sum(1 for r in scope.relations(limit=1_000_000) if r.type == "calls")
    finally:
        settings_links.link_settings = original
    return {
        "folder_s": folder_s, "folder_link_s": folder_link, "one_more_s": one_s,
        "one_more_link_s": spent["link_s"], "calls": calls,
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--manifests", type=int, default=300)
    args = parser.parse_args()
    os.environ["CITEGRAPH_STORE_LINGER"] = "0"
    base = _run(args.manifests, link=False)
    linked = _run(args.manifests, link=True)
    print(f"{args.manifests} manifests taking one map of 20 addresses, plus the map's file")
    print(f"{'':28} {'no linking':>11} {'linking':>9} {'of which linking':>17}")
    print(
        f"{'folder ingest (s)':28} {base['folder_s']:>11.2f} {linked['folder_s']:>9.2f} "
        f"{linked['folder_link_s']:>17.2f}"
    )
    print(
        f"{'one more manifest (s)':28} {base['one_more_s']:>11.2f} {linked['one_more_s']:>9.2f} "
        f"{linked['one_more_link_s']:>17.2f}"
    )
    print(f"calls stored: {base['calls']} without linking, {linked['calls']} with it")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
