"""Settings maps one file defines and workloads in other files take, linked at the size users
have: three projects in one scope (each with a ConfigMap of the same name), their manifests
and a megabyte of prose, each file ingested by its own `citegraph ingest`, four at a time, in
an order that mixes maps and workloads; then one of the files replaced and one deleted by
more commands."""

from __future__ import annotations

import json
import random
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import citegraph
from citegraph import Scope

from conftest import dataset
from helpers import CITEGRAPH, env_with, python

PROJECTS = ("alpha", "beta", "gamma")
SERVICES = ("ledger", "balances", "history")


def _config(project: str) -> bytes:
    settings = (
        "".join(f'  {s.upper()}_API_ADDR: "{project}-{s}:8080"\n' for s in SERVICES)
        + '  PAGE_SIZE: "100"\n'
    )
    return (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: service-api-config\ndata:\n" + settings
    ).encode()


def _workload(name: str, takes: bool) -> bytes:
    env_from = (
        "        envFrom:\n        - configMapRef:\n            name: service-api-config\n"
        if takes
        else ""
    )
    return (
        f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n"
        f"  template:\n    spec:\n      containers:\n      - name: {name}\n"
        f"        image: shop/{name}:1.0\n" + env_from
    ).encode()


def _write_corpus(root: Path) -> list[Path]:
    files: list[Path] = []
    for project in PROJECTS:
        folder = root / project / "k8s"
        folder.mkdir(parents=True)
        (folder / "config.yaml").write_bytes(_config(project))
        files.append(folder / "config.yaml")
        for name, takes in ((f"{project}-web", True), (f"{project}-worker", True),
                            (f"{project}-db", False)):  # fmt: skip
            (folder / f"{name}.yaml").write_bytes(_workload(name, takes))
            files.append(folder / f"{name}.yaml")
    alice = dataset("alice/pg11_alice_body.txt").read_bytes()
    prose = root / "notes"
    prose.mkdir()
    for n in range(7):  # about a megabyte of text beside the configuration
        (prose / f"alice-{n}.txt").write_bytes(alice.replace(b"Alice", f"Alice{n}".encode()))
        files.append(prose / f"alice-{n}.txt")
    return files


# One process per file, named by its path under the corpus root (as a folder ingest names
# it; the command line names a file given alone by its file name, and the three projects'
# config.yaml would be one document).
INGEST = """
import sys
from pathlib import Path
import citegraph
with citegraph.open(sys.argv[1]) as ws:
    [result] = ws.scope("ops").ingest(Path(sys.argv[2]).read_bytes(), name=sys.argv[3])
    print(result.status.value)
"""


def _ingest(home: Path, root: Path, path: Path) -> subprocess.CompletedProcess[str]:
    return python(INGEST, str(home), str(path), str(path.relative_to(root)), timeout=300)


def _calls(scope: Scope) -> list[tuple[str, str, str, str | None]]:
    return sorted(
        (r.source, r.target, r.quote or "", r.document)
        for r in scope.relations(limit=100_000)
        if r.type == "calls"
    )


def test_links_across_files_ingested_by_concurrent_commands(tmp_path: Path) -> None:
    root, home = tmp_path / "corpus", tmp_path / "home"
    files = _write_corpus(root)
    random.Random(7).shuffle(files)
    with ThreadPoolExecutor(4) as pool:
        done = list(pool.map(lambda p: _ingest(home, root, p), files))
    assert all(r.returncode == 0 for r in done), [r.stderr for r in done if r.returncode]

    with citegraph.open(home) as ws:
        scope = ws.scope("ops")
        assert sum(d.size_bytes for d in scope.documents()) > 1_000_000
        calls = _calls(scope)
        # Each project's web and worker call its own three services, quoted in its own
        # config.yaml; the database takes nothing; no call is stored twice.
        expected = sorted(
            (f"{p}-{w}", f"{p}-{s}", f'{s.upper()}_API_ADDR: "{p}-{s}:8080"',
             f"{p}/k8s/config.yaml")
            for p in PROJECTS
            for w in ("web", "worker")
            for s in SERVICES
        )  # fmt: skip
        assert calls == expected
        for r in scope.relations(limit=100_000):
            if r.type == "calls":
                assert r.document_id is not None and r.start_byte is not None
                stored = scope.stored_text(r.document_id)[r.start_byte : r.end_byte]
                assert stored.decode() == r.quote

    # A new version of beta's config (another host), then alpha's worker deleted: by commands.
    changed = root / "beta" / "k8s" / "config.yaml"
    changed.write_bytes(_config("beta").replace(b"beta-ledger", b"beta-ledger-v2"))
    assert _ingest(home, root, changed).returncode == 0
    gone = subprocess.run(
        [CITEGRAPH, "delete", "alpha/k8s/alpha-worker.yaml", "--scope", "ops", "--home",
         str(home)],
        capture_output=True, text=True, timeout=120, env=env_with(), check=False,
    )  # fmt: skip
    assert gone.returncode == 0, gone.stderr
    with citegraph.open(home) as ws:
        calls = _calls(ws.scope("ops"))
    sources_targets = {(a, b) for a, b, _, _ in calls}
    assert ("beta-web", "beta-ledger-v2") in sources_targets
    assert ("beta-web", "beta-ledger") not in sources_targets
    assert not any(a == "alpha-worker" for a, _ in sources_targets)
    assert len(calls) == len(expected) - 3


