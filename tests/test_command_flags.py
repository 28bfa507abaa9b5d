"""An address passed as a command-line flag (a compose service's `command`, a container's
`args`) states a call, as the same address in an environment setting does: Cortex's compose
file gives `-frontend.scheduler-address=query-scheduler:9011` on the command line."""

from __future__ import annotations

from citegraph import Scope

COMPOSE = (
    b"services:\n"
    b"  query-frontend:\n"
    b'    command: ["sh", "-c", "exec ./cortex -target=query-frontend'
    b' -server.http-listen-port=8012 -frontend.scheduler-address=query-scheduler:9011"]\n'
    b"  querier:\n"
    b"    command:\n"
    b"      - -target=querier\n"
    b"      - -querier.scheduler-address=query-scheduler:9011\n"
    b"      - -querier.frontend-address=\n"
    b"      - --store.address\n"
    b"      - store-gateway:10901\n"
    b"      - --log.format=logfmt\n"
    b"  query-scheduler:\n"
    b"    command: -target=query-scheduler -server.grpc-address=query-scheduler:9011\n"
)

DEPLOYMENT = (
    b"apiVersion: apps/v1\n"
    b"kind: Deployment\n"
    b"metadata:\n"
    b"  name: thanos-query\n"
    b"spec:\n"
    b"  template:\n"
    b"    spec:\n"
    b"      containers:\n"
    b"        - name: query\n"
    b"          args:\n"
    b"            - query\n"
    b"            - --grpc.endpoint=thanos-store.monitoring.svc:10901\n"
    b"            - --query.replica-label=replica\n"
)


def _calls(scope: Scope) -> set[tuple[str, str]]:
    return {(r.source, r.target) for r in scope.relations() if r.type == "calls" and not r.weak}


def test_an_address_flag_on_a_command_line_is_a_call(scope: Scope) -> None:
    scope.ingest(COMPOSE, name="docker-compose.yml")
    # Flags naming no address (-target, --log.format), an empty one and the service's own
    # address state nothing.
    assert _calls(scope) == {
        ("query-frontend", "query-scheduler"),
        ("querier", "query-scheduler"),
        ("querier", "store-gateway"),
    }
    for r in scope.relations(relation_type="calls"):  # the flag and its value, as stored
        assert r.quote is not None and r.quote.lstrip().startswith("-")
        assert r.target in r.quote
        assert r.document_id is not None and r.start_byte is not None and r.end_byte is not None
        stored = scope.stored_text(r.document_id)[r.start_byte : r.end_byte]
        assert stored.decode() == r.quote


def test_a_containers_args_state_the_workloads_calls(scope: Scope) -> None:
    scope.ingest(DEPLOYMENT, name="query.yaml")
    assert _calls(scope) == {("thanos-query", "thanos-store")}
