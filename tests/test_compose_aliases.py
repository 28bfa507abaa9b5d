"""A compose service's other names (`hostname`, `container_name`, network `aliases`) are the
names the other services reach it by: each is an `alias-of` relation to the service, quoted
from its key to the name, so a call addressed to the other name reaches the service."""

from __future__ import annotations

from citegraph import Scope

COMPOSE = (
    b"services:\n"
    b"  ui:\n"
    b"    environment:\n"
    b"      - RETAIL_UI_ENDPOINTS_CARTS=http://carts:8080\n"
    b"  cart:\n"
    b"    build:\n"
    b"      context: .\n"
    b"    hostname: carts\n"
    b"    networks:\n"
    b"      shop:\n"
    b"        aliases:\n"
    b"          - basket\n"
    b"  cart-db:\n"
    b'    container_name: "reddog-sql"\n'
    b"  orders:\n"
    b"    hostname: orders\n"
    b"    container_name: ${ORDERS_CONTAINER}\n"
)


def test_the_other_names_of_a_compose_service_are_its_aliases(scope: Scope) -> None:
    scope.ingest(COMPOSE, name="docker-compose.yml")
    aliases = [r for r in scope.relations() if r.type == "alias-of"]
    assert {(r.source, r.target) for r in aliases} == {
        ("carts", "cart"), ("basket", "cart"), ("reddog-sql", "cart-db")
    }  # fmt: skip
    for r in aliases:  # quoted from the service's key to the name, as stored
        assert r.quote is not None and r.quote.startswith(f"{r.target}:")
        assert r.quote.endswith(r.source) or r.quote.endswith(f'{r.source}"')
        assert r.document_id is not None and r.start_byte is not None and r.end_byte is not None
        stored = scope.stored_text(r.document_id)[r.start_byte : r.end_byte]
        assert stored.decode() == r.quote


def test_a_call_to_another_name_of_a_service_reaches_the_service(scope: Scope) -> None:
    scope.ingest(COMPOSE, name="docker-compose.yml")
    found = scope.impact("cart")
    assert found.status == "ok", found
    assert "ui" in {a.entity.name for a in found.affected}


def test_a_name_too_far_below_the_key_is_not_quoted_with_it(scope: Scope) -> None:
    filler = b"".join(b"      - SETTING_%d=value-%d\n" % (i, i) for i in range(40))
    scope.ingest(
        b"services:\n  cart:\n    environment:\n" + filler + b"    hostname: carts\n",
        name="docker-compose.yml",
    )
    assert not [r for r in scope.relations() if r.type == "alias-of"]