# -- what a review of the linking found (each seen wrong before it was mended) ---------------

CFG = (
    b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n"
    b'data:\n  LEDGER_ADDR: "ledger:8080"\n'
)


def _deployment(name: str, containers: int = 1, namespace: str | None = None) -> bytes:
    said = f"  namespace: {namespace}\n" if namespace else ""
    body = "".join(
        f"      - name: c{i}\n        envFrom:\n        - configMapRef:\n            name: cfg\n"
        for i in range(containers)
    )
    return (
        f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n{said}spec:\n"
        f"  template:\n    spec:\n      containers:\n{body}"
    ).encode()


def test_an_audit_verdict_on_a_link_outlives_later_linking(scope: Scope) -> None:
    scope.ingest(CFG, name="k8s/cfg.yaml")
    scope.ingest(_deployment("web"), name="k8s/web.yaml")
    [sample] = scope.audit_sample(10)
    assert (sample.source, sample.target) == ("web", "ledger")
    assert scope.record_audit([(sample.id, "right")]) == 1
    # Another manifest taking the map links again: the audited link is kept as it is.
    scope.ingest(_deployment("api"), name="k8s/api.yaml")
    assert scope.audit_summary().audited == 1
    assert [(s.source, s.target) for s in scope.audit_sample(10)] == [("api", "ledger")]


def test_a_map_taken_by_two_containers_states_each_call_once(scope: Scope) -> None:
    scope.ingest(CFG, name="k8s/cfg.yaml")
    scope.ingest(_deployment("web", containers=2), name="k8s/web.yaml")
    scope.ingest(CFG + b"---\n" + _deployment("api", containers=3), name="other/all.yaml")
    assert sorted((r.source, r.target, r.document) for r in scope.relations() if not r.weak) == [
        ("api", "ledger", "other/all.yaml"),
        ("web", "ledger", "k8s/cfg.yaml"),
    ]


def test_a_workload_takes_the_map_of_its_own_namespace(scope: Scope) -> None:
    maps = b"".join(
        f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n  namespace: {ns}\ndata:\n"
        f'  LEDGER_ADDR: "ledger-{ns}:8080"\n---\n'.encode()
        for ns in ("prod", "staging")
    )
    scope.ingest(maps, name="k8s/maps.yaml")
    scope.ingest(_deployment("web", namespace="prod"), name="k8s/web.yaml")
    scope.ingest(_deployment("job"), name="k8s/job.yaml")  # no namespace: either may be meant
    assert [(r.source, r.target) for r in scope.relations() if not r.weak] == [
        ("web", "ledger-prod")
    ]


def test_json_manifests_name_their_owner_without_quotes(scope: Scope) -> None:
    config = {"kind": "ConfigMap", "metadata": {"name": "cfg"},
              "data": {"LEDGER_ADDR": "ledger:8080", "SELF_ADDR": "web:8080"}}  # fmt: skip
    container = {"name": "c", "envFrom": [{"configMapRef": {"name": "cfg"}}],
                 "env": [{"name": "DB_HOST", "value": "web"}]}  # fmt: skip
    workload = {"kind": "Deployment", "metadata": {"name": "web"},
                "spec": {"template": {"spec": {"containers": [container]}}}}  # fmt: skip
    scope.ingest(json.dumps(config, indent=2).encode(), name="k8s/cfg.json")
    scope.ingest(json.dumps(workload, indent=2).encode(), name="k8s/web.json")
    assert [(r.source, r.target) for r in scope.relations() if not r.weak] == [("web", "ledger")]
    assert scope.entities('"web"') == []


def test_what_is_not_an_address_states_no_call(scope: Scope) -> None:
    """A Secret's base64 `data`, a build argument or a label holding an image tag or a URL,
    an image-named setting, and a scheme before the host."""
    scope.ingest(
        b"apiVersion: v1\nkind: Secret\nmetadata:\n  name: cfg\n"
        b"data:\n  REDIS_ADDR: cmVkaXMtY2FydDo2Mzc5\n",
        name="k8s/secret.yaml",
    )
    scope.ingest(
        b"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n"
        b"    spec:\n      containers:\n      - name: c\n        envFrom:\n        - secretRef:\n"
        b'            name: cfg\n        args: ["--tag=release:20"]\n        env:\n'
        b"        - name: BASE_IMAGE\n          value: node:8080\n",
        name="k8s/web.yaml",
    )
    scope.ingest(
        b"services:\n  shop:\n    build:\n      args:\n        - BASE_IMAGE=node:18\n"
        b"    labels:\n      - traefik.http.services.shop.loadbalancer.server.url=http://proxy:80\n"
        b"    environment:\n      - DB_URL=jdbc:postgresql://postgresql:5432/db\n",
        name="compose.yaml",
    )
    relations = [r for r in scope.relations() if not r.weak]
    assert [(r.source, r.target) for r in relations] == [("shop", "postgresql")]
    [r] = relations
    assert r.quote == "DB_URL=jdbc:postgresql://postgresql:5432/db"
    rows = scope.graph.ro_query("MATCH ()-[r:RELATES]->() RETURN r.b_start_byte, r.b_end_byte")
    text = scope.stored_text("compose.yaml")
    [[start, end]] = rows
    assert text[start - 3 : end] == b"://postgresql"  # the host, not the scheme's word
