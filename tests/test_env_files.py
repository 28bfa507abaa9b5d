"""Settings a compose service takes from env files (`.env` beside the compose file, and the
files its `env_file` names), read as calls quoted at the env file's line, with the service
bound in the compose file; at the size users have: three projects and a megabyte of prose in
one scope, each ingested by its own `citegraph ingest`, then an env file changed by another."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import citegraph
from citegraph import Scope
from citegraph.ingest.sources import expand

from conftest import dataset
from helpers import CITEGRAPH, env_with

COMPOSE = b"""services:
  web:
    image: shop/web:1.0
    env_file: config/payments.env
    environment:
      - CART_ADDR
      - PAGE_SIZE
      - QUEUE_ADDR
      - LEDGER_ADDR
      - LEDGER_ENABLED
      - OTEL_EXPORTER_OTLP_ENDPOINT=http://${COLLECTOR_HOST}:4317
  worker:
    image: shop/worker:1.0
    environment:
      CART_ADDR:
      STOCK_ADDR: ${STOCK_ADDR}
      RATES_ADDR: ${RATES_ADDR:-rates:9000}
  cart:
    image: shop/cart:1.0
"""

ENV = b"""# what compose takes for the services' unset settings
CART_PORT=7070
CART_ADDR=cart:${CART_PORT}
STOCK_ADDR="http://stock:8080"   # quoted, a comment after it
COLLECTOR_HOST=otel-collector
PAGE_SIZE=50
UNUSED_ADDR=ghost:9999
RATES_ADDR=other-rates:9000
DB_PASSWORD=hunter2
QUEUE_HOST=queue
QUEUE_ADDR=${QUEUE_HOST}:${QUEUE_PORT:-5672}
LEDGER_ADDR=ledger:9000
LEDGER_ENABLED=false
"""

PAYMENTS = b"PAYMENT_ADDR=payment:50051\nRETRIES=3\n"


def _calls(scope: Scope) -> set[tuple[str, str, str, str | None]]:
    return {
        (r.source, r.target, r.quote or "", r.document)
        for r in scope.relations(limit=100_000)
        if r.type == "calls"
    }


def _assert_located(scope: Scope) -> None:
    """Every call's quote is its env file's stored bytes at its span."""
    for r in scope.relations(limit=100_000):
        if r.type == "calls":
            assert r.document_id is not None and r.start_byte is not None
            stored = scope.stored_text(r.document_id)[r.start_byte : r.end_byte]
            assert stored.decode() == r.quote


def test_a_compose_service_takes_its_unset_settings_from_env_files(scope: Scope) -> None:
    """`- CART_ADDR`, `CART_ADDR:` and `${STOCK_ADDR}` take the `.env` beside the compose
    file's value; a reference inside a value takes the setting it names; `env_file` takes
    every setting of its file; a setting of the env file that names its host by another
    (`${QUEUE_HOST}:5672`) is quoted where that one is. A default the compose file states
    is its own (`rates`, not the env file's `other-rates`); a setting no service takes, or
    that is no address, calls nothing; a call whose feature the service's flag turns off is
    hypothetical."""
    scope.ingest(COMPOSE, name="shop/compose.yaml")
    scope.ingest(ENV, name="shop/.env")
    scope.ingest(PAYMENTS, name="shop/config/payments.env")
    assert scope.documents()[0].media_type == "text/x-dotenv"
    assert _calls(scope) == {
        ("web", "cart", "CART_ADDR=cart:${CART_PORT}", "shop/.env"),
        ("web", "otel-collector", "COLLECTOR_HOST=otel-collector", "shop/.env"),
        ("web", "payment", "PAYMENT_ADDR=payment:50051", "shop/config/payments.env"),
        ("web", "queue", "QUEUE_HOST=queue", "shop/.env"),
        ("web", "ledger", "LEDGER_ADDR=ledger:9000", "shop/.env"),
        ("worker", "cart", "CART_ADDR=cart:${CART_PORT}", "shop/.env"),
        ("worker", "stock", 'STOCK_ADDR="http://stock:8080"', "shop/.env"),
        ("worker", "rates", "RATES_ADDR: ${RATES_ADDR:-rates:9000}", "shop/compose.yaml"),
    }
    _assert_located(scope)
    # The feature the service turns off in the env file (LEDGER_ENABLED=false): its call is
    # made only in another configuration.
    modality = {(r.source, r.target): r.modality for r in scope.relations() if not r.weak}
    assert modality[("web", "ledger")] == "hypothetical"
    assert modality[("web", "cart")] == "actual"


def test_an_env_file_is_read_when_it_comes_and_again_when_it_changes(scope: Scope) -> None:
    """In either order of ingest; another project's `.env` is not this compose file's; a
    changed `.env` replaces the calls it stated, a deleted one takes them along."""
    scope.ingest(ENV, name="shop/.env")
    scope.ingest(ENV.replace(b"cart:", b"elsewhere:"), name="other/.env")
    assert _calls(scope) == set()
    scope.ingest(COMPOSE, name="shop/compose.yaml")
    assert ("web", "cart", "CART_ADDR=cart:${CART_PORT}", "shop/.env") in _calls(scope)
    assert not any(target == "elsewhere" for _, target, _, _ in _calls(scope))

    scope.ingest(ENV.replace(b"CART_ADDR=cart:", b"CART_ADDR=basket:"), name="shop/.env")
    targets = {(source, target) for source, target, _, _ in _calls(scope)}
    assert {("web", "basket"), ("worker", "basket")} <= targets
    assert not {("web", "cart"), ("worker", "cart")} & targets
    _assert_located(scope)

    scope.delete_document("shop/.env")
    assert {target for _, target, _, _ in _calls(scope)} == {"rates"}


def test_a_folders_env_file_is_ingested_only_when_asked(tmp_path: Path) -> None:
    """Env files often hold secrets: a folder's (`.env`, `prod.env`) are skipped unless asked
    for (`--env-files`); other hidden files stay skipped either way."""
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "compose.yaml").write_bytes(COMPOSE)
    (tmp_path / "shop" / ".env").write_bytes(ENV)
    (tmp_path / "shop" / ".secrets.yaml").write_bytes(b"TOKEN: x\n")
    (tmp_path / "shop" / "prod.env").write_bytes(b"DATABASE_URL=postgres://admin:pw@db:5432/app\n")
    names = lambda files: sorted(f.name for f in files)  # noqa: E731
    assert names(expand([tmp_path / "shop"])[0]) == ["shop/compose.yaml"]
    assert names(expand([tmp_path / "shop"], env_files=True)[0]) == [
        "shop/.env",
        "shop/compose.yaml",
        "shop/prod.env",
    ]
    # The command says what it left out, and how to read it.
    home = tmp_path / "home"
    done = subprocess.run(
        [CITEGRAPH, "ingest", str(tmp_path / "shop"), "--home", str(home)],
        capture_output=True, text=True, timeout=120, env=env_with(), check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stderr.split())
    assert "skipped 2 env file(s)" in said and "--env-files" in said


def test_env_files_of_three_projects_among_a_megabyte_of_prose(tmp_path: Path) -> None:
    """Each project's folder ingested by its own command with `--env-files`, the prose by
    another: each project's services call its own hosts, quoted in its own `.env`; then one
    `.env` changed and ingested again by a command."""
    root, home = tmp_path / "corpus", tmp_path / "home"
    for project in ("alpha", "beta", "gamma"):
        folder = root / project
        (folder / "config").mkdir(parents=True)
        (folder / "compose.yaml").write_bytes(COMPOSE)
        (folder / ".env").write_bytes(ENV.replace(b"cart:", f"{project}-cart:".encode()))
        (folder / "config" / "payments.env").write_bytes(PAYMENTS)
    prose = root / "notes"
    prose.mkdir()
    alice = dataset("alice/pg11_alice_body.txt").read_bytes()
    for n in range(7):
        (prose / f"alice-{n}.txt").write_bytes(alice.replace(b"Alice", f"Alice{n}".encode()))

    def ingest(*paths: Path) -> None:
        done = subprocess.run(
            [CITEGRAPH, "ingest", *map(str, paths), "--env-files", "--scope", "ops", "--home",
             str(home), "--json"],
            capture_output=True, text=True, timeout=300, env=env_with(), check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr

    ingest(prose)
    for project in ("alpha", "beta", "gamma"):
        ingest(root / project)
    with citegraph.open(home) as ws:
        scope = ws.scope("ops")
        assert sum(d.size_bytes for d in scope.documents()) > 1_000_000
        carts = {(s, t, d) for s, t, _, d in _calls(scope) if t.endswith("cart")}
        assert carts == {
            (service, f"{p}-cart", f"{p}/.env") for p in ("alpha", "beta", "gamma")
            for service in ("web", "worker")
        }  # fmt: skip
        _assert_located(scope)

    (root / "beta" / ".env").write_bytes(ENV.replace(b"cart:", b"beta-basket:"))
    ingest(root / "beta")
    listed = subprocess.run(
        [CITEGRAPH, "relations", "--scope", "ops", "--home", str(home), "--type", "calls",
         "--json"],
        capture_output=True, text=True, timeout=120, env=env_with(), check=False,
    )  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    pairs = {(r["target"], r["document"]) for r in json.loads(listed.stdout)["relations"]}
    assert ("beta-basket", "beta/.env") in pairs
    assert ("beta-cart", "beta/.env") not in pairs
    assert ("alpha-cart", "alpha/.env") in pairs


def test_what_compose_would_take_is_what_is_read(scope: Scope) -> None:
    """A key written twice counts as its last line; `./.env` is the same file as `.env` (its
    flag applies whichever way it is named); a health check's flag turns off no call."""
    compose = b"""services:
  agent:
    image: shop/agent
    env_file: ./.env
    environment:
      - MCP_ADDR
      - CART_ADDR
      - SPRING_REDIS_HOST
      - MANAGEMENT_HEALTH_REDIS_ENABLED
"""
    env = (
        b"CART_ADDR=old-cart:1\nCART_ADDR=cart:7070\nMCP_ADDR=mcp:8080\nMCP_ENABLED=false\n"
        b"SPRING_REDIS_HOST=redis\nMANAGEMENT_HEALTH_REDIS_ENABLED=false\n"
    )
    scope.ingest(compose, name="agent/compose.yaml")
    scope.ingest(env, name="agent/.env")
    edges = {(r.source, r.target, r.modality) for r in scope.relations() if not r.weak}
    assert edges == {
        ("agent", "cart", "actual"),
        ("agent", "mcp", "hypothetical"),
        ("agent", "redis", "actual"),
    }
    _assert_located(scope)
